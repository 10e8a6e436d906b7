#include "core/forces/Gravity.h"

#include "core/dynamics/ParticleSystem.h"

namespace tinkerbox {

void Gravity::accumulate(const ParticleSystem& ps, VecX& f) const {
    for (Index i = 0; i < ps.particleCount(); ++i) block3(f, i) += ps.mass(i) * g_;
}

double Gravity::potentialEnergy(const ParticleSystem& ps) const {
    double u = 0.0;
    for (Index i = 0; i < ps.particleCount(); ++i)
        if (!ps.isNailed(i)) u -= ps.mass(i) * g_.dot(ps.position(i));
    return u;
}

}  // namespace tinkerbox
