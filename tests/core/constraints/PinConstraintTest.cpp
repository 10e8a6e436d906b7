// The pin (coincident points): C = xa - xb, J = [I, -I].
#include "core/constraints/PinConstraint.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/TestSystems.h"

namespace tinkerbox {
namespace {

TEST(PinConstraint, CIsTheOffsetBetweenTheTwoParticles) {
    World ps;
    ps.addParticle(Vec3(0.3, -0.2, 0.7), Vec3(0.5, 1.1, -0.4), 1.0);
    ps.addParticle(Vec3(-0.6, 0.5, 0.1), Vec3(-0.8, 0.2, 0.9), 2.0);
    const PinConstraint pin(PinSpec{0, 1});
    const test::ConstraintValues values = test::evaluateConstraint(pin, ps);
    ASSERT_EQ(values.C.size(), 3);
    EXPECT_EQ(Vec3(values.C), ps.position(0) - ps.position(1));
    Eigen::MatrixXd J(3, 6);
    J << Eigen::Matrix3d::Identity(), -Eigen::Matrix3d::Identity();
    EXPECT_EQ(values.J, J);
    EXPECT_TRUE(values.Jdot.isZero(0.0));
    test::expectConsistentDerivatives(pin, ps);
}

TEST(PinConstraint, PinToItselfIsRejected) {
    EXPECT_THROW(PinConstraint(PinSpec{1, 1}), std::invalid_argument);
    EXPECT_THROW(makeConstraint(PinSpec{0, 0}), std::invalid_argument);
}

// Two particles pinned together, each hanging on a spring from its own nail: they move as
// one, settle where the springs and the weights balance, and the pin passes between them
// the force that particle b's own loads would otherwise make it feel (lambda = F_b at rest).
TEST(PinConstraint, KeepsTwoParticlesTogetherWhileEachHangsOnSprings) {
    SimulationSettings settings = test::simulationSettings("rk4", 1.0 / 60.0);
    settings.substeps = 4;
    settings.drag = 3.0;  // the springs damp along their length only; this damps the swing
    Simulation sim(settings);
    World& ps = sim.world();
    const Index left = ps.addParticle(Vec3(-1, 1, 0), Vec3::Zero(), 1.0, true);
    const Index right = ps.addParticle(Vec3(1.5, 1.2, 0.3), Vec3::Zero(), 1.0, true);
    const Index a = ps.addParticle(Vec3(0, 0, 0), Vec3(0.5, 0, 0), 0.5);
    const Index b = ps.addParticle(Vec3(0, 0, 0), Vec3(0.5, 0, 0), 1.5);
    ps.addSpring({left, a, 40.0, 2.0, 0.8});
    ps.addSpring({right, b, 25.0, 2.0, 1.0});
    ps.addConstraint(makeConstraint(PinSpec{a, b}));
    double maxGap = 0.0;
    for (int f = 0; f < 900; ++f) {
        ASSERT_FALSE(sim.step().diverged);
        maxGap = std::max(maxGap, (ps.position(a) - ps.position(b)).norm());
    }
    EXPECT_LT(maxGap, 1e-7);
    EXPECT_LT(ps.velocity(a).norm(), 1e-6);  // settled
    // At rest: the applied forces on the pair cancel, and the pin carries b's.
    VecX f, acc;
    ps.appliedForces(f);
    EXPECT_LT((block3(f, a) + block3(f, b)).norm(), 1e-5);
    ps.accelerations(acc);
    EXPECT_LT((Vec3(ps.constraintSolver().multipliers()) - block3(f, b)).norm(), 1e-5);
    EXPECT_GT(block3(f, b).norm(), 1.0);  // a real load
}

}  // namespace
}  // namespace tinkerbox
