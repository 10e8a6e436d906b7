// The narrow phase (core/collision/NarrowPhase.h): the separating axis test of two convex
// polyhedra, their clipped contact manifolds, and spheres and points against them.
#include "core/collision/NarrowPhase.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace tinkerbox {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Edges this close to parallel (|ea x eb| below it times |ea| |eb|) have no axis of their
// own: their cross product is rounding, and the face axes already cover them.
constexpr double kParallelEdges = 1e-6;
// An axis replaces a preferred one (a face of A over a face of B, a face over two edges)
// only when its separation is greater by this fraction of the other's magnitude plus
// kAbsolutePreference times the smaller shape's radius: nearly equal axes would otherwise
// alternate from step to step and the contact points with them.
constexpr double kRelativePreference = 0.05;
constexpr double kAbsolutePreference = 1e-3;
// Lengths that differ by less than this times the smaller shape's radius are equal when
// choosing which contact points to keep.
constexpr double kTie = 1e-9;
// A vertex of a clipped face this close to the line through its neighbours, times the
// smaller shape's radius, lies on that line (clipFaces).
constexpr double kStraight = 1e-5;

// Feature ids (ContactPoint::feature). The top two bits tell the kind of contact.
// Face contacts: each point is where two lines cross, each line an edge of the incident
// face's loop or a side of the reference face's loop (9 bits: bit 8 set for a side of the
// reference face, then its position in the loop, modulo 256): the line the clipped
// polygon arrives on (bits 0-8) and the one it leaves on (bits 9-17); then the incident
// face (bits 18-23) and the reference face (bits 24-29), modulo 64. Edge contacts: the
// edges of A (bits 0-14) and B (bits 15-29). Sphere contacts: what of the polyhedron is
// closest (bits 28-29: 0 the face the centre is inside of, 1 a face, 2 an edge, 3 a vertex)
// and its index (bits 0-27; an edge by its two vertices, 14 bits each).
constexpr std::uint32_t kFeatureFaceA = 0u << 30, kFeatureFaceB = 1u << 30, kFeatureEdges = 2u << 30,
                        kFeatureSphere = 3u << 30;
constexpr std::uint16_t kReferenceLine = 1u << 8;

std::uint32_t faceFeature(bool referenceIsB, int referenceFace, int incidentFace, std::uint16_t in, std::uint16_t out) {
    return (referenceIsB ? kFeatureFaceB : kFeatureFaceA) | (static_cast<std::uint32_t>(referenceFace) & 63u) << 24 |
           (static_cast<std::uint32_t>(incidentFace) & 63u) << 18 | static_cast<std::uint32_t>(out & 511u) << 9 |
           static_cast<std::uint32_t>(in & 511u);
}

// A vertex of the clipped incident polygon and the two lines that cross there.
struct ClipVertex {
    Vec3 point;
    std::uint16_t in, out;
};

// An edge of B in A's frame: a point, its direction, and its faces' normals negated (c, d)
// and d x c for the Gauss map test.
struct PlacedEdge {
    Vec3 point, direction, c, d, dxc;
    double length;
};

struct ContactCandidate {
    Vec3 position;
    double separation;
    std::uint32_t feature;
};

// Per-thread scratch, so that the hot path allocates nothing once it has grown: everything
// is expressed in A's shape frame.
struct Scratch {
    std::vector<Vec3> verticesB, normalsB;
    std::vector<PlacedEdge> edgesB;
    std::vector<double> offsetsB;
    std::vector<ClipVertex> polygon, clipped;
    std::vector<ContactCandidate> candidates;
};
thread_local Scratch scratch;

double minProjection(const std::vector<Vec3>& vertices, const Vec3& direction) {
    double lowest = kInfinity;
    for (const Vec3& v : vertices) lowest = std::min(lowest, direction.dot(v));
    return lowest;
}

double maxProjection(const std::vector<Vec3>& vertices, const Vec3& direction) {
    double highest = -kInfinity;
    for (const Vec3& v : vertices) highest = std::max(highest, direction.dot(v));
    return highest;
}

// Whether the arcs a-b and c-d of the Gauss map cross: then the edges whose adjacent face
// normals they join make a face of the Minkowski difference, and their cross product is a
// candidate axis; no other edge pair can separate more (Gregorius, "The Separating Axis
// Test between Convex Polyhedra", GDC 2013). c and d are B's normals negated; bxa = b x a
// and dxc = d x c.
bool isMinkowskiFace(const Vec3& a, const Vec3& b, const Vec3& bxa, const Vec3& c, const Vec3& d, const Vec3& dxc) {
    const double cba = c.dot(bxa), dba = d.dot(bxa);
    if (!(cba * dba < 0.0)) return false;  // most pairs stop here
    const double adc = a.dot(dxc), bdc = b.dot(dxc);
    return adc * bdc < 0.0 && cba * bdc > 0.0;
}

