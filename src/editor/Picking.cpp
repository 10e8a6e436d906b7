#include "editor/Picking.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/bodies/ConvexHull.h"
#include "core/bodies/ShapeKind.h"
#include "core/constraints/ConstraintKind.h"
#include "core/constraints/Constraint.h"
#include "core/forces/Cloth.h"

namespace tinkerbox {

double distanceToRay(const Ray& ray, const Vec3& p, double* along) {
    const double t = (p - ray.origin).dot(ray.direction);
    if (along) *along = t;
    return (p - (ray.origin + t * ray.direction)).norm();
}

std::optional<Vec3> intersectPlane(const Ray& ray, const Vec3& point, const Vec3& normal) {
    const double denominator = ray.direction.dot(normal);
    if (std::abs(denominator) < 1e-12) return std::nullopt;
    const double t = (point - ray.origin).dot(normal) / denominator;
    return ray.origin + t * ray.direction;
}

double segmentDistanceToRay(const Ray& ray, const Vec3& a, const Vec3& b, double* along) {
    // Closest points of the line through the ray and the segment (clamped to the segment).
    const Vec3 u = ray.direction, v = b - a, w = ray.origin - a;
    const double uv = u.dot(v), vv = v.dot(v), uw = u.dot(w), vw = v.dot(w);
    const double denominator = vv - uv * uv;  // |u| = 1
    double s = denominator > 1e-12 ? (vw - uv * uw) / denominator : 0.0;
    s = std::clamp(s, 0.0, 1.0);
    const Vec3 onSegment = a + s * v;
    return distanceToRay(ray, onSegment, along);
}

namespace {

// Keeps the candidate closest to the ray, preferring the nearer one along it.
struct Best {
    std::optional<Index> index;
    double distance = std::numeric_limits<double>::infinity();
    double along = std::numeric_limits<double>::infinity();

