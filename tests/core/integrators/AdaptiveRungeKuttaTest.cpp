// Step-doubling RK4 on problems with fast and slow phases.
#include "core/integrators/AdaptiveRungeKutta.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>
#include <vector>

#include "core/TestSystems.h"
#include "core/integrators/RungeKutta4.h"

namespace tinkerbox {
namespace {

// Two-body orbit in the plane, GM = 1, semi-major axis 1, eccentricity 0.9, one period
// (2 pi) from apoapsis back to apoapsis: slow at both ends, 19 times faster during the
// periapsis passage in the middle. The exact final state is the initial one.
// Apoapsis, not periapsis, is the start so the final state is well conditioned: a
// perturbation at periapsis becomes a timing error that the periapsis speed amplifies
// about 1e5 times, which would measure the problem rather than the integrator.
class KeplerOrbit final : public OdeSystem {
public:
    static constexpr double kEccentricity = 0.9;
    static constexpr double kPeriod = 2.0 * std::numbers::pi;
    static double periapsisSpeed() { return std::sqrt((1.0 + kEccentricity) / (1.0 - kEccentricity)); }

    KeplerOrbit() : x_(initialState()) {}

    static VecX initialState() {
        const double e = kEccentricity;
        VecX x(4);
        x << -(1.0 + e), 0.0, 0.0, -std::sqrt((1.0 - e) / (1.0 + e));
        return x;
    }

