// The rod (distance constraint): C = |xa - xb| - L, its derivatives, and the tension it
// carries.
#include "core/constraints/RodConstraint.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/TestSystems.h"
#include "core/forces/Gravity.h"
#include "core/integrators/RungeKutta4.h"

namespace tinkerbox {
namespace {

// Two free particles at a generic place, moving in generic directions.
World twoMovingParticles() {
    World ps;
    ps.addParticle(Vec3(0.3, -0.2, 0.7), Vec3(0.5, 1.1, -0.4), 1.0);
    ps.addParticle(Vec3(-0.6, 0.5, 0.1), Vec3(-0.8, 0.2, 0.9), 2.0);
    return ps;
}

TEST(RodConstraint, CIsTheDistanceMinusTheLength) {
    World ps = twoMovingParticles();
    const RodConstraint rod(RodSpec{0, 1, 0.8});
    const test::ConstraintValues values = test::evaluateConstraint(rod, ps);
    const Vec3 l = ps.position(0) - ps.position(1);
    ASSERT_EQ(values.C.size(), 1);
    EXPECT_NEAR(values.C[0], l.norm() - 0.8, 1e-15);
    const Vec3 n = l.normalized();
    EXPECT_NEAR(values.Cdot[0], n.dot(ps.velocity(0) - ps.velocity(1)), 1e-15);
    // J = [n^T, -n^T]
    EXPECT_LT((values.J.block<1, 3>(0, 0).transpose() - n).norm(), 1e-15);
    EXPECT_LT((values.J.block<1, 3>(0, 3).transpose() + n).norm(), 1e-15);
    EXPECT_EQ(rod.scale(), 0.8);
    EXPECT_EQ(rod.anchors(), (std::vector<Anchor>{Anchor(0), Anchor(1)}));
}

TEST(RodConstraint, DerivativesMatchFiniteDifferences) {
    World ps = twoMovingParticles();
    test::expectConsistentDerivatives(RodConstraint(RodSpec{0, 1, 0.8}), ps);
    test::expectConsistentDerivatives(RodConstraint(RodSpec{1, 0, 2.0}), ps);  // order and length do not matter
}

// A rod spinning in place: Jdot v is the centripetal term |v_rel|^2 / |l| (for a rigid
// rotation v_rel is perpendicular to l).
TEST(RodConstraint, JdotTimesVelocityIsTheCentripetalTerm) {
    World ps;
    ps.addParticle(Vec3(0.5, 0, 0), Vec3(0, 1.5, 0), 1.0);
    ps.addParticle(Vec3(-0.5, 0, 0), Vec3(0, -1.5, 0), 1.0);
    const RodConstraint rod(RodSpec{0, 1, 1.0});
    const test::ConstraintValues values = test::evaluateConstraint(rod, ps);
    EXPECT_NEAR((values.Jdot * test::constraintVelocities(rod, ps))[0], 3.0 * 3.0 / 1.0, 1e-12);
}

TEST(RodConstraint, DegenerateRodsAreRejected) {
    EXPECT_THROW(RodConstraint(RodSpec{2, 2, 1.0}), std::invalid_argument);
    EXPECT_THROW(RodConstraint(RodSpec{0, 1, 0.0}), std::invalid_argument);
    EXPECT_THROW(RodConstraint(RodSpec{0, 1, -1.0}), std::invalid_argument);
    EXPECT_THROW(makeConstraint(RodSpec{3, 3, 1.0}), std::invalid_argument);
    EXPECT_EQ(makeConstraint(RodSpec{0, 1, 1.5})->spec(), ConstraintSpec(RodSpec{0, 1, 1.5}));
}

// Coincident ends: the direction is undefined, so the rod exerts nothing (no NaN).
TEST(RodConstraint, CoincidentEndsGiveAZeroRowNotNaN) {
    World ps;
    ps.addParticle(Vec3(1, 1, 1), Vec3(1, 0, 0), 1.0);
    ps.addParticle(Vec3(1, 1, 1), Vec3(0, 1, 0), 1.0);
    const test::ConstraintValues values = test::evaluateConstraint(RodConstraint(RodSpec{0, 1, 0.5}), ps);
    EXPECT_EQ(values.C[0], -0.5);
    EXPECT_EQ(values.Cdot[0], 0.0);
    EXPECT_TRUE(values.J.isZero(0.0));
    EXPECT_TRUE(values.Jdot.isZero(0.0));
}

// A bob hanging at rest below its pivot: the rod carries its weight. With C = |xa - xb| - L
// the multiplier is -m g whichever end is the bob (J^T lambda then points up on the bob),
// and the bob stays where it is (to rounding: the solve has no regularization floor).
TEST(RodConstraint, HangingBobFeelsItsWeightAsTensionAndStaysAtRest) {
    constexpr double m = 1.7, g = 9.81;
    for (const bool pivotFirst : {true, false}) {
        World ps;
        ps.addForce(std::make_unique<Gravity>(Vec3(0, -g, 0)));
        const Index pivot = ps.addParticle(Vec3(0, 1, 0), Vec3::Zero(), 5.0, true);
        const Index bob = ps.addParticle(Vec3(0, -0.5, 0), Vec3::Zero(), m);
        ps.addConstraint(makeConstraint(pivotFirst ? RodSpec{pivot, bob, 1.5} : RodSpec{bob, pivot, 1.5}));
        VecX a;
        ps.accelerations(a);
        ASSERT_EQ(ps.constraintSolver().multipliers().size(), 1);
        EXPECT_NEAR(ps.constraintSolver().multipliers()[0], -m * g, 1e-14 * m * g) << "pivot first: " << pivotFirst;
        EXPECT_LT(a.norm(), 1e-14 * g);

        RungeKutta4 rk4;
        test::stepMany(rk4, ps, 1e-2, 100);
        EXPECT_LT((ps.position(bob) - Vec3(0, -0.5, 0)).norm(), 1e-14);
        EXPECT_LT(ps.velocity(bob).norm(), 1e-13);
    }
}

// The same with the pivot a free particle held by a nail constraint: the rod pulls the
// pivot down with the bob's weight, and the nail's multiplier holds both weights.
TEST(RodConstraint, NailAboveAHangingBobHoldsBothWeights) {
    constexpr double pivotMass = 0.4, m = 1.7, g = 9.81;
    World ps;
    ps.addForce(std::make_unique<Gravity>(Vec3(0, -g, 0)));
    test::addRodChain(ps, Vec3(0, 1, 0), {Vec3(0, -0.5, 0)}, 1.0);
    ps.setMass(0, pivotMass);
    ps.setMass(1, m);
    VecX a;
    ps.accelerations(a);
    const VecX& lambda = ps.constraintSolver().multipliers();  // nail rows 0-2, then the rod
    ASSERT_EQ(lambda.size(), 4);
    EXPECT_NEAR(lambda[3], -m * g, 1e-6 * m * g);  // CG tolerance
    EXPECT_LT((lambda.head<3>() - Vec3(0, (pivotMass + m) * g, 0)).norm(), 1e-6 * (pivotMass + m) * g);
    EXPECT_LT(a.norm(), 1e-6 * g);
}

// A rod between two free particles spinning in empty space: the constraint forces are
// internal, so momentum and angular momentum stay put, and the rod keeps its length.
TEST(RodConstraint, SpinningRodConservesMomentumAndAngularMomentum) {
    World ps;
    ps.addParticle(Vec3(0.4, 0.1, 0.0), Vec3(0.3, 2.0, 0.5), 1.0);
    ps.addParticle(Vec3(-0.6, -0.2, 0.3), Vec3(-0.1, -1.0, 0.2), 3.0);
    // A legal start: no stretching speed (the feedback would damp it away).
    const Vec3 n = (ps.position(0) - ps.position(1)).normalized();
    ps.setVelocity(1, ps.velocity(1) + n * n.dot(ps.velocity(0) - ps.velocity(1)));
    ps.addConstraint(makeConstraint(RodSpec{0, 1, (ps.position(0) - ps.position(1)).norm()}));
    const auto angularMomentum = [&] {
        Vec3 L = Vec3::Zero();
        for (Index i = 0; i < 2; ++i) L += ps.mass(i) * ps.position(i).cross(ps.velocity(i));
        return L;
    };
    const Vec3 p0 = test::totalMomentum(ps), L0 = angularMomentum();
    const double e0 = ps.totalEnergy();
    RungeKutta4 rk4;
    test::stepMany(rk4, ps, 1e-3, 3000);
    EXPECT_LT((test::totalMomentum(ps) - p0).norm(), 1e-9);
    EXPECT_LT((angularMomentum() - L0).norm(), 1e-6 * L0.norm());
    EXPECT_NEAR(ps.totalEnergy(), e0, 1e-6 * e0);
    EXPECT_LT(ps.constraintError(), 1e-8);
}

}  // namespace
}  // namespace tinkerbox