    void offer(Index i, double d, double t, const PickTolerance& tolerance) {
        if (d > tolerance.at(t)) return;
        const double slack = 1e-3 * tolerance.at(t);
        if (d < distance - slack || (d <= distance + slack && t < along)) {
            index = i;
            distance = d;
            along = t;
        }
    }
};

}  // namespace

std::optional<Index> pickParticle(const Simulation& simulation, const Ray& ray, const PickTolerance& tolerance) {
    const World& s = simulation.world();
    Best best;
    for (Index i = 0; i < s.particleCount(); ++i) {
        double t;
        const double d = distanceToRay(ray, s.position(i), &t);
        best.offer(i, d, t, tolerance);
    }
    return best.index;
}

namespace {

// How far along the ray it meets the triangle abc, if it does (Moller & Trumbore, Fast,
// Minimum Storage Ray/Triangle Intersection, J. Graphics Tools 2(1), 1997).
std::optional<double> rayTriangle(const Ray& ray, const Vec3& a, const Vec3& b, const Vec3& c) {
    const Vec3 e1 = b - a, e2 = c - a;
    const Vec3 p = ray.direction.cross(e2);
    const double determinant = e1.dot(p);
    if (std::abs(determinant) < 1e-14 * e1.norm() * e2.norm()) return std::nullopt;  // parallel, or degenerate
    const Vec3 s = ray.origin - a;
    const double u = s.dot(p) / determinant;  // barycentric coordinate of b
    if (u < 0.0 || u > 1.0) return std::nullopt;
    const Vec3 q = s.cross(e1);
    const double v = ray.direction.dot(q) / determinant;  // of c
    if (v < 0.0 || u + v > 1.0) return std::nullopt;
    const double t = e2.dot(q) / determinant;
    if (t < 0.0) return std::nullopt;
    return t;
}

}  // namespace

std::optional<ParticleHit> pickCloth(const Scene& scene, const Simulation& simulation, const Ray& ray) {
    const World& s = simulation.world();
    std::optional<ParticleHit> best;
    for (const ClothSpec& c : scene.cloths) {
        if (c.firstParticle + c.particleCount() > s.particleCount()) continue;
        c.forEachTriangle([&](Index a, Index b, Index d) {
            const std::array<Index, 3> corner = {a, b, d};
            const std::optional<double> along =
                rayTriangle(ray, s.position(corner[0]), s.position(corner[1]), s.position(corner[2]));
            if (!along || (best && *along >= best->along)) return;
            const Vec3 point = ray.origin + *along * ray.direction;
            const auto nearer = [&](Index p, Index q) {
                return (s.position(p) - point).squaredNorm() < (s.position(q) - point).squaredNorm();
            };
            best = ParticleHit{*std::min_element(corner.begin(), corner.end(), nearer), *along};
        });
    }
    return best;
}

std::optional<ParticleHit> pickStrand(const Scene& scene, const Simulation& simulation, const Ray& ray,
                                      const PickTolerance& tolerance) {
    const World& s = simulation.world();
    Best best;
    for (const HairSpec& h : scene.hair) {
        if (h.firstParticle < 0 || h.firstParticle + h.particleCount() > s.particleCount()) continue;
        for (const StrandRun& run : h.runs())
            for (Index a = run.first; a + 1 < run.first + run.length; ++a) {
                double t;
                const double d = segmentDistanceToRay(ray, s.position(a), s.position(a + 1), &t);
                best.offer(a, d, t, tolerance);
            }
    }
    if (!best.index) return std::nullopt;
    const Index a = *best.index;
    return ParticleHit{distanceToRay(ray, s.position(a + 1)) < distanceToRay(ray, s.position(a)) ? a + 1 : a,
                       best.along};
}

std::optional<Index> pickParticleClothOrHair(const Scene& scene, const Simulation& simulation, const Ray& ray,
                                             const PickTolerance& tolerance) {
    if (const std::optional<Index> particle = pickParticle(simulation, ray, tolerance)) return particle;
    std::optional<ParticleHit> hit = pickCloth(scene, simulation, ray);
    if (const std::optional<ParticleHit> strand = pickStrand(scene, simulation, ray, tolerance);
        strand && (!hit || strand->along < hit->along))
        hit = strand;
    if (!hit) return std::nullopt;
    const std::optional<BodyHit> body = pickBody(simulation, ray);
    if (body && (body->point - ray.origin).dot(ray.direction) < hit->along) return std::nullopt;  // hidden
    return hit->particle;
}

std::optional<Index> pickSpring(const Simulation& simulation, const Ray& ray, const PickTolerance& tolerance) {
    const World& s = simulation.world();
    Best best;
    for (Index k = 0; k < s.springs().size(); ++k) {
        const DampedSpring& spring = s.springs()[k];
        double t;
        const double d = segmentDistanceToRay(ray, s.anchorPosition(spring.a), s.anchorPosition(spring.b), &t);
        best.offer(k, d, t, tolerance);
    }
    return best.index;
}

std::optional<Index> pickRod(const Simulation& simulation, const Ray& ray, const PickTolerance& tolerance) {
    const World& s = simulation.world();
    Best best;
    for (Index k = 0; k < static_cast<Index>(s.constraints().size()); ++k) {
        const ConstraintSpec spec = s.constraints()[k]->spec();
        if (constraintKind(spec).figure(spec).link != ConstraintFigure::Link::Rod) continue;
        forEachAnchorLink(spec, [&](const Anchor& a, const Anchor& b) {
            double t = 0.0;
            const double d = segmentDistanceToRay(ray, s.anchorPosition(a), s.anchorPosition(b), &t);
            best.offer(k, d, t, tolerance);
        });
    }
    return best.index;
}

namespace {
// Where the ray (in a body's shape frame) enters the shape: the distance along it and the
// shape's outward unit normal there (in the shape frame).
struct Entry {
    double along;
    Vec3 normal;
};
// Where the ray o + t d enters and leaves the ball of radius r about c, if it meets it.
std::optional<std::pair<double, double>> ballSpan(const Vec3& o, const Vec3& d, const Vec3& c, double r) {
    const Vec3 oc = o - c;
    const double b = oc.dot(d), disc = b * b - (oc.squaredNorm() - r * r);
    if (disc < 0.0) return std::nullopt;
    const double root = std::sqrt(disc);
    return std::pair{-b - root, -b + root};
}

std::optional<Entry> ballEntry(double radius, const Vec3& o, const Vec3& d) {
    const auto span = ballSpan(o, d, Vec3::Zero(), radius);
    if (!span || span->first < 0.0) return std::nullopt;
    return Entry{span->first, (o + span->first * d) / radius};
}

// Slabs (Kay and Kajiya, Ray Tracing Complex Scenes, SIGGRAPH 1986); the normal is the entering
// slab's (from inside the box, the face nearest the origin's).
std::optional<Entry> boxEntry(const Vec3& halfSize, const Vec3& o, const Vec3& d) {
    double near = 0.0, far = INFINITY;
    Vec3 normal = Vec3::Zero();
    for (Index k = 0; k < 3; ++k) {
        const double half = halfSize[k];
        if (std::abs(d[k]) < 1e-300) {
            if (std::abs(o[k]) > half) return std::nullopt;
            continue;
        }
        double t0 = (-half - o[k]) / d[k], t1 = (half - o[k]) / d[k];
        if (t0 > t1) std::swap(t0, t1);
        if (t0 > near) {
            near = t0;
            normal = Vec3::Zero();
            normal[k] = d[k] > 0.0 ? -1.0 : 1.0;
        }
        far = std::min(far, t1);
        if (near > far) return std::nullopt;
    }
    if (normal.isZero()) {
        Index k = 0;
        (o.cwiseAbs().cwiseQuotient(halfSize)).maxCoeff(&k);
        normal[k] = o[k] < 0.0 ? -1.0 : 1.0;
    }
    return Entry{near, normal};
}

// A convex hull: the ray clipped by its faces' planes (Cyrus and Beck, Generalized Two- and
// Three-Dimensional Clipping, Computers & Graphics 3(1), 1978), where it reaches the bounding
// sphere (about the centre of mass, of the given radius) at all.
std::optional<Entry> hullEntry(const ConvexHull& hull, const Vec3& centerOfMass, double boundRadius, const Vec3& o,
                               const Vec3& d) {
    const auto bound = ballSpan(o, d, centerOfMass, boundRadius);
    if (!bound || bound->second < 0.0) return std::nullopt;
    double near = 0.0, far = INFINITY, nearestFace = -INFINITY;
    Vec3 normal = Vec3::Zero(), inside = Vec3::Zero();  // inside: the face nearest an origin within the hull
    for (const auto& [a, bi, c] : hull.triangles) {
        const Vec3& p = hull.vertices[a];
        const Vec3 n = (hull.vertices[bi] - p).cross(hull.vertices[c] - p).normalized();
        const double height = n.dot(o - p), rate = n.dot(d);  // the origin's height above the face, its change along d
        if (height > nearestFace) {
            nearestFace = height;
            inside = n;
        }
        if (rate == 0.0) {
            if (height > 0.0) return std::nullopt;
            continue;
        }
        const double t = -height / rate;
        if (rate < 0.0) {
            if (t > near) {
                near = t;
                normal = n;
            }
        } else {
            far = std::min(far, t);
        }
        if (near > far) return std::nullopt;
    }
    return Entry{near, normal.isZero() ? inside : normal};
}

// By the shape's solid (ShapeKind.h); hull: the body's, for a shape that is one.
std::optional<Entry> rayEntry(const Shape& shape, const ConvexHull* hull, const Vec3& centerOfMass, const Vec3& o,
                              const Vec3& d) {
    const ShapeSolid solid = shapeKind(shape).solid(shape, hull);
    switch (solid.geometry) {
        case ShapeSolid::Geometry::Ball: return ballEntry(solid.radius, o, d);
        case ShapeSolid::Geometry::Box: return boxEntry(solid.halfSize, o, d);
        case ShapeSolid::Geometry::Hull:
            if (!solid.hull) return std::nullopt;
            return hullEntry(*solid.hull, centerOfMass, boundingRadius(shape, centerOfMass), o, d);
    }
    return std::nullopt;
}
}  // namespace

std::optional<BodyHit> rayHitsBody(const Simulation& simulation, const Ray& ray, Index body) {
    const RigidBodies& bodies = simulation.world().rigidBodies();
    const RigidBodySpec spec = bodies.currentSpec(body);
    const Quat toShape = spec.orientation.conjugate();
    const std::optional<Entry> entry = rayEntry(spec.shape, bodies.hull(body), bodies.centerOfMassInShapeFrame(body),
                                                toShape * (ray.origin - spec.position), toShape * ray.direction);
    if (!entry) return std::nullopt;
    return BodyHit{body, ray.origin + entry->along * ray.direction, spec.orientation * entry->normal};
}

std::optional<BodyHit> pickBody(const Simulation& simulation, const Ray& ray) {
    std::optional<BodyHit> best;
    double bestT = INFINITY;
    for (Index k = 0; k < simulation.world().rigidBodies().count(); ++k) {
        const std::optional<BodyHit> hit = rayHitsBody(simulation, ray, k);
        if (!hit) continue;
        const double along = (hit->point - ray.origin).dot(ray.direction);
        if (along < bestT) {
            bestT = along;
            best = hit;
        }
    }
    return best;
}

std::optional<Index> pickWire(const std::vector<Wire>& wires, const Ray& ray, const PickTolerance& tolerance) {
    Best best;
    for (Index k = 0; k < static_cast<Index>(wires.size()); ++k) {
        const Wire& w = wires[k];
        const auto hit = intersectPlane(ray, w.center, w.normal);
        if (!hit) continue;
        const double d = std::abs((*hit - w.center).norm() - w.radius);
        best.offer(k, d, (*hit - ray.origin).dot(ray.direction), tolerance);
    }
    return best.index;
}

}  // namespace tinkerbox
