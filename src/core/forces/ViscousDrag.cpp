#include "core/forces/ViscousDrag.h"

#include "core/state/ModelState.h"

namespace tinkerbox {

void ViscousDrag::accumulate(const ModelState& world, VecX& f, TwoWayParallel*) const {
    if (kd_ == 0.0) return;  // a scene without drag: nothing to add, and a pile's inertias are not cheap
    const Index n3 = 3 * world.particleCount();
    f.head(n3).noalias() -= kd_ * world.velocities().head(n3);
    const RigidBodies& bodies = world.rigidBodies();
    for (Index k = 0; k < bodies.count(); ++k) {
        if (bodies.isFixed(k)) continue;
        block3(f, world.rigidBlock(k)) -= kd_ * bodies.velocity(k);
        block3(f, world.rigidBlock(k) + 1) -=
            (kd_ / bodies.mass(k)) * bodies.inertiaWorld(k) * bodies.angularVelocity(k);
    }
    world.beads().addForces(Vec3::Zero(), kd_, f.tail(3 * world.beadCount()));
}

void ViscousDrag::addJacobians(const ModelState& world, const JacobianRequest& request, BlockSparseMatrix& J) const {
    if (kd_ == 0.0) return;
    for (Index i = 0; i < world.particleCount(); ++i) J.diagonal(i).diagonal().array() -= request.cv * kd_;
    const RigidBodies& bodies = world.rigidBodies();
    for (Index k = 0; k < bodies.count(); ++k) {
        if (bodies.isFixed(k)) continue;
        J.diagonal(world.rigidBlock(k)).diagonal().array() -= request.cv * kd_;
        J.diagonal(world.rigidBlock(k) + 1) -= request.cv * (kd_ / bodies.mass(k)) * bodies.inertiaWorld(k);
    }
    for (Index i = 0; i < world.beadCount(); ++i) {
        double product = 0.0;
        J.diagonal(world.beadBlock(i))(0, 0) += world.beads().jacobian(i, Vec3::Zero(), kd_, 0.0, request.cv, product);
    }
}

}  // namespace tinkerbox
