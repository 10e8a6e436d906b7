#pragma once
// Rod (Witkin, Constrained Dynamics, SIGGRAPH 2001 notes, distance constraint): C = |l| - L with l = xa - xb, n =
// l/|l|: J_a = n^T, J_b = -n^T, Cdot = n.(va - vb), Jdot_a = (ldot - (n.ldot) n)^T / |l|.
#include "core/constraints/Constraint.h"

namespace tinkerbox {

class RodConstraint final : public Constraint {
public:
    explicit RodConstraint(const RodSpec& spec);

    int rowCount() const override { return 1; }
    std::vector<Anchor> anchors() const override { return {spec_.a, spec_.b}; }
    void evaluate(std::span<const AnchorKinematics> anchors, ConstraintRows& rows) const override;
    double scale() const override { return spec_.length; }
    ConstraintSpec spec() const override { return spec_; }

private:
    RodSpec spec_;
};

}  // namespace tinkerbox
