// Contact response (Baraff, Rigid Body Simulation II: Nonpenetration Constraints, SIGGRAPH
// 2001 notes) against closed forms: the notes' colliding-contact example, the bounce height
// e^2 H, a box held on a slope by static friction or sliding down it at g (sin - mu cos),
// and a box sliding to a stop after v^2 / (2 mu g). The manifolds of boxes and spheres on
// planes are built here from the bodies' corners, as detection finds them.
#include "core/contact/BaraffContact.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "core/TestSystems.h"
#include "core/constraints/ConstraintSpec.h"
#include "core/pipeline/Simulation.h"
#include "core/dynamics/World.h"
#include "core/forces/Gravity.h"
#include "core/integrators/Integrator.h"

namespace tinkerbox {
namespace {

using test::kG;
using test::unitCube;

// Every box corner and sphere bottom closer to a plane than margin: up to the four deepest
// points per body and plane, the normal from the body into the plane.
void planeManifolds(const World& world, double margin, std::vector<ContactManifold>& out) {
    out.clear();
    const RigidBodies& bodies = world.rigidBodies();
    for (Index k = 0; k < bodies.count(); ++k)
        for (std::size_t p = 0; p < world.planes().size(); ++p) {
            const Plane& plane = world.planes()[p];
            ContactManifold m;
            m.a = {ColliderKind::Rigid, k};
            m.b = {ColliderKind::Plane, static_cast<Index>(p)};
            m.normal = -plane.normal;
            std::vector<ContactPoint> points;
            const auto add = [&](const Vec3& x, std::uint32_t feature) {
                const double s = plane.signedDistance(x);
                if (s < margin) points.push_back({x - 0.5 * s * plane.normal, s, feature});
            };
            if (const auto* sphere = std::get_if<SphereShape>(&bodies.spec(k).shape)) {
                add(bodies.position(k) - sphere->radius * plane.normal, 0);
            } else {
                const Vec3 half = 0.5 * std::get<BoxShape>(bodies.spec(k).shape).size;
                for (std::uint32_t c = 0; c < 8; ++c) {
                    const Vec3 corner((c & 1) ? half.x() : -half.x(), (c & 2) ? half.y() : -half.y(),
                                      (c & 4) ? half.z() : -half.z());
                    add(bodies.position(k) + bodies.rotation(k) * corner, c);
                }
            }
            std::sort(points.begin(), points.end(),
                      [](const ContactPoint& x, const ContactPoint& y) { return x.separation < y.separation; });
            m.count = static_cast<int>(std::min<std::size_t>(points.size(), 4));
            std::copy_n(points.begin(), m.count, m.points.begin());
            if (m.count > 0) out.push_back(m);
        }
}

// Neighbouring spheres i and i + 1 (a row of balls) closer than margin.
void sphereRowManifolds(const World& world, double radius, double margin, std::vector<ContactManifold>& out) {
    const RigidBodies& bodies = world.rigidBodies();
    for (Index k = 0; k + 1 < bodies.count(); ++k) {
        const Vec3 d = bodies.position(k + 1) - bodies.position(k);
        const double s = d.norm() - 2.0 * radius;
        if (s >= margin) continue;
        ContactManifold m;
        m.a = {ColliderKind::Rigid, k};
        m.b = {ColliderKind::Rigid, k + 1};
        m.normal = d.normalized();
        m.points[0] = {bodies.position(k) + (radius + 0.5 * s) * m.normal, s, 0};
        m.count = 1;
        out.push_back(m);
    }
}

// Box k + 1's bottom corners on box k's top face (a stack of boxes k = 0, 1, ...), the
// normal up through box k.
void stackManifolds(const World& world, double margin, std::vector<ContactManifold>& out) {
    const RigidBodies& bodies = world.rigidBodies();
    for (Index k = 0; k + 1 < bodies.count(); ++k) {
        const Vec3 half = 0.5 * std::get<BoxShape>(bodies.spec(k + 1).shape).size;
        const Vec3 n = bodies.rotation(k).col(1);
        const Vec3 top = bodies.position(k) + 0.5 * std::get<BoxShape>(bodies.spec(k).shape).size.y() * n;
        ContactManifold m;
        m.a = {ColliderKind::Rigid, k};
        m.b = {ColliderKind::Rigid, k + 1};
        m.normal = n;
        for (std::uint32_t c = 0; c < 4; ++c) {
            const Vec3 corner((c & 1) ? half.x() : -half.x(), -half.y(), (c & 2) ? half.z() : -half.z());
            const Vec3 x = bodies.position(k + 1) + bodies.rotation(k + 1) * corner;
            const double s = n.dot(x - top);
            if (s < margin) m.points[static_cast<std::size_t>(m.count++)] = {x - 0.5 * s * n, s, c};
        }
        if (m.count > 0) out.push_back(m);
    }
}

// An integrator, then the contact solver on the hand-built manifolds and the joints'
// velocity projection: Simulation's substep with BaraffContact.
struct Bench {
    World world;
    std::unique_ptr<Integrator> integrator;
    ContactSolver solver;
    std::vector<ContactManifold> manifolds;
    ContactReport report;
    double h;
    double sphereRowRadius = 0.0;  // > 0: the bodies are a row of balls of this radius
    bool stack = false;            // the bodies are a stack of boxes

