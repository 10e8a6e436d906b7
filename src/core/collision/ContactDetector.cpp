#include "core/collision/ContactDetector.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <variant>

#include "core/bodies/ShapeKind.h"
#include "core/collision/NarrowPhase.h"
#include "core/collision/ParticleCollisions.h"
#include "core/collision/SortAndSweep.h"
#include "core/constraints/Constraint.h"
#include "core/collision/CollidingModel.h"

namespace tinkerbox {
namespace {

// A rigid body's collision shape in its shape frame: a sphere about the frame's origin, or
// a polyhedron (a box centred on the origin, or a convex hull).
struct Collider {
    Shape shape;  // what it was built from
    bool sphere = false;
    bool box = false;
    double radius = 0.0;
    Vec3 halfSize = Vec3::Zero();
    Polyhedron polyhedron;
};

// How two colliders meet, by their geometries (Box2D's and MuJoCo's register of shape pairs):
// one test per pair of geometries, the manifold's normal from the first to the second. A new
// geometry is a row and a column of this table.
enum Geometry { kSphere, kPolyhedron, kGeometries };

Geometry geometryOf(const Collider& c) { return c.sphere ? kSphere : kPolyhedron; }

using Collide = bool (*)(const Collider& a, const Pose& poseA, const Collider& b, const Pose& poseB, double margin,
                         SeparatingAxisCache& axis, ContactManifold& out);
struct PairTest {
    Collide collide;
    bool keepsAxis;  // it reads and updates the pair's separating axis, kept between detections
};

bool sphereSphere(const Collider& a, const Pose& poseA, const Collider& b, const Pose& poseB, double margin,
                  SeparatingAxisCache&, ContactManifold& out) {
    return collideSpheres(poseA.translation, a.radius, poseB.translation, b.radius, margin, out);
}

bool spherePolyhedron(const Collider& a, const Pose& poseA, const Collider& b, const Pose& poseB, double margin,
                      SeparatingAxisCache&, ContactManifold& out) {
    return collideSpherePolyhedron(poseA.translation, a.radius, b.polyhedron, poseB, margin, out);
}

// Found from the sphere b to a: the normal turned round makes it from a to b.
bool polyhedronSphere(const Collider& a, const Pose& poseA, const Collider& b, const Pose& poseB, double margin,
                      SeparatingAxisCache& axis, ContactManifold& out) {
    const bool touching = spherePolyhedron(b, poseB, a, poseA, margin, axis, out);
    out.normal = -out.normal;
    return touching;
}

bool polyhedra(const Collider& a, const Pose& poseA, const Collider& b, const Pose& poseB, double margin,
               SeparatingAxisCache& axis, ContactManifold& out) {
    return collidePolyhedra(a.polyhedron, poseA, b.polyhedron, poseB, margin, axis, out);
}

constexpr PairTest kPairTests[kGeometries][kGeometries] = {
    {{sphereSphere, false}, {spherePolyhedron, false}},
    {{polyhedronSphere, false}, {polyhedra, true}},
};

// hull: the body's (RigidBodies::hull), for a shape that is one.
Collider makeCollider(const Shape& shape, const ConvexHull* hull) {
    Collider c;
    c.shape = shape;
    const ShapeSolid solid = shapeKind(shape).solid(shape, hull);
    switch (solid.geometry) {
        case ShapeSolid::Geometry::Ball:
            c.sphere = true;
            c.radius = solid.radius;
            break;
        case ShapeSolid::Geometry::Box:
            c.box = true;
            c.halfSize = solid.halfSize;
            c.polyhedron = boxPolyhedron(2.0 * solid.halfSize);
            break;
        case ShapeSolid::Geometry::Hull:
            if (!solid.hull) throw std::invalid_argument("a hull's collider needs the body's hull");
            c.polyhedron = hullPolyhedron(*solid.hull);
            break;
    }
    return c;
}

// The world box of a collider at a pose, enlarged by the margin on every side: a box's
// half extents turned are |R| times its own; a hull's box is that of its turned vertices.
Aabb worldBounds(const Collider& c, const Pose& pose, double margin) {
    const Vec3 enlarge = Vec3::Constant(margin);
    if (c.sphere || c.box) {
        const Vec3 half = c.sphere ? Vec3::Constant(c.radius) : Vec3(pose.rotation.cwiseAbs() * c.halfSize);
        return {pose.translation - half - enlarge, pose.translation + half + enlarge};
    }
    Aabb bounds{Vec3::Constant(std::numeric_limits<double>::infinity()),
                Vec3::Constant(-std::numeric_limits<double>::infinity())};
    for (const Vec3& v : c.polyhedron.vertices) {
        const Vec3 w = pose.apply(v);
        bounds.min = bounds.min.cwiseMin(w);
        bounds.max = bounds.max.cwiseMax(w);
    }
    return {bounds.min - enlarge, bounds.max + enlarge};
}

// At most four of a polyhedron's points touching a plane, keeping the most support:
// the deepest, the one farthest from it, the one making the largest triangle with those
// two, and the one adding the most area outside that triangle (areas measured in the
// plane, whose unit normal is n).
int reduceToFour(const std::vector<ContactPoint>& candidates, const Vec3& n, std::array<ContactPoint, 4>& out) {
    const int count = static_cast<int>(candidates.size());
    if (count <= 4) {
        std::copy(candidates.begin(), candidates.end(), out.begin());
        return count;
    }
    const auto position = [&](int i) -> const Vec3& { return candidates[i].position; };
    const auto area = [&](const Vec3& a, const Vec3& b, const Vec3& c) { return (b - a).cross(c - a).dot(n); };
    // The index maximizing score, the first of equals; `fallback` when no score is positive.
    const auto best = [&](int fallback, auto score) {
        int chosen = fallback;
        double top = 0.0;
        for (int i = 0; i < count; ++i) {
            const double s = score(i);
            if (s > top) {
                top = s;
                chosen = i;
            }
        }
        return chosen;
    };
    int deepest = 0;
    for (int i = 1; i < count; ++i)
        if (candidates[i].separation < candidates[deepest].separation) deepest = i;
    const int farthest = best(deepest, [&](int i) {
        const Vec3 d = position(i) - position(deepest);
        return (d - n.dot(d) * n).squaredNorm();
    });
    const int third =
        best(deepest, [&](int i) { return std::abs(area(position(deepest), position(farthest), position(i))); });
    std::array<int, 3> triangle{deepest, farthest, third};
    if (area(position(deepest), position(farthest), position(third)) < 0.0) std::swap(triangle[1], triangle[2]);
    // Outside an edge of the counter-clockwise triangle, a point makes a negative area with it.
    const int fourth = best(-1, [&](int i) {
        double outside = 0.0;
        for (int e = 0; e < 3; ++e)
            outside = std::max(outside, -area(position(triangle[e]), position(triangle[(e + 1) % 3]), position(i)));
        return outside;
    });
    // All the points on one spot or one line give fewer than four distinct ones.
    const std::array<int, 4> chosen{deepest, farthest, third, fourth};
    int kept = 0;
    for (std::size_t c = 0; c < chosen.size(); ++c)
        if (chosen[c] >= 0 && std::find(chosen.begin(), chosen.begin() + c, chosen[c]) == chosen.begin() + c)
            out[kept++] = candidates[chosen[c]];
    return kept;
}

using PairKey = std::pair<ColliderRef, ColliderRef>;

PairKey orderedPair(const ColliderRef& a, const ColliderRef& b) { return a < b ? PairKey{a, b} : PairKey{b, a}; }

ColliderRef colliderOf(const Anchor& anchor) {
    return {anchor.isRigid() ? ColliderKind::Rigid : ColliderKind::Particle, anchor.index()};
}

}  // namespace

struct ContactDetector::Cache {
    std::vector<Collider> colliders;  // per rigid body
    std::vector<char> shapeChanged;   // in this detect()
    std::vector<Pose> poses;
    std::vector<Aabb> bounds;
    SortAndSweep broadPhase;
    std::vector<SortAndSweep::Pair> bodyPairs, particlePairs;
    std::vector<Vec3> particlePositions;
    // The separating axes of the body pairs of the last broad phase, sorted by pair.
    std::vector<std::pair<SortAndSweep::Pair, SeparatingAxisCache>> axes, nextAxes;
    // The pairs of colliders a constraint joins (sorted, a < b), and the constraints they
    // were read from.
    std::vector<PairKey> joined;
    // The pairs of particles a constraint joins (a < b): they do not collide with each other either.
    std::vector<std::pair<Index, Index>> joinedParticles;
    std::uint64_t joinedRevision = 0;  // moves on whenever the constraints change
    ParticleCollisions particles;
    std::vector<const Constraint*> constraintsSeen;
    std::vector<ContactPoint> planePoints;

