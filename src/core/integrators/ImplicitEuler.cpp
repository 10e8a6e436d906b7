#include "core/integrators/ImplicitEuler.h"

#include <Eigen/LU>  // Mat3::inverse() is only declared by Eigen/Core

namespace tinkerbox {

void ImplicitEuler::step(MechanicalSystem& system, double h, StepReport& report) {
    const double t0 = system.time();
    system.setSolveTolerance(solveToleranceForOrder(1, h));
    const VecX& W = system.inverseMassPerDof();
    const Index blocks = system.velocityDimension() / 3;
    const VecX v0 = system.velocities();

    system.appliedForces(force_);
    system.combinedJacobian(-h * h, -h, J_, dFdxV_);
    ++report.derivativeEvaluations;

    // (M - h dF/dv - h^2 dF/dx) dv = h (F0 + h dF/dx v0); fixed particles are filtered out.
    rhs_ = h * (force_ + h * dFdxV_);
    fixed_.resize(blocks);
    mass_.resize(blocks);
    for (Index i = 0; i < blocks; ++i) {
        fixed_[i] = W[3 * i] == 0.0;
        mass_[i] = fixed_[i] ? 0.0 : 1.0 / W[3 * i];
    }
    if (dv_.size() != v0.size()) dv_ = VecX::Zero(v0.size());  // otherwise warm start from the last step
    report.linearSolve = solver_.solve(J_, mass_, fixed_, rhs_, dv_, settings_);

    system.setVelocities(v0 + dv_);
    system.drift(h);
    // Constraints act after the implicit solve, by projection (see MechanicalSystem).
    system.constrainPositions(h);
    system.constrainVelocities();
    system.setTime(t0 + h);
}

}  // namespace tinkerbox
