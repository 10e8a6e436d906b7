#include "core/forces/ViscousDrag.h"

#include "core/dynamics/ParticleSystem.h"

namespace tinkerbox {

void ViscousDrag::accumulate(const ParticleSystem& ps, VecX& f) const {
    f.noalias() -= kd_ * ps.velocities();
}

void ViscousDrag::addJacobians(const ParticleSystem& ps, const JacobianRequest& request, BlockSparseMatrix& J) const {
    for (Index i = 0; i < ps.particleCount(); ++i) J.diagonal(i).diagonal().array() -= request.cv * kd_;
}

}  // namespace tinkerbox
