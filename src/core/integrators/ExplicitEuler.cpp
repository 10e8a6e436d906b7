#include "core/integrators/ExplicitEuler.h"

namespace tinkerbox {

constexpr IntegratorKind kExplicitEulerKind{
    .name = "euler",
    .summary = "Explicit Euler: first order, one force evaluation a step; spirals out on every oscillator.",
    .make = [](const IntegratorSettings&) -> std::unique_ptr<Integrator> { return std::make_unique<ExplicitEuler>(); },
};

void ExplicitEuler::advance(OdeSystem& system, double h, StepReport& report) {
    const double t0 = system.time();
    system.setSolveTolerance(solveToleranceForOrder(1, h));
    system.getState(x0_);
    system.derivative(k_);
    ++report.derivativeEvaluations;
    system.setState(x0_ + h * k_, t0 + h);
}

}  // namespace tinkerbox
