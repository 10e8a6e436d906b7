#include "core/forces/ViscousDrag.h"

#include "core/state/ModelState.h"

namespace tinkerbox {

void ViscousDrag::accumulate(const ModelState& state, VecX& f, TwoWayParallel*) const {
    if (kd_ == 0.0) return;  // a scene without drag: nothing to add, and a pile's inertias are not cheap
    const Index n3 = 3 * state.particleCount();
    f.head(n3).noalias() -= kd_ * state.velocities().head(n3);
    const RigidBodies& bodies = state.rigidBodies();
    for (Index k = 0; k < bodies.count(); ++k) {
        if (bodies.isFixed(k)) continue;
        block3(f, state.rigidBlock(k)) -= kd_ * bodies.velocity(k);
        block3(f, state.rigidBlock(k) + 1) -=
            (kd_ / bodies.mass(k)) * bodies.inertiaWorld(k) * bodies.angularVelocity(k);
    }
    state.beads().addForces(Vec3::Zero(), kd_, f.tail(3 * state.beadCount()));
}

void ViscousDrag::addJacobians(const ModelState& state, const JacobianRequest& request, BlockSparseMatrix& J) const {
    if (kd_ == 0.0) return;
    for (Index i = 0; i < state.particleCount(); ++i) J.diagonal(i).diagonal().array() -= request.cv * kd_;
    const RigidBodies& bodies = state.rigidBodies();
    for (Index k = 0; k < bodies.count(); ++k) {
        if (bodies.isFixed(k)) continue;
        J.diagonal(state.rigidBlock(k)).diagonal().array() -= request.cv * kd_;
        J.diagonal(state.rigidBlock(k) + 1) -= request.cv * (kd_ / bodies.mass(k)) * bodies.inertiaWorld(k);
    }
    for (Index i = 0; i < state.beadCount(); ++i) {
        double product = 0.0;
        J.diagonal(state.beadBlock(i))(0, 0) += state.beads().jacobian(i, Vec3::Zero(), kd_, 0.0, request.cv, product);
    }
}

}  // namespace tinkerbox
