#include "core/integrators/VelocityVerlet.h"

namespace tinkerbox {

constexpr IntegratorKind kVelocityVerletKind{
    .name = "verlet",
    .summary = "Velocity Verlet: second order and symplectic, one force evaluation a step.",
    .make = [](const IntegratorSettings&) -> std::unique_ptr<Integrator> { return std::make_unique<VelocityVerlet>(); },
};

void VelocityVerlet::step(MechanicalSystem& system, double h, StepReport& report) {
    const double t0 = system.time();
    system.setSolveTolerance(solveToleranceForOrder(2, h));
    system.unconstrainedAccelerations(a_);
    system.setVelocities(system.velocities() + (0.5 * h) * a_);
    system.drift(h);
    system.setTime(t0 + h);
    system.constrainPositions(h);  // RATTLE: back onto C = 0; v_half takes the correction
    vHalf_ = system.velocities();
    system.setVelocities(vHalf_ + (0.5 * h) * a_);  // predicted v1 for the damping forces
    system.unconstrainedAccelerations(a_);
    report.derivativeEvaluations += 2;
    system.setVelocities(vHalf_ + (0.5 * h) * a_);
    system.constrainVelocities();  // RATTLE: J v1 = 0
}

}  // namespace tinkerbox
