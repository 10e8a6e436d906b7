#include "core/math/Lanes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>

namespace tinkerbox {
namespace {

// atan2Lanes against std::atan2, lane by lane, in units of the answer's last place.
double worstUlps(const Lanes& y, const Lanes& x) {
    const Lanes got = atan2Lanes(y, x);
    double worst = 0.0;
    for (int k = 0; k < kLanes; ++k) {
        const double expected = std::atan2(y[k], x[k]);
        const double ulp = std::nextafter(std::abs(expected), INFINITY) - std::abs(expected);
        worst = std::max(worst, std::abs(got[k] - expected) / std::max(ulp, std::numeric_limits<double>::denorm_min()));
    }
    return worst;
}

TEST(Lanes, Atan2MatchesTheLibraryToTwoUlpsInEveryOctant) {
    std::mt19937 random(11);
    std::uniform_real_distribution<double> angle(-std::numbers::pi, std::numbers::pi), logRadius(-30.0, 30.0);
    double worst = 0.0;
    for (int i = 0; i < 100000; ++i) {
        Lanes y, x;
        for (int k = 0; k < kLanes; ++k) {
            const double a = angle(random), r = std::exp(logRadius(random));
            y[k] = r * std::sin(a);
            x[k] = r * std::cos(a);
        }
        worst = std::max(worst, worstUlps(y, x));
    }
    EXPECT_LE(worst, 2.0);
    // Where the reductions switch: |y| = |x|, a = 0.66 (and its reciprocal), the axes.
    const Lanes one = Lanes::Ones();
    for (const double a : {0.66, std::nextafter(0.66, 1.0), 1.0, 1.0 / 0.66, 0.0, 1e-300})
        for (const double sx : {1.0, -1.0})
            for (const double sy : {1.0, -1.0}) {
                // (y = -0 is taken as +0: Lanes.h)
                if (a != 0.0 || sy > 0.0) {
                    EXPECT_LE(worstUlps(sy * a * one, sx * one), 2.0) << a << " " << sx << " " << sy;
                }
                EXPECT_LE(worstUlps(sy * one, sx * a * one), 2.0) << a << " " << sx << " " << sy;
            }
}

TEST(Lanes, Atan2OfTheOriginIsZeroAndOfNaNIsNaN) {
    const Lanes nan = Lanes::Constant(std::numeric_limits<double>::quiet_NaN());
    EXPECT_TRUE((atan2Lanes(Lanes::Zero(), Lanes::Zero()) == 0.0).all());
    EXPECT_TRUE(atan2Lanes(nan, Lanes::Ones()).isNaN().all());
    EXPECT_TRUE(atan2Lanes(Lanes::Ones(), nan).isNaN().all());
}

// The corners' gather: lane k is particle k's 3 numbers, exactly, whichever particles (the
// last one's too, whose numbers end the vector, and one particle in several lanes).
TEST(Lanes, LaneVectorsOfParticlesAreTheirNumbers) {
    VecX x(3 * 7);
    for (Index i = 0; i < x.size(); ++i) x[i] = 0.5 + static_cast<double>(i) * (i % 2 == 0 ? 1.0 : -1.25);
    for (const std::array<std::int32_t, kLanes> particles :
         {std::array<std::int32_t, kLanes>{0, 1, 2, 3}, {6, 3, 0, 5}, {6, 6, 6, 6}, {2, 0, 2, 6}}) {
        const LaneVec3 v = laneVectors(x, particles);
        for (int k = 0; k < kLanes; ++k) {
            const Vec3 expected = x.segment<3>(3 * particles[static_cast<std::size_t>(k)]);
            EXPECT_EQ(lane(v, k), expected) << "lane " << k << " of {" << particles[0] << ", " << particles[1] << ", "
                                            << particles[2] << ", " << particles[3] << "}";
        }
    }
}

}  // namespace
}  // namespace tinkerbox
