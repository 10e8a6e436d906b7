#pragma once
// A hinge between two rigid bodies: the anchors coincide, C_0..2 = pa - pb (a ball
// joint), and the axis a (fixed in body a) stays perpendicular to two directions b1, b2
// fixed in body b perpendicular to its axis, C_3,4 = a . b_i: the bodies turn about the
// shared axis only. With omega_a, omega_b the bodies' angular velocities,
//   Cdot_i = (omega_a x a) . b_i + a . (omega_b x b_i) = (a x b_i) . (omega_a - omega_b),
// so the rows' angular parts are +-(a x b_i) (Baraff, Rigid Body Simulation, SIGGRAPH
// 2001 notes, section 2.5: the rate of a vector fixed in a body is omega x it).
#include "core/constraints/Constraint.h"

namespace tinkerbox {

class HingeConstraint final : public Constraint {
public:
    // Throws std::invalid_argument unless both ends are points of two different bodies
    // and both axes are finite and not zero.
    explicit HingeConstraint(const HingeSpec& spec);

    int rowCount() const override { return 5; }
    std::vector<Anchor> anchors() const override { return {spec_.a, spec_.b}; }
    void evaluate(std::span<const AnchorKinematics> anchors, ConstraintRows& rows) const override;
    ConstraintSpec spec() const override { return spec_; }

private:
    HingeSpec spec_;
    Vec3 b1_, b2_;  // in body b's frame, perpendicular to its axis
};

}  // namespace tinkerbox
