// Baraff & Witkin 1998, "Large Steps in Cloth Simulation", section 5.3: the filter of
// particles in contact, in the implicit step and on its own.
#include "core/integrators/VelocityFilter.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <numbers>

#include "core/TestSystems.h"
#include "core/pipeline/Simulation.h"
#include "core/forces/Gravity.h"
#include "core/integrators/ImplicitEuler.h"
#include "core/math/SgsConjugateGradient.h"

namespace tinkerbox {
namespace {

constexpr double kG = 9.81;
constexpr double kH = 1.0 / 60.0;

// A symmetric definite system of three coupled blocks: J (Upper storage) and M.
struct BlockSystem {
    BlockSparseMatrix J;
    std::vector<Mat3> mass;
    VecX rhs;
};

BlockSystem makeBlockSystem() {
    BlockSystem s;
    s.J.setPattern(3, {{0, 1}, {1, 2}, {0, 2}}, BlockSparseMatrix::Storage::Upper);
    // J = B B^T over the 9 unknowns, so that J + M is definite; M = m I per block.
    Eigen::MatrixXd B(9, 9);
    for (int r = 0; r < 9; ++r)
        for (int c = 0; c < 9; ++c) B(r, c) = std::sin(1.0 + 3.0 * r + 7.0 * c);
    const Eigen::MatrixXd dense = B * B.transpose();
    for (Index i = 0; i < 3; ++i)
        for (Index j = i; j < 3; ++j) s.J.at(i, j) = dense.block<3, 3>(3 * i, 3 * j);
    s.mass = {2.0 * Mat3::Identity(), 0.5 * Mat3::Identity(), 1.5 * Mat3::Identity()};
    s.rhs.resize(9);
    for (int k = 0; k < 9; ++k) s.rhs[k] = std::cos(2.0 + k);
    return s;
}

Eigen::MatrixXd denseSystem(const BlockSparseMatrix& J, const std::vector<Mat3>& mass) {
    Eigen::MatrixXd A = J.toDense();  // both triangles
    for (Index i = 0; i < J.blockRows(); ++i) A.block<3, 3>(3 * i, 3 * i) += mass[i];
    return A;
}

TEST(VelocityFilter, ConstraintsMakeAnOrthogonalProjectionAndMeetTheirTargets) {
    VelocityFilter filter;
    const Vec3 n1 = Vec3(1.0, 2.0, 2.0) / 3.0, n2 = Vec3(0.0, 0.6, 0.8);
    filter.constrain(n1, 0.25);
    filter.constrain(n2, -0.5);
    filter.constrain(n1, 7.0);  // no new direction: ignored
    EXPECT_EQ(filter.count, 2);
    EXPECT_LT((filter.free * filter.free - filter.free).norm(), 1e-15);
    EXPECT_LT((filter.free - filter.free.transpose()).norm(), 1e-15);
    EXPECT_NEAR(filter.free.trace(), 1.0, 1e-15);
    EXPECT_LT((filter.free * n1).norm(), 1e-15);
    EXPECT_LT((filter.free * n2).norm(), 1e-15);
    EXPECT_LT((filter.free * filter.change).norm(), 1e-15);
    EXPECT_NEAR(n1.dot(filter.change), 0.25, 1e-15);
    EXPECT_NEAR(n2.dot(filter.change), -0.5, 1e-15);
    filter.constrain(Vec3::UnitX(), 1.0);
    EXPECT_EQ(filter.count, 3);
    EXPECT_LT(filter.free.norm(), 1e-15);
}

// The projected system is symmetric positive definite, and its answer is that of the
// constrained problem: A dv = b + N^T lambda, N dv = c (the KKT system, solved densely).
TEST(VelocityFilter, ProjectedSystemIsDefiniteAndGivesTheConstrainedSolution) {
    BlockSystem s = makeBlockSystem();
    const Eigen::MatrixXd A = denseSystem(s.J, s.mass);
    const VecX b = s.rhs;
    std::vector<VelocityFilter> filters(2);
    filters[0].block = 0;
    filters[0].constrain(Vec3::UnitY(), 0.3);
    filters[1].block = 2;
    filters[1].constrain(Vec3(0.0, 0.8, 0.6), -0.2);
    filters[1].constrain(Vec3::UnitX(), 0.1);

    FilteredSystem filtered;
    VecX dv = VecX::Constant(9, 1.0);  // a warm start with constrained parts, which must not matter
    filtered.apply(filters, s.J, s.mass, s.rhs, dv);
    const Eigen::MatrixXd projected = denseSystem(s.J, s.mass);
    EXPECT_LT((projected - projected.transpose()).norm(), 1e-12 * projected.norm());
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(projected);
    EXPECT_GT(eigen.eigenvalues().minCoeff(), 0.0);

    SgsConjugateGradient solver;
    const std::vector<char> fixed(3, 0);
    const CgResult result = solver.solve(s.J, s.mass, fixed, s.rhs, dv, {1e-14, 200});
    EXPECT_TRUE(result.converged);
    filtered.recover(dv);

    // (I - S)(dv - z) = 0 to round-off, block by block.
    for (const VelocityFilter& f : filters) {
        const Vec3 rest = (Mat3::Identity() - f.free) * (block3(dv, f.block) - f.change);
        EXPECT_LT(rest.norm(), 1e-15);
    }
    // KKT: rows n . dv = c for the three constraints.
    Eigen::MatrixXd N = Eigen::MatrixXd::Zero(3, 9);
    N.block<1, 3>(0, 0) = Vec3::UnitY().transpose();
    N.block<1, 3>(1, 6) = Vec3(0.0, 0.8, 0.6).transpose();
    N.block<1, 3>(2, 6) = Vec3::UnitX().transpose();
    Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(12, 12);
    kkt.topLeftCorner(9, 9) = A;
    kkt.topRightCorner(9, 3) = -N.transpose();
    kkt.bottomLeftCorner(3, 9) = N;
    VecX kktRhs(12);
    kktRhs << b, 0.3, -0.2, 0.1;
    const VecX exact = kkt.fullPivLu().solve(kktRhs);
    EXPECT_LT((dv - exact.head(9)).norm(), 1e-10 * exact.norm());
    // The impulses are N^T lambda, on the filtered blocks.
    std::vector<Vec3> impulses;
    filtered.impulses(dv, impulses);
    const VecX constraintImpulse = N.transpose() * exact.tail(3);
    EXPECT_LT((impulses[0] - block3(constraintImpulse, 0)).norm(), 1e-9);
    EXPECT_LT((impulses[1] - block3(constraintImpulse, 2)).norm(), 1e-9);
}

// One particle on the ground plane y = 0, under gravity, with implicit Euler's steps alone
// (no contact model).
World particleOnGround(const Vec3& velocity, double friction) {
    World w;
    w.addParticle(Vec3(0.3, 0.0, -0.2), velocity, 2.0);
    w.addForce(std::make_unique<Gravity>(Vec3(0.0, -kG, 0.0)));
    Plane ground;
    ground.friction = friction;
    w.addPlane(ground);
    return w;
}

TEST(ImplicitContactFilter, RestingParticleKeepsZeroNormalVelocityWhereUnfilteredSinksByGHSquared) {
    IntegratorSettings settings = test::tightSolver();
    World filtered = particleOnGround(Vec3::Zero(), 0.5);
    const auto withFilter = makeIntegrator("implicit-euler", settings);
    StepReport report;
    for (int k = 0; k < 60; ++k) {
        withFilter->step(filtered, kH, report);
        ASSERT_LE(std::abs(filtered.velocity(0).y()), 1e-15) << "step " << k;
        ASSERT_GE(filtered.position(0).y(), -1e-15) << "step " << k;
    }
    settings.contactFilter = false;
    World unfiltered = particleOnGround(Vec3::Zero(), 0.5);
    const auto without = makeIntegrator("implicit-euler", settings);
    without->step(unfiltered, kH, report);
    // Backward Euler: v1 = -g h, x1 = x0 + h v1 = -g h^2.
    EXPECT_NEAR(unfiltered.velocity(0).y(), -kG * kH, 1e-12);
    EXPECT_NEAR(unfiltered.position(0).y(), -kG * kH * kH, 1e-12);
}

TEST(ImplicitContactFilter, ParticleSlidingOnFrictionlessPlaneKeepsItsTangentialVelocity) {
    const Vec3 v0(2.0, 0.0, -1.0);
    World w = particleOnGround(v0, 0.0);
    const Vec3 x0 = w.position(0);
    const auto implicit = makeIntegrator("implicit-euler", test::tightSolver());
    StepReport report;
    for (int k = 1; k <= 30; ++k) {
        implicit->step(w, kH, report);
        ASSERT_LT((w.velocity(0) - v0).norm(), 1e-14) << "step " << k;
        ASSERT_LT((w.position(0) - (x0 + k * kH * v0)).norm(), 1e-12) << "step " << k;
    }
}

// Two particles on the ground joined by a stretched spring along x: in the plane the filtered
// step is the unconstrained step of the same pair without gravity.
TEST(ImplicitContactFilter, ClothOnTheGroundKeepsItsInPlaneMotion) {
    const auto pair = [](bool gravity) {
        World w;
        w.addParticle(Vec3(0.0, 0.0, 0.0), Vec3(0.0, 0.0, 0.5), 1.0);
        w.addParticle(Vec3(1.5, 0.0, 0.0), Vec3(0.2, 0.0, 0.0), 1.0);
        w.addSpring({0, 1, 50.0, 0.5, 1.0});
        if (gravity) {
            w.addForce(std::make_unique<Gravity>(Vec3(0.0, -kG, 0.0)));
            Plane ground;
            ground.friction = 0.0;
            w.addPlane(ground);
        }
        return w;
    };
    World onGround = pair(true), free = pair(false);
    const auto a = makeIntegrator("implicit-euler", test::tightSolver());
    const auto b = makeIntegrator("implicit-euler", test::tightSolver());
    StepReport report;
    for (int k = 0; k < 20; ++k) {
        a->step(onGround, kH, report);
        b->step(free, kH, report);
        for (Index i = 0; i < 2; ++i) {
            ASSERT_LT((onGround.position(i) - free.position(i)).norm(), 1e-10) << "step " << k;
            ASSERT_LT((onGround.velocity(i) - free.velocity(i)).norm(), 1e-10) << "step " << k;
        }
    }
    EXPECT_GT(std::abs(free.position(1).x() - 1.5), 1e-2);  // the spring did move them
}

// A particle resting on the ground with a spring to a nail above that pulls harder than its
// weight: the filter's impulse pulls, the contact is released and the particle leaves.
TEST(ImplicitContactFilter, ParticlePulledOffThePlaneLeavesIt) {
    SimulationSettings settings;
    settings.integrator = "implicit-euler";
    settings.solver = test::tightSolver();
    Simulation sim(settings);
    World& w = sim.world();
    w.addParticle(Vec3::Zero(), Vec3::Zero(), 1.0);
    w.addParticle(Vec3(0.0, 2.0, 0.0), Vec3::Zero(), 1.0, true);
    w.addSpring({0, 1, 20.0, 0.0, 1.0});  // 20 N up at rest against 9.81 N down
    w.addPlane(Plane{});
    std::vector<VelocityFilter> filters;
    w.velocityFilters(filters);
    ASSERT_EQ(filters.size(), 1u);  // touching, at rest
    for (int k = 0; k < 3; ++k) ASSERT_FALSE(sim.step().diverged);
    EXPECT_GT(w.position(0).y(), 1e-3);
    EXPECT_GT(w.velocity(0).y(), 0.0);
}

// A particle on a fixed ball: the contact model's manifold makes the next step's filter, with
// the ball's normal.
TEST(ImplicitContactFilter, ParticleOnFixedBodyIsFilteredAlongTheBodyNormal) {
    SimulationSettings settings;
    settings.integrator = "implicit-euler";
    Simulation sim(settings);
    World& w = sim.world();
    RigidBodySpec ball;
    ball.shape = SphereShape{0.5};
    ball.fixed = true;
    w.addRigidBody(ball);
    const Vec3 n = Vec3(0.3, 1.0, 0.2).normalized();
    w.addParticle(0.5 * n, Vec3::Zero(), 1.0);
    for (int k = 0; k < 10; ++k) ASSERT_FALSE(sim.step().diverged);
    std::vector<VelocityFilter> filters;
    w.velocityFilters(filters);
    ASSERT_EQ(filters.size(), 1u);
    EXPECT_EQ(filters[0].block, 0);
    // The normal found at the last step's end, the particle having moved on since by under a mm.
    EXPECT_LT((filters[0].normals[0] - w.position(0).normalized()).norm(), 5e-3);
    // Held on the ball: it stays within the contact model's slop of the surface.
    EXPECT_NEAR(w.position(0).norm(), 0.5, 1e-4);
}

// A particle on a fixed ball, on a slope of 17 degrees (tan 0.3) under the ball's friction
// 0.5. With the filter its weight is held by the filter's impulse, not the contact model's,
// and friction must count it: the particle then creeps as little as without the filter (the
// contact model lets a particle on a ball creep by some mm a frame; with no friction bound it
// would slide off at g sin 17 deg = 2.9 m/s^2).
TEST(ImplicitContactFilter, FrictionOnFixedBodyCountsTheFilterImpulse) {
    const auto creep = [](bool contactFilter) {
        SimulationSettings settings;
        settings.integrator = "implicit-euler";
        settings.solver.contactFilter = contactFilter;
        Simulation sim(settings);
        World& w = sim.world();
        RigidBodySpec ball;
        ball.shape = SphereShape{0.5};
        ball.fixed = true;
        ball.friction = 0.5;
        w.addRigidBody(ball);
        const double angle = 17.0 * std::numbers::pi / 180.0;
        w.addParticle(0.5 * Vec3(std::sin(angle), std::cos(angle), 0.0), Vec3::Zero(), 1.0);
        for (int k = 0; k < 10; ++k) EXPECT_FALSE(sim.step().diverged);
        const Vec3 settled = w.position(0);
        std::vector<VelocityFilter> filters;
        for (int k = 0; k < 60; ++k) {
            EXPECT_FALSE(sim.step().diverged);
            w.velocityFilters(filters);
            EXPECT_EQ(filters.size(), 1u) << "frame " << k;  // touching and resting all along
        }
        return (w.position(0) - settled).norm();
    };
    const double filtered = creep(true), unfiltered = creep(false);
    EXPECT_LT(filtered, 0.05);
    EXPECT_NEAR(filtered, unfiltered, 0.05 * unfiltered);
}

}  // namespace
}  // namespace tinkerbox
