#include "core/VelocityVerlet.h"

namespace tinkerbox {

void VelocityVerlet::step(MechanicalSystem& system, double h, StepReport& report) {
    const double t0 = system.time();
    system.accelerations(a_);
    vHalf_ = system.velocities() + (0.5 * h) * a_;
    system.setVelocities(vHalf_);
    system.drift(h);
    system.setTime(t0 + h);
    system.setVelocities(vHalf_ + (0.5 * h) * a_);  // predicted v1 for the damping forces
    system.accelerations(a_);
    report.derivativeEvaluations += 2;
    system.setVelocities(vHalf_ + (0.5 * h) * a_);
}

}  // namespace tinkerbox
