// Bending from the dihedral angle of each hinge (Baraff and Witkin, Large Steps in Cloth
// Simulation, SIGGRAPH 1998, section 4.3; gradient of Bridson, Marino and Fedkiw 2003).
#include "core/forces/DihedralBending.h"

#include <algorithm>
#include <numbers>
#include <numeric>
#include <random>

#include "core/forces/Cloth.h"
#include "core/forces/ElementForceChecks.h"
#include "core/forces/ProjectiveTermChecks.h"

namespace tinkerbox {
namespace {

TEST(DihedralBending, AngleOfAFoldedHingeAndItsSign) {
    // Edge along x; x2 at +y folded up by alpha about the edge, x3 at -y flat.
    for (double alpha : {0.3, 1.2, 2.5}) {
        Eigen::Matrix<double, 12, 1> x;
        x << 0, 0, 0, 1, 0, 0, 0.5, std::cos(alpha), std::sin(alpha), 0.5, -1, 0;
        EXPECT_NEAR(dihedralAngle(x), alpha, 1e-14);
        x[8] = -x[8];  // folded down instead
        EXPECT_NEAR(dihedralAngle(x), -alpha, 1e-14);
    }
    Eigen::Matrix<double, 12, 1> flat;
    flat << 0, 0, 0, 1, 0, 0, 0.3, 1, 0, 0.8, -1, 0;
    EXPECT_EQ(dihedralAngle(flat), 0.0);
}

// Two hinges (a strip of three triangles) bent at random, with rest angles and damping.
World randomStrip(unsigned seed) {
    const std::vector<Vec3> rest = {{0, 0, 0}, {1, 0, 0}, {0.5, 0.8, 0.2}, {0.5, -0.8, 0.3}, {1.4, -0.9, -0.2}};
    World world = test::randomlyPerturbed(rest, 0.2, seed);
    auto bending = std::make_unique<DihedralBending>();
    bending->add({{0, 1, 2, 3}, 3.0, 0.8, 0.4});
    bending->add({{1, 3, 0, 4}, 5.0, 0.5, -0.3});
    world.addForce(std::move(bending));
    return world;
}

TEST(DihedralBending, ExactJacobiansMatchFiniteDifferences) {
    for (unsigned seed : {1u, 2u, 3u, 4u}) {
        World world = randomStrip(seed);
        test::expectExactJacobiansMatchFiniteDifferences(world);
    }
}

TEST(DihedralBending, ForceIsMinusEnergyGradient) {
    World world = randomStrip(5);
    test::expectForceIsMinusEnergyGradient(world);
}

TEST(DihedralBending, DefiniteIsSymmetricNegativeSemiDefinite) {
    World world = randomStrip(6);
    test::expectDefiniteIsSymmetricNegativeSemiDefinite(world);
}

// The energy the divergence guard reads (four hinges at a time, atan2Lanes, in two halves)
// is the sum of the hinges' own energies (std::atan2), hinge by hinge, to round-off: on 37
// hinges among scattered particles (angles in every quadrant) with rest angles across
// (-pi, pi], one of them collapsed (no angle: flat).
TEST(DihedralBending, EnergyIsTheSumOfTheHingesEnergies) {
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    World world;
    for (int i = 0; i < 40; ++i) world.addParticle(Vec3(unit(rng), unit(rng), unit(rng)), Vec3::Zero(), 1.0);
    world.addParticle(world.position(0), Vec3::Zero(), 1.0);  // on top of particle 0
    auto bending = std::make_unique<DihedralBending>();
    std::vector<Index> order(40);
    std::iota(order.begin(), order.end(), Index{0});
    for (int k = 0; k < 36; ++k) {
        std::shuffle(order.begin(), order.end(), rng);
        bending->add({{order[0], order[1], order[2], order[3]}, 1.0 + unit(rng), 0.1, std::numbers::pi * unit(rng)});
    }
    bending->add({{0, 40, 5, 6}, 2.0, 0.1, 0.7});  // a zero-length edge
    const DihedralBending& hinges = *bending;
    world.addForce(std::move(bending));
    const double expected = hinges.ParticleElementForce<4>::potentialEnergy(world);
    ASSERT_GT(expected, 1.0);
    EXPECT_NEAR(hinges.potentialEnergy(world), expected, 1e-13 * expected);
    EXPECT_EQ(hinges.potentialEnergy(world),
              hinges.potentialEnergyHalf(world, 0) + hinges.potentialEnergyHalf(world, 1));
}

// A flat sheet of columns x rows particles (spacing h) rolled onto a cylinder of radius R
// about an axis along one grid direction: each grid square stays planar (its corners lie
// on one chord plane), so only the edges along the axis bend, each by h/R, and each
// such interior edge has the hinge weight |e|^2/(A1 + A2) = h^2/h^2 = 1. The energy is
// then bend/2 (1/R)^2 h^2 per interior edge along the axis: the closed form
// bend/2 (1/R)^2 A over the area those edges span, and it tends to the whole sheet's
// bend/2 (1/R)^2 W H as the mesh is refined.
TEST(DihedralBending, SheetRolledOnACylinderHasTheClosedFormEnergy) {
    ClothMaterial material;
    material.bend = 0.02;
    const double R = 0.4;
    for (const int n : {17, 33, 65})
        for (const bool aroundV : {false, true}) {
            const double size = 1.0, h = size / (n - 1);
            World world;
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < n; ++i) {
                    const double arc = (aroundV ? i : j) * h, along = (aroundV ? j : i) * h;
                    world.addParticle(Vec3(R * std::sin(arc / R), R * (1.0 - std::cos(arc / R)), along), Vec3::Zero(),
                                      1.0);
                }
            world.addForce(makeBending(gridTriangles(0, n, n, size, size), material));
            const double bendingArea = (n - 2) * h * size;  // between the first and last bending lines
            const double closedForm = 0.5 * material.bend / (R * R) * bendingArea;
            EXPECT_NEAR(world.potentialEnergy(), closedForm, 1e-9 * closedForm) << n << " particles a side";
            const double wholeSheet = 0.5 * material.bend / (R * R) * size * size;
            EXPECT_NEAR(world.potentialEnergy(), wholeSheet, 1.01 * wholeSheet / (n - 1));
        }
}

TEST(DihedralBending, HingesOfAGridAreItsInteriorEdges) {
    // n x n particles: 3 (n-1)^2 + 2 (n-1) edges, of which 4 (n-1) on the boundary.
    const int n = 5;
    auto bending = makeBending(gridTriangles(0, n, n, 1.0, 1.0), ClothMaterial{});
    EXPECT_EQ(bending->elementCount(), 3 * (n - 1) * (n - 1) - 2 * (n - 1));
}

// A hinge on the edge (0, 0, 0)-(1, 0, 0), its apexes 0.7 and 0.9 from it, folded by theta.
Eigen::Matrix<double, 12, 1> foldedHinge(double theta) {
    Eigen::Matrix<double, 12, 1> x;
    x << 0, 0, 0, 1, 0, 0, 0.3, 0.7 * std::cos(theta), 0.7 * std::sin(theta), 0.6, -0.9, 0;
    return x;
}

World hingeWorld(const Eigen::Matrix<double, 12, 1>& x) {
    World world;
    for (int m = 0; m < 4; ++m) world.addParticle(x.segment<3>(3 * m), Vec3::Zero(), 1.0);
    return world;
}

// The projective row of a hinge with a rest shape (Bergou et al. 2006's curvature vector,
// ProjectiveTerm.h) holds k/2 (theta - theta_rest)^2 to second order: zero at rest (however
// the hinge is placed), and the relative difference shrinks like the fold away from rest
// (turned and moved at random; for a flat rest shape, every particle also moved across it at random).
TEST(DihedralBending, ProjectiveRowMatchesTheBendingEnergyToSecondOrder) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (const double restAngle : {0.0, 0.9, -1.4, 2.8, -3.0}) {
        BendingHinge hinge{{0, 1, 2, 3}, 2.5, 0.0, restAngle};
        hinge.restShape = foldedHinge(restAngle);
        const Mat3 turn =
            Eigen::AngleAxisd(1.0 + unit(rng), Vec3(unit(rng), unit(rng), unit(rng)).normalized()).toRotationMatrix();
        const Vec3 shift(unit(rng), unit(rng), unit(rng));
        const auto placed = [&](Eigen::Matrix<double, 12, 1> x) {
            for (int m = 0; m < 4; ++m) x.segment<3>(3 * m) = turn * x.segment<3>(3 * m) + shift;
            return x;
        };
        {
            World world = hingeWorld(placed(foldedHinge(restAngle)));
            DihedralBending force;
            force.add(hinge);
            EXPECT_LT(test::projectiveEnergy(force, world.positions()), 1e-28) << restAngle;
        }
        std::vector<double> differences;
        for (const double fold : {1e-2, 1e-3, 1e-4}) {
            Eigen::Matrix<double, 12, 1> x = foldedHinge(restAngle + fold);
            if (restAngle == 0.0)
                for (int m = 0; m < 4; ++m) x[3 * m + 2] += fold * unit(rng);
            World world = hingeWorld(placed(x));
            auto bending = std::make_unique<DihedralBending>();
            bending->add(hinge);
            const auto& force = static_cast<const DihedralBending&>(world.addForce(std::move(bending)));
            ASSERT_EQ(force.projectiveHinges().size(), 1u);
            differences.push_back(test::relativeEnergyMismatch(force, world));
        }
        test::expectSecondOrderMatch(differences, "rest angle " + std::to_string(restAngle));
    }
}