// The closest points of the segments p0-p1 and q0-q1 (Ericson, Real-Time Collision
// Detection, 2005, section 5.1.9): the parameters minimising |p(s) - q(t)|, s and t in [0, 1].
std::pair<Vec3, Vec3> closestPointsOfSegments(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1) {
    const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
    const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r), c = d1.dot(r), b = d1.dot(d2);
    const double denominator = a * e - b * b;  // >= 0, zero for parallel segments
    double s = denominator > 0.0 ? std::clamp((b * f - c * e) / denominator, 0.0, 1.0) : 0.0;
    double t = (b * s + f) / e;
    if (t < 0.0) {
        t = 0.0;
        s = std::clamp(-c / a, 0.0, 1.0);
    } else if (t > 1.0) {
        t = 1.0;
        s = std::clamp((b - c) / a, 0.0, 1.0);
    }
    return {p0 + s * d1, q0 + t * d2};
}

// A face's first side, from its first vertex to its second.
Vec3 referenceSide(const Vec3* vertices, const Polyhedron::Face& face) {
    return vertices[face.vertices[1]] - vertices[face.vertices[0]];
}

// Keeps at most four of the candidates: the deepest, the one farthest from it, the one
// making the largest triangle with those two, and the one adding most area outside that
// triangle, so that the points span the contact region (as Box2D's and Bullet's manifold
// reductions do). Candidates within `flat` of the deepest count as deepest too (a face
// resting flat on a face), and of those the first is the one farthest along u + v, u the
// reference face's first side and v = n x u: on the rectangle two boxes' faces make, a
// corner, the same one from step to step, never one of the points a side of one face adds
// where it crosses a side of the other nearly along it (a pile's boxes turned by a fraction
// of a milliradian). The other three then are the other corners, and a pile's warm starts
// carry over. Other ties go to the earliest candidate.
void reduceToFour(std::vector<ContactCandidate>& candidates, const Vec3& normal, const Vec3& side, double tie,
                  double flat) {
    const int count = static_cast<int>(candidates.size());
    if (count <= 4) return;
    auto position = [&](int i) -> const Vec3& { return candidates[i].position; };
    auto area = [&](int i, int j, int k) {
        return normal.dot((position(j) - position(i)).cross(position(k) - position(i)));
    };
    double deepest = kInfinity;
    for (const ContactCandidate& c : candidates) deepest = std::min(deepest, c.separation);
    const Vec3 u = side - normal.dot(side) * normal, diagonal = u + normal.cross(u);
    int first = -1;
    for (int i = 0; i < count; ++i)
        if (candidates[i].separation <= deepest + flat &&
            (first < 0 || diagonal.dot(position(i)) > diagonal.dot(position(first)) + tie))
            first = i;
    auto inPlaneDistance = [&](int i) {
        const Vec3 offset = position(i) - position(first);
        return (offset - normal.dot(offset) * normal).norm();
    };
    int second = first == 0 ? 1 : 0;
    for (int i = 0; i < count; ++i)
        if (inPlaneDistance(i) > inPlaneDistance(second) + tie) second = i;
    int third = -1;
    double largest = -1.0;
    for (int i = 0; i < count; ++i)
        if (i != first && i != second && std::abs(area(first, second, i)) > largest + tie * inPlaneDistance(second)) {
            largest = std::abs(area(first, second, i));
            third = i;
        }
    const double orientation = area(first, second, third) >= 0.0 ? 1.0 : -1.0;
    int fourth = -1;
    double mostOutside = 0.0;
    for (int i = 0; i < count; ++i) {
        if (i == first || i == second || i == third) continue;
        const double outside = std::min({orientation * area(first, second, i), orientation * area(second, third, i),
                                         orientation * area(third, first, i)});
        if (outside < mostOutside - tie * inPlaneDistance(second)) {
            mostOutside = outside;
            fourth = i;
        }
    }
    std::array<ContactCandidate, 4> kept{candidates[first], candidates[second], candidates[third]};
    if (fourth >= 0) kept[3] = candidates[fourth];
    candidates.assign(kept.begin(), kept.begin() + (fourth >= 0 ? 4 : 3));
}

