#include "core/integrators/RungeKutta4.h"

namespace tinkerbox {

constexpr IntegratorKind kRungeKutta4Kind{
    .name = "rk4",
    .summary = "Classical Runge-Kutta: fourth order, four force evaluations a step.",
    .make = [](const IntegratorSettings&) -> std::unique_ptr<Integrator> { return std::make_unique<RungeKutta4>(); },
};

void RungeKutta4Step::operator()(OdeSystem& system, const VecX& x0, double t0, const VecX& f0, double h, VecX& x1) {
    // sum_ accumulates k1 + 2 k2 + 2 k3 + k4 (in units of f; scaled by h/6 at the end).
    sum_ = f0;
    system.setState(x0 + (0.5 * h) * f0, t0 + 0.5 * h);
    system.derivative(k_);
    sum_ += 2.0 * k_;
    system.setState(x0 + (0.5 * h) * k_, t0 + 0.5 * h);
    system.derivative(k_);
    sum_ += 2.0 * k_;
    system.setState(x0 + h * k_, t0 + h);
    system.derivative(k_);
    sum_ += k_;
    x1 = x0 + (h / 6.0) * sum_;
    system.setState(x1, t0 + h);
}

void RungeKutta4::advance(OdeSystem& system, double h, StepReport& report) {
    const double t0 = system.time();
    system.setSolveTolerance(solveToleranceForOrder(4, h));
    system.getState(x0_);
    system.derivative(f0_);
    step_(system, x0_, t0, f0_, h, x1_);
    report.derivativeEvaluations += 4;
}

}  // namespace tinkerbox
