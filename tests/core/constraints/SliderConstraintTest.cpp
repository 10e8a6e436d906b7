// The slider: the particle stays on the line through p along d; C = [u.(x - p), w.(x - p)]
// with (u, w) perpendicular to d.
#include "core/constraints/SliderConstraint.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/TestSystems.h"

namespace tinkerbox {
namespace {

TEST(SliderConstraint, CIsTheOffsetFromTheLineInAPerpendicularFrame) {
    const Vec3 point(0.5, 1.0, -0.3), direction = Vec3(2, -1, 0.5).normalized();
    World ps;
    ps.addParticle(Vec3(1.3, -0.4, 0.9), Vec3(0.2, 0.8, -1.1), 1.0);
    const SliderConstraint slider(SliderSpec{0, point, Vec3(2, -1, 0.5)});  // normalized by the constraint
    const test::ConstraintValues values = test::evaluateConstraint(slider, ps);
    ASSERT_EQ(values.C.size(), 2);
    // The rows are orthonormal and perpendicular to the line...
    EXPECT_TRUE((values.J * values.J.transpose()).isApprox(Eigen::Matrix2d::Identity(), 1e-14));
    EXPECT_LT((values.J * direction).norm(), 1e-15);
    // ...so |C| is the distance from the line, and C = J (x - p).
    const Vec3 d = ps.position(0) - point;
    EXPECT_NEAR(values.C.norm(), (d - d.dot(direction) * direction).norm(), 1e-14);
    EXPECT_LT((values.C - values.J * d).norm(), 1e-15);
    EXPECT_TRUE(values.Jdot.isZero(0.0));
    test::expectConsistentDerivatives(slider, ps);
    EXPECT_EQ(std::get<SliderSpec>(slider.spec()).direction, direction);
}

TEST(SliderConstraint, ZeroDirectionIsRejected) {
    EXPECT_THROW(SliderConstraint(SliderSpec{0, Vec3::Zero(), Vec3::Zero()}), std::invalid_argument);
    EXPECT_THROW(makeConstraint(SliderSpec{0, Vec3::Zero(), Vec3::Zero()}), std::invalid_argument);
}

// |d|^2 overflows for 1e300 and underflows for 1e-300: d.normalized() gives a zero vector
// for the one and d itself for the other. Both are directions all the same.
TEST(SliderConstraint, HugeAndTinyDirectionsAreNormalized) {
    for (const double scale : {1e300, 1e-300, -1e300}) {
        const SliderConstraint slider(SliderSpec{0, Vec3::Zero(), Vec3(scale, 0, 0)});
        EXPECT_EQ(std::get<SliderSpec>(slider.spec()).direction, Vec3(scale > 0 ? 1 : -1, 0, 0)) << scale;
    }
    EXPECT_THROW(SliderConstraint(SliderSpec{0, Vec3::Zero(), Vec3(INFINITY, 0, 0)}), std::invalid_argument);
    EXPECT_THROW(SliderConstraint(SliderSpec{0, Vec3::Zero(), Vec3(NAN, 1, 0)}), std::invalid_argument);
}

// A frictionless incline: on a line at 30 degrees to the horizontal the particle slides
// with the component of gravity along the line, x(t) = x0 + (g.d) t^2 / 2 d, and never
// leaves the line.
TEST(SliderConstraint, ParticleSlidesDownAnInclinedLine) {
    const double angle = std::numbers::pi / 6.0;
    const Vec3 d(std::cos(angle), -std::sin(angle), 0.0), start(0.2, 3.0, 0.4);
    Simulation sim(test::simulationSettings("rk4", 1.0 / 120.0));
    sim.world().addParticle(start, Vec3::Zero(), 2.0);
    sim.world().addConstraint(makeConstraint(SliderSpec{0, start, d}));
    double maxError = 0.0;
    for (int f = 1; f <= 120; ++f) {
        ASSERT_FALSE(sim.step().diverged);
        const double t = f / 120.0;
        const Vec3 expected = start + 0.5 * 9.81 * std::sin(angle) * t * t * d;
        EXPECT_LT((sim.world().position(0) - expected).norm(), 1e-8) << "t = " << t;
        maxError = std::max(maxError, sim.constraintError());
    }
    EXPECT_LT(maxError, 1e-8);  // metres
    EXPECT_NEAR(sim.world().velocity(0).dot(d), 9.81 * std::sin(angle), 1e-9);
}

}  // namespace
}  // namespace tinkerbox
