#include "core/integrators/SymplecticEuler.h"

namespace tinkerbox {

void SymplecticEuler::step(MechanicalSystem& system, double h, StepReport& report) {
    const double t0 = system.time();
    system.setSolveTolerance(solveToleranceForOrder(1, h));
    system.unconstrainedAccelerations(a_);
    ++report.derivativeEvaluations;
    system.setVelocities(system.velocities() + h * a_);
    system.drift(h);
    system.constrainPositions(h);
    system.constrainVelocities();
    system.setTime(t0 + h);
}

}  // namespace tinkerbox
