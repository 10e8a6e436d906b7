#include "core/bodies/ShapeGeometry.h"

#include <algorithm>
#include <stdexcept>

namespace tinkerbox {

Vec3 support(const Shape& shape, const Vec3& direction) {
    if (const auto* box = std::get_if<BoxShape>(&shape))
        return 0.5 * box->size.cwiseProduct(direction.unaryExpr([](double d) { return d < 0.0 ? -1.0 : 1.0; }));
    if (const auto* sphere = std::get_if<SphereShape>(&shape))
        return sphere->radius * unitVector(direction).value_or(Vec3::UnitX());
    const std::vector<Vec3>& points = std::get<ConvexShape>(shape).points;
    if (points.empty()) throw std::invalid_argument("a convex shape without points has no support point");
    return *std::max_element(points.begin(), points.end(),
                             [&](const Vec3& a, const Vec3& b) { return a.dot(direction) < b.dot(direction); });
}

// The farthest point of a convex shape from any point is one of its extreme points: a
// corner of the box, a point of the ConvexShape, or the sphere's point opposite center.
double boundingRadius(const Shape& shape, const Vec3& center) {
    if (const auto* box = std::get_if<BoxShape>(&shape)) return (0.5 * box->size + center.cwiseAbs()).norm();
    if (const auto* sphere = std::get_if<SphereShape>(&shape)) return center.norm() + sphere->radius;
    double radius = 0.0;
    for (const Vec3& x : std::get<ConvexShape>(shape).points) radius = std::max(radius, (x - center).norm());
    return radius;
}

}  // namespace tinkerbox
