// Uniform gravity: f = m g, no dependence on state.
#include "core/forces/Gravity.h"

#include <gtest/gtest.h>

#include "core/TestSystems.h"

namespace tinkerbox {
namespace {

World makeFalling(const Vec3& g) {
    World ps;
    ps.addParticle(Vec3(0.0, 1.0, 0.0), Vec3(1.0, 0.0, 0.0), 2.0);
    ps.addParticle(Vec3(1.0, -2.0, 0.5), Vec3(0.0, -3.0, 1.0), 0.25);
    ps.addForce(std::make_unique<Gravity>(g));
    return ps;
}

TEST(Gravity, ForceIsMassTimesAcceleration) {
    const Vec3 g(0.5, -9.81, 0.0);
    World ps = makeFalling(g);
    VecX f;
    ps.appliedForces(f);
    EXPECT_EQ(Vec3(block3(f, 0)), 2.0 * g);
    EXPECT_EQ(Vec3(block3(f, 1)), 0.25 * g);
    VecX a;
    ps.accelerations(a);
    EXPECT_LT((block3(a, 0) - g).norm(), 1e-15);
    EXPECT_LT((block3(a, 1) - g).norm(), 1e-15);
}

TEST(Gravity, JacobiansAreZero) {
    World ps = makeFalling(Vec3(0.0, -9.81, 0.0));
    const test::DenseJacobians exact = test::analyticJacobians(ps, JacobianForm::Exact);
    const test::DenseJacobians fd = test::finiteDifferenceJacobians(ps);
    EXPECT_TRUE(exact.dFdx.isZero(0.0));
    EXPECT_TRUE(exact.dFdv.isZero(0.0));
    EXPECT_LT(fd.dFdx.cwiseAbs().maxCoeff(), 1e-9);
    EXPECT_LT(fd.dFdv.cwiseAbs().maxCoeff(), 1e-9);
}

}  // namespace
}  // namespace tinkerbox