    Bench(std::string_view name, double step) : integrator(makeIntegrator(name)), h(step) {
        world.addForce(std::make_unique<Gravity>(Vec3(0.0, -kG, 0.0)));
    }
    void step() {
        VecX start;
        world.getState(start);
        StepReport stepReport;
        integrator->step(world, h, stepReport);
        planeManifolds(world, BaraffContact::kMargin, manifolds);
        if (stack) stackManifolds(world, BaraffContact::kMargin, manifolds);
        if (sphereRowRadius > 0.0) sphereRowManifolds(world, sphereRowRadius, BaraffContact::kMargin, manifolds);
        ContactStep contactStep;
        contactStep.h = h;
        contactStep.gravity = gravityMagnitude(world);
        contactStep.start = &start;
        report = {};
        solver.solve(world, manifolds, contactStep, report);
        if (!manifolds.empty() && !world.constraints().empty()) world.constrainVelocities();
    }
};

// Baraff, notes II, section 8: a unit cube of mass 1 (Ibody = I / 6) falling at 1 m/s hits
// a fixed floor with its corner r = (1/2, -1/2, 1/2); e = 1/2. The denominator is
// 1/m + (r x n) . Iinv (r x n) = 1 + 6 (1/2) = 4, so j = (1 + e) 1 / 4 = 0.375.
TEST(BaraffContact, CollidingCornerTakesTheNotesImpulse) {
    World world;
    world.addPlane(test::groundPlane(0.0, 0.5));
    RigidBodySpec cube = unitCube(0.0, 0.5);
    cube.position = Vec3(0.0, 0.5, 0.0);
    cube.velocity = Vec3(0.0, -1.0, 0.0);
    world.addRigidBody(cube);
    const Vec3 corner(0.5, 0.0, 0.5);
    ContactManifold m;
    m.a = {ColliderKind::Rigid, 0};
    m.b = {ColliderKind::Plane, 0};
    m.normal = Vec3(0.0, -1.0, 0.0);
    m.points[0] = {corner, 0.0, 0};
    m.count = 1;
    ContactSolver solver;
    ContactReport report;
    solver.solve(world, {m}, ContactStep{}, report);
    const double j = 0.375;
    const Vec3 r(0.5, -0.5, 0.5);
    const Vec3 v = world.rigidBodies().velocity(0), omega = world.rigidBodies().angularVelocity(0);
    EXPECT_NEAR((v - Vec3(0.0, -1.0 + j, 0.0)).norm(), 0.0, 1e-12);
    EXPECT_NEAR((omega - 6.0 * r.cross(Vec3(0.0, j, 0.0))).norm(), 0.0, 1e-12);
    EXPECT_NEAR(world.rigidBodies().pointVelocity(0, corner).y(), 0.5, 1e-12);  // -e vrel
    EXPECT_EQ(report.contacts, 1);
}

class BounceTest : public ::testing::TestWithParam<const char*> {};

// A ball dropped from H bounces to e^2 H: the impulse takes its speed to e v, and the time
// it spent in the floor is given back as height, so the apex is right to O(g h^2).
TEST_P(BounceTest, BallBouncesToRestitutionSquaredTimesTheHeight) {
    const double H = 1.0, radius = 0.1, e = 0.5;
    Bench bench(GetParam(), 1.0 / 60.0);
    bench.world.addPlane(test::groundPlane(0.5, 0.0));
    RigidBodySpec ball;
    ball.shape = SphereShape{radius};
    ball.restitution = e;
    ball.position = Vec3(0.0, H + radius, 0.0);
    bench.world.addRigidBody(ball);
    const double E0 = bench.world.totalEnergy();
    bool bounced = false;
    double apex = 0.0, maxEnergyGain = 0.0;
    for (int step = 0; step < 120; ++step) {
        bench.step();
        const double y = bench.world.rigidBodies().position(0).y() - radius;
        const double vy = bench.world.rigidBodies().velocity(0).y();
        if (vy > 0.0) bounced = true;
        if (bounced) apex = std::max(apex, y);
        if (bounced && vy < 0.0) break;
        maxEnergyGain = std::max(maxEnergyGain, bench.world.totalEnergy() - E0);
    }
    RecordProperty("apex", test::scientific(apex));
    EXPECT_TRUE(bounced);
    EXPECT_NEAR(apex / (e * e * H), 1.0, 0.01);
    EXPECT_LE(maxEnergyGain, 1e-3 * E0);
}

// Newton's cradle: five touching balls of radius 0.1 on rods of 0.9 m from fixed pivots,
// e = 1; the first is let go from 30 degrees.
constexpr double kCradleRadius = 0.1, kCradleLength = 0.9, kCradleAngle = std::numbers::pi / 6.0;

void addCradle(World& world) {
    for (int i = 0; i < 5; ++i) {
        const Vec3 pivot(2.0 * kCradleRadius * i, 1.0, 0.0);
        RigidBodySpec ball;
        ball.shape = SphereShape{kCradleRadius};
        ball.friction = 0.0;
        ball.restitution = 1.0;
        ball.position = pivot + kCradleLength * (i == 0 ? Vec3(-std::sin(kCradleAngle), -std::cos(kCradleAngle), 0.0)
                                                        : Vec3(-Vec3::UnitY()));
        const Index body = world.addRigidBody(ball);
        const Index fixed = world.addParticle(pivot, Vec3::Zero(), 1.0, true);
        world.addConstraint(makeConstraint(RodSpec{Anchor(fixed), Anchor::onBody(body, Vec3::Zero()), kCradleLength}));
    }
}

// Over one swing in and out (1 s of steps): the first ball passes its momentum through the
// three at rest to the last, which leaves at the speed the first came in with (sequential
// impulses along the row, Baraff's notes II, section 8, one point at a time until none
// approaches).
void expectCradleSwing(World& world, const std::function<void()>& step) {
    const double E0 = world.totalEnergy();
    double speedIn = 0.0, speedOut = 0.0, middle = 0.0, maxEnergyGain = 0.0;
    for (int i = 0; i < 600; ++i) {
        step();
        const RigidBodies& bodies = world.rigidBodies();
        speedIn = std::max(speedIn, bodies.velocity(0).norm());
        speedOut = std::max(speedOut, bodies.velocity(4).norm());
        for (Index k = 1; k < 4; ++k)
            middle = std::max(middle, (bodies.position(k) - Vec3(2.0 * kCradleRadius * k, 0.1, 0.0)).norm());
        maxEnergyGain = std::max(maxEnergyGain, world.totalEnergy() - E0);
    }
    ::testing::Test::RecordProperty("speed_ratio", test::scientific(speedOut / speedIn));
    ::testing::Test::RecordProperty("middle_motion", test::scientific(middle));
    EXPECT_NEAR(speedIn, std::sqrt(2.0 * kG * kCradleLength * (1.0 - std::cos(kCradleAngle))), 0.01 * speedIn);
    EXPECT_GE(speedOut, 0.95 * speedIn);
    EXPECT_LT(middle, 0.01);
    EXPECT_LE(maxEnergyGain, 1e-3 * E0);
}

TEST_P(BounceTest, NewtonsCradlePassesOneBallsSpeedToTheLast) {
    Bench bench(GetParam(), 1.0 / 600.0);
    bench.sphereRowRadius = kCradleRadius;
    addCradle(bench.world);
    expectCradleSwing(bench.world, [&] { bench.step(); });
}

TEST_P(BounceTest, SimulatedNewtonsCradlePassesOneBallsSpeedToTheLast) {
    Simulation sim(test::simulationSettings(GetParam(), 1.0 / 600.0));
    addCradle(sim.world());
    expectCradleSwing(sim.world(), [&] { EXPECT_FALSE(sim.step().diverged); });
}

INSTANTIATE_TEST_SUITE_P(Integrators, BounceTest, ::testing::Values("rk4", "symplectic-euler"));

// A unit cube on a plane tilted by theta about z, its faces along the slope.
void cubeOnSlope(World& world, double theta, double friction) {
    Plane slope = test::groundPlane(friction, 0.0);
    slope.normal = Vec3(-std::sin(theta), std::cos(theta), 0.0);
    world.addPlane(slope);
    RigidBodySpec cube = unitCube(friction, 0.0);
    cube.orientation = Quat(Eigen::AngleAxisd(theta, Vec3::UnitZ()));
    cube.position = 0.5 * slope.normal;
    world.addRigidBody(cube);
}

class IntegratorContactTest : public ::testing::TestWithParam<std::string_view> {};

// tan 30 deg = 0.58 < mu = 0.7: static friction holds the cube for 5 s.
TEST_P(IntegratorContactTest, StaticFrictionHoldsACubeOnASlope) {
    const double theta = std::numbers::pi / 6.0;
    Bench bench(GetParam(), 1.0 / 60.0);
    cubeOnSlope(bench.world, theta, 0.7);
    const Vec3 x0 = bench.world.rigidBodies().position(0);
    const double E0 = bench.world.totalEnergy();
    double maxEnergyGain = 0.0;
    for (int step = 0; step < 300; ++step) {
        bench.step();
        maxEnergyGain = std::max(maxEnergyGain, bench.world.totalEnergy() - E0);
    }
    const double drift = (bench.world.rigidBodies().position(0) - x0).norm();
    RecordProperty("drift", test::scientific(drift));
    EXPECT_LT(drift, 1e-3);
    EXPECT_LE(maxEnergyGain, 1e-6);
}

// mu = 0.3 on 30 deg: the cube slides down at a = g (sin - mu cos). Its energy may rise by
// explicit Euler's own error, the first step's kinetic energy 1/2 m (a h)^2 gained before
// the position moves, never by more than 1/2 m (g h)^2.
TEST_P(IntegratorContactTest, CubeSlidesDownASlopeAtTheCoulombAcceleration) {
    const double theta = std::numbers::pi / 6.0, mu = 0.3;
    Bench bench(GetParam(), 1.0 / 60.0);
    cubeOnSlope(bench.world, theta, mu);
    const Vec3 downhill = -Vec3(std::cos(theta), std::sin(theta), 0.0);
    const double E0 = bench.world.totalEnergy();
    double maxEnergyGain = 0.0;
    for (int step = 0; step < 60; ++step) {
        bench.step();
        maxEnergyGain = std::max(maxEnergyGain, bench.world.totalEnergy() - E0);
    }
    const double a = bench.world.rigidBodies().velocity(0).dot(downhill) / 1.0;  // after 1 s
    RecordProperty("acceleration", test::scientific(a));
    EXPECT_NEAR(a / (kG * (std::sin(theta) - mu * std::cos(theta))), 1.0, 0.01);
    EXPECT_LE(maxEnergyGain, 0.5 * std::pow(kG * bench.h, 2));
}

// A cube sliding at v on the ground stops after v^2 / (2 mu g), without lifting.
TEST_P(IntegratorContactTest, SlidingCubeStopsAfterTheCoulombDistance) {
    const double mu = 0.3, v = 1.0;
    Bench bench(GetParam(), 1.0 / 600.0);
    bench.world.addPlane(test::groundPlane(mu, 0.0));
    RigidBodySpec cube = unitCube(mu, 0.0);
    cube.position = Vec3(0.0, 0.5, 0.0);
    cube.velocity = Vec3(v, 0.0, 0.0);
    bench.world.addRigidBody(cube);
    const double E0 = bench.world.totalEnergy();
    double highest = 0.0, maxEnergyGain = 0.0;
    for (int step = 0; step < 600; ++step) {
        bench.step();
        highest = std::max(highest, bench.world.rigidBodies().position(0).y());
        maxEnergyGain = std::max(maxEnergyGain, bench.world.totalEnergy() - E0);
    }
    const double distance = bench.world.rigidBodies().position(0).x();
    RecordProperty("distance", test::scientific(distance));
    EXPECT_LT(bench.world.rigidBodies().velocity(0).norm(), 1e-6);
    EXPECT_NEAR(distance / (v * v / (2.0 * mu * kG)), 1.0, 0.02);
    EXPECT_LT(highest - 0.5, 1e-4);
    EXPECT_LE(maxEnergyGain, 1e-6);
}

// Ten unit cubes stacked on the ground stand still for 10 s: the warm-started impulses
// carry the weights down the stack, and nothing sinks. The overlap found after a step is
// the integrator's own sink, g h^2 with symplectic Euler; after the response the cubes
// overlap by the slop.
TEST(BaraffContact, StackOfTenCubesStands) {
    Bench bench("symplectic-euler", 1.0 / 60.0);
    bench.stack = true;
    bench.world.addPlane(test::groundPlane(0.5, 0.2));
    for (int k = 0; k < 10; ++k) {
        RigidBodySpec cube = unitCube(0.5, 0.2);
        cube.position = Vec3(0.0, 0.5 + k, 0.0);
        bench.world.addRigidBody(cube);
    }
    const RigidBodies& bodies = bench.world.rigidBodies();
    const Vec3 top0 = bodies.position(9);
    double found = 0.0, overlap = 0.0, topMotion = 0.0;
    long iterations = 0;
    for (int step = 0; step < 600; ++step) {
        bench.step();
        found = std::max(found, bench.report.maxPenetration);
        overlap = std::max(overlap, 0.5 - bodies.position(0).y());
        for (Index k = 1; k < 10; ++k)
            overlap = std::max(overlap, 1.0 - (bodies.position(k).y() - bodies.position(k - 1).y()));
        topMotion = std::max(topMotion, (bodies.position(9) - top0).norm());
        iterations += bench.report.iterations;
    }
    RecordProperty("top_motion", test::scientific(topMotion));
    RecordProperty("overlap", test::scientific(overlap));
    RecordProperty("found_penetration", test::scientific(found));
    RecordProperty("iterations_per_step", test::scientific(static_cast<double>(iterations) / 600.0));
    EXPECT_LT(topMotion, 1e-3);
    EXPECT_LT(overlap, 1e-3);
    EXPECT_LT(found, kG * bench.h * bench.h + 1e-3);
}

// The same through a Simulation with the contact model "baraff" and its detection.
TEST_P(BounceTest, SimulatedBallBouncesToRestitutionSquaredTimesTheHeight) {
    const double H = 1.0, radius = 0.1, e = 0.5;
    Simulation sim(test::simulationSettings(GetParam(), 1.0 / 60.0));
    sim.world().addPlane(test::groundPlane(0.5, 0.0));
    RigidBodySpec ball;
    ball.shape = SphereShape{radius};
    ball.restitution = e;
    ball.position = Vec3(0.0, H + radius, 0.0);
    sim.world().addRigidBody(ball);
    const RigidBodies& bodies = sim.world().rigidBodies();
    bool bounced = false;
    double apex = 0.0;
    for (int frame = 0; frame < 120; ++frame) {
        ASSERT_FALSE(sim.step().diverged);
        if (bodies.velocity(0).y() > 0.0) bounced = true;
        if (bounced) apex = std::max(apex, bodies.position(0).y() - radius);
        if (bounced && bodies.velocity(0).y() < 0.0) break;
    }
    RecordProperty("apex", test::scientific(apex));
    EXPECT_NEAR(apex / (e * e * H), 1.0, 0.01);
}

// Ten cubes stacked in a Simulation, found by the detector's box-box and box-plane tests.
TEST(BaraffContact, SimulatedStackOfTenCubesStands) {
    Simulation sim(test::simulationSettings("symplectic-euler", 1.0 / 60.0));
    sim.world().addPlane(test::groundPlane(0.5, 0.2));
    for (int k = 0; k < 10; ++k) {
        RigidBodySpec cube = unitCube(0.5, 0.2);
        cube.position = Vec3(0.0, 0.5 + k, 0.0);
        sim.world().addRigidBody(cube);
    }
    const RigidBodies& bodies = sim.world().rigidBodies();
    const Vec3 top0 = bodies.position(9);
    double overlap = 0.0, topMotion = 0.0;
    for (int frame = 0; frame < 600; ++frame) {
        ASSERT_FALSE(sim.step().diverged);
        overlap = std::max(overlap, 0.5 - bodies.position(0).y());
        for (Index k = 1; k < 10; ++k)
            overlap = std::max(overlap, 1.0 - (bodies.position(k).y() - bodies.position(k - 1).y()));
        topMotion = std::max(topMotion, (bodies.position(9) - top0).norm());
    }
    RecordProperty("top_motion", test::scientific(topMotion));
    RecordProperty("overlap", test::scientific(overlap));
    EXPECT_LT(topMotion, 1e-3);
    EXPECT_LT(overlap, 1e-3);
}

// Unit cubes of 1 kg (friction 0.5, restitution 0.2) in a pyramid standing on y = 0: rows of
// `base` down to 1, 5 cm apart in a row, each row offset by half a pitch (as the benchmark
// scenes' pyramids).
void addPyramid(World& world, int base) {
    constexpr double kPitch = 1.05;
    for (int row = 0; row < base; ++row)
        for (int i = 0; i < base - row; ++i) {
            RigidBodySpec cube = unitCube(0.5, 0.2);
            cube.position = Vec3(kPitch * (i - 0.5 * (base - row - 1)), 0.5 + row, 0.0);
            world.addRigidBody(cube);
        }
}

// A pyramid of 55 cubes (rows of 10 down to 1, each on two below, offset by half a box) at
// 240 steps per second. The weights travel down the rows one contact per Gauss-Seidel
// sweep, so that sweeps alone need hundreds per step to settle on it; the subspace steps
// on the active set (ContactSolver::minimizeOnActiveSet) solve it in a few, and the pile
// then stands still.
TEST(BaraffContact, PyramidOfFiftyFiveCubesSettlesInAFewSweepsAndStandsStill) {
    Simulation sim(test::simulationSettings("symplectic-euler", 1.0 / 240.0));
    sim.world().addPlane(test::groundPlane(0.5, 0.2));
    addPyramid(sim.world(), 10);
    const RigidBodies& bodies = sim.world().rigidBodies();
    for (int step = 0; step < 240; ++step) ASSERT_FALSE(sim.step().diverged);  // settling, from cold
    std::vector<Vec3> settled;
    for (Index k = 0; k < bodies.count(); ++k) settled.push_back(bodies.position(k));
    long sweeps = 0;
    double motion = 0.0;
    constexpr int kSteps = 480;
    for (int step = 0; step < kSteps; ++step) {
        const FrameReport report = sim.step();
        ASSERT_FALSE(report.diverged);
        sweeps += report.contact.iterations;
        for (Index k = 0; k < bodies.count(); ++k)
            motion = std::max(motion, (bodies.position(k) - settled[static_cast<std::size_t>(k)]).norm());
    }
    const double sweepsPerStep = static_cast<double>(sweeps) / kSteps;
    RecordProperty("sweeps_per_step", test::scientific(sweepsPerStep));
    RecordProperty("largest_motion", test::scientific(motion));
    EXPECT_LT(sweepsPerStep, 10.0);
    EXPECT_LT(motion, 1e-4);
}

// The benchmark's pyramid of 210 unit cubes (rows of 20 down to 1, 5 cm apart in a row), at one
// step per 1/60 s frame as game engines step it: it stands ten seconds. Once it has settled
// (its first second), a step takes a couple of sweeps: the face contacts keep the same four
// corners and their warm starts carry over (when the detector kept a different four of six
// clipped points each step, the solve took 16 sweeps and three factorizations per step).
TEST(BaraffContact, PyramidOfTwoHundredTenCubesStandsTenSecondsAtOneStepPerFrame) {
    Simulation sim(test::simulationSettings("symplectic-euler", 1.0 / 60.0));
    sim.world().addPlane(test::groundPlane(0.5, 0.0));
    addPyramid(sim.world(), 20);
    const RigidBodies& bodies = sim.world().rigidBodies();
    std::vector<Vec3> built;
    for (Index k = 0; k < bodies.count(); ++k) built.push_back(bodies.position(k));
    for (int step = 0; step < 60; ++step) ASSERT_FALSE(sim.step().diverged);  // settling, from cold
    long sweeps = 0;
    double motion = 0.0, overlap = 0.0;
    constexpr int kSteps = 540;
    for (int step = 0; step < kSteps; ++step) {
        const FrameReport report = sim.step();
        ASSERT_FALSE(report.diverged);
        sweeps += report.contact.iterations;
        overlap = std::max(overlap, report.contact.maxPenetration);
        for (Index k = 0; k < bodies.count(); ++k)
            motion = std::max(motion, (bodies.position(k) - built[static_cast<std::size_t>(k)]).norm());
    }
    const double sweepsPerStep = static_cast<double>(sweeps) / kSteps;
    RecordProperty("sweeps_per_step", test::scientific(sweepsPerStep));
    RecordProperty("largest_motion", test::scientific(motion));
    EXPECT_LT(sweepsPerStep, 4.0);
    EXPECT_LT(motion, 5e-3);   // from where it was built: it settles by the step's sink and the slop per row
    EXPECT_LT(overlap, 3e-3);  // before the response: g h^2 = 2.7 mm is the step's own sink
}

// In a planar world the friction has one tangent, in the plane: a cube sliding along x
// stops after v^2 / (2 mu g) as in 3D.
TEST(BaraffContact, PlanarCubeStopsAfterTheCoulombDistance) {
    const double mu = 0.3, v = 1.0;
    SimulationSettings settings = test::simulationSettings("rk4", 1.0 / 60.0);
    settings.substeps = 10;
    settings.planar = true;
    Simulation sim(settings);
    sim.world().addPlane(test::groundPlane(mu, 0.0));
    RigidBodySpec cube = unitCube(mu, 0.0);
    cube.position = Vec3(0.0, 0.5, 0.0);
    cube.velocity = Vec3(v, 0.0, 0.0);
    sim.world().addRigidBody(cube);
    for (int frame = 0; frame < 60; ++frame) ASSERT_FALSE(sim.step().diverged);
    const RigidBodies& bodies = sim.world().rigidBodies();
    RecordProperty("distance", test::scientific(bodies.position(0).x()));
    EXPECT_LT(bodies.velocity(0).norm(), 1e-6);
    EXPECT_NEAR(bodies.position(0).x() / (v * v / (2.0 * mu * kG)), 1.0, 0.02);
    EXPECT_NEAR(bodies.position(0).y(), 0.5, 1e-4);
}

// A cube dropped flat lands on its four bottom corners at once: their impulses, solved
// together, lift it straight to e^2 H without a turn (one corner at a time would send it
// spinning off the corner taken first).
TEST(BaraffContact, CubeDroppedFlatBouncesFlat) {
    const double H = 1.0, e = 0.5;
    Simulation sim(test::simulationSettings("rk4", 1.0 / 60.0));
    sim.world().addPlane(test::groundPlane(0.5, 0.0));
    RigidBodySpec cube = unitCube(0.5, e);
    cube.position = Vec3(0.0, H + 0.5, 0.0);
    sim.world().addRigidBody(cube);
    const RigidBodies& bodies = sim.world().rigidBodies();
    bool bounced = false;
    double apex = 0.0, spin = 0.0;
    for (int frame = 0; frame < 120; ++frame) {
        ASSERT_FALSE(sim.step().diverged);
        if (bodies.velocity(0).y() > 0.0) bounced = true;
        if (bounced) apex = std::max(apex, bodies.position(0).y() - 0.5);
        spin = std::max(spin, bodies.angularVelocity(0).norm());
        if (bounced && bodies.velocity(0).y() < 0.0) break;
    }
    RecordProperty("apex", test::scientific(apex));
    EXPECT_NEAR(apex / (e * e * H), 1.0, 0.01);
    EXPECT_LT(spin, 1e-5);  // rad/s: the impulses converged to 1e-6 (one corner first: 2.5)
}

// A particle has no surface of its own: dropped on a fixed box it bounces with the box's
// restitution alone, to e^2 H.
TEST(BaraffContact, ParticleBouncesOnABoxWithTheBoxsRestitution) {
    const double H = 1.0, e = 0.5;
    Simulation sim(test::simulationSettings("rk4", 1.0 / 60.0));
    RigidBodySpec table = unitCube(0.5, e);
    table.fixed = true;
    table.position = Vec3(0.0, -0.5, 0.0);
    sim.world().addRigidBody(table);
    sim.world().addParticle(Vec3(0.0, H, 0.0), Vec3::Zero(), 1.0);
    bool bounced = false;
    double apex = 0.0;
    for (int frame = 0; frame < 120; ++frame) {
        ASSERT_FALSE(sim.step().diverged);
        const double vy = sim.world().velocity(0).y();
        if (vy > 0.0) bounced = true;
        if (bounced) apex = std::max(apex, sim.world().position(0).y());
        if (bounced && vy < 0.0) break;
    }
    RecordProperty("apex", test::scientific(apex));
    EXPECT_NEAR(apex / (e * e * H), 1.0, 0.01);
}

INSTANTIATE_TEST_SUITE_P(Integrators, IntegratorContactTest, test::allIntegrators(), [](const auto& info) {
    std::string name(info.param);
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
});

}  // namespace
}  // namespace tinkerbox
