#pragma once
// The constraint types, as plain descriptions (what a scene file holds), and the
// factory that turns one into a Constraint.
#include <memory>
#include <variant>

#include "core/math/Types.h"

namespace tinkerbox {

// The particle stays at a point; the point may move (the mouse drags it).
struct NailSpec {
    Index particle = 0;
    Vec3 point = Vec3::Zero();
    bool operator==(const NailSpec&) const = default;
};

// Two particles stay a fixed distance apart: C = |xa - xb| - length.
struct RodSpec {
    Index a = 0;
    Index b = 0;
    double length = 1.0;
    bool operator==(const RodSpec&) const = default;
};

// A bead on a circular wire (Witkin, Constrained Dynamics, SIGGRAPH 2001 notes, bead on a wire): C = [N.(x - c), |x - c| - r].
struct WireSpec {
    Index particle = 0;
    Vec3 center = Vec3::Zero();
    double radius = 1.0;
    Vec3 normal = Vec3::UnitZ();  // of the wire's plane, unit length
    bool operator==(const WireSpec&) const = default;
};

// A slider: the particle stays on the line through point along direction.
struct SliderSpec {
    Index particle = 0;
    Vec3 point = Vec3::Zero();
    Vec3 direction = Vec3::UnitX();  // unit length
    bool operator==(const SliderSpec&) const = default;
};

// Two particles coincide: C = xa - xb.
struct PinSpec {
    Index a = 0;
    Index b = 1;
    bool operator==(const PinSpec&) const = default;
};

using ConstraintSpec = std::variant<NailSpec, RodSpec, WireSpec, SliderSpec, PinSpec>;

class Constraint;
// Throws std::invalid_argument for a degenerate description (zero length, radius or
// direction, a pin or rod from a particle to itself).
std::unique_ptr<Constraint> makeConstraint(const ConstraintSpec& spec);

// Two unit vectors that complete a unit vector n to a right-handed orthonormal frame
// (u, w, n); for n = z it is (x, y).
void orthonormalComplement(const Vec3& n, Vec3& u, Vec3& w);

}  // namespace tinkerbox
