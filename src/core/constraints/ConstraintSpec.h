#pragma once
// The constraint types, as plain descriptions (what a scene file holds). Each names its kind
// (ConstraintKind.h: its name, file format, drawing and factory), defined with its class.
#include <array>
#include <memory>
#include <string_view>
#include <variant>

#include "core/bodies/Anchor.h"
#include "core/math/Rotation.h"

namespace tinkerbox {

struct ConstraintKind;
class Constraint;

// Ends are anchors: a particle, or a point of a rigid body (Anchor.h).
// The anchor stays at a point; the point may move (the mouse drags it).
struct NailSpec {
    Anchor anchor;
    Vec3 point = Vec3::Zero();
    static const ConstraintKind kind;
    std::array<Vec3*, 1> worldPoints() { return {&point}; }
    std::array<const Vec3*, 1> worldPoints() const { return {&point}; }
    std::array<Anchor*, 1> anchors() { return {&anchor}; }
    std::array<const Anchor*, 1> anchors() const { return {&anchor}; }
    bool operator==(const NailSpec&) const = default;
};

// Two anchors stay a fixed distance apart: C = |xa - xb| - length.
struct RodSpec {
    Anchor a;
    Anchor b;
    double length = 1.0;
    static const ConstraintKind kind;
    std::array<Vec3*, 0> worldPoints() { return {}; }
    std::array<const Vec3*, 0> worldPoints() const { return {}; }
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
    static const ConstraintKind kind;
    std::array<Vec3*, 1> worldPoints() { return {&center}; }
    std::array<const Vec3*, 1> worldPoints() const { return {&center}; }
    std::array<Anchor*, 1> anchors() { return {&anchor}; }
    std::array<const Anchor*, 1> anchors() const { return {&anchor}; }
    bool operator==(const WireSpec&) const = default;
};

// A slider: the anchor stays on the line through point along direction.
struct SliderSpec {
    Anchor anchor;
    Vec3 point = Vec3::Zero();
    Vec3 direction = Vec3::UnitX();  // unit length
    static const ConstraintKind kind;
    std::array<Vec3*, 1> worldPoints() { return {&point}; }
    std::array<const Vec3*, 1> worldPoints() const { return {&point}; }
    std::array<Anchor*, 1> anchors() { return {&anchor}; }
    std::array<const Anchor*, 1> anchors() const { return {&anchor}; }
    bool operator==(const SliderSpec&) const = default;
};

// Two anchors coincide: C = xa - xb. Between two body points it is a ball joint.
struct PinSpec {
    Anchor a = Anchor(0);
    Anchor b = Anchor(1);
    static const ConstraintKind kind;
    std::array<Vec3*, 0> worldPoints() { return {}; }
    std::array<const Vec3*, 0> worldPoints() const { return {}; }
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
    static const ConstraintKind kind;
    std::array<Vec3*, 0> worldPoints() { return {}; }
    std::array<const Vec3*, 0> worldPoints() const { return {}; }
    std::array<Anchor*, 2> anchors() { return {&a, &b}; }
    std::array<const Anchor*, 2> anchors() const { return {&a, &b}; }
    bool operator==(const HingeSpec&) const = default;
};

using ConstraintSpec = std::variant<NailSpec, RodSpec, WireSpec, SliderSpec, PinSpec, HingeSpec>;

// Every kind of constraint: its spec holds its anchors and the places in the world it holds
// them to, so that whatever only needs those (renumbering after a deletion, moving a pasted
// copy) handles a new kind without a case for it.
// Spec: a ConstraintSpec, const or not (f then gets Anchor& or const Anchor&).
template <class Spec, class F>
void forEachAnchor(Spec&& spec, F&& f) {
    std::visit(
        [&](auto&& s) {
            for (auto* a : s.anchors()) f(*a);
        },
        spec);
}
// Whether any of its anchors is one pred accepts.
template <class Pred>
bool anyAnchor(const ConstraintSpec& spec, Pred&& pred) {
    bool any = false;
    forEachAnchor(spec, [&](const Anchor& a) { any = any || pred(a); });
    return any;
}
// f(a, b) for each anchor and the next: the lines the view draws and picks between them.
template <class F>
void forEachAnchorLink(const ConstraintSpec& spec, F&& f) {
    const Anchor* previous = nullptr;
    forEachAnchor(spec, [&](const Anchor& a) {
        if (previous) f(*previous, a);
        previous = &a;
    });
}
// The points in the world (a nail's point, a wire's centre), not on its anchors.
template <class Spec, class F>
void forEachWorldPoint(Spec&& spec, F&& f) {
    std::visit(
        [&](auto&& s) {
            for (auto* x : s.worldPoints()) f(*x);
        },
        spec);
}

// Its kind's name and its factory (ConstraintKind.h), for whatever holds only a spec. The
// factory throws std::invalid_argument for a degenerate description (zero length, radius or
// direction, a pin or rod from a particle to itself).
std::string_view constraintName(const ConstraintSpec& spec);
std::unique_ptr<Constraint> makeConstraint(const ConstraintSpec& spec);

}  // namespace tinkerbox
