// Baraff and Witkin's stretch and shear conditions on triangles (Large Steps in Cloth
// Simulation, SIGGRAPH 1998, section 4.2): energy, forces and Jacobians.
#include "core/forces/TriangleStretchShear.h"

#include "core/forces/Cloth.h"
#include "core/forces/ElementForceChecks.h"
#include "core/forces/ProjectiveTermChecks.h"

namespace tinkerbox {
namespace {

// A 3 x 3 particle patch of 8 triangles, 0.5 m squares, in the z = 0 plane at rest.
std::vector<ClothTriangle> patch(std::vector<Vec3>& rest) {
    rest.clear();
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) rest.emplace_back(0.5 * i, 0.5 * j, 0.0);
    return gridTriangles(0, 3, 3, 1.0, 1.0);
}

World perturbedPatch(double jitter, unsigned seed, const ClothMaterial& material) {
    std::vector<Vec3> rest;
    const std::vector<ClothTriangle> triangles = patch(rest);
    World world = test::randomlyPerturbed(rest, jitter, seed);
    world.addForce(makeStretchShear(triangles, material));
    return world;
}

ClothMaterial material() {
    ClothMaterial m;
    m.stretch = 300.0;
    m.shear = 40.0;
    m.stretchDamping = 2.0;
    m.shearDamping = 0.7;
    return m;
}

TEST(TriangleStretchShear, ExactJacobiansMatchFiniteDifferences) {
    for (unsigned seed : {1u, 2u, 3u}) {
        World world = perturbedPatch(0.15, seed, material());
        test::expectExactJacobiansMatchFiniteDifferences(world);
    }
}

TEST(TriangleStretchShear, ForceIsMinusEnergyGradient) {
    World world = perturbedPatch(0.15, 4, material());
    test::expectForceIsMinusEnergyGradient(world);
}

TEST(TriangleStretchShear, DefiniteIsSymmetricNegativeSemiDefinite) {
    // Both stretched and compressed triangles in the patch.
    for (unsigned seed : {5u, 6u}) {
        World world = perturbedPatch(0.2, seed, material());
        test::expectDefiniteIsSymmetricNegativeSemiDefinite(world);
    }
}

// A patch stretched by s along u and sheared so that w_u . w_v = g holds the energy
// stretch/2 (s - 1)^2 A + shear/2 g^2 A (per unit rest area: the material's constants).
// The energy the divergence guard reads (four triangles at a time, in two halves) is the sum
// of the triangles' own energies to round-off: 18 triangles (two halves of 8 and 10, the last
// block part-filled) of a patch deformed at random.
TEST(TriangleStretchShear, EnergyIsTheSumOfTheTrianglesEnergies) {
    std::vector<Vec3> rest;
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i) rest.emplace_back(0.5 * i, 0.5 * j, 0.0);
    World world = test::randomlyPerturbed(rest, 0.3, 7);
    auto stretchShear = makeStretchShear(gridTriangles(0, 4, 4, 1.5, 1.5), material());
    const TriangleStretchShear& triangles = *stretchShear;
    world.addForce(std::move(stretchShear));
    ASSERT_EQ(triangles.elementCount(), 18);
    const double expected = triangles.ParticleElementForce<3>::potentialEnergy(world);
    ASSERT_GT(expected, 1.0);
    EXPECT_NEAR(triangles.potentialEnergy(world), expected, 1e-13 * expected);
}

TEST(TriangleStretchShear, EnergyOfAHomogeneousDeformationIsPerArea) {
    std::vector<Vec3> rest;
    const std::vector<ClothTriangle> triangles = patch(rest);
    const double s = 1.2, shearAngleTan = 0.1;
    // x = F X with F = [s, t; 0, 1]: w_u = (s, 0, 0), w_v = (t, 1, 0), w_u . w_v = s t.
    World world;
    for (const Vec3& X : rest)
        world.addParticle(Vec3(s * X.x() + shearAngleTan * X.y(), X.y(), 0.0), Vec3::Zero(), 1.0);
    const ClothMaterial m = material();
    world.addForce(makeStretchShear(triangles, m));
    const double area = 1.0;
    const double wv = std::sqrt(1.0 + shearAngleTan * shearAngleTan);
    const double expected = 0.5 * m.stretch * ((s - 1.0) * (s - 1.0) + (wv - 1.0) * (wv - 1.0)) * area +
                            0.5 * m.shear * (s * shearAngleTan) * (s * shearAngleTan) * area;
    EXPECT_NEAR(world.potentialEnergy(), expected, 1e-12 * expected);
}

// A patch stretched in its plane and let go (no gravity) comes back to its rest shape, its
// momentum still zero: stretch and shear at rest, under either implicit integrator.
void expectStretchedPatchReturnsToRest(const char* integrator) {
    constexpr int n = 6;
    SimulationSettings settings = test::simulationSettings(integrator, 1.0 / 60.0);
    settings.gravity = Vec3::Zero();
    Simulation simulation(settings);
    World& world = simulation.world();
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) world.addParticle(Vec3(1.3 * 0.2 * i, 0.9 * 0.2 * j, 0.0), Vec3::Zero(), 0.01);
    const auto triangles = gridTriangles(0, n, n, 0.2 * (n - 1), 0.2 * (n - 1));
    ClothMaterial m;
    m.stretch = 100.0;
    m.shear = 10.0;
    m.stretchDamping = 0.5;
    m.shearDamping = 0.05;
    auto& force = static_cast<TriangleStretchShear&>(world.addForce(makeStretchShear(triangles, m)));
    const double initialEnergy = world.potentialEnergy();
    for (int frame = 0; frame < 180; ++frame) simulation.step();
    EXPECT_LT(world.potentialEnergy(), 1e-8 * initialEnergy);
    for (Index e = 0; e < force.elementCount(); ++e) {
        const Vec3 strain = force.strain(world, e);
        EXPECT_NEAR(strain[0], 1.0, 1e-4);
        EXPECT_NEAR(strain[1], 1.0, 1e-4);
        EXPECT_NEAR(strain[2], 0.0, 1e-4);
    }
    EXPECT_LT(test::totalMomentum(world).norm(), 1e-12);
}

