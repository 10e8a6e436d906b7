#include "core/SymplecticEuler.h"

namespace tinkerbox {

void SymplecticEuler::step(MechanicalSystem& system, double h, StepReport& report) {
    const double t0 = system.time();
    system.accelerations(a_);
    ++report.derivativeEvaluations;
    system.setVelocities(system.velocities() + h * a_);
    system.drift(h);
    system.setTime(t0 + h);
}

}  // namespace tinkerbox
