#pragma once
// Viscous drag f = -kd v on every particle (Witkin, Particle System Dynamics, SIGGRAPH 2001 notes): it damps motion
// relative to the still air and makes a model come to rest. A rigid body of mass m takes
// it as drag kd / m on each of its mass elements: the force -kd v at its centre of mass
// and the torque -(kd / m) I omega; a bead the part along its wire.
#include "core/forces/Force.h"

namespace tinkerbox {

class ViscousDrag final : public Force {
public:
    explicit ViscousDrag(double kd) : kd_(kd) {}

    double coefficient() const { return kd_; }
    void setCoefficient(double kd) { kd_ = kd; }

    void accumulate(const ModelState& state, VecX& f, TwoWayParallel* parallel) const override;
    // dF/dv = -kd I on every particle's block, -(kd / m) I_world on a body's angular one; dF/dx = 0.
    void addJacobians(const ModelState& state, const JacobianRequest& request, BlockSparseMatrix& J) const override;

private:
    double kd_;
};

}  // namespace tinkerbox
