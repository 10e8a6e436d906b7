#include "core/integrators/ImplicitEuler.h"


namespace tinkerbox {

void ImplicitEuler::step(MechanicalSystem& system, double h, StepReport& report) {
    const double t0 = system.time();
    system.setSolveTolerance(solveToleranceForOrder(1, h));

    system.appliedForces(force_);
    system.combinedJacobian(-h * h, -h, J_, dFdxV_);
    system.massBlocks(mass_, fixed_);
    ++report.derivativeEvaluations;
    filters_.clear();
    if (contactFilter_) system.velocityFilters(filters_);

    // (M - h dF/dv - h^2 dF/dx) dv = h (F0 + h dF/dx v0); fixed blocks are filtered out.
    rhs_ = h * (force_ + h * dFdxV_);
    if (dv_.size() != rhs_.size()) dv_ = VecX::Zero(rhs_.size());  // otherwise warm start from the last step
    if (filters_.empty()) {
        report.linearSolve = solver_.solve(J_, mass_, fixed_, rhs_, dv_, settings_);
    } else {
        // Blocks in contact: the projected system (VelocityFilter.h). A contact whose impulse
        // pulls is let go and the step solved once more without it (Baraff & Witkin 1998,
        // section 5.3: constraints are released when the constraint force pulls); the second
        // solve's contacts are kept whatever they do, and checked again at the next step.
        const VecX rhs = rhs_;
        filtered_.apply(filters_, J_, mass_, rhs_, dv_);
        report.linearSolve = solver_.solve(J_, mass_, fixed_, rhs_, dv_, settings_);
        filtered_.recover(dv_);
        if (filtered_.releasePulling(dv_, kept_) > 0) {
            const int iterations = report.linearSolve.iterations;
            system.combinedJacobian(-h * h, -h, J_, dFdxV_);  // the solve consumed J
            system.massBlocks(mass_, fixed_);
            rhs_ = rhs;
            filtered_.apply(kept_, J_, mass_, rhs_, dv_);
            report.linearSolve = solver_.solve(J_, mass_, fixed_, rhs_, dv_, settings_);
            report.linearSolve.iterations += iterations;
            filtered_.recover(dv_);
        }
        filtered_.impulses(dv_, impulses_);
        system.filterImpulses(filtered_.filters(), impulses_);
    }

    system.changeVelocities(dv_);
    system.driftBackward(h);
    // Constraints act after the implicit solve, by projection (see MechanicalSystem).
    system.constrainPositions(h);
    system.constrainVelocities();
    system.setTime(t0 + h);
}

}  // namespace tinkerbox
