#pragma once
// The mouse spring (Witkin, Particle System Dynamics, SIGGRAPH 2001 notes, "Drag"): a grabbed particle is tied to the cursor
// by a zero-rest-length damped spring, f = -ks (x - y) - kd (v - ydot), with its
// magnitude capped so that a fast flick cannot blow the model apart. The particle is
// never moved directly.
#include "core/forces/Force.h"

namespace tinkerbox {

class MouseSpring final : public Force {
public:
    MouseSpring(Index particle, double stiffness, double damping, double maxForce);

    Index particle() const { return particle_; }
    const Vec3& target() const { return target_; }
    // The target moves with the cursor; its velocity enters the damping term.
    void setTarget(const Vec3& target, const Vec3& targetVelocity = Vec3::Zero());

    // The force at position x, velocity v (capped).
    Vec3 force(const Vec3& x, const Vec3& v) const;

    void accumulate(const ParticleSystem& ps, VecX& f) const override;
    // Energy of the capped spring: ks L^2/2 while ks L <= cap, then grows linearly.
    double potentialEnergy(const ParticleSystem& ps) const override;
    // Uncapped: -ks I and -kd I. Capped (f = c g/|g|): both scaled by c/|g| (I - g g^T/|g|^2).
    void addJacobians(const ParticleSystem& ps, const JacobianRequest& request, BlockSparseMatrix& J) const override;

private:
    Index particle_;
    double ks_, kd_, maxForce_;
    Vec3 target_ = Vec3::Zero();
    Vec3 targetVelocity_ = Vec3::Zero();
};

}  // namespace tinkerbox
