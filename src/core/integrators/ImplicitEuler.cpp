#include "core/integrators/ImplicitEuler.h"

#include <algorithm>

namespace tinkerbox {

void ImplicitEuler::step(MechanicalSystem& system, double h, StepReport& report) {
    const double t0 = system.time();
    system.setSolveTolerance(solveToleranceForOrder(1, h));

    system.appliedForcesAndCombinedJacobian(force_, -h * h, -h, J_, dFdxV_, &solver_.parallel());
    system.massBlocks(mass_, fixed_);
    ++report.derivativeEvaluations;
    filters_.clear();
    if (contactFilter_) system.velocityFilters(filters_);
    // Baraff & Witkin 1998, section 5.3: a constraint whose force pulled is released. A contact
    // that pulled in the last step is left out of this one, so the particle can leave (if it
    // does not, the contact model catches it, and the filter holds it again from the next
    // step); releasing it at once would take a second solve.
    if (!released_.empty())
        std::erase_if(filters_, [&](const VelocityFilter& f) {
            return std::binary_search(released_.begin(), released_.end(), f.block);
        });

    // (M - h dF/dv - h^2 dF/dx) dv = h (F0 + h dF/dx v0); fixed blocks are filtered out.
    rhs_ = h * (force_ + h * dFdxV_);
    warmStart_.predict(rhs_.size(), dv_);
    if (filters_.empty()) {
        released_.clear();
        impulses_.clear();
        report.linearSolve = solver_.solve(J_, mass_, fixed_, rhs_, dv_, settings_);
    } else {
        filtered_.apply(filters_, J_, mass_, rhs_, dv_);
        report.linearSolve = solver_.solve(J_, mass_, fixed_, rhs_, dv_, settings_);
        filtered_.recover(dv_);
        filtered_.impulses(dv_, impulses_);
        filtered_.pulling(impulses_, released_);
        std::sort(released_.begin(), released_.end());
    }
    warmStart_.record(dv_);
    if (contactFilter_) system.filterImpulses(filters_, impulses_);

    system.changeVelocities(dv_);
    system.driftBackward(h);
    // Constraints act after the implicit solve, by projection (see MechanicalSystem).
    system.constrainPositions(h);
    system.constrainVelocities();
    system.setTime(t0 + h);
}

void ImplicitEuler::saveMemory(VecX& memory) const {
    const Index released = static_cast<Index>(released_.size());
    memory.resize(1 + released + warmStart_.memorySize());
    memory[0] = static_cast<double>(released);
    for (Index k = 0; k < released; ++k) memory[1 + k] = static_cast<double>(released_[k]);
    warmStart_.save(memory, 1 + released);
}

void ImplicitEuler::restoreMemory(const VecX& memory) {
    released_.clear();
    const Index released = memory.size() == 0 ? 0 : static_cast<Index>(memory[0]);
    for (Index k = 0; k < released; ++k) released_.push_back(static_cast<Index>(memory[1 + k]));
    warmStart_.restore(memory, 1 + released);
}

}  // namespace tinkerbox
