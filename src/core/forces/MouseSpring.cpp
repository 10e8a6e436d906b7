#include "core/forces/MouseSpring.h"

#include "core/state/ModelState.h"

namespace tinkerbox {

MouseSpring::MouseSpring(const Anchor& anchor, double stiffness, double damping, double maxForce)
    : anchor_(anchor), ks_(stiffness), kd_(damping), maxForce_(maxForce) {}

void MouseSpring::setTarget(const Vec3& target, const Vec3& targetVelocity) {
    target_ = target;
    targetVelocity_ = targetVelocity;
}

Vec3 MouseSpring::force(const Vec3& x, const Vec3& v) const {
    const Vec3 g = -ks_ * (x - target_) - kd_ * (v - targetVelocity_);
    const double magnitude = g.norm();
    return magnitude > maxForce_ ? Vec3(g * (maxForce_ / magnitude)) : g;
}

void MouseSpring::accumulate(const ModelState& state, VecX& f, TwoWayParallel*) const {
    state.applyForce(anchor_, force(state.anchorPosition(anchor_), state.anchorVelocity(anchor_)), f);
}

double MouseSpring::potentialEnergy(const ModelState& state) const {
    const double L = (state.anchorPosition(anchor_) - target_).norm();
    const double capLength = maxForce_ / ks_;
    if (L <= capLength) return 0.5 * ks_ * L * L;
    return 0.5 * ks_ * capLength * capLength + maxForce_ * (L - capLength);
}

void MouseSpring::addJacobians(const ModelState& state, const JacobianRequest& request, BlockSparseMatrix& J) const {
    const Vec3 v = state.anchorVelocity(anchor_);
    const Vec3 g = -ks_ * (state.anchorPosition(anchor_) - target_) - kd_ * (v - targetVelocity_);
    const double magnitude = g.norm();
    Mat3 shape = Mat3::Identity();
    if (magnitude > maxForce_) {
        const Vec3 gHat = g / magnitude;
        shape = (maxForce_ / magnitude) * (Mat3::Identity() - gHat * gHat.transpose());
    }
    const Index block = state.velocityBlock(anchor_.body);
    const Mat3 K = -(request.cx * ks_ + request.cv * kd_) * shape;
    J.diagonal(block) += K;
    if (request.dFdxTimesVelocity) block3(*request.dFdxTimesVelocity, block) -= ks_ * shape * v;
    if (!anchor_.isRigid()) return;
    // The grabbed point moves with v + omega x r = v - [r]x omega: the angular block feels
    // G^T K G with G = -[r]x (Baraff, Rigid Body Simulation, section 2.6).
    const Mat3 G = -skew(state.anchorPosition(anchor_) - state.rigidBodies().position(anchor_.index()));
    J.at(block, block + 1) += K * G;
    if (J.storage() == BlockSparseMatrix::Storage::Full) J.at(block + 1, block) += G.transpose() * K;
    J.diagonal(block + 1) += G.transpose() * K * G;
    if (request.dFdxTimesVelocity) block3(*request.dFdxTimesVelocity, block + 1) -= G.transpose() * (ks_ * shape * v);
}

void MouseSpring::appendProjectiveStencils(double h, std::vector<ProjectiveStencil>& out) const {
    ProjectiveStencil c;
    c.particles[0] = anchor_.index();
    c.particleCount = 1;
    c.rows = 1;
    c.coefficients[0][0] = 1.0;
    c.weight = ks_ + kd_ / h;
    out.push_back(c);
}

void MouseSpring::prepareProjections(const VecX&, double h, Index first, Index last, double* state) const {
    if (first < last) state[0] = h;
}

void MouseSpring::projectTargets(const VecX& x, const VecX& x0, Index first, Index last, const double* state,
                                 ProjectiveTarget* targets) const {
    if (first >= last) return;
    const double h = state[0];
    const Vec3 displacement = block3(x, anchor_.index()) - block3(x0, anchor_.index());
    *targets = projectiveTarget(displacement + force(block3(x, anchor_.index()), displacement / h) / (ks_ + kd_ / h));
}

void MouseSpring::appendCouplings(const ModelState& state, std::vector<std::pair<Index, Index>>& out) const {
    if (anchor_.isRigid()) out.emplace_back(state.velocityBlock(anchor_.body), state.velocityBlock(anchor_.body) + 1);
}

}  // namespace tinkerbox
