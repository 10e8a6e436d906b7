#pragma once
// Classical fourth-order Runge-Kutta (Witkin & Baraff, Differential Equation Basics, SIGGRAPH 2001 notes):
// k1 = h f(x0, t0), k2 = h f(x0 + k1/2, t0 + h/2), k3 = h f(x0 + k2/2, t0 + h/2),
// k4 = h f(x0 + k3, t0 + h), x1 = x0 + k1/6 + k2/3 + k3/3 + k4/6.
#include "core/integrators/Integrator.h"

namespace tinkerbox {

extern const IntegratorKind kRungeKutta4Kind;

// One RK4 step from (x0, t0) whose first slope f(x0, t0) is already known.
// Leaves the system at (x1, t0 + h). Costs three derivative evaluations.
class RungeKutta4Step {
public:
    void operator()(OdeSystem& system, const VecX& x0, double t0, const VecX& f0, double h, VecX& x1);

private:
    VecX k_, sum_;
};

class RungeKutta4 final : public ExplicitIntegrator {
public:
    const IntegratorKind& kind() const override { return kRungeKutta4Kind; }
    void advance(OdeSystem& system, double h, StepReport& report) override;

private:
    RungeKutta4Step step_;
    VecX x0_, f0_, x1_;
};

}  // namespace tinkerbox
