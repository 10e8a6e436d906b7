#include "core/integrators/SymplecticEuler.h"

namespace tinkerbox {

constexpr IntegratorKind kSymplecticEulerKind{
    .name = "symplectic-euler",
    .summary = "Symplectic Euler: first order, one force evaluation a step; the energy stays near its start.",
    .make = [](const IntegratorSettings&) -> std::unique_ptr<Integrator> {
        return std::make_unique<SymplecticEuler>();
    },
};

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
