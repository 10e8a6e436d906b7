#pragma once
// Nail (Witkin, Constrained Dynamics, SIGGRAPH 2001 notes): C = x - p (3 rows), J = I, Jdot = 0, Cdot = v - pdot. The
// point may move: the mouse drags a nailed particle by moving its point.
#include "core/constraints/Constraint.h"

namespace tinkerbox {

class NailConstraint final : public Constraint {
public:
    explicit NailConstraint(const NailSpec& spec) : spec_(spec) {}

    void setPoint(const Vec3& point, const Vec3& velocity = Vec3::Zero()) {
        spec_.point = point;
        pointVelocity_ = velocity;
    }

    int rowCount() const override { return 3; }
    std::vector<Anchor> anchors() const override { return {spec_.anchor}; }
    void evaluate(std::span<const AnchorKinematics> anchors, ConstraintRows& rows) const override;
    ConstraintSpec spec() const override { return spec_; }

private:
    NailSpec spec_;
    Vec3 pointVelocity_ = Vec3::Zero();
};

}  // namespace tinkerbox
