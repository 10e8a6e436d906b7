// The particle system: state layout, nailed particles, energies, conservation laws.
#include "core/dynamics/World.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "core/TestSystems.h"
#include "core/forces/Cloth.h"
#include "core/forces/ElementPartition.h"
#include "core/forces/Gravity.h"
#include "core/forces/MouseSpring.h"
#include "core/forces/ViscousDrag.h"
#include "core/math/TwoWayParallel.h"

namespace tinkerbox {
namespace {

// Contact needs unit normals: the system normalizes them, however long or short.
TEST(World, PlaneNormalsAreNormalized) {
    World ps;
    Plane plane;
    for (const Vec3& normal : {Vec3(0, 1e300, 0), Vec3(0, 1e-300, 0), Vec3(0, 2, 0)}) {
        plane.normal = normal;
        ps.addPlane(plane);
        EXPECT_EQ(ps.planes().back().normal, Vec3::UnitY()) << normal.transpose();
    }
    plane.normal = Vec3::Zero();
    EXPECT_THROW(ps.addPlane(plane), std::invalid_argument);
    plane.normal = Vec3(INFINITY, 0, 0);
    EXPECT_THROW(ps.addPlane(plane), std::invalid_argument);
}

TEST(World, DerivativeIsVelocityAndAccelerationAndZeroForNailed) {
    World ps;
    ps.addParticle(Vec3(0.0, 1.0, 0.0), Vec3(1.0, 2.0, 3.0), 2.0, true);
    ps.addParticle(Vec3(1.0, 1.0, 0.0), Vec3(-1.0, 0.5, 0.0), 4.0);
    ps.addSpring({0, 1, 8.0, 0.0, 0.5});  // stretched by 0.5 along x: 4 N on each end
    VecX xdot;
    ps.derivative(xdot);
    ASSERT_EQ(xdot.size(), 12);
    EXPECT_EQ(Vec3(xdot.segment<3>(0)), Vec3::Zero());  // a nail does not drift, even with a velocity
    EXPECT_EQ(Vec3(xdot.segment<3>(3)), Vec3(-1.0, 0.5, 0.0));
    EXPECT_EQ(Vec3(xdot.segment<3>(6)), Vec3::Zero());
    EXPECT_LT((xdot.segment<3>(9) - Vec3(-1.0, 0.0, 0.0)).norm(), 1e-15);  // -4 N / 4 kg
}

TEST(World, NailingStopsTheParticleAndUnnailingRestoresItsMass) {
    World ps;
    ps.addParticle(Vec3::Zero(), Vec3(1.0, 0.0, 0.0), 2.0);
    ps.setNailed(0, true);
    EXPECT_TRUE(ps.isNailed(0));
    EXPECT_EQ(ps.velocity(0), Vec3::Zero());
    EXPECT_EQ(ps.inverseMass().diagonal[0], 0.0);
    ps.setNailed(0, false);
    EXPECT_FALSE(ps.isNailed(0));
    EXPECT_EQ(ps.inverseMass().diagonal[2], 0.5);
}

// The nail's velocity enters the damping of everything attached to it.
TEST(World, MoveNailedSetsVelocityFromDisplacement) {
    World ps;
    ps.addParticle(Vec3::Zero(), Vec3::Zero(), 1.0, true);
    ps.addParticle(Vec3(1.0, 0.0, 0.0), Vec3::Zero(), 1.0);
    ps.addSpring({0, 1, 0.0, 2.0, 1.0});  // pure damper
    const double h = 0.01;
    ps.moveNailed(0, Vec3(0.1, 0.05, 0.0), h);
    EXPECT_EQ(ps.position(0), Vec3(0.1, 0.05, 0.0));
    EXPECT_LT((ps.velocity(0) - Vec3(10.0, 5.0, 0.0)).norm(), 1e-12);

    ps.moveNailed(0, Vec3(0.1, 0.0, 0.0), h);  // now moving straight at B: v = (0, -5, 0)
    ps.moveNailed(0, Vec3(0.2, 0.0, 0.0), h);  // v = (10, 0, 0), along the spring
    VecX f;
    ps.appliedForces(f);
    // l = xa - xb = (-0.8, 0, 0), n = -x, ldot.n = -10: fb = -fa = kd (ldot.n) n = (20, 0, 0).
    EXPECT_LT((block3(f, 1) - Vec3(20.0, 0.0, 0.0)).norm(), 1e-9);
}

// The implicit step's one pass over the forces gives what appliedForces and combinedJacobian
// give apart: springs between particles and to a body, a triangle cloth with bending (its
// triangles stretched along one direction and compressed along the other, its hinges bent),
// gravity, drag and a grab, all in motion. The springs and the other forces to the bit; the
// triangles and hinges, whose blocks the pass adds without their dense local matrices, to
// round-off.
TEST(World, AppliedForcesAndCombinedJacobianMatchTheTwoPasses) {
    World world;
    const int n = 6;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            world.addParticle(Vec3(0.11 * j, 0.02 * std::sin(i + 2.0 * j), 0.09 * i),
                              Vec3(0.3 * std::cos(i * j), 0.1 * i, -0.2 * j), 0.01);
    const auto triangles = gridTriangles(0, n, n, 0.5, 0.5);
    ClothMaterial material;
    world.addForce(makeStretchShear(triangles, material));
    world.addForce(makeBending(triangles, material));
    for (int k = 0; k + 1 < n * n; k += 3) world.addSpring({k, k + 1, 40.0, 0.2, 0.08});
    const Index body = world.addRigidBody(test::unitCube(0.5, 0.0));
    world.addSpring({Anchor::onBody(body, Vec3(0.5, 0.5, 0.5)), Anchor(7), 30.0, 0.1, 0.5});
    world.addForce(std::make_unique<Gravity>(Vec3(0.0, -9.81, 0.0)));
    world.addForce(std::make_unique<ViscousDrag>(0.01));
    auto& mouse = static_cast<MouseSpring&>(world.addForce(std::make_unique<MouseSpring>(11, 50.0, 1.0, 20.0)));
    mouse.setTarget(Vec3(0.3, 0.4, 0.2));

    const double h = 1.0 / 60.0;
    VecX f, fTogether, product, productTogether;
    BlockSparseMatrix J, JTogether;
    world.appliedForces(f);
    world.combinedJacobian(-h * h, -h, J, product);
    world.appliedForcesAndCombinedJacobian(fTogether, -h * h, -h, JTogether, productTogether);
    EXPECT_LT((fTogether - f).norm(), 1e-14 * f.norm());
    EXPECT_LT((productTogether - product).norm(), 1e-14 * product.norm());
    ASSERT_EQ(JTogether.storedBlocks(), J.storedBlocks());
    double difference = 0.0, size = 0.0;
    for (Index k = 0; k < J.storedBlocks(); ++k) {
        difference = std::max(difference, (JTogether.value(k) - J.value(k)).norm());
        size = std::max(size, J.value(k).norm());
    }
    EXPECT_LT(difference, 1e-14 * size);
    EXPECT_GT(size, 0.0);

    // Without the cloth's elements the pass is the two passes to the bit.
    World springs;
    for (Index i = 0; i < world.particleCount(); ++i) springs.addParticle(world.position(i), world.velocity(i), 0.01);
    for (int k = 0; k + 1 < n * n; k += 3) springs.addSpring({k, k + 1, 40.0, 0.2, 0.08});
    springs.addForce(std::make_unique<Gravity>(Vec3(0.0, -9.81, 0.0)));
    springs.appliedForces(f);
    springs.combinedJacobian(-h * h, -h, J, product);
    springs.appliedForcesAndCombinedJacobian(fTogether, -h * h, -h, JTogether, productTogether);
    EXPECT_TRUE(fTogether == f);
    EXPECT_TRUE(productTogether == product);
    for (Index k = 0; k < J.storedBlocks(); ++k) EXPECT_TRUE(JTogether.value(k) == J.value(k)) << k;
}

// A cloth big enough that its triangles, hinges and springs are added in two parts at once
// and a band after them (ElementPartition.h): the same bits with a helper thread or without,
// and the numbers of the two passes (which add in the elements' order) to round-off. Its
// potential energy too, each force's on one of the two threads.
TEST(World, ForcesJacobiansAndEnergyOnTwoThreadsAddUpTheSame) {
    World world;
    const int n = 40;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            world.addParticle(Vec3(0.02 * j, 0.004 * std::sin(i + 2.0 * j), 0.02 * i),
                              Vec3(0.3 * std::cos(i * j), 0.1, -0.2), 0.001);
    const auto triangles = gridTriangles(0, n, n, 0.78, 0.78);
    ClothMaterial material;
    world.addForce(makeStretchShear(triangles, material));
    world.addForce(makeBending(triangles, material));
    for (int i = 0; i < n; ++i)
        for (int j = 0; j + 1 < n; ++j) world.addSpring({i * n + j, i * n + j + 1, 40.0, 0.2, 0.02});
    world.addForce(std::make_unique<Gravity>(Vec3(0.0, -9.81, 0.0)));

    const double h = 1.0 / 60.0;
    VecX f, product, fAlone, productAlone, fTwo, productTwo;
    BlockSparseMatrix J, JAlone, JTwo;
    world.appliedForces(f);
    world.combinedJacobian(-h * h, -h, J, product);
    world.appliedForcesAndCombinedJacobian(fAlone, -h * h, -h, JAlone, productAlone, nullptr);
    TwoWayParallel parallel;
    world.appliedForcesAndCombinedJacobian(fTwo, -h * h, -h, JTwo, productTwo, &parallel);
    EXPECT_TRUE(fTwo == fAlone);
    EXPECT_TRUE(productTwo == productAlone);
    EXPECT_LT((fAlone - f).norm(), 1e-14 * f.norm());
    EXPECT_LT((productAlone - product).norm(), 1e-14 * product.norm());
    double difference = 0.0, size = 0.0;
    for (Index k = 0; k < J.storedBlocks(); ++k) {
        EXPECT_TRUE(JTwo.value(k) == JAlone.value(k)) << k;
        difference = std::max(difference, (JAlone.value(k) - J.value(k)).norm());
        size = std::max(size, J.value(k).norm());
    }
    EXPECT_LT(difference, 1e-14 * size);
    EXPECT_GT(difference, 0.0);  // the band adds after the parts: not the elements' order

    // The potential energy with the forces' energies on two threads: the same bits, every time.
    const double energy = world.potentialEnergy();
    ASSERT_NE(energy, 0.0);
    for (int repeat = 0; repeat < 20; ++repeat) ASSERT_EQ(world.potentialEnergy(&parallel), energy) << repeat;
}

// stateIsFinite reads the state in place: false exactly when getState's copy has a number
// that is not finite, whichever part of the state (particle, body, bead) holds it.
TEST(World, StateIsFiniteWhereverANumberIsNot) {
    World world;
    world.addParticle(Vec3(0.0, 1.0, 0.0), Vec3(0.5, 0.0, 0.0), 1.0);
    world.addParticle(Vec3(1.0, 1.0, 0.0), Vec3::Zero(), 1.0);
    world.addRigidBody(test::unitCube(0.5, 0.0));
    world.addBead(ParametricBead{Vec3::Zero(), 1.0, Vec3::UnitZ(), 1.0, 0.0, 0.0});
    VecX state;
    world.getState(state);
    ASSERT_TRUE(world.stateIsFinite());
    for (Index k = 0; k < state.size(); ++k) {
        for (const double bad : {NAN, INFINITY}) {
            VecX broken = state;
            broken[k] = bad;
            world.setState(broken, 0.0);
            VecX copy;
            world.getState(copy);
            EXPECT_EQ(world.stateIsFinite(), copy.allFinite()) << k;
            EXPECT_FALSE(world.stateIsFinite()) << k;
        }
    }
    world.setState(state, 0.0);
    EXPECT_TRUE(world.stateIsFinite());
}

// A cloth of triangles and springs, each force big enough to come in two parts and a band
// (ElementPartition.h); its stretch force is given back to add triangles to.
TriangleStretchShear& addBigCloth(World& world, int n) {
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            world.addParticle(Vec3(0.02 * j, 0.004 * std::sin(i + 2.0 * j), 0.02 * i),
                              Vec3(0.3 * std::cos(i * j), 0.1, -0.2), 0.001);
    auto& stretch = static_cast<TriangleStretchShear&>(
        world.addForce(makeStretchShear(gridTriangles(0, n, n, 0.78, 0.78), ClothMaterial{})));
    for (int i = 0; i < n; ++i)
        for (int j = 0; j + 1 < n; ++j) {
            world.addSpring({i * n + j, i * n + j + 1, 40.0, 0.2, 0.02});
            world.addSpring({j * n + i, (j + 1) * n + i, 40.0, 0.2, 0.02});
        }
    world.addForce(std::make_unique<Gravity>(Vec3(0.0, -9.81, 0.0)));
    return stretch;
}

// The force passes without Jacobians (appliedForces, derivative) on the helper thread the
// world is given: the same bits as on one thread. Elements added after a pass are in the next.
TEST(World, ForcePassesOnSharedThreadsGiveTheSameBits) {
    const int n = 40;
    World world;
    TriangleStretchShear& stretch = addBigCloth(world, n);
    ASSERT_GT(stretch.elementCount(), ElementPartition::kSplitElements);
    ASSERT_GT(world.springs().size(), ElementPartition::kSplitElements);

    VecX fOne, fTwo, rateOne, rateTwo;
    world.appliedForces(fOne);
    world.derivative(rateOne);
    TwoWayParallel parallel;
    world.shareThreads(&parallel);
    world.appliedForces(fTwo);
    world.derivative(rateTwo);
    ASSERT_GT(fOne.norm(), 0.0);
    EXPECT_TRUE(fTwo == fOne);
    EXPECT_TRUE(rateTwo == rateOne);

    // A spring and a triangle across the two halves, added after those passes: the next pass
    // adds them (with the partition of the new elements) as a world built with them does.
    const auto addAcross = [&](World& w, TriangleStretchShear& s) {
        w.addSpring({0, n * n - 1, 40.0, 0.2, 0.5});
        StretchShearTriangle t = s.triangle(0);
        t.particles = {0, n * n - 2, n * n - 1};
        s.add(t);
    };
    addAcross(world, stretch);
    world.appliedForces(fTwo);
    World fresh;
    addAcross(fresh, addBigCloth(fresh, n));
    VecX fFresh;
    fresh.appliedForces(fFresh);
    EXPECT_TRUE(fTwo == fFresh);
    EXPECT_GT((fTwo - fOne).norm(), 1.0);
}

class ParticleSystemEveryIntegrator : public ::testing::TestWithParam<std::string_view> {};

// Nail A holds B hanging at equilibrium under gravity; nail C is being moved by a
// controller (it has a velocity) and drags D through a damped spring. No integrator may
// move A or C, and the springs must still hold B and pull D.
TEST_P(ParticleSystemEveryIntegrator, NailedParticlesNeverMoveAndTheirSpringsStillAct) {
    const double ks = 100.0, rest = 0.5, g = 9.81;
    World ps;
    ps.addForce(std::make_unique<Gravity>(Vec3(0.0, -g, 0.0)));
    const Vec3 nailA(0.0, 2.0, 0.0), hangB = nailA - Vec3(0.0, rest + g / ks, 0.0);
    ps.addParticle(nailA, Vec3::Zero(), 1.0, true);
    ps.addParticle(hangB, Vec3::Zero(), 1.0);
    ps.addSpring({0, 1, ks, 0.0, rest});
    ps.addParticle(Vec3(3.0, 2.0, 0.0), Vec3::Zero(), 1.0, true);
    ps.addParticle(Vec3(3.0, 1.0, 0.0), Vec3::Zero(), 1.0);
    ps.addSpring({2, 3, ks, 5.0, 1.0});
    const double h = 1.0 / 60.0;
    ps.moveNailed(2, Vec3(3.0, 2.0, 1.0), h);
    const Vec3 nailC = ps.position(2), nailCVelocity = ps.velocity(2);

    const auto integrator = makeIntegrator(GetParam(), test::tightSolver());
    for (int k = 0; k < 120; ++k) {
        StepReport report;
        integrator->step(ps, h, report);
        ASSERT_EQ(ps.position(0), nailA) << "step " << k;
        ASSERT_EQ(ps.velocity(0), Vec3::Zero()) << "step " << k;
        ASSERT_EQ(ps.position(2), nailC) << "step " << k;
        ASSERT_EQ(ps.velocity(2), nailCVelocity) << "step " << k;
    }
    // Without the spring B would have fallen g t^2 / 2 = 9.8 m.
    EXPECT_LT((ps.position(1) - hangB).norm(), 1e-9);
    // D is pulled sideways toward C's new position (it started with no z velocity or force).
    EXPECT_GT(ps.position(3).z(), 0.1);
}

// Springs conserve linear momentum; every integrator here is linear in the forces, so
// they do too (implicit Euler up to its CG residual).
TEST_P(ParticleSystemEveryIntegrator, ConservesMomentumWithoutExternalForces) {
    World ps;
    test::addRandomSpringNetwork(ps, 12, 40, 3u);
    const Vec3 p0 = test::totalMomentum(ps);
    double scale = 0.0;
    for (Index i = 0; i < ps.particleCount(); ++i) scale += ps.mass(i) * ps.velocity(i).norm();
    const VecX x0 = test::stateOf(ps);
    const auto integrator = makeIntegrator(GetParam(), test::tightSolver());
    test::stepMany(*integrator, ps, 1e-3, 500);
    ASSERT_GT((test::stateOf(ps) - x0).norm(), 1.0) << "the network should have moved";
    const double tolerance = (GetParam() == "implicit-euler" ? 1e-11 : 1e-13) * scale;
    EXPECT_LT((test::totalMomentum(ps) - p0).norm(), tolerance);
}

INSTANTIATE_TEST_SUITE_P(AllIntegrators, ParticleSystemEveryIntegrator, test::allIntegrators(),
                         test::IntegratorParamName{});

TEST(World, EnergiesMatchHandComputedValues) {
    World ps;
    ps.addForce(std::make_unique<Gravity>(Vec3(0.0, -10.0, 0.0)));
    ps.addParticle(Vec3(0.0, 3.0, 0.0), Vec3::Zero(), 5.0, true);  // a nail stores no gravity energy
    ps.addParticle(Vec3(1.0, 2.0, 0.0), Vec3(3.0, 0.0, 4.0), 2.0);
    ps.addParticle(Vec3(0.0, -1.0, 2.0), Vec3(0.0, 2.0, 0.0), 0.5);
    ps.addSpring({0, 1, 4.0, 1.0, 0.5});   // length sqrt(2)
    ps.addSpring({1, 2, 10.0, 1.0, 3.0});  // length sqrt(14)

    EXPECT_DOUBLE_EQ(ps.kineticEnergy(), 0.5 * 2.0 * 25.0 + 0.5 * 0.5 * 4.0);
    const double gravity = 2.0 * 10.0 * 2.0 + 0.5 * 10.0 * -1.0;
    const double springs =
        0.5 * 4.0 * std::pow(std::sqrt(2.0) - 0.5, 2) + 0.5 * 10.0 * std::pow(std::sqrt(14.0) - 3.0, 2);
    EXPECT_NEAR(ps.potentialEnergy(), gravity + springs, 1e-13);
    EXPECT_NEAR(ps.totalEnergy(), 26.0 + gravity + springs, 1e-13);
}

// A swinging, stretching undamped chain under gravity: rk4 at a small step keeps the
// total energy to 1e-7 relative over 3 s (explicit Euler at this step gains more than 100%).
TEST(World, Rk4ConservesEnergyOfUndampedSpringSystem) {
    World ps;
    test::addChain(ps, 6, Vec3::Zero(), Vec3(1.0, 0.3, 0.0), 0.2, 1.3, 50.0, 0.0, 0.1);
    ps.addForce(std::make_unique<Gravity>(Vec3(0.0, -9.81, 0.0)));
    const double e0 = ps.totalEnergy();
    const auto rk4 = makeIntegrator("rk4");
    double kineticPeak = 0.0;
    for (int k = 0; k < 3000; ++k) {
        StepReport report;
        rk4->step(ps, 1e-3, report);
        ASSERT_NEAR(ps.totalEnergy(), e0, 1e-7 * std::abs(e0)) << "step " << k;
        kineticPeak = std::max(kineticPeak, ps.kineticEnergy());
    }
    EXPECT_GT(kineticPeak, 0.5 * std::abs(e0)) << "energy must actually be exchanged";
}

}  // namespace
}  // namespace tinkerbox