// The separation along the cached axis, or -infinity when the cache names no axis of these
// shapes. relative is B's pose in A's frame.
double cachedSeparation(const SeparatingAxisCache& cache, const Polyhedron& a, const Polyhedron& b,
                        const Pose& relative) {
    if (a.isBox && b.isBox &&
        (cache.kind == SeparatingAxisCache::Kind::FaceA || cache.kind == SeparatingAxisCache::Kind::FaceB) &&
        cache.first >= 0 && cache.first < 6) {
        // A box's extent along an axis is sum |axis . e_k| half_k (as in searchBoxAxes).
        const int axis = cache.first / 2;
        const double side = cache.first % 2 ? 1.0 : -1.0;
        const Vec3 halfA = a.vertices[7], halfB = b.vertices[7];
        const Mat3& r = relative.rotation;
        if (cache.kind == SeparatingAxisCache::Kind::FaceA)
            return side * relative.translation[axis] - halfA[axis] - r.row(axis).cwiseAbs().dot(halfB);
        return -side * r.col(axis).dot(relative.translation) - halfB[axis] - r.col(axis).cwiseAbs().dot(halfA);
    }
    switch (cache.kind) {
        case SeparatingAxisCache::Kind::FaceA: {
            if (cache.first < 0 || cache.first >= static_cast<int>(a.faces.size())) return -kInfinity;
            const Polyhedron::Face& face = a.faces[cache.first];
            return minProjection(b.vertices, relative.rotation.transpose() * face.normal) +
                   face.normal.dot(relative.translation) - face.offset;
        }
        case SeparatingAxisCache::Kind::FaceB: {
            if (cache.first < 0 || cache.first >= static_cast<int>(b.faces.size())) return -kInfinity;
            const Polyhedron::Face& face = b.faces[cache.first];
            const Vec3 normal = relative.rotation * face.normal;
            return minProjection(a.vertices, normal) - normal.dot(relative.translation) - face.offset;
        }
        case SeparatingAxisCache::Kind::Edges: {
            if (cache.first < 0 || cache.first >= static_cast<int>(a.edges.size()) || cache.second < 0 ||
                cache.second >= static_cast<int>(b.edges.size()))
                return -kInfinity;
            const auto [a0, a1] = a.edges[cache.first];
            const auto [b0, b1] = b.edges[cache.second];
            const Vec3 edgeA = a.vertices[a1] - a.vertices[a0];
            const Vec3 edgeB = relative.rotation * (b.vertices[b1] - b.vertices[b0]);
            const Vec3 axis = edgeA.cross(edgeB);
            const double length = axis.norm();
            if (!(length > kParallelEdges * edgeA.norm() * edgeB.norm())) return -kInfinity;
            const Vec3 unit = axis / length;
            const Vec3 unitInB = relative.rotation.transpose() * unit;
            const double shift = unit.dot(relative.translation);
            const double lowA = minProjection(a.vertices, unit), highA = maxProjection(a.vertices, unit);
            const double lowB = minProjection(b.vertices, unitInB) + shift,
                         highB = maxProjection(b.vertices, unitInB) + shift;
            return std::max(lowB - highA, lowA - highB);
        }
        case SeparatingAxisCache::Kind::None: break;
    }
    return -kInfinity;
}

