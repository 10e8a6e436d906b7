// The nail: C = x - p, J = I, Cdot = v - pdot, and a point that drags its particle.
#include "core/constraints/NailConstraint.h"

#include <gtest/gtest.h>

#include "core/TestSystems.h"

namespace tinkerbox {
namespace {

TEST(NailConstraint, CIsTheOffsetFromThePoint) {
    World ps;
    ps.addParticle(Vec3(0.3, -0.2, 0.7), Vec3(0.5, 1.1, -0.4), 1.0);
    const NailConstraint nail(NailSpec{0, Vec3(1, 2, 3)});
    const test::ConstraintValues values = test::evaluateConstraint(nail, ps);
    ASSERT_EQ(values.C.size(), 3);
    EXPECT_EQ(Vec3(values.C), Vec3(0.3 - 1, -0.2 - 2, 0.7 - 3));
    EXPECT_EQ(Vec3(values.Cdot), ps.velocity(0));
    EXPECT_EQ(values.J, Eigen::MatrixXd::Identity(3, 3));
    EXPECT_TRUE(values.Jdot.isZero(0.0));
    EXPECT_EQ(nail.scale(), 0.0);  // measured in metres
    test::expectConsistentDerivatives(nail, ps);
}

// A moving point: Cdot = v - pdot, which is dC/dt when both the particle and the point move.
TEST(NailConstraint, MovingPointEntersCdot) {
    World ps;
    ps.addParticle(Vec3(0.3, -0.2, 0.7), Vec3(0.5, 1.1, -0.4), 1.0);
    NailConstraint nail(NailSpec{0, Vec3(1, 2, 3)});
    const Vec3 point(1, 2, 3), pointVelocity(-0.2, 0.6, 0.1);
    nail.setPoint(point, pointVelocity);
    const test::ConstraintValues values = test::evaluateConstraint(nail, ps);
    EXPECT_LT((Vec3(values.Cdot) - (ps.velocity(0) - pointVelocity)).norm(), 1e-15);
    constexpr double eps = 1e-6;
    ps.setPosition(0, Vec3(0.3, -0.2, 0.7) + eps * ps.velocity(0));
    nail.setPoint(point + eps * pointVelocity, pointVelocity);
    const VecX plus = test::evaluateConstraint(nail, ps).C;
    ps.setPosition(0, Vec3(0.3, -0.2, 0.7) - eps * ps.velocity(0));
    nail.setPoint(point - eps * pointVelocity, pointVelocity);
    const VecX minus = test::evaluateConstraint(nail, ps).C;
    EXPECT_LT(((plus - minus) / (2 * eps) - values.Cdot).norm(), 1e-8);
    EXPECT_EQ(nail.spec(), ConstraintSpec(NailSpec{0, point - eps * pointVelocity}));
}

// A free particle held by a nail in gravity: the multiplier holds its weight up and it
// stays put: a single well-posed constraint is solved exactly, with no regularization.
TEST(NailConstraint, HoldsAParticleAgainstGravity) {
    Simulation sim(test::simulationSettings("rk4", 1.0 / 60.0));
    sim.world().addParticle(Vec3(1, 2, 0), Vec3::Zero(), 0.3);
    sim.world().addConstraint(makeConstraint(NailSpec{0, Vec3(1, 2, 0)}));
    VecX a;
    sim.world().accelerations(a);
    EXPECT_LT((Vec3(sim.world().constraintSolver().multipliers()) - Vec3(0, 0.3 * 9.81, 0)).norm(), 1e-15);
    double sag = 0.0;
    for (int f = 0; f < 1200; ++f) {
        ASSERT_FALSE(sim.step().diverged);
        sag = std::max(sag, (sim.world().position(0) - Vec3(1, 2, 0)).norm());
    }
    EXPECT_LT(sag, 1e-12);
    RecordProperty("max_sag", test::scientific(sag));
}

// The mouse drags a nailed particle by moving the nail's point (with its velocity). A
// pendulum hangs from the dragged particle; it follows the point and, once the point
// stops, comes to rest on it, with the rod still at its length.
TEST(NailConstraint, MovingThePointDragsTheParticleAlong) {
    SimulationSettings settings = test::simulationSettings("rk4", 1.0 / 60.0);
    settings.substeps = 4;
    settings.drag = 0.5;
    Simulation sim(settings);
    World& ps = sim.world();
    test::addRodChain(ps, Vec3(0, 1, 0), {Vec3(0, 0, 0)});
    auto& nail = static_cast<NailConstraint&>(*ps.constraints()[0]);
    // The point travels (0, 1, 0) -> (2, 1.5, 0) along a smooth path over 2 s.
    const auto path = [](double t) -> Vec3 {
        const double s = t >= 2.0 ? 1.0 : 0.5 - 0.5 * std::cos(std::numbers::pi * t / 2.0);
        return Vec3(0, 1, 0) + s * Vec3(2, 0.5, 0);
    };
    double maxLag = 0.0;
    for (int f = 1; f <= 360; ++f) {
        const double t = f / 60.0;
        nail.setPoint(path(t), (path(t + 1e-4) - path(t - 1e-4)) / 2e-4);
        ASSERT_FALSE(sim.step().diverged);
        maxLag = std::max(maxLag, (ps.position(0) - path(t)).norm());
    }
    EXPECT_LT(maxLag, 0.05);
    EXPECT_LT((ps.position(0) - Vec3(2, 1.5, 0)).norm(), 1e-6);
    EXPECT_NEAR((ps.position(1) - ps.position(0)).norm(), 1.0, 1e-6);
    EXPECT_GT((ps.position(1) - Vec3(0, 0, 0)).norm(), 1.5);  // the bob came along
}

}  // namespace
}  // namespace tinkerbox
