// The box: its kind (file fields, edges in the inspector, closed-form mass properties, support).
#include <cmath>
#include <sstream>

#include "core/bodies/ShapeKind.h"

namespace tinkerbox {

namespace {

const BoxShape& boxOf(const Shape& shape) { return std::get<BoxShape>(shape); }

std::string edgeError(const Vec3& size) {
    for (Index d = 0; d < 3; ++d) {
        std::ostringstream message;
        if (!(size[d] >= kMinScenePositive)) message << "edge lengths must be positive (got " << size[d] << ")";
        else if (size[d] > kMaxSceneMagnitude)
            message << "edge lengths must be at most " << kMaxSceneMagnitude << " (got " << size[d] << ")";
        if (!message.str().empty()) return message.str();
    }
    return {};
}

// One edge: the file's "size" holds the three, [x, y, z].
template <int Axis>
constexpr ShapeParameter edge(std::string_view label, std::string_view help) {
    return {.key = "size",
            .label = label,
            .help = help,
            .min = kMinScenePositive,
            .max = kMaxSceneMagnitude,
            .get = [](const Shape& s) { return boxOf(s).size[Axis]; },
            .set = [](Shape& s, double v) { std::get<BoxShape>(s).size[Axis] = v; }};
}

constexpr ShapeParameter kBoxParameters[] = {
    edge<0>("edge x (m)", "The box's edge along its own x axis."),
    edge<1>("edge y (m)", "The box's edge along its own y axis."),
    edge<2>("edge z (m)", "The box's edge along its own z axis."),
};

constexpr std::string_view kBoxKeys[] = {"size"};

}  // namespace

const ShapeKind BoxShape::kind{
    .name = "box",
    .summary = "A box of the given edges, centred on the body's frame and along its axes.",
    .keys = kBoxKeys,
    .read = [](const ShapeFields& f) -> Shape {
        const BoxShape box{f.vector("size")};
        if (const std::string why = edgeError(box.size); !why.empty()) f.fail("size", why);
        return box;
    },
    .write = [](const Shape& s, ShapeFieldWriter& out) { out.vector("size", boxOf(s).size); },
    .parameters = kBoxParameters,
    .check = [](const Shape& s) { return edgeError(boxOf(s).size); },
    .massProperties = [](const Shape& s, const ConvexHull*) { return massProperties(boxOf(s)); },
    // The corner on the direction's side; a tie goes towards +size/2.
    .support = [](const Shape& s, const Vec3& d) -> Vec3 {
        return 0.5 * boxOf(s).size.cwiseProduct(d.unaryExpr([](double x) { return x < 0.0 ? -1.0 : 1.0; }));
    },
    // The farthest corner from center.
    .boundingRadius = [](const Shape& s,
                         const Vec3& center) { return (0.5 * boxOf(s).size + center.cwiseAbs()).norm(); },
    .solid =
        [](const Shape& s, const ConvexHull*) {
            return ShapeSolid{.geometry = ShapeSolid::Geometry::Box, .halfSize = 0.5 * boxOf(s).size};
        },
};

}  // namespace tinkerbox
