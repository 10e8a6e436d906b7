#pragma once
// The convex hull of a point set, by Quickhull (Barber, Dobkin and Huhdanpaa, "The Quickhull
// Algorithm for Convex Hulls", ACM TOMS 22(4), 1996): a tetrahedron of extreme points grows by
// the point farthest above one of its faces, whose visible faces are replaced by a cone from
// the horizon to that point, until no point is above any face.
//
// Which side of a face a point is on is decided exactly (core/math/Orientation.h), so the
// hull is convex and holds every input point whatever the rounding. A tolerance relative to
// the points' extent (1e-10 x the diagonal of their bounding box, or a few rounding errors of
// the largest coordinate if that is larger) then decides what is flat: a set thinner than it
// in some direction has no hull, and a vertex less than it out of the plane of its
// neighbours (a point on a face or an edge, a near-duplicate) is left out, so that only
// extreme points are vertices; every input point is then within a few tolerances of the hull.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/math/Types.h"

namespace tinkerbox {

// A closed, convex triangle mesh: every triangle is counter-clockwise seen from outside, so
// that (b - a) x (c - a) points out. Only extreme points are vertices (each one an input
// point, copied exactly); a planar face of the hull is split into triangles.
struct ConvexHull {
    std::vector<Vec3> vertices;
    std::vector<std::array<int, 3>> triangles;  // indices into vertices
};

// The hull of the points, or nullopt when they have none: fewer than 4 points, a point
// that is not finite or has a coordinate beyond 1e100, or all points coincident, on one
// line or in one plane (within the tolerance above). The reason is then written to *error
// when error is not null.
// Runs in O(n log n) for typical inputs (n points, h of them on the hull: O(n h) at worst).
std::optional<ConvexHull> convexHull(const std::vector<Vec3>& points, std::string* error = nullptr);

}  // namespace tinkerbox