// Clips the incident face against the sides of the reference face (Sutherland-Hodgman) and
// writes the points below margin into scratch.candidates, in the frame of the vertices.
void clipFaces(const Vec3* referenceVertices, const Polyhedron::Face& reference, const Vec3& referenceNormal,
               double referenceOffset, const Vec3* incidentVertices, const std::vector<int>& incidentLoop,
               double margin, double straight, bool referenceIsB, int referenceFace, int incidentFace) {
    std::vector<ClipVertex>& polygon = scratch.polygon;
    std::vector<ClipVertex>& clipped = scratch.clipped;
    polygon.clear();
    const int incidentCount = static_cast<int>(incidentLoop.size());
    for (int i = 0; i < incidentCount; ++i)
        polygon.push_back({incidentVertices[incidentLoop[i]],
                           static_cast<std::uint16_t>(((i + incidentCount - 1) % incidentCount) & 255),
                           static_cast<std::uint16_t>(i & 255)});
    const int referenceCount = static_cast<int>(reference.vertices.size());
    for (int k = 0; k < referenceCount && !polygon.empty(); ++k) {
        const Vec3& from = referenceVertices[reference.vertices[k]];
        const Vec3& to = referenceVertices[reference.vertices[(k + 1) % referenceCount]];
        const Vec3 outward = (to - from).cross(referenceNormal);  // the loop is counter-clockwise about the normal
        // A vertex on the side (within kTie of its length: boxes of a pile with flush
        // sides) is inside, so that rounding does not make it come and go between steps.
        const double onSide = kTie * outward.squaredNorm();
        const auto side = static_cast<std::uint16_t>(kReferenceLine | (k & 255));
        clipped.clear();
        const int count = static_cast<int>(polygon.size());
        for (int i = 0; i < count; ++i) {
            const ClipVertex& current = polygon[i];
            const ClipVertex& next = polygon[(i + 1) % count];
            double dCurrent = outward.dot(current.point - from), dNext = outward.dot(next.point - from);
            if (std::abs(dCurrent) <= onSide) dCurrent = 0.0;
            if (std::abs(dNext) <= onSide) dNext = 0.0;
            if (dCurrent <= 0.0) clipped.push_back(current);
            if ((dCurrent < 0.0 && dNext > 0.0) || (dCurrent > 0.0 && dNext < 0.0)) {
                const Vec3 crossing = current.point + (dCurrent / (dCurrent - dNext)) * (next.point - current.point);
                // Leaving through this side, the polygon goes on along it; entering, it
                // arrives along it and goes on along the incident edge.
                if (dCurrent < 0.0) clipped.push_back({crossing, current.out, side});
                else clipped.push_back({crossing, side, current.out});
            }
        }
        std::swap(polygon, clipped);
    }
    // A vertex within `straight` of the line through its neighbours adds nothing to the
    // region: where an incident edge lies along a side of the reference face (flush boxes of
    // a pile), rounding makes the edge cross the side somewhere along it. Dropped, so that
    // a rectangle of contact has its four corners, the same four from step to step, rather
    // than six points of which reduceToFour keeps a different four (or three) each step.
    for (std::size_t i = 0; polygon.size() > 3 && i < polygon.size();) {
        const std::size_t count = polygon.size();
        const Vec3& before = polygon[(i + count - 1) % count].point;
        const Vec3 chord = polygon[(i + 1) % count].point - before, arm = polygon[i].point - before;
        const double length = chord.norm();
        const double offset = length > 0.0 ? chord.cross(arm).norm() / length : arm.norm();
        if (offset <= straight) polygon.erase(polygon.begin() + static_cast<std::ptrdiff_t>(i));
        else ++i;
    }
    std::vector<ContactCandidate>& candidates = scratch.candidates;
    candidates.clear();
    for (const ClipVertex& v : polygon) {
        const double separation = referenceNormal.dot(v.point) - referenceOffset;
        if (separation < margin)
            candidates.push_back({v.point - 0.5 * separation * referenceNormal, separation,
                                  faceFeature(referenceIsB, referenceFace, incidentFace, v.in, v.out)});
    }
}

// The incident face: of the faces around the incident shape's deepest vertex (the one
// farthest against the normal), the one most against the normal. The deepest vertex is
// then one of its corners: the face most against the normal overall need not have it (a
// sharp corner of a hull poking through the reference face) and could clip to nothing. Of
// two vertices or faces equally deep or against it (a box standing on an edge), the first,
// whatever the rounding.
template <typename NormalOf>
int incidentFace(const Polyhedron& incident, const Vec3* vertices, NormalOf normalOf, const Vec3& normal) {
    if (incident.isBox) {
        // A box's face most against the normal always has the deepest corner.
        int best = 0;
        for (int f = 1; f < 6; ++f)
            if (normalOf(f).dot(normal) < normalOf(best).dot(normal) - kTie) best = f;
        return best;
    }
    int deepest = 0;
    for (int v = 1; v < static_cast<int>(incident.vertices.size()); ++v)
        if (vertices[v].dot(normal) < vertices[deepest].dot(normal) - kTie * incident.radius) deepest = v;
    int best = -1;
    for (int f = 0; f < static_cast<int>(incident.faces.size()); ++f) {
        const std::vector<int>& loop = incident.faces[f].vertices;
        if (std::find(loop.begin(), loop.end(), deepest) == loop.end()) continue;
        if (best < 0 || normalOf(f).dot(normal) < normalOf(best).dot(normal) - kTie) best = f;
    }
    return best;
}