    // Rebuilds the shapes that changed; all of them, and forgets every pair, when the
    // number of bodies did.
    void updateColliders(const RigidBodies& bodies) {
        const std::size_t n = static_cast<std::size_t>(bodies.count());
        if (colliders.size() != n) {
            colliders.clear();
            axes.clear();
            for (Index k = 0; k < bodies.count(); ++k)
                colliders.push_back(makeCollider(bodies.spec(k).shape, bodies.hull(k)));
            shapeChanged.assign(n, 0);
            return;
        }
        for (std::size_t k = 0; k < n; ++k) {
            const Shape& shape = bodies.spec(static_cast<Index>(k)).shape;
            shapeChanged[k] = !(shape == colliders[k].shape);
            if (shapeChanged[k]) colliders[k] = makeCollider(shape, bodies.hull(static_cast<Index>(k)));
        }
    }

    void updateJoined(const CollidingModel& model) {
        const auto& constraints = model.constraints();
        const auto isSeen = [](const std::unique_ptr<Constraint>& c, const Constraint* seen) {
            return c.get() == seen;
        };
        const bool same = constraints.size() == constraintsSeen.size() &&
                          std::equal(constraints.begin(), constraints.end(), constraintsSeen.begin(), isSeen);
        if (same) return;
        ++joinedRevision;
        constraintsSeen.clear();
        joined.clear();
        joinedParticles.clear();
        for (const std::unique_ptr<Constraint>& constraint : constraints) {
            constraintsSeen.push_back(constraint.get());
            const std::vector<Anchor> anchors = constraint->anchors();
            for (std::size_t i = 0; i < anchors.size(); ++i)
                for (std::size_t j = i + 1; j < anchors.size(); ++j) {
                    const ColliderRef a = colliderOf(anchors[i]), b = colliderOf(anchors[j]);
                    if (a == b) continue;
                    if (anchors[i].isRigid() || anchors[j].isRigid()) joined.push_back(orderedPair(a, b));
                    else joinedParticles.emplace_back(std::min(a.index, b.index), std::max(a.index, b.index));
                }
        }
        std::sort(joined.begin(), joined.end());
        joined.erase(std::unique(joined.begin(), joined.end()), joined.end());
    }

