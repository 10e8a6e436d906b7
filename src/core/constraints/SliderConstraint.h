#pragma once
// A slider: the particle stays on the line through p along the unit direction d. With
// (u, w) completing d to an orthonormal frame, C = [u.(x - p), w.(x - p)], J = [u; w],
// Jdot = 0.
#include "core/constraints/Constraint.h"

namespace tinkerbox {

class SliderConstraint final : public Constraint {
public:
    explicit SliderConstraint(const SliderSpec& spec);

    int rowCount() const override { return 2; }
    std::vector<Anchor> anchors() const override { return {spec_.anchor}; }
    void evaluate(std::span<const AnchorKinematics> anchors, ConstraintRows& rows) const override;
    ConstraintSpec spec() const override { return spec_; }

private:
    SliderSpec spec_;
    Vec3 u_, w_;
};

}  // namespace tinkerbox