bool writeManifold(const std::vector<ContactCandidate>& candidates, const Pose& frame, const Vec3& normal,
                   ContactManifold& out) {
    out.normal = frame.rotation * normal;
    out.count = static_cast<int>(candidates.size());
    for (int i = 0; i < out.count; ++i)
        out.points[i] = {frame.apply(candidates[i].position), candidates[i].separation, candidates[i].feature};
    return out.count > 0;
}

// The least separations found along each kind of axis, and the features they belong to.
struct AxisSearch {
    double separationA = -kInfinity, separationB = -kInfinity, separationEdges = -kInfinity;
    int faceA = -1, faceB = -1, edgeA = -1, edgeB = -1;
    Vec3 edgeAxis = Vec3::UnitY();  // from A to B
};

// The edge of a box between two of its vertices.
int boxEdge(const Polyhedron& box, int from, int to) {
    for (int e = 0; e < static_cast<int>(box.edges.size()); ++e)
        if (box.edges[e] == std::pair(from, to) || box.edges[e] == std::pair(to, from)) return e;
    return -1;
}

// The separating axis test over the faces of A and B and their edges' cross products,
// with B's vertices, face normals and offsets in A's frame left in scratch. Returns false,
// with the axis cached, as soon as one separates by more than margin.
bool searchAxes(const Polyhedron& a, const Polyhedron& b, const Pose& relative, double margin,
                SeparatingAxisCache& cache, AxisSearch& found) {
    Scratch& s = scratch;
    s.verticesB.resize(b.vertices.size());
    for (std::size_t i = 0; i < b.vertices.size(); ++i) s.verticesB[i] = relative.apply(b.vertices[i]);

    for (int i = 0; i < static_cast<int>(a.faces.size()); ++i) {
        const double separation = minProjection(s.verticesB, a.faces[i].normal) - a.faces[i].offset;
        if (separation > margin) {
            cache = {SeparatingAxisCache::Kind::FaceA, i, -1};
            return false;
        }
        if (separation > found.separationA) {
            found.separationA = separation;
            found.faceA = i;
        }
    }

    s.normalsB.resize(b.faces.size());
    s.offsetsB.resize(b.faces.size());
    for (int j = 0; j < static_cast<int>(b.faces.size()); ++j) {
        s.normalsB[j] = relative.rotation * b.faces[j].normal;
        s.offsetsB[j] = b.faces[j].offset + s.normalsB[j].dot(relative.translation);
        const double separation = minProjection(a.vertices, s.normalsB[j]) - s.offsetsB[j];
        if (separation > margin) {
            cache = {SeparatingAxisCache::Kind::FaceB, j, -1};
            return false;
        }
        if (separation > found.separationB) {
            found.separationB = separation;
            found.faceB = j;
        }
    }

    // Edge pairs. B's edges first, with what the Gauss map test needs of them.
    const int edgeCountB = static_cast<int>(b.edges.size());
    s.edgesB.resize(edgeCountB);
    for (int j = 0; j < edgeCountB; ++j) {
        PlacedEdge& edge = s.edgesB[j];
        edge.point = s.verticesB[b.edges[j].first];
        edge.direction = s.verticesB[b.edges[j].second] - edge.point;
        edge.length = edge.direction.norm();
        edge.c = -s.normalsB[b.edgeFaces[j].first];
        edge.d = -s.normalsB[b.edgeFaces[j].second];
        edge.dxc = edge.d.cross(edge.c);
    }
    for (int i = 0; i < static_cast<int>(a.edges.size()); ++i) {
        const Vec3& n1 = a.faces[a.edgeFaces[i].first].normal;
        const Vec3& n2 = a.faces[a.edgeFaces[i].second].normal;
        const Vec3 n2xn1 = n2.cross(n1);
        const Vec3& pointA = a.vertices[a.edges[i].first];
        const Vec3 directionA = a.vertices[a.edges[i].second] - pointA;
        const double lengthA = directionA.norm();
        for (int j = 0; j < edgeCountB; ++j) {
            const PlacedEdge& edge = s.edgesB[j];
            if (!isMinkowskiFace(n1, n2, n2xn1, edge.c, edge.d, edge.dxc)) continue;
            Vec3 axis = directionA.cross(edge.direction);
            const double length = axis.norm();
            if (!(length > kParallelEdges * lengthA * edge.length)) continue;
            axis /= length;
            if (axis.dot(pointA - a.center) < 0.0) axis = -axis;  // out of A
            const double separation = axis.dot(edge.point - pointA);
            if (separation > margin) {
                cache = {SeparatingAxisCache::Kind::Edges, i, j};
                return false;
            }
            if (separation > found.separationEdges) {
                found.separationEdges = separation;
                found.edgeA = i;
                found.edgeB = j;
                found.edgeAxis = axis;
            }
        }
    }
    return true;
}

