#include "core/forces/Gravity.h"

#include "core/state/ModelState.h"

namespace tinkerbox {

void Gravity::accumulate(const ModelState& state, VecX& f, TwoWayParallel*) const {
    for (Index i = 0; i < state.particleCount(); ++i) block3(f, i) += state.mass(i) * g_;
    const RigidBodies& bodies = state.rigidBodies();
    for (Index k = 0; k < bodies.count(); ++k) block3(f, state.rigidBlock(k)) += bodies.mass(k) * g_;
    state.beads().addForces(g_, 0.0, f.tail(3 * state.beadCount()));
}

double Gravity::potentialEnergy(const ModelState& state) const {
    double u = 0.0;
    for (Index i = 0; i < state.particleCount(); ++i)
        if (!state.isNailed(i)) u -= state.mass(i) * g_.dot(state.position(i));
    const RigidBodies& bodies = state.rigidBodies();
    for (Index k = 0; k < bodies.count(); ++k)
        if (!bodies.isFixed(k)) u -= bodies.mass(k) * g_.dot(bodies.position(k));
    return u + state.beads().potentialEnergy(g_);
}

void Gravity::addJacobians(const ModelState& state, const JacobianRequest& request, BlockSparseMatrix& J) const {
    for (Index i = 0; i < state.beadCount(); ++i) {
        double product = 0.0;
        J.diagonal(state.beadBlock(i))(0, 0) += state.beads().jacobian(i, g_, 0.0, request.cx, 0.0, product);
        if (request.dFdxTimesVelocity) (*request.dFdxTimesVelocity)[3 * state.beadBlock(i)] += product;
    }
}

}  // namespace tinkerbox
