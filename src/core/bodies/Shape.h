#pragma once
// The rigid-body shapes, as plain descriptions in the body's own frame (what a scene file
// holds). Each names its kind (ShapeKind.h: its name, file fields, inspector numbers, geometry
// and mass properties), defined in its own file; the variant below is the registry of shapes.
#include <string_view>
#include <variant>
#include <vector>

#include "core/math/Types.h"

namespace tinkerbox {

struct ShapeKind;

struct BoxShape {
    Vec3 size{1.0, 1.0, 1.0};  // edge lengths along the body's x, y, z
    static const ShapeKind kind;
    bool operator==(const BoxShape&) const = default;
};

struct SphereShape {
    double radius = 0.5;
    static const ShapeKind kind;
    bool operator==(const SphereShape&) const = default;
};

// The convex hull of the points (at least 4, not all in one plane).
struct ConvexShape {
    std::vector<Vec3> points;
    static const ShapeKind kind;
    bool operator==(const ConvexShape&) const = default;
};

using Shape = std::variant<BoxShape, SphereShape, ConvexShape>;

// "box", "sphere" or "convex": the shape's key in a scene file, and its name in the inspector.
std::string_view shapeName(const Shape& shape);

}  // namespace tinkerbox
