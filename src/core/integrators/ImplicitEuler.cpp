#include "core/integrators/ImplicitEuler.h"

#include <algorithm>

namespace tinkerbox {

namespace {
constexpr IntegratorParameter kImplicitEulerParameters[] = {
    {.key = "cg_tolerance",
     .option = "cg-tolerance",
     .label = "CG tolerance",
     .help = "Implicit Euler's conjugate gradients stop at this relative residual.",
     .type = ParameterType::Real,
     .min = 1e-16,
     .max = 1.0,
     .get = [](const IntegratorSettings& s) { return s.implicitSolver.tolerance; },
     .set = [](IntegratorSettings& s, double v) { s.implicitSolver.tolerance = v; }},
    {.key = "cg_max_iterations",
     .option = "cg-max-iterations",
     .label = "CG max iter.",
     .help = "Implicit Euler's conjugate gradients stop after this many iterations, whatever the residual.",
     .type = ParameterType::Count,
     .min = 1,
     .max = 1e6,
     .get = [](const IntegratorSettings& s) { return static_cast<double>(s.implicitSolver.maxIterations); },
     .set = [](IntegratorSettings& s, double v) { s.implicitSolver.maxIterations = static_cast<int>(v); }},
    {.key = "contact_filter",
     .option = "contact-filter",
     .label = "contact filter",
     .help = "Particles touching a plane or a fixed body are held on it inside the solve (Baraff & Witkin 1998, "
             "section 5.3), instead of sinking in and being pushed out by the contact model.",
     .type = ParameterType::Flag,
     .get = [](const IntegratorSettings& s) { return s.contactFilter ? 1.0 : 0.0; },
     .set = [](IntegratorSettings& s, double v) { s.contactFilter = v != 0.0; }},
};
}  // namespace

constexpr IntegratorKind kImplicitEulerKind{
    .name = "implicit-euler",
    .summary =
        "Linearized backward Euler: stable at any step on springs, at the price of damping the motion; "
        "one conjugate-gradient solve a step.",
    .capabilities = static_cast<unsigned>(IntegratorCapability::StableOnStiffSprings) |
                    static_cast<unsigned>(IntegratorCapability::ConjugateGradientSolve),
    .section = "implicit",
    .parameters = kImplicitEulerParameters,
    .make = [](const IntegratorSettings& s) -> std::unique_ptr<Integrator> {
        return std::make_unique<ImplicitEuler>(s.implicitSolver, s.contactFilter);
    },
};

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