// The same for two boxes (boxPolyhedron), in closed form over their 15 axes (Gottschalk, Lin
// and Manocha, "OBBTree: A Hierarchical Structure for Rapid Interference Detection",
// SIGGRAPH 1996, section 4.2): the relative rotation's entries are the cosines between the
// boxes' axes. Every edge pair of two boxes meets on the Gauss map, so the test over edges
// needs no pruning; their support edges are found from the signs of the axis.
bool searchBoxAxes(const Polyhedron& a, const Polyhedron& b, const Pose& relative, double margin,
                   SeparatingAxisCache& cache, AxisSearch& found) {
    const Vec3 halfA = a.vertices[7], halfB = b.vertices[7];
    const Mat3& r = relative.rotation;  // column j: B's axis j in A's frame
    const Vec3& t = relative.translation;
    const Mat3 absolute = r.cwiseAbs();
    for (int i = 0; i < 3; ++i) {
        const int face = 2 * i + (t[i] >= 0.0 ? 1 : 0);  // A's face towards B's centre
        const double separation = std::abs(t[i]) - halfA[i] - absolute.row(i).dot(halfB);
        if (separation > margin) {
            cache = {SeparatingAxisCache::Kind::FaceA, face, -1};
            return false;
        }
        if (separation > found.separationA) {
            found.separationA = separation;
            found.faceA = face;
        }
    }
    const Vec3 tInB = r.transpose() * t;  // B's centre from A's, along B's axes
    for (int j = 0; j < 3; ++j) {
        const int face = 2 * j + (tInB[j] < 0.0 ? 1 : 0);  // B's face towards A's centre
        const double separation = std::abs(tInB[j]) - halfB[j] - absolute.col(j).dot(halfA);
        if (separation > margin) {
            cache = {SeparatingAxisCache::Kind::FaceB, face, -1};
            return false;
        }
        if (separation > found.separationB) {
            found.separationB = separation;
            found.faceB = face;
        }
    }
    for (int i = 0; i < 3; ++i) {
        const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; ++j) {
            const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            const double length = std::sqrt(std::max(0.0, 1.0 - r(i, j) * r(i, j)));  // |e_i x r_j|
            if (!(length > kParallelEdges)) continue;
            // Along e_i x r_j: the centres' distance and the two boxes' half widths.
            const double distance = t[i2] * r(i1, j) - t[i1] * r(i2, j);
            const double widthA = halfA[i1] * absolute(i2, j) + halfA[i2] * absolute(i1, j);
            const double widthB = halfB[j1] * absolute(i, j2) + halfB[j2] * absolute(i, j1);
            const double separation = (std::abs(distance) - widthA - widthB) / length;
            if (separation > margin || separation > found.separationEdges) {
                found.separationEdges = separation;
                found.edgeA = i;  // the axes for now: the edges are found below
                found.edgeB = j;
                found.edgeAxis = Vec3::Unit(i).cross(r.col(j)) / length;
                if (distance < 0.0) found.edgeAxis = -found.edgeAxis;  // from A to B
                if (separation > margin) break;
            }
        }
        if (found.separationEdges > margin) break;
    }
    if (found.edgeA >= 0) {
        // A's edge along its axis i at its corner farthest along the axis, B's along its
        // axis j at its corner farthest against it.
        const int i = found.edgeA, j = found.edgeB;
        const Vec3& axis = found.edgeAxis;
        const Vec3 axisInB = r.transpose() * axis;
        int fromA = 0, fromB = 0;
        for (int k = 0; k < 3; ++k) {
            if (k != i && axis[k] > 0.0) fromA |= 1 << k;
            if (k != j && axisInB[k] < 0.0) fromB |= 1 << k;
        }
        found.edgeA = boxEdge(a, fromA, fromA | 1 << i);
        found.edgeB = boxEdge(b, fromB, fromB | 1 << j);
        if (found.separationEdges > margin) {
            cache = {SeparatingAxisCache::Kind::Edges, found.edgeA, found.edgeB};
            return false;
        }
    }
    Scratch& s = scratch;
    s.verticesB.resize(8);
    for (int k = 0; k < 8; ++k) s.verticesB[k] = relative.apply(b.vertices[k]);
    s.normalsB.resize(6);
    s.offsetsB.resize(6);
    for (int f = 0; f < 6; ++f) {
        s.normalsB[f] = r * b.faces[f].normal;
        s.offsetsB[f] = b.faces[f].offset + s.normalsB[f].dot(t);
    }
    return true;
}

}  // namespace

