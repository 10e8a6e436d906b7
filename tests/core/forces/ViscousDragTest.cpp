// Viscous drag: f = -kd v.
#include "core/forces/ViscousDrag.h"

#include <gtest/gtest.h>

#include "core/TestSystems.h"
#include "core/integrators/RungeKutta4.h"

namespace tinkerbox {
namespace {

constexpr double kDrag = 0.7;

World makeMoving() {
    World ps;
    ps.addParticle(Vec3(0.0, 1.0, 0.0), Vec3(1.0, -2.0, 0.5), 2.0);
    ps.addParticle(Vec3(1.0, -2.0, 0.5), Vec3(0.0, -3.0, 1.0), 0.25);
    ps.addForce(std::make_unique<ViscousDrag>(kDrag));
    return ps;
}

TEST(ViscousDrag, ForceIsMinusCoefficientTimesVelocity) {
    World ps = makeMoving();
    VecX f;
    ps.appliedForces(f);
    // Independent of mass: drag acts on velocity relative to still air.
    EXPECT_LT((block3(f, 0) - Vec3(-0.7, 1.4, -0.35)).norm(), 1e-15);
    EXPECT_LT((block3(f, 1) - Vec3(0.0, 2.1, -0.7)).norm(), 1e-15);
}

TEST(ViscousDrag, VelocityJacobianMatchesFiniteDifferences) {
    World ps = makeMoving();
    const test::DenseJacobians exact = test::analyticJacobians(ps, JacobianForm::Exact);
    const test::DenseJacobians fd = test::finiteDifferenceJacobians(ps);
    EXPECT_LT(test::relativeMaxDifference(exact.dFdv, fd.dFdv), 1e-9);
    EXPECT_LT((exact.dFdv + kDrag * Eigen::MatrixXd::Identity(6, 6)).cwiseAbs().maxCoeff(), 1e-15);
    EXPECT_TRUE(exact.dFdx.isZero(0.0));
    EXPECT_LT(fd.dFdx.cwiseAbs().maxCoeff(), 1e-9);
}

// A body takes drag kd/m on each mass element: P' = -kd v = -(kd/m) P, and about a
// principal axis L' = -(kd/m) I omega = -(kd/m) L. Both decay as exp(-(kd/m) t).
TEST(ViscousDrag, ABodyDecaysAtRateKdOverMass) {
    World world;
    RigidBodySpec box;
    box.shape = BoxShape{Vec3(1.0, 2.0, 3.0)};
    box.mass = 2.0;
    box.velocity = Vec3(1.0, -2.0, 0.5);
    box.angularVelocity = Vec3(0.0, 3.0, 0.0);  // a principal axis: no tumbling
    world.addRigidBody(box);
    world.addForce(std::make_unique<ViscousDrag>(kDrag));
    const Vec3 P0 = world.rigidBodies().momentum(0), L0 = world.rigidBodies().angularMomentum(0);
    RungeKutta4 rk4;
    StepReport report;
    for (int k = 0; k < 1000; ++k) rk4.step(world, 1e-3, report);
    const double decay = std::exp(-kDrag / 2.0 * 1.0);
    EXPECT_LT((world.rigidBodies().momentum(0) - decay * P0).norm(), 1e-10 * P0.norm());
    EXPECT_LT((world.rigidBodies().angularMomentum(0) - decay * L0).norm(), 1e-10 * L0.norm());
}

}  // namespace
}  // namespace tinkerbox