    bool areJoined(const ColliderRef& a, const ColliderRef& b) const {
        return !joined.empty() && std::binary_search(joined.begin(), joined.end(), orderedPair(a, b));
    }

    // The cached axis of body pair `pair`, carried over from the last detect() while the
    // pair stayed in the broad phase and neither shape changed (`previous` walks the last
    // list, both lists being sorted).
    SeparatingAxisCache& axisOf(const SortAndSweep::Pair& pair, std::size_t& previous) {
        while (previous < axes.size() && axes[previous].first < pair) ++previous;
        SeparatingAxisCache cache;
        if (previous < axes.size() && axes[previous].first == pair && !shapeChanged[pair.first] &&
            !shapeChanged[pair.second])
            cache = axes[previous].second;
        nextAxes.emplace_back(pair, cache);
        return nextAxes.back().second;
    }
};

ContactDetector::ContactDetector(long maxContactPoints)
    : cache_(std::make_unique<Cache>()), maxContactPoints_(maxContactPoints) {}
ContactDetector::~ContactDetector() = default;
ContactDetector::ContactDetector(ContactDetector&&) noexcept = default;
ContactDetector& ContactDetector::operator=(ContactDetector&&) noexcept = default;

std::string ContactDetector::overflowMessage() const {
    std::ostringstream out;
    if (stats_.points > maxContactPoints_) out << "more than " << maxContactPoints_ << " contact points at once";
    else out << "more than " << SortAndSweep::kMaxPairs << " pairs of overlapping bounding boxes";
    out << " (bodies piled on one another)";
    return out.str();
}

void ContactDetector::detect(const CollidingModel& model, double margin, std::vector<ContactManifold>& out,
                             double particleThickness) {
    const ModelState& world = model.state();
    out.clear();
    stats_ = {};
    Cache& cache = *cache_;
    const RigidBodies& bodies = world.rigidBodies();
    const Index bodyCount = bodies.count();
    cache.updateColliders(bodies);
    cache.updateJoined(model);
    if (particleThickness > 0.0) {
        cache.particles.detect(model, particleThickness, margin, cache.joinedParticles, cache.joinedRevision, out);
        stats_.candidatePairs = cache.particles.candidatePairs();
    }
    stats_.points = static_cast<long>(out.size());  // a point each
    const auto finish = [&] {
        stats_.overflow = stats_.overflow || stats_.points > maxContactPoints_;
        stats_.manifolds = static_cast<long>(out.size());
    };
    // Stopped at a bound: the separating axes kept are those of a detection that was whole.
    const auto stopAtBound = [&] {
        cache.axes.clear();
        finish();
    };
    // Without rigid bodies there is nothing more to detect: particles meet planes in
    // World::resolveContacts, and a cloth of thousands of particles costs nothing here.
    if (bodyCount == 0) return finish();
    if (stats_.points > maxContactPoints_) return stopAtBound();

    // The shapes' poses (world = R shapePoint + worldPoint(k, 0)) and bounds, and the broad phase.
    cache.poses.resize(static_cast<std::size_t>(bodyCount));
    cache.bounds.resize(static_cast<std::size_t>(bodyCount));
    for (Index k = 0; k < bodyCount; ++k) {
        Pose& pose = cache.poses[k];
        pose.rotation = bodies.rotation(k);
        pose.translation = bodies.worldPoint(k, Vec3::Zero());
        cache.bounds[k] = worldBounds(cache.colliders[k], pose, margin);
    }
    stats_.overflow = !cache.broadPhase.update(cache.bounds, cache.bodyPairs);
    cache.particlePositions.resize(static_cast<std::size_t>(world.particleCount()));
    for (Index p = 0; p < world.particleCount(); ++p) cache.particlePositions[p] = world.position(p);
    stats_.overflow = !cache.broadPhase.pointsInBoxes(cache.particlePositions, cache.particlePairs) || stats_.overflow;
    stats_.candidatePairs += static_cast<long>(cache.bodyPairs.size() + cache.particlePairs.size());
    if (stats_.overflow) return stopAtBound();
    // Each manifold found is counted; past the bound the detection stops.
    const auto add = [&](const ContactManifold& m) {
        out.push_back(m);
        stats_.points += m.count;
        return stats_.points <= maxContactPoints_;
    };

    // In the order of (a, b): particles (a point against a body: a sphere of radius 0), then
    // each body against the bodies after it, then against the planes.
    ContactManifold manifold;
    for (const auto& [p, k] : cache.particlePairs) {
        const ColliderRef a{ColliderKind::Particle, p}, b{ColliderKind::Rigid, k};
        if ((world.isNailed(p) && bodies.isFixed(k)) || cache.areJoined(a, b)) continue;
        const Collider& body = cache.colliders[k];
        manifold = {};
        const Vec3& x = cache.particlePositions[p];
        const bool touching = body.sphere
                                  ? collideSpheres(x, 0.0, cache.poses[k].translation, body.radius, margin, manifold)
                                  : collideSpherePolyhedron(x, 0.0, body.polyhedron, cache.poses[k], margin, manifold);
        if (!touching) continue;
        manifold.a = a;
        manifold.b = b;
        if (!add(manifold)) return stopAtBound();
    }

    cache.nextAxes.clear();
    std::size_t previousAxis = 0, pair = 0;
    const std::vector<Plane>& planes = model.planes();
    for (Index i = 0; i < bodyCount; ++i) {
        const Collider& ci = cache.colliders[i];
        const Pose& poseI = cache.poses[i];
        const ColliderRef a{ColliderKind::Rigid, i};
        for (; pair < cache.bodyPairs.size() && cache.bodyPairs[pair].first == i; ++pair) {
            const Index j = cache.bodyPairs[pair].second;
            const ColliderRef b{ColliderKind::Rigid, j};
            if ((bodies.isFixed(i) && bodies.isFixed(j)) || cache.areJoined(a, b)) continue;
            const Collider& cj = cache.colliders[j];
            const Pose& poseJ = cache.poses[j];
            manifold = {};
            const PairTest& test = kPairTests[geometryOf(ci)][geometryOf(cj)];
            SeparatingAxisCache noAxis;
            SeparatingAxisCache& axis = test.keepsAxis ? cache.axisOf(cache.bodyPairs[pair], previousAxis) : noAxis;
            if (!test.collide(ci, poseI, cj, poseJ, margin, axis, manifold)) continue;
            manifold.a = a;
            manifold.b = b;
            if (!add(manifold)) return stopAtBound();
        }

        // A plane does not move: a fixed body on it needs no contact. The normal points from
        // the body to the plane, -plane.normal; a point's separation is its height above the
        // plane, and the point lies halfway between the body's surface and the plane.
        if (bodies.isFixed(i)) continue;
        const Aabb& box = cache.bounds[i];
        const Vec3 center = 0.5 * (box.min + box.max), half = 0.5 * (box.max - box.min);
        for (std::size_t q = 0; q < planes.size(); ++q) {
            const Plane& plane = planes[q];
            // Unless the enlarged box's lowest corner is below the plane, every point of the
            // shape is at least the margin above it (or the body's pose is not finite).
            if (!(plane.signedDistance(center) - half.dot(plane.normal.cwiseAbs()) < 0.0)) continue;
            manifold = {};
            manifold.a = a;
            manifold.b = {ColliderKind::Plane, static_cast<Index>(q)};
            manifold.normal = -plane.normal;
            if (ci.sphere) {
                const double separation = plane.signedDistance(poseI.translation) - ci.radius;
                if (!(separation < margin)) continue;
                manifold.points[0] = {poseI.translation - (ci.radius + 0.5 * separation) * plane.normal, separation, 0};
                manifold.count = 1;
            } else {
                cache.planePoints.clear();
                const std::vector<Vec3>& vertices = ci.polyhedron.vertices;
                for (std::size_t v = 0; v < vertices.size(); ++v) {
                    const Vec3 x = poseI.apply(vertices[v]);
                    const double separation = plane.signedDistance(x);
                    if (separation < margin)
                        cache.planePoints.push_back(
                            {x - 0.5 * separation * plane.normal, separation, static_cast<std::uint32_t>(v)});
                }
                if (cache.planePoints.empty()) continue;
                manifold.count = reduceToFour(cache.planePoints, plane.normal, manifold.points);
            }
            if (!add(manifold)) return stopAtBound();
        }
    }
    // Pairs that left the broad phase (or were not tested) drop their axes here.
    std::swap(cache.axes, cache.nextAxes);
    finish();
}

}  // namespace tinkerbox
