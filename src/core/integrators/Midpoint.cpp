#include "core/integrators/Midpoint.h"

namespace tinkerbox {

constexpr IntegratorKind kMidpointKind{
    .name = "midpoint",
    .summary = "The midpoint method: second order, two force evaluations a step.",
    .make = [](const IntegratorSettings&) -> std::unique_ptr<Integrator> { return std::make_unique<Midpoint>(); },
};

void Midpoint::advance(OdeSystem& system, double h, StepReport& report) {
    const double t0 = system.time();
    system.setSolveTolerance(solveToleranceForOrder(2, h));
    system.getState(x0_);
    system.derivative(k_);
    system.setState(x0_ + (0.5 * h) * k_, t0 + 0.5 * h);
    system.derivative(k_);
    report.derivativeEvaluations += 2;
    system.setState(x0_ + h * k_, t0 + h);
}

}  // namespace tinkerbox
