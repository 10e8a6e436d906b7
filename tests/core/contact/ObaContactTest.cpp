// The contact model "oba" (Schmidl, Optimization-Based Animation, PhD thesis, Univ. of Miami
// 2002, chapter 6) against closed forms: a box sliding at 1 m/s with mu = 0.3 at one step of
// 1/30 s per frame stays on the ground with the hop fix and stops after v^2 / (2 mu' g),
// and hops at the thesis's mu' (v_t - mu' g h) / (1 + mu'^2) without it (mu' = mu cos(pi/8),
// the pyramid's inner slope); a Newton's cradle passes its momentum along; a
// stack of ten cubes stands and freezes, and a frozen cube wakes when a ball hits it; no
// point overlaps after the position update.
#include "core/contact/ObaContact.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/TestSystems.h"
#include "core/constraints/ConstraintSpec.h"
#include "core/contact/FrictionPyramid.h"
#include "core/pipeline/Simulation.h"

namespace tinkerbox {
namespace {

using test::kG;
using test::unitCube;

SimulationSettings obaSettings(double dt, int substeps, bool hopFix, bool freezing) {
    SimulationSettings settings = test::simulationSettings("symplectic-euler", dt);
    settings.substeps = substeps;
    settings.contactModel = kObaContactKind.name;
    settings.contact.hopFix = hopFix;
    settings.contact.freezing = freezing;
    return settings;
}

// Every pyramid side lies inside Coulomb's cone, and its inner radius is cos(pi/8) of the
// cone's: j = (mu cos(pi/8) n + t) with t the direction of a side's middle meets two sides.
TEST(FrictionPyramid, EightSidesInscribedInTheCone) {
    const double mu = 0.4;
    const FrictionPyramid pyramid = frictionPyramid(mu, 2);
    ASSERT_EQ(pyramid.count, 8);
    for (int k = 0; k < 64; ++k) {
        const double angle = 2.0 * std::numbers::pi * k / 64.0;
        // The cone's edge in this direction: j_n = 1, |j_t| = mu; inside the pyramid only
        // where the octagon reaches the circle, at its vertices (between sides).
        double leastEdge = 1e300, leastInner = 1e300;
        for (int s = 0; s < pyramid.count; ++s) {
            const PyramidSide& side = pyramid.sides[static_cast<std::size_t>(s)];
            const double edge = side.normal + mu * (side.tangent1 * std::cos(angle) + side.tangent2 * std::sin(angle));
            const double inner = side.normal + mu * std::cos(std::numbers::pi / 8.0) *
                                                   (side.tangent1 * std::cos(angle) + side.tangent2 * std::sin(angle));
            leastEdge = std::min(leastEdge, edge);
            leastInner = std::min(leastInner, inner);
        }
        EXPECT_LE(leastEdge, 1e-12);    // the cone's edge is never strictly inside
        EXPECT_GE(leastInner, -1e-12);  // the inscribed circle always is
    }
    const FrictionPyramid planar = frictionPyramid(mu, 1);
    ASSERT_EQ(planar.count, 2);
    EXPECT_DOUBLE_EQ(planar.sides[0].normal, mu);
}

struct SlideResult {
    double rise = 0.0;      // the largest height of the centre above its start, metres
    double lift = 0.0;      // the upward velocity after the first frame
    double distance = 0.0;  // slid until at rest
};

// A unit cube on the ground sent along x at 1 m/s, mu = 0.3 on both surfaces, one step of
// 1/30 s per frame as the thesis runs, with rk4, whose step moves a body as its parabola
// does (a lift below g h shows in the height, as in the thesis; symplectic Euler would
// move it down by g h^2 first and hide it).
SlideResult slide(bool hopFix) {
    SimulationSettings settings = obaSettings(1.0 / 30.0, 1, hopFix, false);
    settings.integrator = "rk4";
    Simulation sim(settings);
    sim.world().addPlane(test::groundPlane(0.3, 0.0));
    RigidBodySpec cube = unitCube(0.3, 0.0);
    cube.position = Vec3(0.0, 0.5, 0.0);
    cube.velocity = Vec3(1.0, 0.0, 0.0);
    sim.world().addRigidBody(cube);
    SlideResult result;
    for (int frame = 0; frame < 30; ++frame) {
        EXPECT_FALSE(sim.step().diverged);
        const RigidBodies& bodies = sim.world().rigidBodies();
        if (frame == 0) result.lift = bodies.velocity(0).y();
        result.rise = std::max(result.rise, bodies.position(0).y() - 0.5);
        result.distance = bodies.position(0).x();
    }
    return result;
}

// The sliding direction x is a tangent of the contact frame, where the pyramid's side
// holds friction to mu' = mu cos(pi/8).
constexpr double kH = 1.0 / 30.0;
const double kPyramidFriction = 0.3 * std::cos(std::numbers::pi / 8.0);

TEST(ObaContact, SlidingBoxStaysOnTheGroundWithTheHopFix) {
    const SlideResult fixed = slide(true);
    RecordProperty("rise", test::scientific(fixed.rise));
    RecordProperty("lift", test::scientific(fixed.lift));
    RecordProperty("distance", test::scientific(fixed.distance));
    EXPECT_LT(fixed.rise, 1e-4);
    EXPECT_LT(fixed.lift, 1e-4);
    // Coulomb's stop at mu' g: v^2 / (2 mu' g), and half a step of the first speed (each
    // step moves at its start's velocity, friction acts at its end).
    EXPECT_NEAR(fixed.distance, 1.0 / (2.0 * kPyramidFriction * kG) + 0.5 * kH, 0.005);
}

TEST(ObaContact, SlidingBoxHopsWithoutTheFix) {
    // The thesis's one program lifts the box at mu' (v_t - mu' g h) / (1 + mu'^2) = 0.234 m/s
    // in the first step: the least kinetic energy 1/2 (v_t - mu' j)^2 + 1/2 (j - g h)^2 over
    // the normal impulse j (per unit mass) is at j = (mu' v_t + g h) / (1 + mu'^2). Over the next
    // step the box rises by 0.234 h - g h^2 / 2 = 2.4 mm, and more as the lifts go on.
    const double lift =
        kPyramidFriction * (1.0 - kPyramidFriction * kG * kH) / (1.0 + kPyramidFriction * kPyramidFriction);
    const SlideResult hopping = slide(false);
    RecordProperty("rise", test::scientific(hopping.rise));
    RecordProperty("lift", test::scientific(hopping.lift));
    EXPECT_NEAR(hopping.lift, lift, 0.01 * lift);
    EXPECT_GT(hopping.rise, lift * kH - 0.5 * kG * kH * kH - 1e-4);
}

// Five touching balls of radius 0.1 on rods from fixed pivots, e = 1, the first let go from
// 30 degrees; over one second the last leaves at nearly the speed the first came in with.
TEST(ObaContact, NewtonsCradlePassesItsMomentumAlong) {
    constexpr double radius = 0.1, length = 0.9, angle = std::numbers::pi / 6.0;
    Simulation sim(obaSettings(1.0 / 600.0, 1, true, false));
    World& world = sim.world();
    for (int i = 0; i < 5; ++i) {
        const Vec3 pivot(2.0 * radius * i, 1.0, 0.0);
        RigidBodySpec ball;
        ball.shape = SphereShape{radius};
        ball.friction = 0.0;
        ball.restitution = 1.0;
        ball.position =
            pivot + length * (i == 0 ? Vec3(-std::sin(angle), -std::cos(angle), 0.0) : Vec3(-Vec3::UnitY()));
        const Index body = world.addRigidBody(ball);
        const Index fixed = world.addParticle(pivot, Vec3::Zero(), 1.0, true);
        world.addConstraint(makeConstraint(RodSpec{Anchor(fixed), Anchor::onBody(body, Vec3::Zero()), length}));
    }
    double speedIn = 0.0, speedOut = 0.0;
    for (int i = 0; i < 600; ++i) {
        ASSERT_FALSE(sim.step().diverged);
        speedIn = std::max(speedIn, world.rigidBodies().velocity(0).norm());
        speedOut = std::max(speedOut, world.rigidBodies().velocity(4).norm());
    }
    RecordProperty("momentum_passed", test::scientific(speedOut / speedIn));
    EXPECT_NEAR(speedIn, std::sqrt(2.0 * kG * length * (1.0 - std::cos(angle))), 0.01 * speedIn);
    EXPECT_GE(speedOut, 0.95 * speedIn);
}

// Ten unit cubes stacked on the ground (4 substeps of 1/60 s): the stack stands, no step
// leaves an overlap after the position update, and the cubes freeze one after the other
// from the bottom up (each kFreezeTime after the one below: 1 s).
TEST(ObaContact, StackStandsAndFreezes) {
    Simulation sim(obaSettings(1.0 / 60.0, 4, true, true));
    sim.world().addPlane(test::groundPlane(0.5, 0.2));
    for (int k = 0; k < 10; ++k) {
        RigidBodySpec cube = unitCube(0.5, 0.2);
        cube.position = Vec3(0.0, 0.5 + k, 0.0);
        sim.world().addRigidBody(cube);
    }
    const RigidBodies& bodies = sim.world().rigidBodies();
    const auto& model = dynamic_cast<const ObaContact&>(sim.contactModel());
    const Vec3 top0 = bodies.position(9);
    double topMotion = 0.0, overlap = 0.0;
    for (int frame = 0; frame < 90; ++frame) {
        ASSERT_FALSE(sim.step().diverged);
        topMotion = std::max(topMotion, (bodies.position(9) - top0).norm());
        overlap = std::max(overlap, model.lastOverlapAfterPositions());
    }
    RecordProperty("top_motion", test::scientific(topMotion));
    RecordProperty("overlap_after_positions", test::scientific(overlap));
    EXPECT_LT(topMotion, 1e-3);
    EXPECT_LE(overlap, ObaContact::kOverlapTolerance);
    for (Index k = 0; k < 10; ++k) EXPECT_TRUE(model.isFrozen(k)) << "cube " << k;
    // Frozen, a step costs nothing but detection: no contact is solved.
    const FrameReport report = sim.step();
    EXPECT_EQ(report.contact.contacts, 0);
}

// A cube frozen on the ground wakes when a ball rolling into it hits it, and moves.
TEST(ObaContact, FrozenCubeWakesWhenHit) {
    Simulation sim(obaSettings(1.0 / 60.0, 4, true, true));
    sim.world().addPlane(test::groundPlane(0.5, 0.0));
    RigidBodySpec cube = unitCube(0.5, 0.0);
    cube.position = Vec3(0.0, 0.5, 0.0);
    sim.world().addRigidBody(cube);
    const auto& model = dynamic_cast<const ObaContact&>(sim.contactModel());
    for (int frame = 0; frame < 60; ++frame) ASSERT_FALSE(sim.step().diverged);
    ASSERT_TRUE(model.isFrozen(0));
    // A ball rolls along the ground into the cube's side.
    RigidBodySpec ball;
    ball.shape = SphereShape{0.2};
    ball.mass = 2.0;
    ball.restitution = 0.5;
    ball.position = Vec3(-1.5, 0.2, 0.0);
    ball.velocity = Vec3(4.0, 0.0, 0.0);
    ball.angularVelocity = Vec3(0.0, 0.0, -20.0);
    sim.world().addRigidBody(ball);
    bool woke = false;
    double moved = 0.0;
    for (int frame = 0; frame < 60; ++frame) {
        ASSERT_FALSE(sim.step().diverged);
        woke = woke || !model.isFrozen(0);
        moved = std::max(moved, (sim.world().rigidBodies().position(0) - Vec3(0.0, 0.5, 0.0)).norm());
    }
    RecordProperty("cube_moved", test::scientific(moved));
    EXPECT_TRUE(woke);
    EXPECT_GT(moved, 1e-3);
}

// Two cubes dropped into each other's targets: a cube falling at 5 m/s onto a resting one
// overlaps it at the step's end by 5 h; after the position update nothing overlaps.
TEST(ObaContact, NothingOverlapsAfterThePositionUpdate) {
    Simulation sim(obaSettings(1.0 / 30.0, 1, true, false));
    sim.world().addPlane(test::groundPlane(0.5, 0.0));
    RigidBodySpec lower = unitCube(0.5, 0.0), upper = unitCube(0.5, 0.0);
    lower.position = Vec3(0.0, 0.5, 0.0);
    upper.position = Vec3(0.3, 1.55, 0.2);
    upper.orientation = Quat(Eigen::AngleAxisd(0.3, Vec3(1.0, 2.0, 0.5).normalized()));
    upper.velocity = Vec3(0.0, -5.0, 0.0);
    sim.world().addRigidBody(lower);
    sim.world().addRigidBody(upper);
    const auto& model = dynamic_cast<const ObaContact&>(sim.contactModel());
    double found = 0.0, left = 0.0;
    for (int frame = 0; frame < 30; ++frame) {
        const FrameReport report = sim.step();
        ASSERT_FALSE(report.diverged);
        found = std::max(found, report.contact.maxPenetration);
        left = std::max(left, model.lastOverlapAfterPositions());
    }
    RecordProperty("overlap_found", test::scientific(found));
    RecordProperty("overlap_left", test::scientific(left));
    EXPECT_LE(left, ObaContact::kOverlapTolerance);
}

// Ten cubes each turned a little on the one below, as in the thesis's stack, at its step of 1/30 s:
// their face contacts are clipped polygons of eight corners, of which the detection keeps four,
// not always the same four. The position update must still leave nothing overlapping, in
// every frame of the settling (it left 1 to 4 mm when it linearized only the points of its
// latest detection).
TEST(ObaContact, TurnedStackLeavesNoOverlapInAnyFrame) {
    Simulation sim(obaSettings(1.0 / 30.0, 1, true, true));
    sim.world().addPlane(test::groundPlane(0.5, 0.1));
    for (int k = 0; k < 10; ++k) {
        RigidBodySpec cube = unitCube(0.5, 0.1);
        cube.position = Vec3(0.0, 0.5 + 1.01 * k, 0.0);
        cube.orientation = Quat(Eigen::AngleAxisd(0.1 * k, Vec3::UnitY()));
        sim.world().addRigidBody(cube);
    }
    const auto& model = dynamic_cast<const ObaContact&>(sim.contactModel());
    double left = 0.0;
    for (int frame = 0; frame < 60; ++frame) {
        ASSERT_FALSE(sim.step().diverged);
        left = std::max(left, model.lastOverlapAfterPositions());
    }
    RecordProperty("overlap_left", test::scientific(left));
    EXPECT_LE(left, ObaContact::kOverlapTolerance);
}

}  // namespace
}  // namespace tinkerbox