    Index dimension() const override { return 4; }
    void getState(VecX& x) const override { x = x_; }
    void setState(const VecX& x, double t) override {
        x_ = x;
        t_ = t;
    }
    void derivative(VecX& xdot) override {
        const double r = x_.head<2>().norm();
        xdot.resize(4);
        xdot.head<2>() = x_.tail<2>();
        xdot.tail<2>() = -x_.head<2>() / (r * r * r);
    }
    double time() const override { return t_; }

private:
    VecX x_;
    double t_ = 0.0;
};

// Max-norm state error after one period taken in `calls` equal calls of advance.
double errorAfterOnePeriod(ExplicitIntegrator& integrator, int calls, StepReport& report) {
    KeplerOrbit orbit;
    for (int k = 0; k < calls; ++k) integrator.advance(orbit, KeplerOrbit::kPeriod / calls, report);
    return (test::stateOf(orbit) - KeplerOrbit::initialState()).cwiseAbs().maxCoeff();
}

TEST(AdaptiveRungeKutta, MeetsToleranceOnEccentricOrbit) {
    const double tol = 1e-8;
    AdaptiveRungeKutta adaptive(tol);
    StepReport report;
    const double error = errorAfterOnePeriod(adaptive, 1, report);
    ASSERT_TRUE(report.failure.empty()) << report.failure;
    // Each accepted step's local error is below tol (1 + |x_i|), and |x_i| <= periapsis speed;
    // on this well-conditioned interval the global error is at most their sum.
    const double expected = static_cast<double>(report.stepSizes.size()) * tol * (1.0 + KeplerOrbit::periapsisSpeed());
    EXPECT_LE(error, expected);

    // The error follows the tolerance: 100 times tighter gives at least 30 times smaller.
    AdaptiveRungeKutta loose(100.0 * tol);
    StepReport looseReport;
    EXPECT_GE(errorAfterOnePeriod(loose, 1, looseReport), 30.0 * error);
}

TEST(AdaptiveRungeKutta, NeedsFewerEvaluationsThanFixedRk4ForTheSameAccuracy) {
    AdaptiveRungeKutta adaptive(1e-8);
    StepReport report;
    const double adaptiveError = errorAfterOnePeriod(adaptive, 1, report);

    RungeKutta4 rk4;
    int fixedEvaluations = 0;
    for (int n = 16; n <= (1 << 18); n *= 2) {
        StepReport fixed;
        if (errorAfterOnePeriod(rk4, n, fixed) <= adaptiveError) {
            fixedEvaluations = fixed.derivativeEvaluations;
            break;
        }
    }
    ASSERT_GT(fixedEvaluations, 0) << "fixed-step rk4 never reached the adaptive accuracy";
    RecordProperty("adaptive_evaluations", report.derivativeEvaluations);
    RecordProperty("rk4_evaluations", fixedEvaluations);
    EXPECT_LT(report.derivativeEvaluations, fixedEvaluations);
}

TEST(AdaptiveRungeKutta, StepSizesCoverTheIntervalAndFollowTheSpeed) {
    AdaptiveRungeKutta adaptive(1e-8);
    StepReport report;
    errorAfterOnePeriod(adaptive, 1, report);
    const std::vector<double>& h = report.stepSizes;
    ASSERT_GT(h.size(), 10u);
    EXPECT_NEAR(std::accumulate(h.begin(), h.end(), 0.0), KeplerOrbit::kPeriod, 1e-12);

    // Find the step that covers periapsis (t = T/2) and the largest step.
    double t = 0.0, periapsisStep = 0.0;
    for (double hk : h) {
        if (t <= 0.5 * KeplerOrbit::kPeriod && 0.5 * KeplerOrbit::kPeriod < t + hk) periapsisStep = hk;
        t += hk;
    }
    const auto largest = std::max_element(h.begin(), h.end());
    const double largestStart = std::accumulate(h.begin(), largest, 0.0);
    // Slow phase near apoapsis (first or last quarter), fast phase at periapsis.
    EXPECT_TRUE(largestStart < 0.25 * KeplerOrbit::kPeriod || largestStart > 0.75 * KeplerOrbit::kPeriod)
        << "largest step starts at t = " << largestStart;
    EXPECT_LT(periapsisStep, *largest / 20.0);
}

// Through the Integrator interface on a World: each frame advances exactly the
// frame length, whatever the internal steps, and the result tracks the exact solution.
TEST(AdaptiveRungeKutta, AdvancesExactlyOneFrameOnAParticleSystem) {
    const test::Oscillator osc;
    World ps = osc.build();
    IntegratorSettings settings;
    settings.adaptiveTolerance = 1e-9;
    const auto integrator = makeIntegrator("adaptive", settings);
    const double frame = 1.0 / 60.0;
    std::size_t steps = 0;
    for (int k = 0; k < 120; ++k) {
        StepReport report;
        const double t0 = ps.time();
        integrator->step(ps, frame, report);
        ASSERT_TRUE(report.failure.empty()) << report.failure;
        ASSERT_FALSE(report.stepSizes.empty());
        EXPECT_NEAR(std::accumulate(report.stepSizes.begin(), report.stepSizes.end(), 0.0), frame, 1e-15);
        EXPECT_EQ(ps.time(), t0 + frame);
        steps += report.stepSizes.size();
    }
    // Every component stays at most 2 in magnitude (velocity amplitude w |x0|): local bound 3 tol.
    const double bound = static_cast<double>(steps) * 3.0 * settings.adaptiveTolerance;
    EXPECT_LT((ps.position(1) - osc.position(ps.time())).cwiseAbs().maxCoeff(), bound);
    EXPECT_LT((ps.velocity(1) - osc.velocity(ps.time())).cwiseAbs().maxCoeff(), bound);
}

// A system with nothing in it (the particles of a model made of parametric beads only) is
// stepped too: the clock advances and nothing fails. (Its error estimate was the maximum of
// an empty array, which crashed.)
TEST(AdaptiveRungeKutta, EmptySystemJustAdvancesTheClock) {
    World empty;
    AdaptiveRungeKutta adaptive(1e-6);
    StepReport report;
    adaptive.step(empty, 0.1, report);
    EXPECT_TRUE(report.failure.empty()) << report.failure;
    EXPECT_EQ(empty.time(), 0.1);
}

}  // namespace
}  // namespace tinkerbox