bool collidePolyhedra(const Polyhedron& a, const Pose& poseA, const Polyhedron& b, const Pose& poseB, double margin,
                      SeparatingAxisCache& cache, ContactManifold& out) {
    out.count = 0;
    // B in A's frame: every test below runs there.
    const Pose relative{poseA.rotation.transpose() * poseB.rotation,
                        poseA.rotation.transpose() * (poseB.translation - poseA.translation)};
    // The witness of the last step (Baraff, Rigid Body Simulation II, section 8: the cached
    // separating plane): most pairs that were apart still are, along the same axis.
    if (cachedSeparation(cache, a, b, relative) > margin) return false;

    AxisSearch found;
    if (!(a.isBox && b.isBox ? searchBoxAxes(a, b, relative, margin, cache, found)
                             : searchAxes(a, b, relative, margin, cache, found)))
        return false;
    if (found.faceA < 0 || found.faceB < 0) return false;  // a pose that is not finite compares as nothing
    const auto [separationA, separationB, separationEdges, faceA, faceB, edgeA, edgeB, edgeAxis] = found;
    Scratch& s = scratch;
    const double tolerance = kAbsolutePreference * std::min(a.radius, b.radius);
    const double tie = kTie * std::min(a.radius, b.radius);
    const double straight = kStraight * std::min(a.radius, b.radius);
    auto clearlyGreater = [&](double x, double y) { return x > y + kRelativePreference * std::abs(y) + tolerance; };
    const bool referenceIsB = clearlyGreater(separationB, separationA);
    const double separationFaces = referenceIsB ? separationB : separationA;

    if (edgeA < 0 || !clearlyGreater(separationEdges, separationFaces)) {
        if (referenceIsB) {
            cache = {SeparatingAxisCache::Kind::FaceB, faceB, -1};
            const Vec3& normal = s.normalsB[faceB];
            const int incident = incidentFace(
                a, a.vertices.data(), [&](int i) -> const Vec3& { return a.faces[i].normal; }, normal);
            clipFaces(s.verticesB.data(), b.faces[faceB], normal, s.offsetsB[faceB], a.vertices.data(),
                      a.faces[incident].vertices, margin, straight, true, faceB, incident);
            reduceToFour(s.candidates, normal, referenceSide(s.verticesB.data(), b.faces[faceB]), tie, straight);
            if (writeManifold(s.candidates, poseA, -normal, out)) return true;
        } else {
            cache = {SeparatingAxisCache::Kind::FaceA, faceA, -1};
            const Polyhedron::Face& reference = a.faces[faceA];
            const int incident = incidentFace(
                b, s.verticesB.data(), [&](int i) -> const Vec3& { return s.normalsB[i]; }, reference.normal);
            clipFaces(a.vertices.data(), reference, reference.normal, reference.offset, s.verticesB.data(),
                      b.faces[incident].vertices, margin, straight, false, faceA, incident);
            reduceToFour(s.candidates, reference.normal, referenceSide(a.vertices.data(), reference), tie, straight);
            if (writeManifold(s.candidates, poseA, reference.normal, out)) return true;
        }
        // The faces' overlap clipped to nothing (edges crossing near the rim of a face that
        // was preferred, nearly as good): the edges touch.
        if (edgeA < 0) return false;
    }
    cache = {SeparatingAxisCache::Kind::Edges, edgeA, edgeB};
    const auto [p0, p1] = a.edges[edgeA];
    const auto [q0, q1] = b.edges[edgeB];
    const auto [onA, onB] = closestPointsOfSegments(a.vertices[p0], a.vertices[p1], s.verticesB[q0], s.verticesB[q1]);
    // Apart, the edges' lines may pass each other beside the segments, away from their
    // ends: then these edges are not what comes closest, and their point would lie far from
    // both shapes. The pair is apart (by less than the margin along every axis tried, by
    // more in truth, perhaps): no speculative point rather than a misplaced one.
    const Vec3 between = onB - onA;
    if (separationEdges > 0.0 && (between - edgeAxis.dot(between) * edgeAxis).norm() > margin) return false;
    s.candidates.assign(1, {0.5 * (onA + onB), separationEdges,
                            kFeatureEdges | (static_cast<std::uint32_t>(edgeB) & 0x7fffu) << 15 |
                                (static_cast<std::uint32_t>(edgeA) & 0x7fffu)});
    return writeManifold(s.candidates, poseA, edgeAxis, out);
}

