// The convex hull of points: its kind (file fields, its hull built once, the hull's mass
// properties, support over its points). The inspector edits no number of it.
#include <algorithm>
#include <stdexcept>

#include "core/bodies/ShapeKind.h"

namespace tinkerbox {

namespace {

const ConvexShape& convexOf(const Shape& shape) { return std::get<ConvexShape>(shape); }

std::string hullError(const std::vector<Vec3>& points) {
    std::string why;
    convexHull(points, &why);
    return why;
}

std::shared_ptr<const ConvexHull> convexHullOf(const Shape& s) {
    std::string why;
    std::optional<ConvexHull> hull = convexHull(convexOf(s).points, &why);
    if (!hull) throw std::invalid_argument("a convex shape's points have no hull: " + why);
    return std::make_shared<const ConvexHull>(std::move(*hull));
}

constexpr std::string_view kConvexKeys[] = {"points"};

}  // namespace

const ShapeKind ConvexShape::kind{
    .name = "convex",
    .summary = "The convex hull of at least 4 points, not all in one plane, in the body's frame.",
    .keys = kConvexKeys,
    .read = [](const ShapeFields& f) -> Shape {
        ConvexShape convex{f.points("points")};
        if (const std::string why = hullError(convex.points); !why.empty()) f.fail("points", why);
        return convex;
    },
    .write = [](const Shape& s, ShapeFieldWriter& out) { out.points("points", convexOf(s).points); },
    .check = [](const Shape& s) { return hullError(convexOf(s).points); },
    .hull = convexHullOf,
    .massProperties =
        [](const Shape& s, const ConvexHull* hull) {
            return hull ? massProperties(*hull) : massProperties(*convexHullOf(s));
        },
    // Its farthest point (O(n) over the points given).
    .support = [](const Shape& s, const Vec3& d) -> Vec3 {
        const std::vector<Vec3>& points = convexOf(s).points;
        if (points.empty()) throw std::invalid_argument("a convex shape without points has no support point");
        return *std::max_element(points.begin(), points.end(),
                                 [&](const Vec3& a, const Vec3& b) { return a.dot(d) < b.dot(d); });
    },
    // The farthest of its points (a hull's farthest point from anywhere is a vertex).
    .boundingRadius =
        [](const Shape& s, const Vec3& center) {
            double radius = 0.0;
            for (const Vec3& x : convexOf(s).points) radius = std::max(radius, (x - center).norm());
            return radius;
        },
    .solid = [](const Shape&,
                const ConvexHull* hull) { return ShapeSolid{.geometry = ShapeSolid::Geometry::Hull, .hull = hull}; },
};

}  // namespace tinkerbox
