#include "core/forces/Gravity.h"

#include "core/state/ModelState.h"

namespace tinkerbox {

void Gravity::accumulate(const ModelState& world, VecX& f, TwoWayParallel*) const {
    for (Index i = 0; i < world.particleCount(); ++i) block3(f, i) += world.mass(i) * g_;
    const RigidBodies& bodies = world.rigidBodies();
    for (Index k = 0; k < bodies.count(); ++k) block3(f, world.rigidBlock(k)) += bodies.mass(k) * g_;
    world.beads().addForces(g_, 0.0, f.tail(3 * world.beadCount()));
}

double Gravity::potentialEnergy(const ModelState& world) const {
    double u = 0.0;
    for (Index i = 0; i < world.particleCount(); ++i)
        if (!world.isNailed(i)) u -= world.mass(i) * g_.dot(world.position(i));
    const RigidBodies& bodies = world.rigidBodies();
    for (Index k = 0; k < bodies.count(); ++k)
        if (!bodies.isFixed(k)) u -= bodies.mass(k) * g_.dot(bodies.position(k));
    return u + world.beads().potentialEnergy(g_);
}

void Gravity::addJacobians(const ModelState& world, const JacobianRequest& request, BlockSparseMatrix& J) const {
    for (Index i = 0; i < world.beadCount(); ++i) {
        double product = 0.0;
        J.diagonal(world.beadBlock(i))(0, 0) += world.beads().jacobian(i, g_, 0.0, request.cx, 0.0, product);
        if (request.dFdxTimesVelocity) (*request.dFdxTimesVelocity)[3 * world.beadBlock(i)] += product;
    }
}

}  // namespace tinkerbox
