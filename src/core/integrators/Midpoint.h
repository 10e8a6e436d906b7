#pragma once
// The midpoint method (Witkin & Baraff, Differential Equation Basics, SIGGRAPH 2001 notes, with the midpoint slip
// corrected): k = f(x0 + h/2 f(x0, t0), t0 + h/2), x1 = x0 + h k. Second order.
#include "core/integrators/Integrator.h"

namespace tinkerbox {

extern const IntegratorKind kMidpointKind;

class Midpoint final : public ExplicitIntegrator {
public:
    const IntegratorKind& kind() const override { return kMidpointKind; }
    void advance(OdeSystem& system, double h, StepReport& report) override;

private:
    VecX x0_, k_;
};

}  // namespace tinkerbox