bool collideSpherePolyhedron(const Vec3& center, double radius, const Polyhedron& b, const Pose& poseB, double margin,
                             ContactManifold& out) {
    out.count = 0;
    const Vec3 local = poseB.rotation.transpose() * (center - poseB.translation);
    if (!local.allFinite()) return false;
    double deepest = -kInfinity;  // the largest height of the centre above a face's plane
    int deepestFace = 0;
    for (int f = 0; f < static_cast<int>(b.faces.size()); ++f) {
        const double height = b.faces[f].normal.dot(local) - b.faces[f].offset;
        if (height > deepest) {
            deepest = height;
            deepestFace = f;
        }
    }
    // The distance to the polyhedron is at least the largest height.
    if (deepest - radius >= margin) return false;

    Vec3 normal, onSurface = local;  // in B's frame; normal from the sphere to the polyhedron
    double separation = 0.0;
    std::uint32_t feature = kFeatureSphere;
    if (deepest <= 0.0) {
        // The centre is inside: out through the nearest face.
        normal = -b.faces[deepestFace].normal;
        onSurface = local + deepest * normal;
        separation = deepest - radius;
        feature = kFeatureSphere | static_cast<std::uint32_t>(deepestFace);
    } else {
        // The closest point is on a face that the centre is above: the projection onto its
        // plane when inside the polygon, else the closest point of its boundary.
        double closest = kInfinity;
        for (int f = 0; f < static_cast<int>(b.faces.size()); ++f) {
            const Polyhedron::Face& face = b.faces[f];
            const double height = face.normal.dot(local) - face.offset;
            if (height <= 0.0) continue;
            const Vec3 projection = local - height * face.normal;
            const int count = static_cast<int>(face.vertices.size());
            bool inside = true;
            for (int k = 0; k < count; ++k) {
                const Vec3& from = b.vertices[face.vertices[k]];
                const Vec3& to = b.vertices[face.vertices[(k + 1) % count]];
                if ((to - from).cross(face.normal).dot(projection - from) <= 0.0) continue;
                inside = false;
                const Vec3 edge = to - from;
                const double t = std::clamp(edge.dot(local - from) / edge.squaredNorm(), 0.0, 1.0);
                const Vec3 point = from + t * edge;
                const double distance = (local - point).norm();
                if (distance < closest) {
                    closest = distance;
                    onSurface = point;
                    // A vertex when clamped to an end, else the edge by its two vertices.
                    const auto u = static_cast<std::uint32_t>(face.vertices[k]);
                    const auto v = static_cast<std::uint32_t>(face.vertices[(k + 1) % count]);
                    if (t <= 0.0 || t >= 1.0) feature = kFeatureSphere | 3u << 28 | (t <= 0.0 ? u : v);
                    else
                        feature =
                            kFeatureSphere | 2u << 28 | (std::min(u, v) & 0x3fffu) << 14 | (std::max(u, v) & 0x3fffu);
                }
            }
            if (inside && height < closest) {
                closest = height;
                onSurface = projection;
                feature = kFeatureSphere | 1u << 28 | static_cast<std::uint32_t>(f);
            }
        }
        separation = closest - radius;
        if (separation >= margin) return false;
        normal = (onSurface - local) / closest;
    }
    out.normal = poseB.rotation * normal;
    out.points[0] = {poseB.apply(0.5 * (onSurface + local + radius * normal)), separation, feature};
    out.count = 1;
    return true;
}

bool collideSpheres(const Vec3& centerA, double radiusA, const Vec3& centerB, double radiusB, double margin,
                    ContactManifold& out) {
    out.count = 0;
    const Vec3 between = centerB - centerA;
    const double distance = between.norm();
    const double separation = distance - radiusA - radiusB;
    if (!(separation < margin)) return false;  // nor when a centre is not finite
    // Concentric spheres have no direction of their own: any will do, up is the usual one.
    out.normal = distance > 0.0 ? Vec3(between / distance) : Vec3::UnitY();
    const Vec3 onA = centerA + radiusA * out.normal, onB = centerB - radiusB * out.normal;
    out.points[0] = {0.5 * (onA + onB), separation, 0};
    out.count = 1;
    return true;
}

}  // namespace tinkerbox
