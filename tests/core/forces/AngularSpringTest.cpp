// Angular springs at the joints of a strand, and hair that keeps its rest curvature.
#include "core/forces/AngularSpring.h"

#include <algorithm>
#include <numbers>

#include "core/forces/Cloth.h"
#include "core/forces/CurlyStrand.h"
#include "core/forces/ElementForceChecks.h"
#include "core/forces/ProjectiveTermChecks.h"

namespace tinkerbox {
namespace {

TEST(AngularSpring, JointAngleIsTheTurningAngle) {
    EXPECT_NEAR(jointAngle(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0)), 0.0, 1e-15);
    EXPECT_NEAR(jointAngle(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 3, 0)), std::numbers::pi / 2, 1e-15);
    EXPECT_NEAR(jointAngle(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 1, 0)), std::numbers::pi / 4, 1e-15);
}

World randomStrand(unsigned seed) {
    const std::vector<Vec3> rest = {{0, 0, 0}, {1, 0.2, 0}, {1.8, 0.8, 0.3}, {2.2, 1.7, 0.1}, {2.1, 2.6, -0.4}};
    World world = test::randomlyPerturbed(rest, 0.2, seed);
    auto joints = std::make_unique<AngularSpringSet>();
    joints->add({{0, 1, 2}, 3.0, 0.6, 0.3});
    joints->add({{1, 2, 3}, 2.0, 0.4, 0.0});
    joints->add({{2, 3, 4}, 4.0, 0.9, 1.1});
    world.addForce(std::move(joints));
    return world;
}

TEST(AngularSpring, ExactJacobiansMatchFiniteDifferences) {
    for (unsigned seed : {1u, 2u, 3u, 4u}) {
        World world = randomStrand(seed);
        test::expectExactJacobiansMatchFiniteDifferences(world);
    }
}

TEST(AngularSpring, ForceIsMinusEnergyGradient) {
    World world = randomStrand(5);
    test::expectForceIsMinusEnergyGradient(world);
}

TEST(AngularSpring, DefiniteIsSymmetricNegativeSemiDefinite) {
    World world = randomStrand(6);
    test::expectDefiniteIsSymmetricNegativeSemiDefinite(world);
}

// Under zero gravity, a curly strand whose root is held (its first three particles
// nailed), shaken out of shape, comes back to its curl: the joint angles and the twist
// hold the whole helix, not only its curvature.
TEST(AngularSpring, CurlyHairKeepsItsCurlUnderZeroGravity) {
    constexpr int kCount = 24;
    const std::vector<Vec3> rest = test::curlyHelix(kCount);
    SimulationSettings settings = test::simulationSettings("implicit-euler", 1.0 / 60.0);
    settings.gravity = Vec3::Zero();
    settings.substeps = 4;
    Simulation simulation(settings);
    World& world = simulation.world();
    HairForces hair = test::shakenCurlyStrand(world, rest);
    EXPECT_EQ(hair.joints->elementCount(), kCount - 2);
    EXPECT_EQ(hair.twist->elementCount(), kCount - 3);
    world.addForce(std::move(hair.segments));
    world.addForce(std::move(hair.joints));
    world.addForce(std::move(hair.twist));
    test::expectCurlComesBack(simulation, rest);
}

// A joint's projective constraint (its two segments pulled to their nearest pair at the rest
// angle, weight k (1/l0^2 + 1/l1^2)) holds k/2 (theta - theta_rest)^2 to second order: the
// relative difference shrinks like the strain on random deformations of the rest shape.
TEST(AngularSpring, ProjectiveJointMatchesTheEnergyToSecondOrder) {
    for (const double restAngle : {0.0, 1.0, 2.4}) {
        const std::vector<Vec3> rest = {Vec3(0, 0, 0), Vec3(1, 0, 0),
                                        Vec3(1, 0, 0) + 0.6 * Vec3(std::cos(restAngle), std::sin(restAngle), 0)};
        std::vector<double> differences;
        for (const double jitter : {1e-2, 1e-3, 1e-4}) {
            World world = test::randomlyPerturbed(rest, jitter, 4);
            auto joints = std::make_unique<AngularSpringSet>();
            joints->add({{0, 1, 2}, 3.0, 0.0, restAngle, 1.0, 0.6});
            const auto& force = static_cast<const AngularSpringSet&>(world.addForce(std::move(joints)));
            ASSERT_EQ(force.projectiveJoints().size(), 1u);
            differences.push_back(test::relativeEnergyMismatch(force, world));
        }
        test::expectSecondOrderMatch(differences, "rest angle " + std::to_string(restAngle));
    }
}

// nearestPairAtAngle: the pair is at the angle asked for, and no pair at that angle near it
// (turned together, each scaled) is nearer; parallel segments get the fixed plane.
TEST(AngularSpring, JointTargetIsTheNearestPairAtTheRestAngle) {
    std::mt19937 rng(8);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const auto random = [&] { return Vec3(unit(rng), unit(rng), unit(rng)); };
    Vec3 p, q;
    for (int trial = 0; trial < 20; ++trial) {
        const Vec3 e0 = random(), e1 = random();
        const double angle = std::clamp(jointAngle(Vec3::Zero(), e0, e0 + e1) + 1.5 * unit(rng), 0.0, std::numbers::pi);
        nearestPairAtAngle(e0, e1, angle, p, q);
        EXPECT_NEAR(jointAngle(Vec3::Zero(), p, p + q), angle, 1e-12);
        const double distance = (p - e0).squaredNorm() + (q - e1).squaredNorm();
        for (int k = 0; k < 50; ++k) {
            const Mat3 turn = Eigen::AngleAxisd(0.05 * unit(rng), random().normalized()).toRotationMatrix();
            const Vec3 p2 = (1.0 + 0.05 * unit(rng)) * (turn * p), q2 = (1.0 + 0.05 * unit(rng)) * (turn * q);
            ASSERT_GE((p2 - e0).squaredNorm() + (q2 - e1).squaredNorm(), distance - 1e-14) << trial;
        }
    }
    // Farther than a quarter turn: a pair at the angle, lengths kept.
    nearestPairAtAngle(Vec3(1.0, 0.0, 0.0), Vec3(0.3, 0.4, 0.0), 2.9, p, q);
    EXPECT_NEAR(jointAngle(Vec3::Zero(), p, p + q), 2.9, 1e-12);
    EXPECT_NEAR(p.norm(), 1.0, 1e-15);
    EXPECT_NEAR(q.norm(), 0.5, 1e-15);
    // Straight, rest angle 60 degrees: both turned by 30 degrees (the same lengths) and scaled
    // by cos 30 degrees, in the plane normal to the unit axis of the segments' first smallest
    // component (y) crossed with them: (0, 0, -1).
    nearestPairAtAngle(Vec3(2.0, 0.0, 0.0), Vec3(2.0, 0.0, 0.0), std::numbers::pi / 3, p, q);
    EXPECT_LT((p - Vec3(1.5, 0.5 * std::sqrt(3.0), 0.0)).norm(), 1e-14);
    EXPECT_LT((q - Vec3(1.5, -0.5 * std::sqrt(3.0), 0.0)).norm(), 1e-14);
}
}  // namespace
}  // namespace tinkerbox
