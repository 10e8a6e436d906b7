#pragma once
// The constraint types, as plain descriptions (what a scene file holds), and the
// factory that turns one into a Constraint.
#include <memory>
#include <array>
#include <string>
#include <utility>
#include <string_view>
#include <variant>

#include "core/bodies/Anchor.h"
#include "core/math/Rotation.h"

namespace tinkerbox {

// Ends are anchors: a particle, or a point of a rigid body (Anchor.h).
// The anchor stays at a point; the point may move (the mouse drags it).
struct NailSpec {
    Anchor anchor;
    Vec3 point = Vec3::Zero();
    static constexpr std::string_view kName = "nail";
    std::array<Anchor*, 1> anchors() { return {&anchor}; }
    std::array<const Anchor*, 1> anchors() const { return {&anchor}; }
    bool operator==(const NailSpec&) const = default;
};

// Two anchors stay a fixed distance apart: C = |xa - xb| - length.
struct RodSpec {
    Anchor a;
    Anchor b;
    double length = 1.0;
    static constexpr std::string_view kName = "rod";
    std::array<Anchor*, 2> anchors() { return {&a, &b}; }
    std::array<const Anchor*, 2> anchors() const { return {&a, &b}; }
    bool operator==(const RodSpec&) const = default;
};

// A bead on a circular wire (Witkin, Constrained Dynamics, SIGGRAPH 2001 notes, bead on a wire): C = [N.(x - c), |x -
// c| - r].
struct WireSpec {
    Anchor anchor;
    Vec3 center = Vec3::Zero();
    double radius = 1.0;
    Vec3 normal = Vec3::UnitZ();  // of the wire's plane, unit length
    static constexpr std::string_view kName = "wire";
    std::array<Anchor*, 1> anchors() { return {&anchor}; }
    std::array<const Anchor*, 1> anchors() const { return {&anchor}; }
    bool operator==(const WireSpec&) const = default;
};

// A slider: the anchor stays on the line through point along direction.
struct SliderSpec {
    Anchor anchor;
    Vec3 point = Vec3::Zero();
    Vec3 direction = Vec3::UnitX();  // unit length
    static constexpr std::string_view kName = "slider";
    std::array<Anchor*, 1> anchors() { return {&anchor}; }
    std::array<const Anchor*, 1> anchors() const { return {&anchor}; }
    bool operator==(const SliderSpec&) const = default;
};

// Two anchors coincide: C = xa - xb. Between two body points it is a ball joint.
struct PinSpec {
    Anchor a = Anchor(0);
    Anchor b = Anchor(1);
    static constexpr std::string_view kName = "pin";
    std::array<Anchor*, 2> anchors() { return {&a, &b}; }
    std::array<const Anchor*, 2> anchors() const { return {&a, &b}; }
    bool operator==(const PinSpec&) const = default;
};

// A hinge between two rigid bodies: their anchors coincide (3 rows) and the hinge axis,
// fixed in each body's frame, stays the same line (2 rows: axis a is perpendicular to two
// directions perpendicular to axis b).
struct HingeSpec {
    Anchor a;
    Anchor b;
    Vec3 axisA = Vec3::UnitZ();  // unit, in body a's frame
    Vec3 axisB = Vec3::UnitZ();  // unit, in body b's frame
    static constexpr std::string_view kName = "hinge";
    std::array<Anchor*, 2> anchors() { return {&a, &b}; }
    std::array<const Anchor*, 2> anchors() const { return {&a, &b}; }
    bool operator==(const HingeSpec&) const = default;
};

using ConstraintSpec = std::variant<NailSpec, RodSpec, WireSpec, SliderSpec, PinSpec, HingeSpec>;

// Every kind of constraint: its spec holds its name and its anchors, so that whatever
// only needs those (renumbering after a deletion, drawing, picking, the file format's
// type names) handles a new kind without a case for it.
template <class F>
void forEachAnchor(ConstraintSpec& spec, F&& f) {
    std::visit(
        [&](auto& s) {
            for (Anchor* a : s.anchors()) f(*a);
        },
        spec);
}
template <class F>
void forEachAnchor(const ConstraintSpec& spec, F&& f) {
    std::visit(
        [&](const auto& s) {
            for (const Anchor* a : s.anchors()) f(*a);
        },
        spec);
}
inline std::string_view constraintName(const ConstraintSpec& spec) {
    return std::visit([](const auto& s) { return std::decay_t<decltype(s)>::kName; }, spec);
}
// Every kind's name, in the variant's order: "nail, rod, wire, slider, pin, hinge".
inline std::string constraintNames() {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
        std::string names;
        ((names += (I ? ", " : "") + std::string(std::variant_alternative_t<I, ConstraintSpec>::kName)), ...);
        return names;
    }
    (std::make_index_sequence<std::variant_size_v<ConstraintSpec>>{});
}

class Constraint;
// Throws std::invalid_argument for a degenerate description (zero length, radius or
// direction, a pin or rod from a particle to itself).
std::unique_ptr<Constraint> makeConstraint(const ConstraintSpec& spec);

}  // namespace tinkerbox
