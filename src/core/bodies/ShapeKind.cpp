#include "core/bodies/ShapeKind.h"

#include "core/math/KindRegistry.h"
#include "core/math/ParametersError.h"

namespace tinkerbox {

namespace {

// shape.index() finds a shape's kind.
constexpr auto kShapeKinds = variantKinds<ShapeKind, Shape>();

}  // namespace

std::span<const ShapeKind* const> shapeKinds() { return kShapeKinds; }

const ShapeKind& shapeKind(const Shape& shape) { return *kShapeKinds[shape.index()]; }

const ShapeKind* findShapeKind(std::string_view name) { return findKind(shapeKinds(), name); }

std::string shapeNameList() { return kindNameList(shapeKinds()); }

std::string_view shapeName(const Shape& shape) { return shapeKind(shape).name; }

std::string shapeError(const Shape& shape) {
    const ShapeKind& kind = shapeKind(shape);
    if (std::string why = parametersError(kind.parameters, shape); !why.empty()) return why;
    return kind.check(shape);
}

Vec3 support(const Shape& shape, const Vec3& direction) { return shapeKind(shape).support(shape, direction); }

double boundingRadius(const Shape& shape, const Vec3& center) { return shapeKind(shape).boundingRadius(shape, center); }

}  // namespace tinkerbox
