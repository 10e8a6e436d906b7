// Constrained systems under the integrators: pendulum periods, energy, the feedback law, the
// constraint bead against the parametric one, and the projections of the integrators that
// keep constraints as RATTLE does.
#include <gtest/gtest.h>

#include <array>

#include "core/TestSystems.h"

namespace tinkerbox {
namespace {

using test::kG;

// Two 1 m rods from a nail, released horizontal (as the double-pendulum example), here with
// the pivot at the origin: the energy scale is the largest kinetic energy the bobs can
// reach, m g (1 + 2).
void addDoublePendulum(Simulation& sim) {
    test::addRodChain(sim.world(), Vec3::Zero(), {Vec3(1, 0, 0), Vec3(2, 0, 0)});
}
constexpr double kDoublePendulumEnergyScale = 3.0 * kG;

// Item 3 of the issue: the frictionless double pendulum under rk4 at dt = 1e-3 drifts
// less than 1e-6 (relative) in energy over 10 s.
TEST(ConstrainedDynamics, DoublePendulumKeepsItsEnergyUnderRk4) {
    Simulation sim(test::simulationSettings("rk4", 1e-3));
    addDoublePendulum(sim);
    const double e0 = sim.totalEnergy();
    double drift = 0.0, maxError = 0.0;
    for (int f = 0; f < 10000; ++f) {
        ASSERT_FALSE(sim.step().diverged);
        drift = std::max(drift, std::abs(sim.totalEnergy() - e0) / kDoublePendulumEnergyScale);
        maxError = std::max(maxError, sim.constraintError());
    }
    EXPECT_LT(drift, 1e-6);
    EXPECT_LT(maxError, 1e-7);
    EXPECT_GT(sim.world().kineticEnergy(), 1.0);  // it is swinging
    RecordProperty("relative_energy_drift", test::scientific(drift));
    RecordProperty("max_constraint_error", test::scientific(maxError));
}

// Records the angle of a rod pendulum (rk4, one step per frame) from the downward vertical.
struct Swing {
    std::vector<double> t, angle;
};

Swing swingRodPendulum(double length, double theta0, double h, double duration) {
    Simulation sim(test::simulationSettings("rk4", h));
    const Vec3 pivot(0.3, 1.0, -0.2);
    test::addRodChain(sim.world(), pivot, {pivot + length * Vec3(std::sin(theta0), -std::cos(theta0), 0)});
    Swing s{{0.0}, {theta0}};
    for (int f = 1; f * h <= duration; ++f) {
        EXPECT_FALSE(sim.step().diverged);
        const Vec3 d = sim.world().position(1) - pivot;
        s.t.push_back(sim.time());
        s.angle.push_back(std::atan2(d.x(), -d.y()));
    }
    return s;
}

// Item 4: a rod pendulum's small swing (0.01 rad, where the amplitude correction
// 1 + theta0^2/16 is 6e-6) has the period 2 pi sqrt(L / g) within 0.1 %.
TEST(ConstrainedDynamics, SmallSwingOfARodPendulumHasPeriodTwoPiRootLOverG) {
    constexpr double L = 1.3;
    const Swing s = swingRodPendulum(L, 0.01, 1e-3, 10.0);
    const double error =
        std::abs(test::periodFromZeroCrossings(s.t, s.angle) / (2 * std::numbers::pi * std::sqrt(L / kG)) - 1);
    EXPECT_LT(error, 1e-3);
    RecordProperty("relative_period_error", test::scientific(error));
}

// A large swing has the exact (elliptic) period, not the small-angle one.
TEST(ConstrainedDynamics, LargeSwingOfARodPendulumHasTheEllipticPeriod) {
    constexpr double L = 0.8, theta0 = 1.5;
    const Swing s = swingRodPendulum(L, theta0, 1e-3, 8.0);
    const double period = test::periodFromZeroCrossings(s.t, s.angle);
    EXPECT_NEAR(period / test::pendulumPeriod(L, kG, theta0), 1.0, 1e-5);
    EXPECT_GT(period / (2 * std::numbers::pi * std::sqrt(L / kG)), 1.15);  // 17 % longer than the small swing
}

// The feedback is inside the solve: with no forces and no rotation a stretched rod's error
// obeys C'' = -ks C - kd C' exactly, critically damped for ks = 400, kd = 40:
// C(t) = C0 (1 + 20 t) e^(-20 t).
TEST(ConstrainedDynamics, ConstraintErrorDecaysAsTheFeedbackLawSays) {
    SimulationSettings settings = test::simulationSettings("rk4", 1e-3);
    settings.gravity = Vec3::Zero();
    Simulation sim(settings);
    World& ps = sim.world();
    ps.addParticle(Vec3(0, 0, 0), Vec3::Zero(), 1.0);
    ps.addParticle(Vec3(1.01, 0, 0), Vec3::Zero(), 3.0);
    ps.addConstraint(makeConstraint(RodSpec{0, 1, 1.0}));
    double worst = 0.0;
    for (int f = 1; f <= 500; ++f) {
        ASSERT_FALSE(sim.step().diverged);
        const double t = f * 1e-3;
        const double expected = 0.01 * (1 + 20 * t) * std::exp(-20 * t);
        worst = std::max(worst, std::abs((ps.position(1) - ps.position(0)).norm() - 1.0 - expected));
    }
    EXPECT_LT(worst, 1e-9);
    EXPECT_LT(test::totalMomentum(ps).norm(), 1e-12);  // the pull is internal
}

// Item 5: a bead held on its wire by a constraint force and a parametric bead on an
// identical wire (centred elsewhere), started at the same angle and speed, move together
// under rk4: positions relative to their centres within 1e-4 m over 5 s. Also on a tilted
// wire, where the plane row works against gravity.
TEST(ConstrainedDynamics, ConstraintBeadAndParametricBeadMoveTogether) {
    const std::array<Vec3, 2> normals{Vec3(0, 0, 1), Vec3(0.4, 0.5, 1.0)};
    for (std::size_t k = 0; k < normals.size(); ++k) {
        const Vec3& normal = normals[k];
        SimulationSettings settings = test::simulationSettings("rk4", 1.0 / 60.0);
        settings.substeps = 4;
        Simulation sim(settings);
        const Vec3 wireCenter(-2.5, 0.3, 0.1), beadCenter(1.0, -0.5, 0.0);
        constexpr double r = 0.9, angle = 0.5, angularVelocity = 1.5;
        sim.world().addBead({beadCenter, r, normal, 1.2, angle, angularVelocity});
        const Index p = sim.world().addParticle(wireCenter + (sim.world().beads().position(0) - beadCenter),
                                                sim.world().beads().velocity(0), 1.2);
        sim.world().addConstraint(makeConstraint(WireSpec{p, wireCenter, r, normal.normalized()}));
        double separation = 0.0;
        for (int f = 0; f < 300; ++f) {
            ASSERT_FALSE(sim.step().diverged);
            separation = std::max(
                separation,
                ((sim.world().position(p) - wireCenter) - (sim.world().beads().position(0) - beadCenter)).norm());
        }
        EXPECT_LT(separation, 1e-4) << "normal " << normal.transpose();
        EXPECT_GT(
            (sim.world().beads().position(0) - (beadCenter + r * Vec3(std::cos(angle), std::sin(angle), 0))).norm(),
            0.1);
        RecordProperty(k == 0 ? "separation_flat" : "separation_tilted", test::scientific(separation));
    }
}

// A rod pendulum and a parametric bead of the same length move together too.
TEST(ConstrainedDynamics, RodPendulumMatchesABeadOnACircle) {
    SimulationSettings settings = test::simulationSettings("rk4", 1.0 / 240.0);
    Simulation sim(settings);
    const Vec3 pivot(0, 1, 0);
    constexpr double angle = -0.2;  // above the horizontal
    test::addRodChain(sim.world(), pivot, {pivot + Vec3(std::cos(angle), std::sin(angle), 0)});
    sim.world().addBead({pivot, 1.0, Vec3::UnitZ(), 1.0, angle, 0.0});
    double separation = 0.0;
    for (int f = 0; f < 1200; ++f) {
        ASSERT_FALSE(sim.step().diverged);
        separation = std::max(separation, (sim.world().position(1) - sim.world().beads().position(0)).norm());
    }
    EXPECT_LT(separation, 1e-5);
}

// Symplectic Euler, Verlet and implicit Euler keep constraints by projection: after every
// step |C| is at the projection tolerance (1e-10 relative), and the double pendulum (at the
// example's 8 substeps of 1/60 s) keeps its energy for 60 s: it oscillates around the start
// without drifting. (On rods alone implicit Euler's solve has no springs to damp: it steps
// like symplectic Euler.)
struct ProjectionCase {
    std::string_view integrator;
    double energyBound;  // max |E - E0| over the energy scale
};

class ProjectionIntegrators : public ::testing::TestWithParam<ProjectionCase> {};

TEST_P(ProjectionIntegrators, KeepConstraintsAtTheToleranceAndEnergyBounded) {
    const ProjectionCase c = GetParam();
    SimulationSettings settings = test::simulationSettings(c.integrator, 1.0 / 60.0);
    settings.substeps = 8;
    Simulation sim(settings);
    addDoublePendulum(sim);
    const double e0 = sim.totalEnergy();
    double maxError = 0.0, maxDeviation = 0.0, firstMean = 0.0, lastMean = 0.0;
    for (int f = 1; f <= 3600; ++f) {
        ASSERT_FALSE(sim.step().diverged);
        maxError = std::max(maxError, sim.constraintError());
        const double deviation = (sim.totalEnergy() - e0) / kDoublePendulumEnergyScale;
        maxDeviation = std::max(maxDeviation, std::abs(deviation));
        if (f <= 600) firstMean += deviation / 600;
        if (f > 3000) lastMean += deviation / 600;
    }
    EXPECT_LE(maxError, 2 * ConstraintSolver::kProjectionTolerance);
    EXPECT_LT(maxDeviation, c.energyBound);
    EXPECT_LT(std::abs(lastMean - firstMean), 0.5 * c.energyBound);  // no drift from the first 10 s to the last
    RecordProperty("max_constraint_error", test::scientific(maxError));
    RecordProperty("max_energy_deviation", test::scientific(maxDeviation));
    RecordProperty("mean_energy_first_10s", test::scientific(firstMean));
    RecordProperty("mean_energy_last_10s", test::scientific(lastMean));
}

INSTANTIATE_TEST_SUITE_P(Rattle, ProjectionIntegrators,
                         ::testing::Values(ProjectionCase{"symplectic-euler", 5e-3}, ProjectionCase{"verlet", 5e-4},
                                           ProjectionCase{"implicit-euler", 5e-3}),
                         [](const ::testing::TestParamInfo<ProjectionCase>& info) {
                             return test::IntegratorParamName{}({info.param.integrator, info.index});
                         });

}  // namespace
}  // namespace tinkerbox
