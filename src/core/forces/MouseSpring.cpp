#include "core/forces/MouseSpring.h"

#include "core/dynamics/World.h"

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

void MouseSpring::accumulate(const World& world, VecX& f) const {
    world.applyForce(anchor_, force(world.anchorPosition(anchor_), world.anchorVelocity(anchor_)), f);
}

double MouseSpring::potentialEnergy(const World& world) const {
    const double L = (world.anchorPosition(anchor_) - target_).norm();
    const double capLength = maxForce_ / ks_;
    if (L <= capLength) return 0.5 * ks_ * L * L;
    return 0.5 * ks_ * capLength * capLength + maxForce_ * (L - capLength);
}

void MouseSpring::addJacobians(const World& world, const JacobianRequest& request, BlockSparseMatrix& J) const {
    const Vec3 v = world.anchorVelocity(anchor_);
    const Vec3 g = -ks_ * (world.anchorPosition(anchor_) - target_) - kd_ * (v - targetVelocity_);
    const double magnitude = g.norm();
    Mat3 shape = Mat3::Identity();
    if (magnitude > maxForce_) {
        const Vec3 gHat = g / magnitude;
        shape = (maxForce_ / magnitude) * (Mat3::Identity() - gHat * gHat.transpose());
    }
    const Index block = world.velocityBlock(anchor_.body);
    J.diagonal(block) -= (request.cx * ks_ + request.cv * kd_) * shape;
    if (request.dFdxTimesVelocity) block3(*request.dFdxTimesVelocity, block) -= ks_ * shape * v;
}

}  // namespace tinkerbox
