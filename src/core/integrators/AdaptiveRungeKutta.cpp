#include "core/integrators/AdaptiveRungeKutta.h"

#include <algorithm>
#include <cmath>

namespace tinkerbox {

namespace {
constexpr IntegratorParameter kAdaptiveParameters[] = {
    {.key = "tolerance",
     .option = "tolerance",
     .label = "tolerance",
     .help = "The local error per step the adaptive integrator keeps below, by shortening its steps.",
     .type = ParameterType::Real,
     .min = 1e-14,
     .max = 1.0,
     .get = [](const IntegratorSettings& s) { return s.adaptiveTolerance; },
     .set = [](IntegratorSettings& s, double v) { s.adaptiveTolerance = v; }},
};
}  // namespace

constexpr IntegratorKind kAdaptiveKind{
    .name = "adaptive",
    .summary = "Runge-Kutta 4 with step doubling: shortens its steps to keep the local error below a tolerance.",
    .capabilities = static_cast<unsigned>(IntegratorCapability::ChoosesItsOwnSteps),
    .section = "adaptive",
    .parameters = kAdaptiveParameters,
    .make = [](const IntegratorSettings& s) -> std::unique_ptr<Integrator> {
        return std::make_unique<AdaptiveRungeKutta>(s.adaptiveTolerance);
    },
};

namespace {
constexpr double kSafety = 0.9;
constexpr double kMaxGrowth = 5.0;
constexpr double kMaxShrink = 0.1;
constexpr int kMaxStepsPerCall = 1'000'000;
constexpr double kSolveToleranceFraction = 0.1;
}  // namespace

void AdaptiveRungeKutta::advance(OdeSystem& system, double h, StepReport& report) {
    const double tEnd = system.time() + h;
    double hTry = suggested_ > 0.0 ? std::min(suggested_, h) : h;
    // Solve errors enter xa and xb differently: well below the tolerance they cannot pass
    // for truncation error and shrink the steps.
    system.setSolveTolerance(kSolveToleranceFraction * tolerance_);
    system.getState(x0_);
    int steps = 0;
    bool haveF0 = false;  // f(x0) survives a rejected step
    while (system.time() < tEnd) {
        const double t0 = system.time();
        const double remaining = tEnd - t0;
        const bool clipped = hTry >= remaining;
        const double step = clipped ? remaining : hTry;
        // xa: one step of h. xb: two steps of h/2. Both start from f(x0), evaluated once.
        if (!haveF0) {
            system.derivative(f0_);
            ++report.derivativeEvaluations;
            haveF0 = true;
        }
        rk4_(system, x0_, t0, f0_, step, xa_);
        rk4_(system, x0_, t0, f0_, 0.5 * step, xm_);
        system.derivative(fm_);
        rk4_(system, xm_, t0 + 0.5 * step, fm_, 0.5 * step, xb_);
        report.derivativeEvaluations += 10;

        const auto scale = 1.0 + x0_.array().abs().max(xb_.array().abs());
        // An empty system (a model of parametric beads only has no particles) has no error;
        // maxCoeff() of an empty array is undefined.
        const double error =
            xb_.size() == 0 ? 0.0 : ((xb_ - xa_).array().abs() / (15.0 * tolerance_ * scale)).maxCoeff();
        if (!std::isfinite(error)) {
            system.setState(x0_, t0);
            report.failure = "adaptive: the state became non-finite at t = " + std::to_string(t0);
            return;
        }
        const double factor = error > 0.0 ? kSafety * std::pow(error, -0.2) : kMaxGrowth;
        if (error <= 1.0) {
            x0_ = xb_ + (xb_ - xa_) / 15.0;
            system.setState(x0_, clipped ? tEnd : t0 + step);
            report.stepSizes.push_back(step);
            haveF0 = false;
            // A step shortened to land on tEnd says nothing about the size the error allows.
            if (!clipped || factor < 1.0) hTry = step * std::min(kMaxGrowth, factor);
        } else {
            system.setState(x0_, t0);
            hTry = step * std::max(kMaxShrink, factor);
        }
        if (++steps > kMaxStepsPerCall || hTry < 1e-12 * std::max(1.0, std::abs(tEnd))) {
            report.failure = "adaptive: step size underflow at t = " + std::to_string(system.time()) + " (tolerance " +
                             std::to_string(tolerance_) + " too tight or the motion is singular)";
            return;
        }
    }
    suggested_ = hTry;
}

}  // namespace tinkerbox
