#pragma once
// Symplectic (semi-implicit) Euler: v1 = v0 + h a(x0, v0), x1 = x0 + h v1.
// First order, but it conserves a nearby energy: an undamped oscillator neither
// spirals out (Euler) nor in (implicit Euler). Constraints are kept by projection
// (MechanicalSystem::constrainPositions, constrainVelocities), as in RATTLE.
#include "core/integrators/Integrator.h"

namespace tinkerbox {

extern const IntegratorKind kSymplecticEulerKind;

class SymplecticEuler final : public Integrator {
public:
    const IntegratorKind& kind() const override { return kSymplecticEulerKind; }
    void step(MechanicalSystem& system, double h, StepReport& report) override;

private:
    VecX a_;
};

}  // namespace tinkerbox
