#pragma once
// Error-controlled RK4 by step doubling (Witkin & Baraff, Differential Equation Basics, SIGGRAPH 2001 notes, "adaptive
// stepsizes"): xa = one step of h, xb = two steps of h/2. For a method of order p = 4 the error of xb is about e = |xb
// - xa| / (2^p - 1); a step is accepted when e <= tolerance (per component, mixed absolute/relative: |e_i| <= tol (1 +
// |x_i|)), and the next step is h (tol/e)^(1/(p+1)) times a safety factor. The accepted state is xb + (xb - xa)/15
// (Richardson extrapolation, fifth order). One call advances exactly the h it is given, in as many internal steps as
// the tolerance needs; the step sizes it took are reported.
#include "core/integrators/Integrator.h"
#include "core/integrators/RungeKutta4.h"

namespace tinkerbox {

extern const IntegratorKind kAdaptiveKind;

class AdaptiveRungeKutta final : public ExplicitIntegrator {
public:
    explicit AdaptiveRungeKutta(double tolerance) : tolerance_(tolerance) {}

    const IntegratorKind& kind() const override { return kAdaptiveKind; }
    void advance(OdeSystem& system, double h, StepReport& report) override;

    double tolerance() const { return tolerance_; }
    // The step size the controller would try next (0 before the first step).
    double suggestedStep() const { return suggested_; }
    void saveMemory(VecX& memory) const override { memory = VecX::Constant(1, suggested_); }
    void restoreMemory(const VecX& memory) override { suggested_ = memory.size() == 1 ? memory[0] : 0.0; }

private:
    double tolerance_;
    double suggested_ = 0.0;
    RungeKutta4Step rk4_;
    VecX x0_, f0_, xa_, xm_, fm_, xb_;
};

}  // namespace tinkerbox
