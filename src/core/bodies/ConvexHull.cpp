#include "core/bodies/ConvexHull.h"

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <utility>

#include "core/math/Orientation.h"

namespace tinkerbox {
namespace {

constexpr double kRelativeTolerance = 1e-10;  // of the bounding box's diagonal
// Rounding in a plane distance is a few ulps of the largest coordinate; the tolerance never
// goes below this many of them, however small the extent.
constexpr double kRoundingUlps = 16.0;
// Beyond this the orientation determinant's products overflow.
constexpr double kLargestCoordinate = 1e100;

struct Face {
    std::array<int, 3> vertex{};     // counter-clockwise seen from outside
    std::array<int, 3> neighbour{};  // neighbour[i] shares the edge vertex[i] -> vertex[i + 1]
    Vec3 normal = Vec3::Zero();      // unit, outward: to pick the farthest point, never to decide sides
    double offset = 0.0;             // normal . x for x on the face's plane
    std::vector<int> outside;        // points above the face, not yet on the hull
    bool removed = false;

    double distance(const Vec3& x) const { return normal.dot(x) - offset; }
};

// An edge between the faces that see the new point and those that do not: a -> b as the
// visible face has it, `across` the face on the other side.
struct HorizonEdge {
    int a, b, across;
};

// One Quickhull run over some of the points (indices into `points`). On success the
// triangles (indices into `points`) are in `triangles` and nullopt is returned; otherwise the
// reason. Which side of a face a point is on is decided exactly (core/math/Orientation.h):
// with rounded decisions, points near a face's plane can be seen from one face and not from
// its neighbour, and the hull folds. The tolerance only rejects flat sets at the start.
class Quickhull {
public:
    Quickhull(const std::vector<Vec3>& points, double tolerance) : p_(points), tolerance_(tolerance) {}

    std::optional<std::string> build(const std::vector<int>& candidates, std::vector<std::array<int, 3>>& triangles) {
        if (auto failure = buildTetrahedron(candidates)) return failure;
        std::vector<int> pending{0, 1, 2, 3};
        while (!pending.empty()) {
            const int f = pending.back();
            pending.pop_back();
            if (faces_[f].removed || faces_[f].outside.empty()) continue;
            if (auto failure = addFarthestPoint(f, pending)) return failure;
        }
        triangles.clear();
        for (const Face& face : faces_)
            if (!face.removed) triangles.push_back(face.vertex);
        return std::nullopt;
    }

private:
    int addFace(int a, int b, int c) {
        Face face;
        face.vertex = {a, b, c};
        face.normal = (p_[b] - p_[a]).cross(p_[c] - p_[a]).normalized();
        face.offset = face.normal.dot((p_[a] + p_[b] + p_[c]) / 3.0);
        faces_.push_back(std::move(face));
        visitedIn_.push_back(-1);
        visible_.push_back(false);
        return static_cast<int>(faces_.size()) - 1;
    }

    bool above(int f, int point) const {
        const auto& v = faces_[f].vertex;
        return orientation(p_[v[0]], p_[v[1]], p_[v[2]], p_[point]) > 0;
    }

    // Puts the point in the outside set of the first face it is strictly above; a point
    // above none is inside the hull or on it, and is dropped.
    void assign(int point, const std::vector<int>& faces) {
        for (int f : faces) {
            if (above(f, point)) {
                faces_[f].outside.push_back(point);
                return;
            }
        }
    }

