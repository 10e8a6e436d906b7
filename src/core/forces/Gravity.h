#pragma once
// Uniform gravity f = m g on every free particle (Witkin, Particle System Dynamics, SIGGRAPH 2001 notes, unary force).
#include "core/forces/Force.h"

namespace tinkerbox {

class Gravity final : public Force {
public:
    explicit Gravity(const Vec3& g) : g_(g) {}

    const Vec3& acceleration() const { return g_; }
    void setAcceleration(const Vec3& g) { g_ = g; }

    void accumulate(const ParticleSystem& ps, VecX& f) const override;
    // U = -sum m g.x over free particles (nailed ones cannot exchange energy).
    double potentialEnergy(const ParticleSystem& ps) const override;

private:
    Vec3 g_;
};

}  // namespace tinkerbox
