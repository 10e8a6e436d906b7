#pragma once
// Pin (Witkin, Constrained Dynamics, SIGGRAPH 2001 notes, coincident points): C = xa - xb (3 rows), J_a = I, J_b = -I,
// Jdot = 0.
#include "core/constraints/Constraint.h"

namespace tinkerbox {

class PinConstraint final : public Constraint {
public:
    explicit PinConstraint(const PinSpec& spec);

    int rowCount() const override { return 3; }
    std::vector<Anchor> anchors() const override { return {spec_.a, spec_.b}; }
    void evaluate(std::span<const AnchorKinematics> anchors, ConstraintRows& rows) const override;
    ConstraintSpec spec() const override { return spec_; }

private:
    PinSpec spec_;
};

}  // namespace tinkerbox