    // The initial simplex (Barber et al. 1996): the farthest pair among the
    // points extreme along an axis, the point farthest from their line, and the point
    // farthest from the plane of those three.
    std::optional<std::string> buildTetrahedron(const std::vector<int>& candidates) {
        std::array<int, 6> extremes{};
        extremes.fill(candidates.front());
        for (int i : candidates) {
            for (int axis = 0; axis < 3; ++axis) {
                if (p_[i][axis] < p_[extremes[2 * axis]][axis]) extremes[2 * axis] = i;
                if (p_[i][axis] > p_[extremes[2 * axis + 1]][axis]) extremes[2 * axis + 1] = i;
            }
        }
        int i0 = extremes[0], i1 = extremes[1];
        for (int i : extremes)
            for (int j : extremes)
                if ((p_[i] - p_[j]).squaredNorm() > (p_[i0] - p_[i1]).squaredNorm()) {
                    i0 = i;
                    i1 = j;
                }
        if ((p_[i1] - p_[i0]).norm() <= tolerance_) return "all points coincide";

        const Vec3 along = (p_[i1] - p_[i0]).normalized();
        int i2 = i0;
        double farthestFromLine = 0.0;
        for (int i : candidates) {
            const double d = (p_[i] - p_[i0]).cross(along).norm();
            if (d > farthestFromLine) {
                farthestFromLine = d;
                i2 = i;
            }
        }
        if (farthestFromLine <= tolerance_) return "all points lie on one line";

        const Vec3 normal = (p_[i1] - p_[i0]).cross(p_[i2] - p_[i0]).normalized();
        int i3 = i0;
        double farthestFromPlane = 0.0;
        for (int i : candidates) {
            const double d = std::abs(normal.dot(p_[i] - p_[i0]));
            if (d > farthestFromPlane) {
                farthestFromPlane = d;
                i3 = i;
            }
        }
        if (farthestFromPlane <= tolerance_) return "all points lie in one plane";

        // Each face counter-clockwise seen from outside: away from the fourth vertex.
        if (orientation(p_[i0], p_[i1], p_[i2], p_[i3]) > 0) std::swap(i1, i2);
        const std::array<std::array<int, 3>, 4> corners{{{i0, i1, i2}, {i0, i3, i1}, {i1, i3, i2}, {i2, i3, i0}}};
        for (const auto& c : corners) addFace(c[0], c[1], c[2]);
        for (int f = 0; f < 4; ++f)
            for (int i = 0; i < 3; ++i)
                faces_[f].neighbour[i] = faceWithEdge(faces_[f].vertex[(i + 1) % 3], faces_[f].vertex[i]);

        const std::vector<int> all{0, 1, 2, 3};
        for (int i : candidates)
            if (i != i0 && i != i1 && i != i2 && i != i3) assign(i, all);
        return std::nullopt;
    }

    // The face of the tetrahedron with the directed edge a -> b.
    int faceWithEdge(int a, int b) const {
        for (int f = 0; f < 4; ++f)
            for (int i = 0; i < 3; ++i)
                if (faces_[f].vertex[i] == a && faces_[f].vertex[(i + 1) % 3] == b) return f;
        return -1;
    }

