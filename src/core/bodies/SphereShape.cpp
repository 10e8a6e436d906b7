// The sphere: its kind (file fields, radius in the inspector, closed-form mass properties,
// support).
#include "core/bodies/ShapeKind.h"

namespace tinkerbox {

namespace {

const SphereShape& sphereOf(const Shape& shape) { return std::get<SphereShape>(shape); }

constexpr ShapeParameter kSphereParameters[] = {
    {.key = "radius",
     .label = "radius (m)",
     .help = "The sphere's radius.",
     .min = kMinScenePositive,
     .max = kMaxSceneMagnitude,
     .get = [](const Shape& s) { return sphereOf(s).radius; },
     .set = [](Shape& s, double v) { std::get<SphereShape>(s).radius = v; }},
};

constexpr std::string_view kSphereKeys[] = {"radius"};

}  // namespace

const ShapeKind SphereShape::kind{
    .name = "sphere",
    .summary = "A ball of the given radius about the body's frame's origin.",
    .keys = kSphereKeys,
    .read = [](const ShapeFields& f) -> Shape { return SphereShape{f.positive("radius")}; },
    .write = [](const Shape& s, ShapeFieldWriter& out) { out.number("radius", sphereOf(s).radius); },
    .parameters = kSphereParameters,
    .check = [](const Shape&) { return std::string(); },  // its radius's range is all
    .massProperties = [](const Shape& s, const ConvexHull*) { return massProperties(sphereOf(s)); },
    // On the direction's ray; a zero direction gives the point on +x.
    .support = [](const Shape& s, const Vec3& d) -> Vec3 {
        return sphereOf(s).radius * unitVector(d).value_or(Vec3::UnitX());
    },
    // The point opposite center.
    .boundingRadius = [](const Shape& s, const Vec3& center) { return center.norm() + sphereOf(s).radius; },
    .solid =
        [](const Shape& s, const ConvexHull*) {
            return ShapeSolid{.geometry = ShapeSolid::Geometry::Ball, .radius = sphereOf(s).radius};
        },
};

}  // namespace tinkerbox