TEST(TriangleStretchShear, StretchedPatchReturnsToRestUnderImplicitEuler) {
    expectStretchedPatchReturnsToRest("implicit-euler");
}

TEST(TriangleStretchShear, StretchedPatchReturnsToRestUnderProjective) {
    expectStretchedPatchReturnsToRest("projective");
}

// The projective constraints (ProjectiveTerm.h) of a patch with only stretch hold exactly
// the stretch energy k a^2/2 ((|w_u| - b_u)^2 + (|w_v| - b_v)^2), however far from rest.
TEST(TriangleStretchShear, ProjectiveStretchIsTheStretchEnergy) {
    std::vector<Vec3> rest;
    const std::vector<ClothTriangle> triangles = patch(rest);
    ClothMaterial m;
    m.stretch = 300.0;
    m.shear = 0.0;
    m.stretchDamping = m.shearDamping = 0.0;
    for (unsigned seed : {1u, 2u, 3u}) {
        World world = test::randomlyPerturbed(rest, 0.2, seed);
        const auto& force = static_cast<const TriangleStretchShear&>(world.addForce(makeStretchShear(triangles, m)));
        const double energy = world.potentialEnergy();
        EXPECT_GT(energy, 1.0);
        EXPECT_NEAR(test::projectiveEnergy(force, world.positions()), energy, 1e-12 * energy) << seed;
    }
}

// With only shear, the constraints' energy (the squared distance to the nearest orthogonal
// pair, weighted k a^2 (b_u^2 + b_v^2)) is k/2 (a w_u . w_v)^2 to second order: the relative
// difference shrinks like the strain on random deformations of the rest shape.
TEST(TriangleStretchShear, ProjectiveShearMatchesTheShearEnergyToSecondOrder) {
    std::vector<Vec3> rest;
    const std::vector<ClothTriangle> triangles = patch(rest);
    ClothMaterial m;
    m.stretch = 0.0;
    m.shear = 40.0;
    m.stretchDamping = m.shearDamping = 0.0;
    std::vector<double> differences;
    for (const double jitter : {1e-2, 1e-3, 1e-4}) {
        World world = test::randomlyPerturbed(rest, jitter, 9);
        const auto& force = static_cast<const TriangleStretchShear&>(world.addForce(makeStretchShear(triangles, m)));
        differences.push_back(test::relativeEnergyMismatch(force, world));
    }
    test::expectSecondOrderMatch(differences);
    EXPECT_GT(differences[0], 1e-5);  // first order in the strain, not exact: the test measures the order
}

// nearestOrthogonalPair: p . q = 0, orthogonal pairs are left alone, and no orthogonal pair
// near it (turned together, each scaled) is nearer to (a, b).
TEST(TriangleStretchShear, ShearTargetIsTheNearestOrthogonalPair) {
    Vec3 p, q;
    nearestOrthogonalPair(Vec3(1.0, 0.0, 0.0), Vec3(0.0, 2.0, 0.5), p, q);
    EXPECT_EQ(p, Vec3(1.0, 0.0, 0.0));
    EXPECT_EQ(q, Vec3(0.0, 2.0, 0.5));
    // a = +-b: no unique nearest pair; p = a and q is b less its part along a.
    for (const double sign : {1.0, -1.0}) {
        nearestOrthogonalPair(Vec3(0.3, -0.4, 1.2), sign * Vec3(0.3, -0.4, 1.2), p, q);
        EXPECT_EQ(p, Vec3(0.3, -0.4, 1.2));
        EXPECT_LT(q.norm(), 1e-15);
    }
    nearestOrthogonalPair(Vec3::Zero(), Vec3::Zero(), p, q);
    EXPECT_EQ(p, Vec3::Zero());
    EXPECT_EQ(q, Vec3::Zero());
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const auto random = [&] { return Vec3(unit(rng), unit(rng), unit(rng)); };
    for (int trial = 0; trial < 20; ++trial) {
        const Vec3 a = random(), b = random();
        nearestOrthogonalPair(a, b, p, q);
        EXPECT_NEAR(p.dot(q), 0.0, 1e-14);
        const double distance = (p - a).squaredNorm() + (q - b).squaredNorm();
        for (int k = 0; k < 50; ++k) {
            const Mat3 turn = Eigen::AngleAxisd(0.05 * unit(rng), random().normalized()).toRotationMatrix();
            const Vec3 p2 = (1.0 + 0.05 * unit(rng)) * (turn * p), q2 = (1.0 + 0.05 * unit(rng)) * (turn * q);
            ASSERT_GE((p2 - a).squaredNorm() + (q2 - b).squaredNorm(), distance - 1e-14) << trial;
        }
    }
}
}  // namespace
}  // namespace tinkerbox
