// The mouse spring: a capped zero-length damped spring to the cursor.
#include "core/forces/MouseSpring.h"

#include <gtest/gtest.h>

#include "core/TestSystems.h"

namespace tinkerbox {
namespace {

constexpr double kStiffness = 5.0, kDamping = 0.5;

// Particle 1 is grabbed; particle 0 hangs off it by a spring so the Jacobian has
// off-diagonal blocks that the mouse spring must leave alone.
struct Grabbed {
    World ps;
    MouseSpring* mouse;
    Grabbed(const Vec3& target, const Vec3& targetVelocity, double maxForce) {
        ps.addParticle(Vec3(0.5, 1.0, 0.2), Vec3(0.1, 0.0, -0.3), 1.0);
        ps.addParticle(Vec3(1.0, 2.0, 0.0), Vec3(0.0, 1.0, 1.0), 2.0);
        ps.addSpring({0, 1, 3.0, 0.2, 0.5});
        mouse =
            &static_cast<MouseSpring&>(ps.addForce(std::make_unique<MouseSpring>(1, kStiffness, kDamping, maxForce)));
        mouse->setTarget(target, targetVelocity);
    }
};

TEST(MouseSpring, UncappedForceIsZeroLengthDampedSpringToTarget) {
    // f = -ks (x - y) - kd (v - ydot) = -5 (1, 1, 0) - 0.5 (-1, 1, 1).
    Grabbed g(Vec3(0.0, 1.0, 0.0), Vec3(1.0, 0.0, 0.0), 100.0);
    const Vec3 expected(-4.5, -5.5, -0.5);
    EXPECT_LT((g.mouse->force(g.ps.position(1), g.ps.velocity(1)) - expected).norm(), 1e-15);
    VecX withMouse, without;
    g.ps.appliedForces(withMouse);
    g.ps.removeForce(g.mouse);
    g.ps.appliedForces(without);
    EXPECT_LT((block3(withMouse, 1) - block3(without, 1) - expected).norm(), 1e-14);
    EXPECT_LT((block3(withMouse, 0) - block3(without, 0)).norm(), 1e-15);  // only the grabbed particle
}

TEST(MouseSpring, CapLimitsMagnitudeAndKeepsDirection) {
    const double cap = 2.0;
    Grabbed g(Vec3(10.0, -4.0, 3.0), Vec3(0.0, 2.0, 0.0), cap);
    const Vec3 x = g.ps.position(1), v = g.ps.velocity(1);
    const Vec3 uncapped = -kStiffness * (x - g.mouse->target()) - kDamping * (v - Vec3(0.0, 2.0, 0.0));
    ASSERT_GT(uncapped.norm(), 10.0 * cap);
    const Vec3 f = g.mouse->force(x, v);
    EXPECT_NEAR(f.norm(), cap, 1e-14);
    EXPECT_LT((f.normalized() - uncapped.normalized()).norm(), 1e-14);
}

TEST(MouseSpring, JacobiansMatchFiniteDifferences) {
    // Uncapped, and capped far from the target (the cap is active in every perturbation).
    for (const double maxForce : {1e3, 2.0}) {
        Grabbed g(maxForce > 100.0 ? Vec3(0.8, 1.5, 0.4) : Vec3(10.0, -4.0, 3.0), Vec3(0.2, 0.0, 0.1), maxForce);
        const test::DenseJacobians exact = test::analyticJacobians(g.ps, JacobianForm::Exact);
        const test::DenseJacobians fd = test::finiteDifferenceJacobians(g.ps);
        EXPECT_LT(test::relativeMaxDifference(exact.dFdx, fd.dFdx), 1e-7) << "cap " << maxForce;
        EXPECT_LT(test::relativeMaxDifference(exact.dFdv, fd.dFdv), 1e-7) << "cap " << maxForce;
    }
}

TEST(MouseSpring, UndampedForceIsMinusEnergyGradientCappedOrNot) {
    for (const Vec3& target : {Vec3(1.2, 2.1, -0.1), Vec3(10.0, -4.0, 3.0)}) {
        World ps;
        ps.addParticle(Vec3(1.0, 2.0, 0.0), Vec3::Zero(), 1.0);
        auto& mouse = static_cast<MouseSpring&>(ps.addForce(std::make_unique<MouseSpring>(0, kStiffness, 0.0, 2.0)));
        mouse.setTarget(target);
        const Vec3 x = ps.position(0);
        const Vec3 f = mouse.force(x, Vec3::Zero());
        const double eps = 1e-6;
        for (int c = 0; c < 3; ++c) {
            ps.setPosition(0, x + Vec3::Unit(c) * eps);
            const double up = ps.potentialEnergy();
            ps.setPosition(0, x - Vec3::Unit(c) * eps);
            const double down = ps.potentialEnergy();
            ps.setPosition(0, x);
            EXPECT_NEAR(f[c], -(up - down) / (2.0 * eps), 1e-8);
        }
    }
}

}  // namespace
}  // namespace tinkerbox
