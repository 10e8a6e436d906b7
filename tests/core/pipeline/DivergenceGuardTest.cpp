// The divergence guard's tests on readings made by hand: the budget, the growth and a
// reading that is not finite.
#include "core/pipeline/DivergenceGuard.h"

#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <string>

namespace tinkerbox {
namespace {

EnergyReading reading(double kinetic, double total, double scale) {
    EnergyReading r;
    r.kinetic = kinetic;
    r.total = total;
    r.scale = scale;
    r.high = Vec3::Ones();
    return r;
}

// A state can be finite while its energy is not (a speed of 1e200 m/s): the guard fails it
// at once, whatever its reference, rather than compare NaN and pass it.
TEST(DivergenceGuard, AReadingThatIsNotFiniteFails) {
    DivergenceGuard guard;
    guard.record(VecX::Zero(6), 0.0, reading(1.0, 2.0, 3.0));
    EXPECT_FALSE(guard.check(reading(1.0, 2.0, 3.0), 0.1, 9.81));
    constexpr double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    for (const EnergyReading& bad : {reading(inf, inf, 3.0), reading(1.0, nan, 3.0), reading(nan, nan, nan)}) {
        const std::optional<std::string> why = guard.check(bad, 0.1, 9.81);
        ASSERT_TRUE(why);
        EXPECT_EQ(*why, "the energy became non-finite");
    }
}

// Within the budget a run goes on; past it, or growing a thousandfold within the window, it
// has diverged.
TEST(DivergenceGuard, TheBudgetAndTheGrowthBoundTheEnergy) {
    DivergenceGuard guard;
    guard.record(VecX::Zero(6), 0.0, reading(1.0, 2.0, 3.0));
    EXPECT_FALSE(guard.check(reading(20.0, 2.0 + 0.9 * DivergenceGuard::kBudget * 3.0, 3.0), 0.1, 9.81));
    EXPECT_TRUE(guard.check(reading(20.0, 2.0 + 1.1 * DivergenceGuard::kBudget * 3.0, 3.0), 0.1, 9.81));
    EXPECT_TRUE(guard.check(reading(1.1 * DivergenceGuard::kGrowth * 3.0, 2.0, 3.0), 0.1, 9.81));
}

}  // namespace
}  // namespace tinkerbox