    // Adds the farthest point above face `start` (Barber et al. 1996): finds the
    // faces it sees, their horizon, and replaces them by the cone from the horizon to it.
    std::optional<std::string> addFarthestPoint(int start, std::vector<int>& pending) {
        const std::vector<int>& candidates = faces_[start].outside;
        const int eye = *std::max_element(candidates.begin(), candidates.end(), [&](int i, int j) {
            return faces_[start].distance(p_[i]) < faces_[start].distance(p_[j]);
        });

        // The faces the eye is above, connected to `start`.
        ++visit_;
        std::vector<int> seen{start}, stack{start};
        visitedIn_[start] = visit_;
        visible_[start] = true;
        while (!stack.empty()) {
            const int f = stack.back();
            stack.pop_back();
            for (int g : faces_[f].neighbour) {
                if (visitedIn_[g] == visit_) continue;
                visitedIn_[g] = visit_;
                visible_[g] = above(g, eye);
                if (visible_[g]) {
                    seen.push_back(g);
                    stack.push_back(g);
                }
            }
        }

        std::vector<HorizonEdge> horizon;
        for (int f : seen)
            for (int i = 0; i < 3; ++i)
                if (!visible_[faces_[f].neighbour[i]])
                    horizon.push_back({faces_[f].vertex[i], faces_[f].vertex[(i + 1) % 3], faces_[f].neighbour[i]});
        if (!orderAsOneLoop(horizon))
            return "the faces seen from point " + std::to_string(eye) +
                   " do not form a disc (coordinates too small or too large for exact sides)";

        // The cone: face k is (a_k, b_k, eye), between face k - 1 and face k + 1.
        const int m = static_cast<int>(horizon.size());
        std::vector<int> cone(m);
        for (int k = 0; k < m; ++k) cone[k] = addFace(horizon[k].a, horizon[k].b, eye);
        for (int k = 0; k < m; ++k) {
            Face& face = faces_[cone[k]];
            face.neighbour = {horizon[k].across, cone[(k + 1) % m], cone[(k + m - 1) % m]};
            Face& across = faces_[horizon[k].across];
            for (int i = 0; i < 3; ++i)
                if (across.vertex[i] == horizon[k].b && across.vertex[(i + 1) % 3] == horizon[k].a)
                    across.neighbour[i] = cone[k];
        }

        for (int f : seen) {
            std::vector<int> orphans;
            orphans.swap(faces_[f].outside);
            faces_[f].removed = true;
            for (int i : orphans)
                if (i != eye) assign(i, cone);
        }
        for (int f : cone)
            if (!faces_[f].outside.empty()) pending.push_back(f);
        return std::nullopt;
    }

    // Orders the horizon so that each edge starts where the previous one ends. False when
    // the edges are not one simple loop, which exact sides rule out unless products of
    // coordinates underflow.
    static bool orderAsOneLoop(std::vector<HorizonEdge>& horizon) {
        std::unordered_map<int, int> startingAt;
        for (int k = 0; k < static_cast<int>(horizon.size()); ++k)
            if (!startingAt.emplace(horizon[k].a, k).second) return false;
        std::vector<HorizonEdge> loop{horizon.front()};
        while (loop.size() < horizon.size()) {
            const auto next = startingAt.find(loop.back().b);
            if (next == startingAt.end() || next->second == 0) return false;
            loop.push_back(horizon[next->second]);
        }
        if (loop.back().b != loop.front().a) return false;
        horizon.swap(loop);
        return true;
    }

