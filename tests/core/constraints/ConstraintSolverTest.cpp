// The multiplier solve, J W J^T lambda = -Jdot qdot - J W Q - ks C - kd Cdot, checked
// against a dense solve; warm starts; the projections; redundant and conflicting rows.
#include "core/constraints/ConstraintSolver.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>

#include "core/DenseAlgebra.h"
#include "core/TestSystems.h"
#include "core/forces/Gravity.h"
#include "core/integrators/RungeKutta4.h"

namespace tinkerbox {
namespace {

// Seven particles at random places (random masses and velocities), with one constraint of
// every type and a few rods: 15 independent rows on 21 dof. Particle 6 is nailed outright.
// Off the constraints (lengths, radius, points off the current places, so that the feedback
// terms count) or, with legal = true, on them.
void addRandomConstrainedSystem(World& ps, unsigned seed, bool legal = false) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(-1.0, 1.0), positive(0.5, 2.0);
    const auto randomVector = [&] { return Vec3(unit(rng), unit(rng), unit(rng)); };
    for (int k = 0; k < 7; ++k) ps.addParticle(randomVector(), randomVector(), positive(rng), k == 6);
    if (legal) ps.setPosition(5, ps.position(4));
    ps.addForce(std::make_unique<Gravity>(Vec3(0, -9.81, 0)));
    ps.addSpring({0, 3, 30.0, 0.5, 0.7});
    const auto off = [&](double value) { return legal ? value : value * positive(rng); };
    const auto rod = [&](Index a, Index b) {
        ps.addConstraint(makeConstraint(RodSpec{a, b, off((ps.position(a) - ps.position(b)).norm())}));
    };
    ps.addConstraint(makeConstraint(NailSpec{0, ps.position(0) + (legal ? 0.0 : 0.1) * randomVector()}));
    rod(0, 1);
    rod(1, 2);
    rod(2, 3);
    rod(1, 4);
    rod(3, 6);
    const Vec3 center = randomVector(), radial = ps.position(2) - center;
    const Vec3 normal = legal ? radial.cross(randomVector()) : randomVector();
    ps.addConstraint(makeConstraint(WireSpec{2, center, off(radial.norm()), normal.normalized()}));
    ps.addConstraint(makeConstraint(SliderSpec{3, legal ? ps.position(3) : randomVector(), randomVector()}));
    ps.addConstraint(makeConstraint(PinSpec{4, 5}));
}

// J, Jdot, C and Cdot of the whole system assembled densely from the constraints one by one
// (rows in the order the constraints were added, 3 columns per particle).
struct DenseConstraints {
    Eigen::MatrixXd J, Jdot;
    VecX C, Cdot;
};

DenseConstraints assemble(const World& ps) {
    Index rows = 0;
    for (const auto& c : ps.constraints()) rows += c->rowCount();
    const Index n3 = 3 * ps.particleCount();
    DenseConstraints d{Eigen::MatrixXd::Zero(rows, n3), Eigen::MatrixXd::Zero(rows, n3), VecX(rows), VecX(rows)};
    Index row = 0;
    for (const auto& c : ps.constraints()) {
        const test::ConstraintValues v = test::evaluateConstraint(*c, ps);
        const std::vector<Anchor> anchors = c->anchors();  // particles only here
        for (std::size_t p = 0; p < anchors.size(); ++p) {
            d.J.block(row, 3 * anchors[p].index(), c->rowCount(), 3) += v.J.middleCols(3 * p, 3);
            d.Jdot.block(row, 3 * anchors[p].index(), c->rowCount(), 3) += v.Jdot.middleCols(3 * p, 3);
        }
        d.C.segment(row, c->rowCount()) = v.C;
        d.Cdot.segment(row, c->rowCount()) = v.Cdot;
        row += c->rowCount();
    }
    return d;
}

// The solver's J, read column by column through multiplyJ.
Eigen::MatrixXd solverJacobian(const ConstraintSolver& solver, Index n3) {
    Eigen::MatrixXd J(solver.rows(), n3);
    VecX y;
    for (Index k = 0; k < n3; ++k) {
        solver.multiplyJ(VecX::Unit(n3, k), y);
        J.col(k) = y;
    }
    return J;
}

// lambda from a dense solve of J W J^T lambda = rhs.
VecX denseMultipliers(World& ps, const ConstraintSettings& settings) {
    const DenseConstraints d = assemble(ps);
    VecX Q;
    ps.appliedForces(Q);
    const VecX& W = ps.inverseMass().diagonal;
    const VecX rhs = -d.Jdot * ps.velocities() - d.J * W.cwiseProduct(Q) - settings.ks * d.C - settings.kd * d.Cdot;
    Eigen::MatrixXd A = d.J * W.asDiagonal() * d.J.transpose();
    return test::solveSymmetric(A, rhs);
}

ConstraintSettings tightSettings() {
    ConstraintSettings s;
    s.solver = {1e-13, 1000};
    return s;
}

TEST(ConstraintSolver, LaysOutTheJacobianTheConstraintsDescribe) {
    World ps;
    addRandomConstrainedSystem(ps, 7);
    VecX a;
    ps.accelerations(a);
    const ConstraintSolver& solver = ps.constraintSolver();
    const DenseConstraints d = assemble(ps);
    ASSERT_EQ(solver.rows(), 15);
    EXPECT_EQ(solverJacobian(solver, 3 * ps.particleCount()), d.J);
    EXPECT_EQ(solver.C(), d.C);
    // J^T y, column by column, is the transpose.
    VecX x = VecX::Zero(3 * ps.particleCount());
    const VecX y = VecX::LinSpaced(solver.rows(), -1.0, 2.0);
    solver.multiplyJTransposed(y, x);
    EXPECT_LT((x - d.J.transpose() * y).norm(), 1e-13);
}

TEST(ConstraintSolver, MultipliersSolveTheDenseSystem) {
    double worst = 0.0;
    for (unsigned seed : {1u, 2u, 3u, 4u}) {
        World ps;
        addRandomConstrainedSystem(ps, seed);
        ps.setConstraintSettings(tightSettings());
        // The rows are independent (the dense system is well posed)...
        const DenseConstraints d = assemble(ps);
        const Eigen::MatrixXd A = d.J * ps.inverseMass().diagonal.asDiagonal() * d.J.transpose();
        const VecX eigenvalues = test::symmetricEigenvalues(A);
        const double condition = eigenvalues.maxCoeff() / eigenvalues.minCoeff();
        ASSERT_LT(condition, 1e4) << "seed " << seed;
        // ...and the solver's multipliers solve it to the CG tolerance (1e-13) times the
        // condition, unregularized: no Tikhonov floor (its 1e-9 of the diagonal, always added,
        // left errors of 1e-9 times the condition).
        VecX a;
        ps.accelerations(a);
        const VecX& lambda = ps.constraintSolver().multipliers();
        const VecX expected = denseMultipliers(ps, tightSettings());
        const double error = (lambda - expected).norm() / expected.norm();
        EXPECT_LT(error, 1e-12 * condition) << "seed " << seed;
        EXPECT_EQ(ps.constraintSolver().stats().regularized, 0) << "seed " << seed;
        worst = std::max(worst, error);
        // The accelerations are W (Q + J^T lambda).
        VecX Q;
        ps.appliedForces(Q);
        const VecX expectedA = ps.inverseMass().diagonal.cwiseProduct(Q + d.J.transpose() * lambda);
        EXPECT_LT((a - expectedA).norm(), 1e-12 * expectedA.norm());
        // The nailed particle 6 does not move.
        EXPECT_EQ(block3(a, 6), Vec3::Zero());
        RecordProperty("condition_seed_" + std::to_string(seed), test::scientific(condition));
    }
    RecordProperty("multiplier_relative_error", test::scientific(worst));
}

// The constraint force makes C'' = -ks C - kd C' exactly: check J a + Jdot v.
TEST(ConstraintSolver, AccelerationsObeyTheFeedbackLaw) {
    World ps;
    addRandomConstrainedSystem(ps, 11);
    const ConstraintSettings settings = tightSettings();
    ps.setConstraintSettings(settings);
    VecX a;
    ps.accelerations(a);
    const DenseConstraints d = assemble(ps);
    const VecX cddot = d.J * a + d.Jdot * ps.velocities();
    const VecX target = -settings.ks * d.C - settings.kd * d.Cdot;
    const double error = (cddot - target).norm() / target.norm();
    EXPECT_LT(error, 1e-6);
    RecordProperty("feedback_law_relative_error", test::scientific(error));
}

// Warm starts change where CG starts, not where it ends: along an rk4 run, the multipliers
// of a warm-started solver and of a cold one agree at every state to the CG tolerance, at
// a loose tolerance and at a tight one (the stopping test does not depend on the start).
TEST(ConstraintSolver, WarmStartGivesTheSameMultipliers) {
    for (const double tolerance : {1e-6, 1e-12}) {
        World warm, cold;
        addRandomConstrainedSystem(warm, 5, true);
        addRandomConstrainedSystem(cold, 5, true);
        ConstraintSettings settings;
        settings.solver.tolerance = tolerance;
        warm.setConstraintSettings(settings);
        settings.warmStart = false;
        cold.setConstraintSettings(settings);
        RungeKutta4 rk4;
        StepReport report;
        double worst = 0.0;
        long warmIterations = 0, coldIterations = 0;
        VecX a, state;
        for (int k = 0; k < 200; ++k) {
            rk4.step(warm, 1e-3, report);
            warm.getState(state);
            cold.setState(state, warm.time());
            warm.constraintSolver().resetStats();
            cold.constraintSolver().resetStats();
            warm.accelerations(a);
            cold.accelerations(a);
            warmIterations += warm.constraintSolver().stats().iterations;
            coldIterations += cold.constraintSolver().stats().iterations;
            const VecX& lw = warm.constraintSolver().multipliers();
            const VecX& lc = cold.constraintSolver().multipliers();
            worst = std::max(worst, (lw - lc).norm() / lc.norm());
        }
        const std::string at = test::scientific(tolerance);
        EXPECT_LT(worst, 100.0 * tolerance) << "tolerance " << at;
        // ...in fewer iterations where the tolerance leaves room (at 1e-12 this system of 15
        // rows needs its 8 iterations from any start).
        if (tolerance >= 1e-6) EXPECT_LT(warmIterations, coldIterations) << "tolerance " << at;
        else EXPECT_LE(warmIterations, coldIterations) << "tolerance " << at;
        RecordProperty("warm_cold_relative_difference_" + at, test::scientific(worst));
        RecordProperty("iterations_warm_" + at, static_cast<int>(warmIterations));
        RecordProperty("iterations_cold_" + at, static_cast<int>(coldIterations));
    }
}

// Rows that no free particle feels (a rod between two nailed particles) are left out: their
// multiplier is zero and the other rows solve as if they were not there.
TEST(ConstraintSolver, RowsOfFixedParticlesAreLeftOut) {
    World with, without;
    for (World* ps : {&with, &without}) {
        ps->addForce(std::make_unique<Gravity>(Vec3(0, -9.81, 0)));
        ps->addParticle(Vec3(0, 1, 0), Vec3::Zero(), 1.0, true);
        ps->addParticle(Vec3(1, 1, 0), Vec3::Zero(), 1.0, true);
        ps->addParticle(Vec3(0.5, 0.2, 0), Vec3(0.3, 0, 0), 1.0);
        ps->addConstraint(makeConstraint(RodSpec{0, 2, 0.9}));
        ps->addConstraint(makeConstraint(RodSpec{1, 2, 0.9}));
    }
    with.addConstraint(makeConstraint(RodSpec{0, 1, 2.0}));  // violated, but nothing can move
    VecX aWith, aWithout;
    with.accelerations(aWith);
    without.accelerations(aWithout);
    EXPECT_EQ(with.constraintSolver().multipliers()[2], 0.0);
    EXPECT_LT((with.constraintSolver().multipliers().head(2) - without.constraintSolver().multipliers()).norm(),
              1e-6 * without.constraintSolver().multipliers().norm());
    EXPECT_LT((aWith - aWithout).norm(), 1e-6 * aWithout.norm());
    EXPECT_NEAR(with.constraintError(), 0.5, 1e-12);  // |2 - 1| / 2: still reported
}

// max relative |C|: a rod's error over its length, a nail's in metres.
TEST(ConstraintSolver, ErrorIsRelativeToEachConstraintsScale) {
    World ps;
    ps.addParticle(Vec3(0, 0, 0), Vec3::Zero(), 1.0);
    ps.addParticle(Vec3(2.02, 0, 0), Vec3::Zero(), 1.0);
    ps.addConstraint(makeConstraint(RodSpec{0, 1, 2.0}));
    EXPECT_NEAR(ps.constraintError(), 0.01, 1e-12);
    ps.addConstraint(makeConstraint(NailSpec{0, Vec3(0, 0.03, 0)}));
    EXPECT_NEAR(ps.constraintError(), 0.03, 1e-12);
    ps.addConstraint(makeConstraint(WireSpec{1, Vec3(0.02, 0, 0), 4.0}));
    EXPECT_NEAR(ps.constraintError(), 0.5, 1e-12);  // |2 - 4| / 4
}

// The velocity projection: afterwards J v = 0, and the change is mass-weighted,
// M dv = J^T mu (the smallest change in kinetic-energy norm).
TEST(ConstraintSolver, VelocityProjectionIsMassWeightedOntoJvZero) {
    World ps;
    addRandomConstrainedSystem(ps, 3, true);
    ps.setConstraintSettings(tightSettings());
    const VecX v0 = ps.velocities();
    ps.constrainVelocities();
    const DenseConstraints d = assemble(ps);
    EXPECT_LT((d.J * ps.velocities()).norm(), 1e-8 * v0.norm());
    // M dv over the free particles (the nailed one, particle 6, has no say) is J^T mu.
    const VecX& W = ps.inverseMass().diagonal;
    const VecX M = (W.array() > 0.0).select(W.cwiseInverse(), 0.0);
    const Eigen::MatrixXd freeJ = d.J * (W.array() > 0.0).cast<double>().matrix().asDiagonal();
    const VecX impulse = M.cwiseProduct(ps.velocities() - v0);
    const VecX mu = test::leastSquares(freeJ.transpose(), impulse);
    EXPECT_LT((freeJ.transpose() * mu - impulse).norm(), 1e-8 * impulse.norm());
    EXPECT_GT(impulse.norm(), 0.1);  // the random velocities did break the constraints
    EXPECT_EQ(block3(ps.velocities(), 6), block3(v0, 6));
}

// The position projection (SHAKE) after a drift ends with |C| at its tolerance, having moved
// the particles along the constraint gradients at the drift's start, mass-weighted:
// M dx = G0^T nu.
TEST(ConstraintSolver, PositionProjectionReachesItsToleranceAlongTheStartGradients) {
    World ps;
    addRandomConstrainedSystem(ps, 9, true);
    ASSERT_LE(ps.constraintError(), 1e-12);
    const Eigen::MatrixXd G0 = assemble(ps).J;
    ps.drift(0.01);
    const double drifted = ps.constraintError();
    EXPECT_GT(drifted, 1e-5);
    const VecX before = ps.positions();
    ps.constrainPositions(0.01);
    EXPECT_LE(ps.constraintError(), ConstraintSolver::kProjectionTolerance);
    const VecX& W = ps.inverseMass().diagonal;
    const VecX M = (W.array() > 0.0).select(W.cwiseInverse(), 0.0);
    const Eigen::MatrixXd freeG0 = G0 * (W.array() > 0.0).cast<double>().matrix().asDiagonal();
    const VecX moved = M.cwiseProduct(ps.positions() - before);
    const VecX nu = test::leastSquares(freeG0.transpose(), moved);
    EXPECT_LT((freeG0.transpose() * nu - moved).norm(), 1e-8 * moved.norm());
    EXPECT_EQ(block3(ps.positions(), 6), block3(before, 6));
    RecordProperty("drifted_error", test::scientific(drifted));
}

// Two identical rods holding one pendulum: J W J^T is singular. The solve finds a
// least-squares solution: the multipliers may split the tension any way (the null-space part
// exerts no force), but together they carry what one rod does, and the pendulum swings
// exactly like one on a single rod.
TEST(ConstraintSolver, RedundantRodsCarryTheLoadTogetherAndChangeNothing) {
    Simulation single(test::simulationSettings("rk4", 1e-2)), doubled(test::simulationSettings("rk4", 1e-2));
    for (Simulation* sim : {&single, &doubled}) test::addRodChain(sim->world(), Vec3(0, 1, 0), {Vec3(0.8, 0.4, 0)});
    doubled.world().addConstraint(makeConstraint(RodSpec{0, 1, 1.0}));
    VecX a;
    single.world().accelerations(a);
    doubled.world().accelerations(a);
    const VecX& one = single.world().constraintSolver().multipliers();
    const VecX& two = doubled.world().constraintSolver().multipliers();
    EXPECT_NEAR(two[3] + two[4], one[3], 1e-6 * std::abs(one[3]));
    double maxError = 0.0, maxDifference = 0.0;
    for (int f = 0; f < 500; ++f) {
        ASSERT_FALSE(single.step().diverged);
        ASSERT_FALSE(doubled.step().diverged);
        maxError = std::max(maxError, doubled.constraintError());
        maxDifference = std::max(maxDifference, (single.world().positions() - doubled.world().positions()).norm());
    }
    EXPECT_LT(maxError, 1e-6);
    EXPECT_LT(maxDifference, 1e-6);
    // Rows that agree need no regularization.
    EXPECT_EQ(doubled.world().constraintSolver().stats().regularized, 0);
}

// Two rods of different lengths between the same two particles cannot both hold. Every
// integrator keeps going (finite, no divergence), and the distance settles between the two
// lengths: the least-squares feedback drives the mean error to zero.
class ConflictingRods : public ::testing::TestWithParam<std::string_view> {};

TEST_P(ConflictingRods, SettleBetweenTheTwoLengths) {
    SimulationSettings settings = test::simulationSettings(GetParam(), 1.0 / 60.0);
    settings.substeps = GetParam() == "euler" ? 64 : 8;
    Simulation sim(settings);
    World& ps = sim.world();
    test::addRodChain(ps, Vec3(0, 1, 0), {Vec3(1.0, 1.0, 0)});
    ps.addConstraint(makeConstraint(RodSpec{0, 1, 1.2}));
    for (int f = 0; f < 300; ++f) {
        const FrameReport report = sim.step();
        ASSERT_FALSE(report.diverged) << report.message;
        const double distance = (ps.position(1) - ps.position(0)).norm();
        ASSERT_TRUE(std::isfinite(distance));
        ASSERT_GT(distance, 0.99);
        ASSERT_LT(distance, 1.21);
    }
    EXPECT_NEAR((ps.position(1) - ps.position(0)).norm(), 1.1, 1e-3);
    EXPECT_TRUE(ps.constraintSolver().multipliers().allFinite());
    // Rows that disagree have no solution: CG breaks down and the solve is regularized.
    EXPECT_GT(ps.constraintSolver().stats().regularized, 0);
}

INSTANTIATE_TEST_SUITE_P(AllIntegrators, ConflictingRods, test::allIntegrators(), test::IntegratorParamName{});

}  // namespace
}  // namespace tinkerbox
