#include "core/forces/MouseSpring.h"

#include "core/dynamics/ParticleSystem.h"

namespace tinkerbox {

MouseSpring::MouseSpring(Index particle, double stiffness, double damping, double maxForce)
    : particle_(particle), ks_(stiffness), kd_(damping), maxForce_(maxForce) {}

void MouseSpring::setTarget(const Vec3& target, const Vec3& targetVelocity) {
    target_ = target;
    targetVelocity_ = targetVelocity;
}

Vec3 MouseSpring::force(const Vec3& x, const Vec3& v) const {
    const Vec3 g = -ks_ * (x - target_) - kd_ * (v - targetVelocity_);
    const double magnitude = g.norm();
    return magnitude > maxForce_ ? Vec3(g * (maxForce_ / magnitude)) : g;
}

void MouseSpring::accumulate(const ParticleSystem& ps, VecX& f) const {
    block3(f, particle_) += force(ps.position(particle_), ps.velocity(particle_));
}

double MouseSpring::potentialEnergy(const ParticleSystem& ps) const {
    const double L = (ps.position(particle_) - target_).norm();
    const double capLength = maxForce_ / ks_;
    if (L <= capLength) return 0.5 * ks_ * L * L;
    return 0.5 * ks_ * capLength * capLength + maxForce_ * (L - capLength);
}

void MouseSpring::addJacobians(const ParticleSystem& ps, const JacobianRequest& request, BlockSparseMatrix& J) const {
    const Vec3 g = -ks_ * (ps.position(particle_) - target_) - kd_ * (ps.velocity(particle_) - targetVelocity_);
    const double magnitude = g.norm();
    Mat3 shape = Mat3::Identity();
    if (magnitude > maxForce_) {
        const Vec3 gHat = g / magnitude;
        shape = (maxForce_ / magnitude) * (Mat3::Identity() - gHat * gHat.transpose());
    }
    J.diagonal(particle_) -= (request.cx * ks_ + request.cv * kd_) * shape;
    if (request.dFdxTimesVelocity)
        block3(*request.dFdxTimesVelocity, particle_) -= ks_ * shape * ps.velocity(particle_);
}

}  // namespace tinkerbox
