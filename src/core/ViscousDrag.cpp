#include "core/ViscousDrag.h"

#include "core/ParticleSystem.h"

namespace tinkerbox {

void ViscousDrag::accumulate(const ParticleSystem& ps, VecX& f) const {
    f.noalias() -= kd_ * ps.velocities();
}

void ViscousDrag::addJacobians(const ParticleSystem& ps, JacobianForm, BlockSparseMatrix&,
                               BlockSparseMatrix& dFdv) const {
    for (Index i = 0; i < ps.particleCount(); ++i) dFdv.diagonal(i).diagonal().array() -= kd_;
}

}  // namespace tinkerbox
