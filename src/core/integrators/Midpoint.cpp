#include "core/integrators/Midpoint.h"

namespace tinkerbox {

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
