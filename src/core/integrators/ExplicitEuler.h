#pragma once
// Euler's method (Witkin & Baraff, Differential Equation Basics, SIGGRAPH 2001 notes): x1 = x0 + h f(x0, t0). First
// order; spirals outward on an undamped oscillator and is unstable for h > 2/k on x' = -kx.
#include "core/integrators/Integrator.h"

namespace tinkerbox {

extern const IntegratorKind kExplicitEulerKind;

class ExplicitEuler final : public ExplicitIntegrator {
public:
    const IntegratorKind& kind() const override { return kExplicitEulerKind; }
    void advance(OdeSystem& system, double h, StepReport& report) override;

private:
    VecX x0_, k_;
};

}  // namespace tinkerbox
