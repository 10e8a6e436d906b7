// Particle-plane contact through Simulation (integrator step, then contacts): bounce
// with restitution, resting contact, and Coulomb friction, for every integrator.
#include "core/collision/Plane.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "core/TestSystems.h"
#include "core/pipeline/Simulation.h"

namespace tinkerbox {
namespace {

using test::kG;

Plane ground(double restitution, double friction) {
    Plane p;
    p.point = Vec3::Zero();
    p.normal = Vec3::UnitY();
    p.restitution = restitution;
    p.friction = friction;
    return p;
}

// A plane through the origin tilted by `angle` about z: downhill is +x along the surface.
Plane incline(double angle, double friction) {
    Plane p = ground(0.0, friction);
    p.normal = Vec3(std::sin(angle), std::cos(angle), 0.0);
    return p;
}

class PlaneContact : public ::testing::TestWithParam<std::string_view> {};

TEST_P(PlaneContact, BounceScalesNormalSpeedByRestitution) {
    const double e = 0.6, height = 1.0, dt = 2e-4;
    Simulation sim(test::simulationSettings(GetParam(), dt));
    World& ps = sim.world();
    ps.addParticle(Vec3(0.0, height, 0.0), Vec3::Zero(), 1.0);
    ps.addPlane(ground(e, 0.3));

    // Rebound speed and the following apex of the first three bounces.
    std::vector<double> rebounds, apexes;
    double apex = 0.0;
    while (rebounds.size() < 3 && sim.time() < 3.0) {
        const double vBefore = ps.velocity(0).y();
        const FrameReport report = sim.step();
        ASSERT_FALSE(report.diverged) << report.message;
        const double v = ps.velocity(0).y();
        if (report.contact.contacts > 0 && vBefore < 0.0 && v > 0.0) {
            if (!rebounds.empty()) apexes.push_back(apex);
            rebounds.push_back(v);
            apex = 0.0;
        }
        apex = std::max(apex, ps.position(0).y());
    }
    ASSERT_EQ(rebounds.size(), 3u) << "expected three bounces within 3 s";
    // The impact step overshoots the surface by at most g dt in speed.
    const double impactSpeed = std::sqrt(2.0 * kG * height);
    EXPECT_NEAR(rebounds[0] / impactSpeed, e, 2.0 * kG * dt / impactSpeed);
    EXPECT_NEAR(rebounds[1] / rebounds[0], e, 0.01 * e);
    EXPECT_NEAR(apexes[0] / height, e * e, 0.03 * e * e);
    EXPECT_NEAR(apexes[1] / apexes[0], e * e, 0.03 * e * e);
}

// On a tilted frictionless plane only the normal component is reflected (and scaled by
// the restitution); the tangential one passes through.
TEST_P(PlaneContact, BounceOnTiltedPlaneReflectsOnlyTheNormalComponent) {
    const double e = 0.8, dt = 1e-4;
    const Plane plane = [&] {
        Plane p = incline(25.0 * std::numbers::pi / 180.0, 0.0);
        p.restitution = e;
        return p;
    }();
    Simulation sim(test::simulationSettings(GetParam(), dt));
    sim.world().addParticle(0.05 * plane.normal, Vec3(0.5, -3.0, 0.2), 1.0);
    sim.world().addPlane(plane);
    for (int k = 0; k < 1000; ++k) {
        const Vec3 before = sim.world().velocity(0);
        const FrameReport report = sim.step();
        ASSERT_FALSE(report.diverged);
        if (report.contact.contacts == 0) continue;
        const Vec3 after = sim.world().velocity(0);
        const double vn = before.dot(plane.normal);
        // The step adds at most g dt to the velocity before the contact.
        EXPECT_NEAR(after.dot(plane.normal), -e * vn, 2.0 * kG * dt);
        EXPECT_LT(((after - before) - (after - before).dot(plane.normal) * plane.normal).norm(), 2.0 * kG * dt);
        return;
    }
    FAIL() << "the particle never reached the plane";
}

void expectStaysExactlyAtRest(Simulation& sim, int frames) {
    const Vec3 x0 = sim.world().position(0);
    for (int k = 0; k < frames; ++k) {
        const FrameReport report = sim.step();
        ASSERT_FALSE(report.diverged) << report.message;
        ASSERT_EQ(report.contact.contacts, 1) << "frame " << k;
        ASSERT_EQ(sim.world().position(0), x0) << "frame " << k;
        ASSERT_EQ(sim.world().velocity(0), Vec3::Zero()) << "frame " << k;
    }
}

TEST_P(PlaneContact, RestingParticleStaysExactlyAtRest) {
    Simulation sim(test::simulationSettings(GetParam(), 1.0 / 60.0));
    sim.world().addParticle(Vec3(0.3, 0.0, -0.2), Vec3::Zero(), 1.0);
    sim.world().addPlane(ground(0.5, 0.3));
    expectStaysExactlyAtRest(sim, 600);
}

TEST_P(PlaneContact, FrictionHoldsParticleOnInclineSteeperThanItsWeightCanSlide) {
    const double angle = 30.0 * std::numbers::pi / 180.0;  // tan = 0.577
    Simulation sim(test::simulationSettings(GetParam(), 1.0 / 60.0));
    sim.world().addParticle(Vec3::Zero(), Vec3::Zero(), 1.0);
    sim.world().addPlane(incline(angle, 0.7));
    expectStaysExactlyAtRest(sim, 600);
}

// Below the friction angle the particle slides with a = g (sin - mu cos), staying on the
// surface. A bouncy plane must not make it hop: sliding is resting contact, whatever the
// rounding in the normal velocity left by the previous step's correction.
TEST_P(PlaneContact, ParticleSlidesDownInclineWithCoulombDeceleration) {
    const double angle = 30.0 * std::numbers::pi / 180.0, mu = 0.3, dt = 1e-3;
    Simulation sim(test::simulationSettings(GetParam(), dt));
    sim.world().addParticle(Vec3::Zero(), Vec3::Zero(), 1.0);
    Plane plane = incline(angle, mu);
    plane.restitution = 0.5;
    sim.world().addPlane(plane);
    for (int k = 0; k < 1000; ++k) {
        ASSERT_FALSE(sim.step().diverged);
        const Vec3 v = sim.world().velocity(0);
        ASSERT_LE(std::abs(v.dot(plane.normal)), 1e-12 * std::max(1.0, v.norm())) << "hop at step " << k;
    }
    const double a = kG * (std::sin(angle) - mu * std::cos(angle));
    const Vec3 downhill(std::cos(angle), -std::sin(angle), 0.0);
    const Vec3 x = sim.world().position(0);
    EXPECT_NEAR(x.dot(downhill), 0.5 * a * sim.time() * sim.time(), 0.01 * 0.5 * a);
    EXPECT_NEAR(sim.world().velocity(0).dot(downhill), a * sim.time(), 0.01 * a);
    EXPECT_NEAR(plane.signedDistance(x), 0.0, 1e-12);  // on the surface, not sinking
}

TEST_P(PlaneContact, FrictionStopsSlidingParticleAndKeepsItStopped) {
    const double mu = 0.5, dt = 1e-3;
    const Vec3 v0(1.6, 0.0, 1.2);  // speed 2
    Simulation sim(test::simulationSettings(GetParam(), dt));
    sim.world().addParticle(Vec3::Zero(), v0, 1.0);
    sim.world().addPlane(ground(0.5, mu));

    const double stopTime = v0.norm() / (mu * kG), stopDistance = v0.squaredNorm() / (2.0 * mu * kG);
    while (sim.world().velocity(0) != Vec3::Zero() && sim.time() < 2.0 * stopTime) ASSERT_FALSE(sim.step().diverged);
    ASSERT_EQ(sim.world().velocity(0), Vec3::Zero()) << "still sliding at t = " << sim.time();
    EXPECT_NEAR(sim.time(), stopTime, 0.02 * stopTime);
    const Vec3 stoppedAt = sim.world().position(0);
    EXPECT_NEAR(stoppedAt.norm(), stopDistance, 0.02 * stopDistance);
    EXPECT_LT(stoppedAt.normalized().cross(v0.normalized()).norm(), 1e-12) << "friction must oppose the motion";
    EXPECT_EQ(stoppedAt.y(), 0.0);

    for (int k = 0; k < 500; ++k) sim.step();
    EXPECT_EQ(sim.world().position(0), stoppedAt);
    EXPECT_EQ(sim.world().velocity(0), Vec3::Zero());
}

INSTANTIATE_TEST_SUITE_P(AllIntegrators, PlaneContact, test::allIntegrators(), test::IntegratorParamName{});

}  // namespace
}  // namespace tinkerbox