// A hinge without a rest shape is no projective constraint: its whole force is applied
// outside the projective solve; a hinge with one applies nothing there.
TEST(DihedralBending, HingesWithoutARestShapeStayOutsideTheProjectiveSolve) {
    const Eigen::Matrix<double, 12, 1> x = foldedHinge(0.5);
    for (const bool withRestShape : {false, true}) {
        World world = hingeWorld(x);
        for (int m = 0; m < 4; ++m) world.setVelocity(m, Vec3(0.1 * m, -0.2, 0.3));
        BendingHinge hinge{{0, 1, 2, 3}, 2.0, 0.3, 0.1};
        if (withRestShape) hinge.restShape = foldedHinge(0.1);
        auto bending = std::make_unique<DihedralBending>();
        bending->add(hinge);
        const Force& force = world.addForce(std::move(bending));
        ASSERT_NE(force.projectiveTerm(), nullptr);
        VecX all = VecX::Zero(12), outside = VecX::Zero(12);
        force.accumulate(world, all, nullptr);
        force.accumulateOutsideProjectiveTerm(world, outside);
        EXPECT_GT(all.norm(), 0.1);
        EXPECT_EQ(outside, withRestShape ? VecX(VecX::Zero(12)) : all);
    }
}
}  // namespace
}  // namespace tinkerbox