    const std::vector<Vec3>& p_;
    const double tolerance_;
    std::vector<Face> faces_;
    std::vector<int> visitedIn_;  // per face: the last visit_ that reached it
    std::vector<bool> visible_;   // per face: whether the eye of that visit is above it
    int visit_ = 0;
};

double distanceToSegment(const Vec3& x, const Vec3& a, const Vec3& b) {
    const Vec3 ab = b - a;
    const double squaredLength = ab.squaredNorm();
    const double t = squaredLength > 0.0 ? std::clamp((x - a).dot(ab) / squaredLength, 0.0, 1.0) : 0.0;
    return (x - (a + t * ab)).norm();
}

// Hull vertices within the tolerance of the convex hull of their neighbours, which are
// not extreme points (within it): one in the middle of a planar face, whose neighbours
// all lie in the plane through it normal to the sum of its faces' area vectors (area
// weights, so that slivers, whose normals rounding spoils, count for nothing), or one on
// a segment between two neighbours (the middle of an edge, a near-duplicate). Quickhull
// keeps such a point when it took it as a vertex before the points around it, which then
// saw its faces edge-on. Of two neighbours only one is reported, so that dropping both
// cannot cut a corner off.
std::vector<bool> nonExtremeVertices(const std::vector<Vec3>& p, const std::vector<std::array<int, 3>>& triangles,
                                     double tolerance) {
    std::vector<Vec3> areaSum(p.size(), Vec3::Zero());
    std::vector<std::vector<int>> neighbours(p.size());
    for (const auto& t : triangles) {
        const Vec3 area = (p[t[1]] - p[t[0]]).cross(p[t[2]] - p[t[0]]);
        for (int i = 0; i < 3; ++i) {
            areaSum[t[i]] += area;
            neighbours[t[i]].push_back(t[(i + 1) % 3]);
        }
    }
    std::vector<bool> nonExtreme(p.size(), false);
    for (std::size_t v = 0; v < p.size(); ++v) {
        const std::vector<int>& ring = neighbours[v];
        if (std::any_of(ring.begin(), ring.end(), [&](int w) { return nonExtreme[w]; })) continue;
        const std::optional<Vec3> normal = unitVector(areaSum[v]);
        const bool flat = normal && std::all_of(ring.begin(), ring.end(),
                                                [&](int w) { return std::abs(normal->dot(p[w] - p[v])) <= tolerance; });
        bool onSegment = false;
        for (std::size_t i = 0; i < ring.size() && !flat && !onSegment; ++i)
            for (std::size_t j = i + 1; j < ring.size() && !onSegment; ++j)
                onSegment = distanceToSegment(p[v], p[ring[i]], p[ring[j]]) <= tolerance;
        nonExtreme[v] = flat || onSegment;
    }
    return nonExtreme;
}

}  // namespace

std::optional<ConvexHull> convexHull(const std::vector<Vec3>& points, std::string* error) {
    const auto fail = [&](std::string reason) -> std::optional<ConvexHull> {
        if (error) *error = std::move(reason);
        return std::nullopt;
    };
    if (points.size() < 4) return fail("a convex hull needs at least 4 points, got " + std::to_string(points.size()));
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (!points[i].allFinite()) return fail("point " + std::to_string(i) + " is not finite");
        if (points[i].cwiseAbs().maxCoeff() > kLargestCoordinate)
            return fail("point " + std::to_string(i) + " is farther than 1e100 from the origin");
    }

    Vec3 lowest = points.front(), highest = points.front();
    for (const Vec3& x : points) {
        lowest = lowest.cwiseMin(x);
        highest = highest.cwiseMax(x);
    }
    const double largestCoordinate = std::max(lowest.cwiseAbs().maxCoeff(), highest.cwiseAbs().maxCoeff());
    const double tolerance = std::max(kRelativeTolerance * (highest - lowest).norm(),
                                      kRoundingUlps * std::numeric_limits<double>::epsilon() * largestCoordinate);

    // Rebuild from the extreme vertices until there are no others: then every vertex is an
    // input point the hull needs. Points off the hull stay inside it: each rebuild moves it
    // by less than the tolerance.
    std::vector<int> candidates(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) candidates[i] = static_cast<int>(i);
    std::vector<std::array<int, 3>> triangles;
    while (true) {
        if (auto failure = Quickhull(points, tolerance).build(candidates, triangles)) return fail(*failure);
        const std::vector<bool> nonExtreme = nonExtremeVertices(points, triangles, tolerance);
        if (std::none_of(nonExtreme.begin(), nonExtreme.end(), [](bool b) { return b; })) break;
        std::vector<bool> onHull(points.size(), false);
        for (const auto& t : triangles)
            for (int i : t) onHull[i] = true;
        candidates.clear();
        for (std::size_t i = 0; i < points.size(); ++i)
            if (onHull[i] && !nonExtreme[i]) candidates.push_back(static_cast<int>(i));
    }

    // Number the vertices in input order.
    std::vector<int> newIndex(points.size(), -1);
    for (const auto& t : triangles)
        for (int i : t) newIndex[i] = 0;
    ConvexHull hull;
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (newIndex[i] < 0) continue;
        newIndex[i] = static_cast<int>(hull.vertices.size());
        hull.vertices.push_back(points[i]);
    }
    for (const auto& t : triangles) hull.triangles.push_back({newIndex[t[0]], newIndex[t[1]], newIndex[t[2]]});
    return hull;
}

}  // namespace tinkerbox
