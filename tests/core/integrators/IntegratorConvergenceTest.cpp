// Accuracy of the fixed-step integrators on an oscillator with an exact solution: the
// error at a fixed end time must fall as h^p, and the symplectic ones must not drift.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "core/TestSystems.h"
#include "core/integrators/Integrator.h"

namespace tinkerbox {
namespace {

constexpr double kEndTime = 2.0;  // about 1.3 periods at omega = 2: not a multiple, so no lucky cancellation

struct OrderCase {
    std::string_view integrator;
    double order;
    int coarsestSteps;  // the coarsest h is kEndTime / coarsestSteps; then three halvings
    double drag;        // > 0: velocity-dependent force, which Verlet must handle at second order
};

// State error |x - x(T)| + |v - v(T)| after integrating to kEndTime with n steps.
double errorAtEndTime(std::string_view name, double drag, int n) {
    test::Oscillator osc;
    osc.drag = drag;
    World ps = osc.build();
    const auto integrator = makeIntegrator(name, test::tightSolver());
    test::stepMany(*integrator, ps, kEndTime / n, n);
    EXPECT_NEAR(ps.time(), kEndTime, 1e-12);  // t accumulates one rounding per step
    return (ps.position(1) - osc.position(kEndTime)).norm() + (ps.velocity(1) - osc.velocity(kEndTime)).norm();
}

class ConvergenceOrder : public ::testing::TestWithParam<OrderCase> {};

TEST_P(ConvergenceOrder, ErrorFallsAsPowerOfStepSize) {
    const OrderCase c = GetParam();
    std::vector<double> h, error;
    for (int n = c.coarsestSteps; n <= 8 * c.coarsestSteps; n *= 2) {
        h.push_back(kEndTime / n);
        error.push_back(errorAtEndTime(c.integrator, c.drag, n));
    }
    const double slope = test::logLogSlope(h, error);
    RecordProperty("measured_order", std::to_string(slope));
    EXPECT_NEAR(slope, c.order, 0.15) << c.integrator << " drag " << c.drag;
    EXPECT_LT(error.back(), 1e-2) << "the finest step must be accurate, not merely converging";
}

// Step counts put h in the asymptotic range: coarse enough that rk4 stays far above
// round-off, fine enough that the first-order methods' error is still small.
INSTANTIATE_TEST_SUITE_P(
    Integrators, ConvergenceOrder,
    ::testing::Values(OrderCase{"euler", 1.0, 400, 0.0}, OrderCase{"symplectic-euler", 1.0, 400, 0.0},
                      OrderCase{"implicit-euler", 1.0, 400, 0.0}, OrderCase{"midpoint", 2.0, 50, 0.0},
                      OrderCase{"verlet", 2.0, 50, 0.0}, OrderCase{"rk4", 4.0, 20, 0.0},
                      OrderCase{"euler", 1.0, 400, 0.5}, OrderCase{"symplectic-euler", 1.0, 400, 0.5},
                      OrderCase{"implicit-euler", 1.0, 400, 0.5}, OrderCase{"midpoint", 2.0, 50, 0.5},
                      OrderCase{"verlet", 2.0, 50, 0.5}, OrderCase{"rk4", 4.0, 20, 0.5}),
    [](const auto& info) {
        return test::IntegratorParamName{}({info.param.integrator, info.index}) +
               (info.param.drag > 0.0 ? "_damped" : "");
    });

// Over 100 periods at wh = 0.1, the symplectic methods' energy error oscillates without
// drifting (they conserve a nearby energy), while Euler spirals out and implicit Euler in.
TEST(IntegratorEnergy, SymplecticMethodsKeepOscillatorEnergyBounded) {
    const test::Oscillator osc;
    const double h = 0.1 / osc.omega();
    const int stepsPerPeriod = static_cast<int>(std::round(2.0 * std::numbers::pi / (osc.omega() * h)));
    const auto relativeEnergyError = [&](std::string_view name, int periods, double& firstPeriodMax) {
        World ps = osc.build();
        const auto integrator = makeIntegrator(name, test::tightSolver());
        double maxError = 0.0;
        for (int k = 1; k <= periods * stepsPerPeriod; ++k) {
            StepReport report;
            integrator->step(ps, h, report);
            maxError = std::max(maxError, std::abs(ps.totalEnergy() / osc.energy() - 1.0));
            if (k == stepsPerPeriod) firstPeriodMax = maxError;
        }
        return maxError;
    };
    double first = 0.0;
    // Symplectic Euler: O(wh) bounded oscillation; Verlet: O((wh)^2).
    EXPECT_LT(relativeEnergyError("symplectic-euler", 100, first), 0.1);
    EXPECT_LT(relativeEnergyError("symplectic-euler", 100, first), 1.1 * first) << "energy drifts";
    EXPECT_LT(relativeEnergyError("verlet", 100, first), 0.01);
    EXPECT_LT(relativeEnergyError("verlet", 100, first), 1.1 * first) << "energy drifts";
    // The non-symplectic first-order methods leave the band within a few periods.
    EXPECT_GT(relativeEnergyError("euler", 5, first), 0.5);
    EXPECT_GT(relativeEnergyError("implicit-euler", 5, first), 0.5);
}

}  // namespace
}  // namespace tinkerbox
