#pragma once
// Velocity Verlet: v_half = v0 + h/2 a0, x1 = x0 + h v_half, v1 = v_half + h/2 a1.
// Second order and symplectic for position-dependent forces. For velocity-dependent
// forces (damping) a1 is evaluated at the predicted velocity v0 + h a0, which keeps
// the method second order. Constraints are kept as in RATTLE: positions projected
// after the drift (v_half takes the correction), velocities projected at the end.
#include "core/integrators/Integrator.h"

namespace tinkerbox {

extern const IntegratorKind kVelocityVerletKind;

class VelocityVerlet final : public Integrator {
public:
    const IntegratorKind& kind() const override { return kVelocityVerletKind; }
    void step(MechanicalSystem& system, double h, StepReport& report) override;

private:
    VecX a_, vHalf_;
};

}  // namespace tinkerbox
