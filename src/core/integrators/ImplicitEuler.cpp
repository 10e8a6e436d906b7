#include "core/integrators/ImplicitEuler.h"


namespace tinkerbox {

void ImplicitEuler::step(MechanicalSystem& system, double h, StepReport& report) {
    const double t0 = system.time();
    system.setSolveTolerance(solveToleranceForOrder(1, h));

    system.appliedForces(force_);
    system.combinedJacobian(-h * h, -h, J_, dFdxV_);
    system.massBlocks(mass_, fixed_);
    ++report.derivativeEvaluations;

    // (M - h dF/dv - h^2 dF/dx) dv = h (F0 + h dF/dx v0); fixed blocks are filtered out.
    rhs_ = h * (force_ + h * dFdxV_);
    if (dv_.size() != rhs_.size()) dv_ = VecX::Zero(rhs_.size());  // otherwise warm start from the last step
    report.linearSolve = solver_.solve(J_, mass_, fixed_, rhs_, dv_, settings_);

    system.changeVelocities(dv_);
    system.driftBackward(h);
    // Constraints act after the implicit solve, by projection (see MechanicalSystem).
    system.constrainPositions(h);
    system.constrainVelocities();
    system.setTime(t0 + h);
}

}  // namespace tinkerbox
