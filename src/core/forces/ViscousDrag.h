#pragma once
// Viscous drag f = -kd v on every particle (Witkin, Particle System Dynamics, SIGGRAPH 2001 notes): it damps motion
// relative to the still air and makes a model come to rest.
#include "core/forces/Force.h"

namespace tinkerbox {

class ViscousDrag final : public Force {
public:
    explicit ViscousDrag(double kd) : kd_(kd) {}

    double coefficient() const { return kd_; }
    void setCoefficient(double kd) { kd_ = kd; }

    void accumulate(const ParticleSystem& ps, VecX& f) const override;
    // dF/dv = -kd I on every diagonal block; dF/dx = 0.
    void addJacobians(const ParticleSystem& ps, const JacobianRequest& request, BlockSparseMatrix& J) const override;

private:
    double kd_;
};

}  // namespace tinkerbox
