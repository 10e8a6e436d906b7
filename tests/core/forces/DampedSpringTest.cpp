// Damped springs: Witkin's force formula (Particle System Dynamics, SIGGRAPH 2001 notes), its energy, and its
// Jacobians.
#include "core/forces/DampedSpring.h"

#include <gtest/gtest.h>

#include <limits>

#include "core/DenseAlgebra.h"
#include "core/TestSystems.h"
#include "core/math/TwoWayParallel.h"

namespace tinkerbox {
namespace {

// l = xa - xb = (1, 2, 2), |l| = 3; ldot = va - vb = (0.5, 0, 0.5), ldot.n = 0.5.
// Seed: fa = -[ks (|l| - r) + kd (ldot.l)/|l|] l/|l|.
World makePair(double restLength) {
    World ps;
    ps.addParticle(Vec3(1.0, 2.0, 3.0), Vec3(0.5, 0.0, 0.0), 1.0);
    ps.addParticle(Vec3(0.0, 0.0, 1.0), Vec3(0.0, 0.0, -0.5), 1.0);
    ps.addSpring({0, 1, 10.0, 4.0, restLength});
    return ps;
}

// Two particles at one place, moving apart, joined by a spring: it has no direction, so no
// force and no Jacobian. Returns the particles.
std::pair<Index, Index> addSpringOfNoLength(World& ps) {
    const Index a = ps.addParticle(Vec3(0.1, 0.2, 0.3), Vec3(1.0, 0.0, 0.0), 1.0);
    const Index b = ps.addParticle(Vec3(0.1, 0.2, 0.3), Vec3(0.0, 1.0, 0.0), 1.0);
    ps.addSpring({a, b, 5.0, 0.5, 0.1});
    return {a, b};
}

TEST(DampedSpring, ForceMatchesSeedFormula) {
    // Stretched by 1: -(10 * 1 + 4 * 0.5) n = -12 (1, 2, 2)/3.
    World stretched = makePair(2.0);
    VecX f;
    stretched.appliedForces(f);
    EXPECT_LT((f.head<3>() - Vec3(-4.0, -8.0, -8.0)).norm(), 1e-14);
    EXPECT_LT((f.tail<3>() - Vec3(4.0, 8.0, 8.0)).norm(), 1e-14);

    // Compressed by 1: -(10 * -1 + 4 * 0.5) n = 8 n, pushing a away from b.
    World compressed = makePair(4.0);
    compressed.appliedForces(f);
    EXPECT_LT((f.head<3>() - Vec3(8.0, 16.0, 16.0) / 3.0).norm(), 1e-14);
    EXPECT_LT((f.tail<3>() + f.head<3>()).norm(), 1e-15);
}

TEST(DampedSpring, UndampedForceIsMinusEnergyGradient) {
    const DampedSpring s{0, 1, 7.0, 0.0, 1.3};
    const Vec3 xa(0.3, -0.2, 0.9), xb(-0.4, 0.5, 0.1);
    const Vec3 f = dampedSpringForce(s, xa, xb, Vec3::Zero(), Vec3::Zero());
    const double eps = 1e-6;
    for (int c = 0; c < 3; ++c) {
        const Vec3 e = Vec3::Unit(c) * eps;
        const double dU = (dampedSpringEnergy(s, xa + e, xb) - dampedSpringEnergy(s, xa - e, xb)) / (2.0 * eps);
        EXPECT_NEAR(f[c], -dU, 1e-8);
    }
    const double stretch = (xa - xb).norm() - 1.3;
    EXPECT_NEAR(dampedSpringEnergy(s, xa, xb), 0.5 * 7.0 * stretch * stretch, 1e-15);
}

// A tetrahedron of moving particles, every edge a damped spring whose rest length is
// `restScale` times its current length (< 1 stretched, > 1 compressed); one corner nailed.
World makeTetrahedron(double restScale, double damping) {
    World ps;
    ps.addParticle(Vec3(0.0, 0.0, 0.0), Vec3(0.3, -0.1, 0.2), 1.0, true);
    ps.addParticle(Vec3(1.0, 0.1, -0.2), Vec3(-0.5, 0.4, 0.0), 2.0);
    ps.addParticle(Vec3(0.2, 1.1, 0.3), Vec3(0.1, 0.2, -0.7), 0.5);
    ps.addParticle(Vec3(-0.1, 0.3, 0.9), Vec3(0.6, -0.3, 0.4), 1.5);
    double ks = 10.0;
    for (Index a = 0; a < 4; ++a)
        for (Index b = a + 1; b < 4; ++b) {
            ps.addSpring({a, b, ks, damping, restScale * (ps.position(a) - ps.position(b)).norm()});
            ks += 7.0;
        }
    return ps;
}

TEST(DampedSpring, ExactJacobiansMatchFiniteDifferences) {
    for (double restScale : {0.7, 1.4}) {
        World ps = makeTetrahedron(restScale, 1.5);
        const test::DenseJacobians exact = test::analyticJacobians(ps, JacobianForm::Exact);
        const test::DenseJacobians fd = test::finiteDifferenceJacobians(ps);
        EXPECT_LT(test::relativeMaxDifference(exact.dFdx, fd.dFdx), 1e-7) << "rest scale " << restScale;
        EXPECT_LT(test::relativeMaxDifference(exact.dFdv, fd.dFdv), 1e-7) << "rest scale " << restScale;
        // The damping terms of dF/dx are present (this check would pass trivially without damping).
        const test::DenseJacobians definite = test::analyticJacobians(ps, JacobianForm::Definite);
        EXPECT_GT(test::relativeMaxDifference(exact.dFdx, definite.dFdx), 1e-3);
    }
}

TEST(DampedSpring, DefiniteEqualsExactForStretchedUndampedSpring) {
    World ps = makeTetrahedron(0.7, 0.0);
    const test::DenseJacobians exact = test::analyticJacobians(ps, JacobianForm::Exact);
    const test::DenseJacobians definite = test::analyticJacobians(ps, JacobianForm::Definite);
    EXPECT_LT(test::relativeMaxDifference(exact.dFdx, definite.dFdx), 1e-15);
    EXPECT_LT(test::relativeMaxDifference(exact.dFdv, definite.dFdv), 1e-15);
}

TEST(DampedSpring, DefiniteIsSymmetricNegativeSemiDefiniteWhenCompressed) {
    World ps = makeTetrahedron(1.4, 1.5);
    const Eigen::MatrixXd exact = test::analyticJacobians(ps, JacobianForm::Exact).dFdx;
    const Eigen::MatrixXd definite = test::analyticJacobians(ps, JacobianForm::Definite).dFdx;
    const double scale = definite.cwiseAbs().maxCoeff();
    EXPECT_LT((definite - definite.transpose()).cwiseAbs().maxCoeff(), 1e-14 * scale);
    const VecX eigenvalues = test::symmetricEigenvalues(definite);
    EXPECT_LE(eigenvalues.maxCoeff(), 1e-12 * scale);
    // Without the clamp the compressed springs make it indefinite, so the clamp matters here.
    const Eigen::MatrixXd exactSymmetric = 0.5 * (exact + exact.transpose());
    EXPECT_GT(test::symmetricEigenvalues(exactSymmetric).maxCoeff(), 0.1 * scale);
}

// Internal forces come in equal and opposite pairs along the line of centres: no net
// force and no net torque (linear and angular momentum conservation).
TEST(DampedSpring, ForcesOfARandomNetworkSumToZero) {
    World ps;
    test::addRandomSpringNetwork(ps, 12, 40, 7u);
    VecX f;
    ps.appliedForces(f);
    Vec3 force = Vec3::Zero(), torque = Vec3::Zero();
    double magnitude = 0.0;
    for (Index i = 0; i < ps.particleCount(); ++i) {
        force += block3(f, i);
        torque += ps.position(i).cross(Vec3(block3(f, i)));
        magnitude += block3(f, i).norm();
    }
    ASSERT_GT(magnitude, 1.0);
    EXPECT_LT(force.norm(), 1e-14 * magnitude);
    EXPECT_LT(torque.norm(), 1e-14 * magnitude);
}

// The force pass takes four springs at a time: to the bit the forces of dampedSpringForce
// added spring by spring, with springs that share particles within a block of four, one of
// no length (no force) and a last block that is not full.
TEST(DampedSpring, SpringsFourAtATimeAddUpAsOneByOne) {
    World ps;
    test::addRandomSpringNetwork(ps, 12, 1001, 11u);
    addSpringOfNoLength(ps);
    test::addRandomSpringNetwork(ps, 12, 1001, 12u);
    ASSERT_LT(ps.springs().size(), ElementPartition::kSplitElements);  // one part, in the springs' order
    ASSERT_NE(ps.springs().size() % kLanes, 0);

    VecX f;
    ps.appliedForces(f);
    VecX expected = VecX::Zero(f.size());
    for (const DampedSpring& s : ps.springs().springs()) {
        const Index i = s.a.index(), j = s.b.index();
        const Vec3 fa = dampedSpringForce(s, ps.position(i), ps.position(j), ps.velocity(i), ps.velocity(j));
        block3(expected, i) += fa;
        block3(expected, j) -= fa;
    }
    EXPECT_TRUE(f == expected);
    EXPECT_GT(f.norm(), 1.0);
}

// The implicit step's pass sets the Jacobian instead of adding to it, so J is not zeroed first:
// from a J full of NaN it gives, to the bit, what zeroing J and adding gives. On a network in
// two parts and a band, on one core and on two, with a spring of no length (its blocks set to
// zero), a spring to a body and particles no spring reaches (blocks the pass zeroes: enough of
// them for two halves at once).
TEST(DampedSpring, SettingTheJacobianGivesWhatZeroingAndAddingGives) {
    World ps;
    test::addRandomSpringNetwork(ps, 600, 3000, 5u);
    const auto [a, b] = addSpringOfNoLength(ps);
    Index lone = 0;
    for (Index k = 0; k < static_cast<Index>(BlockSparseMatrix::kParallelZeroBlocks); ++k)
        lone = ps.addParticle(Vec3(2.0, 0.0, 0.01 * static_cast<double>(k)), Vec3::Zero(), 1.0);
    const Index body = ps.addRigidBody(test::unitCube(0.5, 0.0));
    ps.addSpring({Anchor::onBody(body, Vec3(0.5, 0.5, 0.5)), Anchor(7), 30.0, 0.1, 0.5});
    TwoWayParallel parallel;
    for (TwoWayParallel* cores : {static_cast<TwoWayParallel*>(nullptr), &parallel}) {
        const double h = 1.0 / 60.0;
        VecX f, dFdxV;
        BlockSparseMatrix J;
        ps.appliedForcesAndCombinedJacobian(f, -h * h, -h, J, dFdxV, cores);  // binds J's pattern
        ASSERT_GT(ps.springs().size(), ElementPartition::kSplitElements);

        BlockSparseMatrix expected = J;
        expected.setZero();
        VecX expectedF = VecX::Zero(f.size()), expectedDFdxV = VecX::Zero(f.size());
        const JacobianRequest request{JacobianForm::Definite, -h * h, -h, &expectedDFdxV, cores};
        ps.springs().accumulateWithJacobians(ps, request, expectedF, expected);

        for (Index k = 0; k < J.storedBlocks(); ++k) J.value(k).setConstant(std::numeric_limits<double>::quiet_NaN());
        VecX springF = VecX::Zero(f.size()), springDFdxV = VecX::Zero(f.size());
        ps.springs().accumulateSettingJacobians(ps, {JacobianForm::Definite, -h * h, -h, &springDFdxV, cores}, springF,
                                                J);
        for (Index k = 0; k < J.storedBlocks(); ++k) ASSERT_TRUE(J.value(k) == expected.value(k)) << "block " << k;
        EXPECT_TRUE(springF == expectedF);
        EXPECT_TRUE(springDFdxV == expectedDFdxV);
        EXPECT_EQ(J.diagonal(lone), Mat3::Zero());
        EXPECT_EQ(J.diagonal(a), Mat3::Zero());
        EXPECT_EQ(J.diagonal(b), Mat3::Zero());
        EXPECT_GT(J.diagonal(7).norm(), 1e-3);
        EXPECT_GT(J.diagonal(ps.velocityBlock(ps.springs().springs().back().a.body)).norm(), 1e-3);
    }
}

}  // namespace
}  // namespace tinkerbox
