#include "core/bodies/ShapeGeometry.h"

#include <algorithm>
#include <stdexcept>

namespace tinkerbox {

Vec3 support(const Shape& shape, const Vec3& direction) {
    return std::visit(
        ShapeCases{
            [&](const BoxShape& box) -> Vec3 {
                return 0.5 * box.size.cwiseProduct(direction.unaryExpr([](double d) { return d < 0.0 ? -1.0 : 1.0; }));
            },
            [&](const SphereShape& sphere) -> Vec3 {
                return sphere.radius * unitVector(direction).value_or(Vec3::UnitX());
            },
            [&](const ConvexShape& convex) -> Vec3 {
                if (convex.points.empty())
                    throw std::invalid_argument("a convex shape without points has no support point");
                return *std::max_element(convex.points.begin(), convex.points.end(), [&](const Vec3& a, const Vec3& b) {
                    return a.dot(direction) < b.dot(direction);
                });
            }},
        shape);
}

// The farthest point of a convex shape from any point is one of its extreme points: a
// corner of the box, a point of the ConvexShape, or the sphere's point opposite center.
double boundingRadius(const Shape& shape, const Vec3& center) {
    return std::visit(ShapeCases{[&](const BoxShape& box) { return (0.5 * box.size + center.cwiseAbs()).norm(); },
                                 [&](const SphereShape& sphere) { return center.norm() + sphere.radius; },
                                 [&](const ConvexShape& convex) {
                                     double radius = 0.0;
                                     for (const Vec3& x : convex.points) radius = std::max(radius, (x - center).norm());
                                     return radius;
                                 }},
                      shape);
}

}  // namespace tinkerbox
