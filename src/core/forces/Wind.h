#pragma once
// Wind on cloth triangles: the air moves with w(x, t) = mean + turbulence, and each
// triangle feels a drag proportional to its area and to its velocity relative to the air:
// along its normal with the coefficient c (pressure), along its plane with ct (skin
// friction, usually much smaller; it is what holds a flag out in the wind):
//   a = (x1 - x0) x (x2 - x0) / 2 (area A = |a|, normal n = a/A),
//   u = (v0 + v1 + v2)/3 - w(centroid, t),
//   F = -c A (n . u) n - ct A (u - (n . u) n) = -(c - ct) (a . u) a/|a| - ct |a| u,
// a third of F on each corner. c and ct are linear drag coefficients, kg/(m^2 s).
// Turbulence is a sum of travelling plane waves whose directions, wave numbers,
// frequencies and phases come from a seed (deterministic in time and space; a run is
// bitwise reproducible): w_turb = sum_k s_k d_k sin(q_k . x - omega_k t + phi_k).
// Jacobians (exact): through the normal and area (dF/da), through the air's velocity at
// the centroid (dF/du dw/dx), and dF/dv = dF/du / 9 per corner pair. Definite: dF/dv
// only (negative semi-definite when c, ct >= 0), dF/dx dropped (docs/integrators.md).
#include "core/forces/ForceFieldSpec.h"
#include "core/forces/ParticleElementForce.h"

namespace tinkerbox {

class Wind final : public ParticleElementForce<3> {
public:
    explicit Wind(const WindSettings& settings);
    const WindSettings& settings() const { return settings_; }
    Index addTriangle(const std::array<Index, 3>& particles);
    // The air's velocity at x and time t, and its derivative dw/dx.
    Vec3 airVelocity(const Vec3& x, double t, Mat3* gradient = nullptr) const;

protected:
    void elementForce(const ModelState& state, Index e, const Vector& x, const Vector& v, Vector& fe) const override;
    double elementEnergy(Index, const Vector&) const override { return 0.0; }  // not a potential force
    void elementJacobians(const ModelState& state, Index e, const Vector& x, const Vector& v,
                          const JacobianRequest& request, Matrix& K, Vector& KxV) const override;

private:
    struct Wave {
        Vec3 direction;  // of the air's motion, unit
        Vec3 waveVector;
        double amplitude, angularFrequency, phase;
    };
    WindSettings settings_;
    std::vector<Wave> waves_;
};

}  // namespace tinkerbox
