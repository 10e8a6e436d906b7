// Beads in generalized coordinates (Witkin, Constrained Dynamics, SIGGRAPH 2001 notes, bead on a wire): x(theta) = c +
// r (cos theta u + sin theta w), (J^T M J) theta'' = J^T Q. A bead on a vertical circle is a pendulum of length r.
#include "core/bodies/ParametricBeads.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/TestSystems.h"
#include "core/dynamics/World.h"
#include "core/forces/Gravity.h"
#include "core/forces/ViscousDrag.h"
#include "core/integrators/RungeKutta4.h"

namespace tinkerbox {
namespace {

using test::kG;
constexpr double kHanging = -std::numbers::pi / 2;  // the bottom of a wire in the xy plane (gravity -y)

// Beads are a kind of body of a world: this one has beads only, under gravity and drag.
struct BeadWorld {
    World world;
    ViscousDrag* drag;

    BeadWorld() {
        world.addForce(std::make_unique<Gravity>(Vec3(0.0, -kG, 0.0)));
        drag = &static_cast<ViscousDrag&>(world.addForce(std::make_unique<ViscousDrag>(0.0)));
    }
    void addBead(const ParametricBead& b) { world.addBead(b); }
    Index beadCount() const { return world.beadCount(); }
    ParametricBead bead(Index i) const { return world.beads().bead(i); }
    Vec3 position(Index i) const { return world.beads().position(i); }
    Vec3 velocity(Index i) const { return world.beads().velocity(i); }
    const VecX& inverseMassPerDof() const { return world.beads().inverseMassPerDof(); }
    void setDrag(double kd) { drag->setCoefficient(kd); }
    double kineticEnergy() const { return world.kineticEnergy(); }
    double potentialEnergy() const { return world.potentialEnergy(); }
    Index dimension() const { return world.dimension(); }
    double time() const { return world.time(); }
    void getState(VecX& x) const { world.getState(x); }
    void setState(const VecX& x, double t) { world.setState(x, t); }
    void accelerations(VecX& a) { world.accelerations(a); }
    void appliedForces(VecX& f) { world.appliedForces(f); }
    void combinedJacobian(double cx, double cv, BlockSparseMatrix& J, VecX& product) {
        world.combinedJacobian(cx, cv, J, product);
    }
};

BeadWorld oneBead(double angle, double angularVelocity, double radius = 1.0, double mass = 1.0) {
    BeadWorld beads;
    beads.addBead({Vec3(0.5, 2.0, -1.0), radius, Vec3::UnitZ(), mass, angle, angularVelocity});
    return beads;
}

// Runs a bead with rk4 and returns the period of its swing about the bottom.
double measuredPeriod(BeadWorld& beads, double h, double duration) {
    RungeKutta4 rk4;
    StepReport report;
    std::vector<double> t{0.0}, y{beads.bead(0).angle - kHanging};
    for (int k = 1; k * h <= duration; ++k) {
        rk4.step(beads.world, h, report);
        t.push_back(beads.time());
        y.push_back(beads.bead(0).angle - kHanging);
    }
    return test::periodFromZeroCrossings(t, y);
}

TEST(ParametricBeads, PositionAndVelocityFollowTheAngle) {
    BeadWorld beads = oneBead(0.7, 1.3, 2.0);
    const Vec3 c(0.5, 2.0, -1.0);
    EXPECT_LT((beads.position(0) - (c + 2.0 * Vec3(std::cos(0.7), std::sin(0.7), 0))).norm(), 1e-15);
    EXPECT_LT((beads.velocity(0) - 2.0 * 1.3 * Vec3(-std::sin(0.7), std::cos(0.7), 0)).norm(), 1e-15);
    const ParametricBead b = beads.bead(0);
    EXPECT_EQ(b.angle, 0.7);
    EXPECT_EQ(b.angularVelocity, 1.3);
    EXPECT_EQ(b.normal, Vec3::UnitZ());
    EXPECT_EQ(beads.dimension(), 6);
    EXPECT_EQ(beads.inverseMassPerDof()[0], 1.0 / (1.0 * 2.0 * 2.0));  // 1 / (m r^2)
    // A tilted wire keeps its bead on the circle, in the plane.
    BeadWorld tilted;
    const Vec3 n = Vec3(1, -2, 2) / 3.0;
    tilted.addBead({Vec3(1, 0, 0), 0.5, 3.0 * n, 1.0, 2.1, 0.0});
    EXPECT_NEAR((tilted.position(0) - Vec3(1, 0, 0)).norm(), 0.5, 1e-15);
    EXPECT_NEAR((tilted.position(0) - Vec3(1, 0, 0)).dot(n), 0.0, 1e-15);
    EXPECT_TRUE(tilted.bead(0).normal.isApprox(n, 1e-15));
}

TEST(ParametricBeads, DegenerateBeadsAreRejected) {
    BeadWorld beads;
    EXPECT_THROW(beads.addBead({Vec3::Zero(), 0.0, Vec3::UnitZ(), 1.0, 0.0, 0.0}), std::invalid_argument);
    EXPECT_THROW(beads.addBead({Vec3::Zero(), 1.0, Vec3::UnitZ(), 0.0, 0.0, 0.0}), std::invalid_argument);
    EXPECT_THROW(beads.addBead({Vec3::Zero(), 1.0, Vec3::Zero(), 1.0, 0.0, 0.0}), std::invalid_argument);
    EXPECT_EQ(beads.beadCount(), 0);
}

TEST(ParametricBeads, AHugeNormalIsNormalized) {
    BeadWorld beads;
    beads.addBead({Vec3::Zero(), 1.0, Vec3(0, 0, 1e300), 1.0, 0.0, 0.0});
    EXPECT_EQ(beads.bead(0).normal, Vec3::UnitZ());
}

// The angular acceleration is that of a pendulum: theta'' = -(g / r) cos(theta) for a
// wire in the vertical xy plane (gravity -y), plus drag -kd theta' / m.
TEST(ParametricBeads, AccelerationIsThePendulumEquation) {
    BeadWorld beads = oneBead(0.4, 1.5, 0.8, 2.0);
    beads.setDrag(0.6);
    VecX a;
    beads.accelerations(a);
    EXPECT_NEAR(a[0], -(kG / 0.8) * std::cos(0.4) - 0.6 * 1.5 / 2.0, 1e-12);
    EXPECT_EQ(a[1], 0.0);
    EXPECT_EQ(a[2], 0.0);
}

// A bead on a vertical circle of radius r is a pendulum of length r: the period of a small
// swing is 2 pi sqrt(r / g), and of a large one 4 sqrt(r / g) K(sin(theta0 / 2)).
TEST(ParametricBeads, SwingsWithThePendulumPeriod) {
    constexpr double r = 0.7;
    BeadWorld small = oneBead(kHanging + 0.01, 0.0, r);
    const double smallError =
        std::abs(measuredPeriod(small, 1e-3, 8.0) / (2 * std::numbers::pi * std::sqrt(r / kG)) - 1);
    EXPECT_LT(smallError, 1e-4);
    BeadWorld large = oneBead(kHanging + 1.2, 0.0, r);
    const double largeError = std::abs(measuredPeriod(large, 1e-3, 8.0) / test::pendulumPeriod(r, kG, 1.2) - 1);
    EXPECT_LT(largeError, 1e-6);
    RecordProperty("small_period_error", test::scientific(smallError));
    RecordProperty("large_period_error", test::scientific(largeError));
}

// On a tilted wire only gravity's component in the wire's plane drives the bead.
TEST(ParametricBeads, TiltedWireSwingsWithTheInPlaneGravity) {
    const double tilt = 0.6;  // the wire's plane leans back by this angle from the vertical
    const Vec3 normal(0, std::sin(tilt), std::cos(tilt));
    BeadWorld beads;
    beads.addBead({Vec3::Zero(), 1.0, normal, 1.0, 0.0, 0.0});
    // Find the bottom (the angle where the bead is lowest) and start a small swing there.
    Vec3 u, w;
    orthonormalComplement(normal, u, w);
    const double bottom = std::atan2(-w.y(), -u.y());
    VecX state;
    beads.getState(state);
    state[0] = bottom + 0.01;
    beads.setState(state, 0.0);
    const double gInPlane = kG * std::cos(tilt);
    RungeKutta4 rk4;
    StepReport report;
    std::vector<double> t{0.0}, y{0.01};
    for (int k = 0; k < 6000; ++k) {
        rk4.step(beads.world, 1e-3, report);
        t.push_back(beads.time());
        y.push_back(beads.bead(0).angle - bottom);
    }
    EXPECT_NEAR(test::periodFromZeroCrossings(t, y) / (2 * std::numbers::pi * std::sqrt(1.0 / gInPlane)), 1.0, 1e-4);
}

TEST(ParametricBeads, Rk4ConservesEnergy) {
    BeadWorld beads = oneBead(0.0, 0.0, 1.3, 0.8);                      // released from the horizontal
    beads.addBead({Vec3(3, 0, 0), 0.5, Vec3(1, 0, 1), 2.0, 1.0, 4.0});  // tilted, looping
    const double e0 = beads.kineticEnergy() + beads.potentialEnergy();
    RungeKutta4 rk4;
    StepReport report;
    double drift = 0.0;
    for (int k = 0; k < 10000; ++k) {
        rk4.step(beads.world, 1e-3, report);
        drift = std::max(drift, std::abs(beads.kineticEnergy() + beads.potentialEnergy() - e0));
    }
    const double scale = 0.8 * kG * 1.3 + 2.0 * kG * 0.5;  // the beads' m g r
    EXPECT_LT(drift / scale, 1e-9);
    RecordProperty("energy_drift", test::scientific(drift / scale));
}

// The implicit integrator's Jacobian: dF/dtheta is the finite difference of the generalized
// force where the bead hangs below its centre (and clamped to 0 above it), dF/dtheta' is
// -kd r^2, and dFdxTimesVelocity is dF/dtheta theta'.
TEST(ParametricBeads, CombinedJacobianMatchesFiniteDifferences) {
    constexpr double r = 0.9, m = 1.4, kd = 0.3, eps = 1e-6;
    for (const double angle : {-2.5, -1.4, -0.3, 0.4, 1.7, 2.8}) {
        BeadWorld beads = oneBead(angle, 0.7, r, m);
        beads.setDrag(kd);
        const auto force = [&](double dTheta, double dThetaDot) {
            VecX state, f;
            beads.getState(state);
            VecX moved = state;
            moved[0] += dTheta;
            moved[3] += dThetaDot;
            beads.setState(moved, 0.0);
            beads.appliedForces(f);
            beads.setState(state, 0.0);
            return f[0];
        };
        const double dFdTheta = (force(eps, 0) - force(-eps, 0)) / (2 * eps);
        const double dFdThetaDot = (force(0, eps) - force(0, -eps)) / (2 * eps);
        BlockSparseMatrix dFdx, dFdv;
        VecX product;
        beads.combinedJacobian(1.0, 0.0, dFdx, product);
        beads.combinedJacobian(0.0, 1.0, dFdv, product);
        const bool below = beads.position(0).y() < 2.0;
        EXPECT_NEAR(dFdx.toDense()(0, 0), below ? dFdTheta : 0.0, 1e-7) << "angle " << angle;
        if (!below) {
            EXPECT_GT(dFdTheta, 0.0) << "the clamped part is the unstable one";
        }
        EXPECT_NEAR(dFdv.toDense()(0, 0), dFdThetaDot, 1e-7);
        EXPECT_NEAR(dFdThetaDot, -kd * r * r, 1e-7);
        EXPECT_NEAR(product[0], dFdx.toDense()(0, 0) * 0.7, 1e-12);
        EXPECT_TRUE(dFdx.toDense().bottomRightCorner(2, 2).isZero(0.0));
    }
}

// Every integrator steps the beads: a small swing has about the right period with each.
class ParametricBeadEveryIntegrator : public ::testing::TestWithParam<std::string_view> {};

TEST_P(ParametricBeadEveryIntegrator, SmallSwingHasThePendulumPeriod) {
    SimulationSettings settings = test::simulationSettings(GetParam(), 1e-3);
    Simulation sim(settings);
    sim.world().addBead({Vec3::Zero(), 1.0, Vec3::UnitZ(), 1.0, kHanging + 0.05, 0.0});
    std::vector<double> t{0.0}, y{0.05};
    for (int f = 0; f < 5000; ++f) {
        ASSERT_FALSE(sim.step().diverged);
        t.push_back(sim.time());
        y.push_back(sim.world().beads().bead(0).angle - kHanging);
    }
    EXPECT_NEAR(test::periodFromZeroCrossings(t, y) / (2 * std::numbers::pi / std::sqrt(kG)), 1.0, 1e-2);
}

INSTANTIATE_TEST_SUITE_P(AllIntegrators, ParametricBeadEveryIntegrator, test::allIntegrators(),
                         test::IntegratorParamName{});

}  // namespace
}  // namespace tinkerbox
