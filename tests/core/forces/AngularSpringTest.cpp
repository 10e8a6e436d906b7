// Angular springs at the joints of a strand, and hair that keeps its rest curvature.
#include "core/forces/AngularSpring.h"

#include <numbers>

#include "core/forces/Cloth.h"
#include "core/forces/ElementForceChecks.h"

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

// A helix of 24 particles (radius 2 cm, 1 cm pitch per turn of 8 particles): curly hair.
std::vector<Vec3> helix(int count) {
    std::vector<Vec3> x;
    for (int k = 0; k < count; ++k) {
        const double phi = 2.0 * std::numbers::pi * k / 8.0;
        x.emplace_back(0.02 * std::cos(phi), -0.01 * k / 8.0 - 0.001 * k, 0.02 * std::sin(phi));
    }
    return x;
}

// Under zero gravity, a curly strand whose root is held (its first three particles
// nailed), shaken out of shape, comes back to its curl: the joint angles and the twist
// hold the whole helix, not only its curvature.
TEST(AngularSpring, CurlyHairKeepsItsCurlUnderZeroGravity) {
    constexpr int kCount = 24;
    const std::vector<Vec3> rest = helix(kCount);
    SimulationSettings settings = test::simulationSettings("implicit-euler", 1.0 / 60.0);
    settings.gravity = Vec3::Zero();
    settings.substeps = 4;
    Simulation simulation(settings);
    World& world = simulation.world();
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (int k = 0; k < kCount; ++k)
        world.addParticle(rest[k], k < 3 ? Vec3(Vec3::Zero()) : Vec3(0.3 * Vec3(unit(rng), unit(rng), unit(rng))), 1e-4, k < 3);
    HairMaterial material;
    material.stretch = 5.0;
    material.bend = 2e-5;
    material.twist = 2e-5;
    material.stretchDamping = 0.002;
    material.bendDamping = 5e-7;
    HairForces hair = makeHair(rest, 0, 1, kCount, material);
    EXPECT_EQ(hair.joints->elementCount(), kCount - 2);
    EXPECT_EQ(hair.twist->elementCount(), kCount - 3);
    world.addForce(std::move(hair.segments));
    world.addForce(std::move(hair.joints));
    world.addForce(std::move(hair.twist));
    simulation.step();
    double moved = 0.0;
    for (int k = 0; k < kCount; ++k) moved = std::max(moved, (world.position(k) - rest[k]).norm());
    EXPECT_GT(moved, 1e-3);  // the shake did bend it
    for (int frame = 0; frame < 240; ++frame) simulation.step();
    for (int k = 0; k < kCount; ++k) EXPECT_LT((world.position(k) - rest[k]).norm(), 1e-3) << "particle " << k;
}

}  // namespace
}  // namespace tinkerbox
