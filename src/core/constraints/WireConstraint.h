#pragma once
// A bead on a circular wire (Witkin, Constrained Dynamics, SIGGRAPH 2001 notes, "point-on-circle"), centre c,
// radius r, plane normal N. Two rows: the plane, C0 = N.(x - c), J0 = N^T, Jdot0 = 0; and
// the circle, C1 = |x - c| - r with n = (x - c)/|x - c|, J1 = n^T,
// Jdot1 = (v - (n.v) n)^T / |x - c| (the notes' Ndot). In a plane of its own the bead's
// multiplier is the closed form of the bead-on-a-wire example in Witkin's Constrained Dynamics notes: lambda = [m
// (x.xdot)^2/(x.x) - m xdot.xdot - x.f]/|x|.
#include "core/constraints/Constraint.h"

namespace tinkerbox {

class WireConstraint final : public Constraint {
public:
    explicit WireConstraint(const WireSpec& spec);

    int rowCount() const override { return 2; }
    std::vector<Anchor> anchors() const override { return {spec_.anchor}; }
    void evaluate(std::span<const AnchorKinematics> anchors, ConstraintRows& rows) const override;
    double scale() const override { return spec_.radius; }
    ConstraintSpec spec() const override { return spec_; }

private:
    WireSpec spec_;
};

}  // namespace tinkerbox
