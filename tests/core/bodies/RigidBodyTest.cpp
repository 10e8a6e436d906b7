// Free and sprung rigid bodies (Baraff, Rigid Body Simulation, SIGGRAPH 2001 notes) against
// closed forms: conservation of L and energy, the exact rotation of an isotropic body, the
// flip period of the intermediate axis (Landau and Lifshitz, Mechanics, section 37), mass
// properties from a hull, momentum bookkeeping with a particle, planar bodies.
#include "core/bodies/RigidBodies.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/TestSystems.h"
#include "core/forces/MouseSpring.h"

namespace tinkerbox {
namespace {

const Quat kTilted = Quat(Eigen::AngleAxisd(0.7, Vec3(1.0, -2.0, 0.5).normalized()));

// A 1 x 2 x 3 box of mass 12: principal moments (13, 10, 5) about its x, y, z axes.
RigidBodySpec box123(const Quat& orientation, const Vec3& angularVelocity) {
    RigidBodySpec spec;
    spec.shape = BoxShape{Vec3(1.0, 2.0, 3.0)};
    spec.mass = 12.0;
    spec.orientation = orientation;
    spec.angularVelocity = angularVelocity;
    return spec;
}

SimulationSettings zeroGravity(std::string_view integrator, double dt) {
    SimulationSettings settings = test::simulationSettings(integrator, dt);
    settings.gravity = Vec3::Zero();
    return settings;
}

double relative(double value, double reference) { return std::abs(value / reference - 1.0); }

// A torque-free asymmetric body under rk4: |L| and the kinetic energy 1/2 L . omega stay
// put to the integrator's accuracy, and L itself exactly (its rate is zero).
TEST(RigidBody, TorqueFreeBodyKeepsAngularMomentumAndEnergyUnderRk4) {
    Simulation sim(zeroGravity("rk4", 1.0 / 600.0));
    World& world = sim.world();
    world.addRigidBody(box123(kTilted, Vec3(0.7, -1.1, 0.4)));
    const Vec3 L0 = world.angularMomentum();
    const Vec3 stateL0 = world.rigidBodies().angularMomentum(0);
    const double E0 = world.kineticEnergy();
    double maxMomentumDrift = 0.0, maxEnergyDrift = 0.0;
    for (int frame = 0; frame < 36000; ++frame) {  // 60 s
        ASSERT_FALSE(sim.step().diverged);
        maxMomentumDrift = std::max(maxMomentumDrift, (world.angularMomentum() - L0).norm() / L0.norm());
        maxEnergyDrift = std::max(maxEnergyDrift, relative(world.kineticEnergy(), E0));
    }
    RecordProperty("momentum_drift", test::scientific(maxMomentumDrift));
    RecordProperty("energy_drift", test::scientific(maxEnergyDrift));
    EXPECT_LE(maxMomentumDrift, 1e-6);
    EXPECT_LE(maxEnergyDrift, 1e-6);
    EXPECT_EQ(world.rigidBodies().angularMomentum(0), stateL0);  // the state's L: never changed
    // The body did tumble: omega is not where it started (it is not a steady spin).
    EXPECT_GT((world.rigidBodies().angularVelocity(0) - Vec3(0.7, -1.1, 0.4)).norm(), 0.1);
}

class TorqueFreeEveryIntegrator : public ::testing::TestWithParam<std::string_view> {};

// L is a state variable with zero rate: every integrator keeps it bitwise, however badly it
// turns the body.
TEST_P(TorqueFreeEveryIntegrator, KeepsAngularMomentumExactly) {
    Simulation sim(zeroGravity(GetParam(), 1.0 / 60.0));
    World& world = sim.world();
    world.addRigidBody(box123(kTilted, Vec3(3.0, -5.0, 2.0)));
    const Vec3 L0 = world.rigidBodies().angularMomentum(0);
    for (int frame = 0; frame < 600; ++frame) {
        ASSERT_FALSE(sim.step().diverged);
        ASSERT_EQ(world.rigidBodies().angularMomentum(0), L0) << "frame " << frame;
    }
    // World::angularMomentum computes I omega = R Ibody R^T R Ibody^-1 R^T L: L to rounding.
    EXPECT_LT((world.angularMomentum() - L0).norm(), 1e-14 * L0.norm() * 10);
}

INSTANTIATE_TEST_SUITE_P(Integrators, TorqueFreeEveryIntegrator, test::allIntegrators(), test::IntegratorParamName{});

class TorqueFreeSymplectic : public ::testing::TestWithParam<std::string_view> {};

// Symplectic Euler and Verlet turn a free body by the splitting of its kinetic energy over
// the principal axes (RigidBodies::drift): its energy 1/2 L . omega stays within a band of
// O((h omega)^2) around the start for a minute of tumbling at dt = 1/60, without drifting.
// (Turning by h omega at the start of each step pumped energy in: +57 % in a minute.)
TEST_P(TorqueFreeSymplectic, KeepEnergyWithoutDrift) {
    Simulation sim(zeroGravity(GetParam(), 1.0 / 60.0));
    World& world = sim.world();
    world.addRigidBody(box123(kTilted, Vec3(0.5, 3.0, -0.3)));
    const double E0 = world.kineticEnergy();
    double maxDeviation = 0.0, firstMean = 0.0, lastMean = 0.0;
    for (int frame = 1; frame <= 3600; ++frame) {
        ASSERT_FALSE(sim.step().diverged);
        const double deviation = world.kineticEnergy() / E0 - 1.0;
        maxDeviation = std::max(maxDeviation, std::abs(deviation));
        if (frame <= 600) firstMean += deviation / 600;
        if (frame > 3000) lastMean += deviation / 600;
    }
    RecordProperty("max_energy_deviation", test::scientific(maxDeviation));
    RecordProperty("mean_drift", test::scientific(lastMean - firstMean));
    EXPECT_LT(maxDeviation, 1e-2);
    EXPECT_LT(std::abs(lastMean - firstMean), 1e-3);
}

INSTANTIATE_TEST_SUITE_P(Integrators, TorqueFreeSymplectic, ::testing::Values("symplectic-euler", "verlet"),
                         test::IntegratorParamName{});

// Verlet is second order on a tumbling body, not only on particles: its drift's splitting
// is (RigidBodies::drift). The orientation and omega after 1 s against a fine rk4 solution.
TEST(RigidBody, VerletTurnsATumblingBodyAtSecondOrder) {
    const auto tumble = [](std::string_view integrator, int steps) {
        Simulation sim(zeroGravity(integrator, 1.0 / steps));
        sim.world().addRigidBody(box123(kTilted, Vec3(0.5, 3.0, -0.3)));
        for (int k = 0; k < steps; ++k) EXPECT_FALSE(sim.step().diverged);
        return std::pair(sim.world().rigidBodies().orientation(0), sim.world().rigidBodies().angularVelocity(0));
    };
    const auto [qRef, wRef] = tumble("rk4", 4000);
    std::vector<double> h, error;
    for (int n = 50; n <= 400; n *= 2) {
        const auto [q, w] = tumble("verlet", n);
        h.push_back(1.0 / n);
        error.push_back(std::min((q.coeffs() - qRef.coeffs()).norm(), (q.coeffs() + qRef.coeffs()).norm()) +
                        (w - wRef).norm());
    }
    const double slope = test::logLogSlope(h, error);
    RecordProperty("measured_order", std::to_string(slope));
    EXPECT_NEAR(slope, 2.0, 0.15);
    EXPECT_LT(error.back(), 1e-3);
}

// An isotropic body (I = c 1) keeps omega = L / c constant, so it turns about a fixed axis
// at a constant rate: q(t) = exp(t omega) q0, [0, omega] as a rotation by t |omega|. rk4
// meets it to its accuracy; symplectic-euler and verlet, whose drift turns such a body by the
// exact rotation rather than by the principal axes' splitting, to rounding.
TEST(RigidBody, IsotropicBodyTurnsAsTheClosedFormRotation) {
    const Vec3 omega(1.3, -0.4, 2.1);
    for (const char* integrator : {"rk4", "symplectic-euler", "verlet"}) {
        for (const Shape& shape : {Shape(BoxShape{Vec3(0.8, 0.8, 0.8)}), Shape(SphereShape{0.6})}) {
            SCOPED_TRACE(integrator);
            Simulation sim(zeroGravity(integrator, 1.0 / 600.0));
            World& world = sim.world();
            RigidBodySpec spec;
            spec.shape = shape;
            spec.mass = 2.5;
            spec.orientation = kTilted;
            spec.angularVelocity = omega;
            world.addRigidBody(spec);
            double maxError = 0.0;
            for (int frame = 1; frame <= 1200; ++frame) {  // 2 s, about 5 turns
                ASSERT_FALSE(sim.step().diverged);
                const double t = sim.time();
                const Quat expected = Quat(Eigen::AngleAxisd(t * omega.norm(), omega.normalized())) * kTilted;
                const Quat& q = world.rigidBodies().orientation(0);
                // q and -q are the same rotation.
                const double error =
                    std::min((q.coeffs() - expected.coeffs()).norm(), (q.coeffs() + expected.coeffs()).norm());
                maxError = std::max(maxError, error);
                ASSERT_LT((world.rigidBodies().angularVelocity(0) - omega).norm(), 1e-12);
            }
            RecordProperty(std::string(integrator) + (shape.index() == 0 ? "_cube_error" : "_sphere_error"),
                           test::scientific(maxError));
            EXPECT_LE(maxError, 1e-12);
        }
    }
}

// The Dzhanibekov effect: a body spun about its intermediate axis flips over and back
// periodically. Landau and Lifshitz, Mechanics, 3rd ed., section 37, eqs. (37.10)-(37.11):
// with principal moments I1 < I2 < I3, energy E and |L| = M with M^2 > 2 E I2, the body-frame
// angular velocity is
//   Omega1 ~ cn(tau), Omega2 ~ sn(tau), Omega3 ~ dn(tau),
//   tau = t sqrt((I3 - I2)(M^2 - 2 E I1) / (I1 I2 I3)),
//   k^2 = (I2 - I1)(2 E I3 - M^2) / ((I3 - I2)(M^2 - 2 E I1)),
// so Omega2, the component along the intermediate axis, has the period in t
//   T = 4 K(k) sqrt(I1 I2 I3 / ((I3 - I2)(M^2 - 2 E I1))),
// K the complete elliptic integral of the first kind. Near the intermediate axis k -> 1 and
// Omega2 swings between +-max: each half period is one flip.
TEST(RigidBody, IntermediateAxisFlipsWithTheEllipticPeriod) {
    // The 1 x 2 x 3 box: I1 = 5 (z), I2 = 10 (y), I3 = 13 (x).
    const double I1 = 5.0, I2 = 10.0, I3 = 13.0;
    // Mostly about y, a little about x (which makes M^2 > 2 E I2) and z.
    const Vec3 bodyOmega(0.05, 2.0, 0.03);
    Simulation sim(zeroGravity("rk4", 1.0 / 600.0));
    World& world = sim.world();
    world.addRigidBody(box123(kTilted, kTilted * bodyOmega));

    const double E = 0.5 * (I3 * bodyOmega.x() * bodyOmega.x() + I2 * bodyOmega.y() * bodyOmega.y() +
                            I1 * bodyOmega.z() * bodyOmega.z());
    const double M2 = Vec3(I3 * bodyOmega.x(), I2 * bodyOmega.y(), I1 * bodyOmega.z()).squaredNorm();
    ASSERT_GT(M2, 2.0 * E * I2);
    ASSERT_NEAR(world.kineticEnergy(), E, 1e-12 * E);
    ASSERT_NEAR(world.angularMomentum().squaredNorm(), M2, 1e-12 * M2);
    const double k2 = (I2 - I1) * (2.0 * E * I3 - M2) / ((I3 - I2) * (M2 - 2.0 * E * I1));
    const double period =
        4.0 * std::comp_ellint_1(std::sqrt(k2)) * std::sqrt(I1 * I2 * I3 / ((I3 - I2) * (M2 - 2.0 * E * I1)));

    std::vector<double> t, omegaY;
    while (sim.time() < 4.5 * period) {
        ASSERT_FALSE(sim.step().diverged);
        const RigidBodies& bodies = world.rigidBodies();
        t.push_back(sim.time());
        omegaY.push_back((bodies.rotation(0).transpose() * bodies.angularVelocity(0)).y());
    }
    // It does flip: the intermediate component reverses fully.
    EXPECT_LT(*std::min_element(omegaY.begin(), omegaY.end()), -0.9 * bodyOmega.y());
    const double measured = test::periodFromZeroCrossings(t, omegaY);
    RecordProperty("analytic_period", std::to_string(period));
    RecordProperty("measured_period", std::to_string(measured));
    EXPECT_NEAR(measured, period, 0.01 * period) << "k^2 = " << k2;
}

// A convex hull of a box's corners, given in a frame whose origin is not its centre, has
// the box's mass properties, so as a body it moves exactly as the box body does.
// A convex body's hull is built once, when its shape is set, for drawing, picking and
// collision to share; a box or a sphere has none.
TEST(RigidBody, AConvexBodyKeepsTheHullOfItsPoints) {
    std::vector<Vec3> corners;
    for (int c = 0; c < 8; ++c) corners.emplace_back(c & 1 ? 0.5 : -0.5, c & 2 ? 0.5 : -0.5, c & 4 ? 0.5 : -0.5);
    std::vector<Vec3> withInside = corners;
    withInside.emplace_back(0.1, 0.0, 0.0);  // not a vertex of the hull
    RigidBodySpec convex;
    convex.shape = ConvexShape{withInside};
    RigidBodySpec sphere;
    sphere.shape = SphereShape{0.5};
    RigidBodies bodies;
    bodies.add(convex, false);
    bodies.add(sphere, false);
    const ConvexHull* hull = bodies.hull(0);
    ASSERT_NE(hull, nullptr);
    EXPECT_EQ(hull->vertices.size(), 8u);
    EXPECT_EQ(hull->triangles.size(), 12u);  // two per face of the cube
    EXPECT_EQ(bodies.hull(1), nullptr);
    // Another spec with the same shape keeps the hull; a new shape gets its own.
    RigidBodySpec moved = convex;
    moved.position = Vec3(1, 2, 3);
    bodies.setSpec(0, moved);
    EXPECT_EQ(bodies.hull(0), hull);
    RigidBodySpec tetrahedron = convex;
    tetrahedron.shape = ConvexShape{{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)}};
    bodies.setSpec(0, tetrahedron);
    ASSERT_NE(bodies.hull(0), nullptr);
    EXPECT_EQ(bodies.hull(0)->vertices.size(), 4u);
    RigidBodySpec flat = convex;
    flat.shape = ConvexShape{{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0)}};
    EXPECT_THROW(bodies.setSpec(0, flat), std::invalid_argument);
}

TEST(RigidBody, HullOfABoxsCornersMovesLikeTheBox) {
    const Vec3 size(1.0, 2.0, 3.0), offset(0.3, -0.2, 0.5);
    const Vec3 start(0.4, 0.1, -0.3), corner(0.5, 1.0, 1.5);
    RigidBodySpec boxSpec = box123(kTilted, Vec3(0.5, -0.3, 0.8));
    boxSpec.position = start;
    boxSpec.velocity = Vec3(0.2, 0.0, -0.1);
    RigidBodySpec hullSpec = boxSpec;
    ConvexShape hull;
    for (int i = 0; i < 8; ++i)
        hull.points.push_back(offset + 0.5 * size.cwiseProduct(Vec3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1)));
    hullSpec.shape = hull;
    hullSpec.position = start - kTilted * offset;  // the hull's centre where the box's is

    const auto build = [&](Simulation& sim, const RigidBodySpec& spec, const Vec3& anchorPoint) {
        World& world = sim.world();
        const Index body = world.addRigidBody(spec);
        const Index nail = world.addParticle(Vec3(0.0, 3.0, 0.0), Vec3::Zero(), 1.0, true);
        world.addSpring({nail, Anchor::onBody(body, anchorPoint), 40.0, 0.5, 1.0});
    };
    Simulation boxSim(test::simulationSettings("rk4", 1.0 / 600.0)),
        hullSim(test::simulationSettings("rk4", 1.0 / 600.0));
    build(boxSim, boxSpec, corner);
    build(hullSim, hullSpec, corner + offset);
    const RigidBodies& a = boxSim.world().rigidBodies();
    const RigidBodies& b = hullSim.world().rigidBodies();
    EXPECT_NEAR(b.mass(0), a.mass(0), 1e-14);
    EXPECT_LT((b.bodyInertia(0) - a.bodyInertia(0)).norm(), 1e-12);
    EXPECT_LT((b.centerOfMassInShapeFrame(0) - offset).norm(), 1e-14);
    EXPECT_LT((b.position(0) - a.position(0)).norm(), 1e-14);

    double maxDifference = 0.0;
    for (int frame = 0; frame < 1800; ++frame) {  // 3 s
        ASSERT_FALSE(boxSim.step().diverged);
        ASSERT_FALSE(hullSim.step().diverged);
        maxDifference =
            std::max({maxDifference, (b.position(0) - a.position(0)).norm(),
                      (b.orientation(0).coeffs() - a.orientation(0).coeffs()).norm(),
                      (b.velocity(0) - a.velocity(0)).norm(), (b.angularVelocity(0) - a.angularVelocity(0)).norm()});
    }
    RecordProperty("max_difference", test::scientific(maxDifference));
    EXPECT_LE(maxDifference, 1e-9);
    // It was a real motion: the body swung and turned.
    EXPECT_GT((a.position(0) - (start)).norm(), 0.1);
}

class TurnedHullEveryStep : public ::testing::TestWithParam<std::string_view> {};

// The same hull with its points turned by Rh in its own frame (and the body turned back by
// Rh^-1): its inertia in the shape frame is no longer diagonal, so the steps that turn a
// body about its principal axes (symplectic Euler and Verlet's splitting, implicit Euler's
// backward turn) must find them. It moves as the box does under every integrator.
TEST_P(TurnedHullEveryStep, MovesLikeTheBox) {
    const Vec3 size(1.0, 2.0, 3.0), offset(0.3, -0.2, 0.5);
    const Vec3 start(0.4, 0.1, -0.3), corner(0.5, 1.0, 1.5);
    const Quat turn(Eigen::AngleAxisd(1.1, Vec3(0.2, 0.9, -0.4).normalized()));
    RigidBodySpec boxSpec = box123(kTilted, Vec3(0.5, -0.3, 0.8));
    boxSpec.position = start;
    RigidBodySpec hullSpec = boxSpec;
    ConvexShape hull;
    for (int i = 0; i < 8; ++i)
        hull.points.push_back(turn *
                              (offset + 0.5 * size.cwiseProduct(Vec3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1))));
    hullSpec.shape = hull;
    hullSpec.orientation = kTilted * turn.conjugate();
    hullSpec.position = start - kTilted * offset;

    const auto build = [&](Simulation& sim, const RigidBodySpec& spec, const Vec3& anchorPoint) {
        World& world = sim.world();
        const Index body = world.addRigidBody(spec);
        const Index nail = world.addParticle(Vec3(0.0, 3.0, 0.0), Vec3::Zero(), 1.0, true);
        world.addSpring({nail, Anchor::onBody(body, anchorPoint), 40.0, 0.5, 1.0});
    };
    Simulation boxSim(test::simulationSettings(GetParam(), 1.0 / 600.0));
    Simulation hullSim(test::simulationSettings(GetParam(), 1.0 / 600.0));
    build(boxSim, boxSpec, corner);
    build(hullSim, hullSpec, turn * (corner + offset));
    const RigidBodies& a = boxSim.world().rigidBodies();
    const RigidBodies& b = hullSim.world().rigidBodies();
    ASSERT_GT(std::abs(b.bodyInertia(0)(0, 1)), 0.1);  // not diagonal
    double maxDifference = 0.0;
    for (int frame = 0; frame < 1200; ++frame) {  // 2 s
        ASSERT_FALSE(boxSim.step().diverged);
        ASSERT_FALSE(hullSim.step().diverged);
        const Quat hullAsBox = b.orientation(0) * turn;
        maxDifference = std::max({maxDifference, (b.position(0) - a.position(0)).norm(),
                                  std::min((hullAsBox.coeffs() - a.orientation(0).coeffs()).norm(),
                                           (hullAsBox.coeffs() + a.orientation(0).coeffs()).norm()),
                                  (b.angularVelocity(0) - a.angularVelocity(0)).norm()});
    }
    RecordProperty("max_difference", test::scientific(maxDifference));
    EXPECT_LE(maxDifference, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Integrators, TurnedHullEveryStep, test::allIntegrators(), test::IntegratorParamName{});

// A particle on a spring from a point of a fixed, tilted body, in gravity: a spring
// pendulum whose energy 1/2 m v^2 + 1/2 k (|x - p| - l)^2 - m g . x is what the world
// reports and what rk4 keeps.
TEST(RigidBody, ParticleOnASpringFromAFixedBodyKeepsItsEnergy) {
    Simulation sim(test::simulationSettings("rk4", 1.0 / 600.0));
    World& world = sim.world();
    RigidBodySpec post = box123(kTilted, Vec3::Zero());
    post.position = Vec3(0.2, 2.0, -0.1);
    post.fixed = true;
    const Index body = world.addRigidBody(post);
    const Vec3 anchorPoint(0.5, -1.0, 1.5);
    const Vec3 p = post.position + kTilted * anchorPoint;
    const double m = 0.7, k = 30.0, rest = 0.8;
    const Vec3 g(0.0, -9.81, 0.0);
    const Index bob = world.addParticle(p + Vec3(0.9, -0.4, 0.3), Vec3(0.0, 0.5, 1.0), m);
    world.addSpring({Anchor::onBody(body, anchorPoint), bob, k, 0.0, rest});
    ASSERT_LT((world.anchorPosition(Anchor::onBody(body, anchorPoint)) - p).norm(), 1e-15);

    const auto energyByFormula = [&] {
        const Vec3 x = world.position(bob), v = world.velocity(bob);
        const double stretch = (x - p).norm() - rest;
        return 0.5 * m * v.squaredNorm() + 0.5 * k * stretch * stretch - m * g.dot(x);
    };
    const double E0 = energyByFormula();
    double maxBookkeeping = 0.0, maxDrift = 0.0;
    for (int frame = 0; frame < 6000; ++frame) {  // 10 s
        ASSERT_FALSE(sim.step().diverged);
        maxBookkeeping = std::max(maxBookkeeping, std::abs(world.totalEnergy() - energyByFormula()));
        maxDrift = std::max(maxDrift, relative(world.totalEnergy(), E0));
    }
    RecordProperty("energy_drift", test::scientific(maxDrift));
    EXPECT_LT(maxBookkeeping, 1e-12 * std::abs(E0) + 1e-12);
    EXPECT_LE(maxDrift, 1e-6);
    EXPECT_EQ(world.rigidBodies().position(0), post.position);  // fixed stays fixed
    EXPECT_TRUE(world.rigidBodies().orientation(0).coeffs() == kTilted.coeffs());
}

// A free body and a particle joined by a spring at a point off the body's centre, no
// gravity: the pull turns the body, and the total linear momentum m v + P, the angular
// momentum about the origin x x m v + X x P + L, and the energy stay what they were.
TEST(RigidBody, BodyAndParticleOnASpringKeepMomentaAndEnergy) {
    Simulation sim(zeroGravity("rk4", 1.0 / 600.0));
    World& world = sim.world();
    RigidBodySpec spec = box123(kTilted, Vec3(0.4, -0.6, 0.2));
    spec.position = Vec3(0.3, -0.2, 0.1);
    spec.velocity = Vec3(0.1, 0.2, -0.3);
    const Index body = world.addRigidBody(spec);
    const double m = 1.5;
    const Index bob = world.addParticle(Vec3(2.5, 1.0, -0.5), Vec3(-0.5, 0.8, 0.6), m);
    const Anchor corner = Anchor::onBody(body, Vec3(0.5, 1.0, -1.5));
    world.addSpring({corner, bob, 50.0, 0.0, 1.0});

    const RigidBodies& bodies = world.rigidBodies();
    const auto momentumByFormula = [&] { return Vec3(m * world.velocity(bob) + bodies.momentum(0)); };
    const auto angularMomentumByFormula = [&] {
        return Vec3(world.position(bob).cross(m * world.velocity(bob)) + bodies.position(0).cross(bodies.momentum(0)) +
                    bodies.angularMomentum(0));
    };
    const Vec3 P0 = momentumByFormula(), L0 = angularMomentumByFormula();
    const double E0 = world.totalEnergy();
    ASSERT_LT((world.linearMomentum() - P0).norm(), 1e-14);
    ASSERT_LT((world.angularMomentum() - L0).norm(), 1e-13);
    const Vec3 L0body = bodies.angularMomentum(0);
    double maxP = 0.0, maxL = 0.0, maxE = 0.0;
    for (int frame = 0; frame < 6000; ++frame) {  // 10 s
        ASSERT_FALSE(sim.step().diverged);
        maxP = std::max(maxP, (world.linearMomentum() - P0).norm() / P0.norm());
        maxL = std::max(maxL, (world.angularMomentum() - L0).norm() / L0.norm());
        maxE = std::max(maxE, relative(world.totalEnergy(), E0));
        ASSERT_LT((world.angularMomentum() - angularMomentumByFormula()).norm(), 1e-12 * L0.norm());
    }
    RecordProperty("momentum_drift", test::scientific(maxP));
    RecordProperty("angular_momentum_drift", test::scientific(maxL));
    RecordProperty("energy_drift", test::scientific(maxE));
    EXPECT_LE(maxP, 1e-12);  // the spring's two ends feel opposite forces
    EXPECT_LE(maxL, 1e-8);
    EXPECT_LE(maxE, 1e-6);
    // The spring did exchange angular momentum between the two.
    EXPECT_GT((bodies.angularMomentum(0) - L0body).norm(), 0.1 * L0body.norm());
}

// A fast, asymmetric spin near the intermediate axis (200 rad/s, 3.3 rad per step at
// dt = 1/60) under implicit Euler: no force acts, so the step only turns the body. The
// kinetic energy 1/2 L . omega must not grow, nor anything become non-finite.
TEST(RigidBody, ImplicitEulerKeepsAFastSpinBounded) {
    Simulation sim(zeroGravity("implicit-euler", 1.0 / 60.0));
    World& world = sim.world();
    world.addRigidBody(box123(kTilted, kTilted * Vec3(2.0, 200.0, 3.0)));
    const double E0 = world.kineticEnergy();
    double maxEnergy = E0;
    for (int frame = 0; frame < 600; ++frame) {  // 10 s
        ASSERT_FALSE(sim.step().diverged) << "frame " << frame;
        VecX state;
        world.getState(state);
        ASSERT_TRUE(state.allFinite()) << "frame " << frame;
        maxEnergy = std::max(maxEnergy, world.kineticEnergy());
    }
    RecordProperty("max_energy_ratio", std::to_string(maxEnergy / E0));
    EXPECT_LE(maxEnergy, E0 * (1.0 + 1e-12));
}

// One backward turn (RigidBodies::driftBackward) ends at the orientation the end's own
// angular velocity turns the start to, q' = exp(h omega(q')) q, keeps L, and does not add
// energy, for turns of a fraction of a radian to many radians per step.
TEST(RigidBody, BackwardTurnUsesTheAngularVelocityAtItsEnd) {
    for (const double h : {0.003, 0.02, 0.2}) {
        World world;
        world.addRigidBody(box123(kTilted, kTilted * Vec3(2.0, 10.0, -3.0)));
        RigidBodies& bodies = world.rigidBodies();
        const Quat q0 = bodies.orientation(0);
        const Vec3 L0 = bodies.angularMomentum(0);
        const double E0 = bodies.kineticEnergy();
        bodies.driftBackward(h);
        const Quat expected = rotateBy(q0, h * bodies.angularVelocity(0));
        SCOPED_TRACE("h |omega| = " + std::to_string(h * bodies.angularVelocity(0).norm()));
        if (h < 0.1) {  // one Newton solve, not halved: the end's omega is the turn's
            EXPECT_LT(std::min((bodies.orientation(0).coeffs() - expected.coeffs()).norm(),
                               (bodies.orientation(0).coeffs() + expected.coeffs()).norm()),
                      1e-12);
        }
        EXPECT_EQ(bodies.angularMomentum(0), L0);
        EXPECT_LE(bodies.kineticEnergy(), E0 * (1.0 + 1e-14));
        EXPECT_LT(bodies.kineticEnergy(), E0) << "a turn of backward Euler loses energy";
    }
}

// Central differences of World::appliedForces over every velocity block: a particle's
// position and velocity; a body's position and velocity, and its rotation and angular
// velocity.
test::DenseJacobians finiteDifferenceForceJacobians(World& world, double eps = 1e-6) {
    const Index n = world.velocityDimension();
    test::DenseJacobians J{Eigen::MatrixXd(n, n), Eigen::MatrixXd(n, n)};
    VecX start, plus, minus;
    world.getState(start);
    RigidBodies& bodies = world.rigidBodies();
    for (Index column = 0; column < n; ++column) {
        const Index block = column / 3;
        const Vec3 e = Vec3::Unit(column % 3);
        const bool particle = block < world.particleCount();
        const Index body = (block - world.particleCount()) / 2;
        const bool angular = !particle && (block - world.particleCount()) % 2 == 1;
        const Anchor moved = particle ? Anchor(block) : Anchor::onBody(body, Vec3::Zero());
        for (const double sign : {1.0, -1.0}) {
            world.setState(start, world.time());
            test::nudge(world, moved, angular ? 1 : 0, e, sign * eps);
            world.appliedForces(sign > 0 ? plus : minus);
        }
        J.dFdx.col(column) = (plus - minus) / (2.0 * eps);
        for (const double sign : {1.0, -1.0}) {
            world.setState(start, world.time());
            if (particle) world.setVelocity(block, world.velocity(block) + sign * eps * e);
            else if (!angular)
                bodies.setVelocity(body, bodies.velocity(body) + sign * eps * e, bodies.angularVelocity(body));
            else bodies.setVelocity(body, bodies.velocity(body), bodies.angularVelocity(body) + sign * eps * e);
            world.appliedForces(sign > 0 ? plus : minus);
        }
        J.dFdv.col(column) = (plus - minus) / (2.0 * eps);
    }
    world.setState(start, world.time());
    return J;
}

// A body and a particle on a spring from a body corner. Where the spring is at its rest
// length and nothing turns, the force's position Jacobian over the velocity blocks (a body's
// translation and rotation, the particle's translation) is G^T K G exactly; its velocity
// Jacobian is that at any state. Both against central differences of the applied forces.
TEST(RigidBody, SpringJacobiansAtABodyPointMatchFiniteDifferences) {
    for (const bool atRest : {true, false}) {
        World world;
        RigidBodySpec spec = box123(kTilted, atRest ? Vec3::Zero() : Vec3(0.4, -0.7, 1.1));
        spec.position = Vec3(0.3, -0.2, 0.1);
        spec.velocity = atRest ? Vec3::Zero() : Vec3(0.2, 0.5, -0.3);
        world.addRigidBody(spec);
        const Anchor corner = Anchor::onBody(0, Vec3(0.5, -1.0, 1.5));
        const Vec3 p = world.anchorPosition(corner) + Vec3(0.6, 0.8, -0.4);
        world.addParticle(p, atRest ? Vec3::Zero() : Vec3(-0.3, 0.2, 0.6), 1.5);
        const double rest = atRest ? (p - world.anchorPosition(corner)).norm() : 0.7;
        world.addSpring({corner, Anchor(0), 30.0, 2.0, rest});
        const test::DenseJacobians analytic = test::analyticJacobians(world, JacobianForm::Definite);
        const test::DenseJacobians numeric = finiteDifferenceForceJacobians(world);
        SCOPED_TRACE(atRest ? "at rest" : "moving");
        EXPECT_LT(test::relativeMaxDifference(analytic.dFdv, numeric.dFdv), 1e-7) << analytic.dFdv << "\n\n"
                                                                                  << numeric.dFdv;
        if (atRest) {
            EXPECT_LT(test::relativeMaxDifference(analytic.dFdx, numeric.dFdx), 1e-7) << analytic.dFdx << "\n\n"
                                                                                      << numeric.dFdx;
        }
    }
}

// The mouse spring on a grabbed body corner, its target where the corner is and moving
// with it (no force, so the lever's own turning adds nothing): its Jacobians over the
// body's translation and rotation against central differences.
TEST(RigidBody, MouseSpringJacobiansOnABodyMatchFiniteDifferences) {
    World world;
    RigidBodySpec spec = box123(kTilted, Vec3::Zero());
    spec.position = Vec3(0.3, -0.2, 0.1);
    world.addRigidBody(spec);
    const Anchor corner = Anchor::onBody(0, Vec3(0.5, -1.0, 1.5));
    auto& mouse = static_cast<MouseSpring&>(world.addForce(std::make_unique<MouseSpring>(corner, 40.0, 3.0, 1e3)));
    mouse.setTarget(world.anchorPosition(corner));
    const test::DenseJacobians analytic = test::analyticJacobians(world, JacobianForm::Definite);
    const test::DenseJacobians numeric = finiteDifferenceForceJacobians(world);
    EXPECT_LT(test::relativeMaxDifference(analytic.dFdx, numeric.dFdx), 1e-7) << analytic.dFdx << "\n\n"
                                                                              << numeric.dFdx;
    EXPECT_LT(test::relativeMaxDifference(analytic.dFdv, numeric.dFdv), 1e-7) << analytic.dFdv << "\n\n"
                                                                              << numeric.dFdv;
    const test::DenseJacobians exact = test::analyticJacobians(world, JacobianForm::Exact);
    EXPECT_LT(test::relativeMaxDifference(exact.dFdx, numeric.dFdx), 1e-7);
}

// Implicit Euler holds a body on stiff springs at dt = 1/60: one from a nail to a corner,
// one from another corner to a particle. It must neither diverge nor gain energy. (While
// the springs' Jacobians left out the bodies' rotation, the turn was explicit, and the
// k = 1e4 model blew up in its first frame.)
TEST(RigidBody, ImplicitEulerHoldsABodyOnStiffSprings) {
    for (const double k : {1e4, 1e6}) {
        Simulation sim(test::simulationSettings("implicit-euler", 1.0 / 60.0));
        World& world = sim.world();
        RigidBodySpec spec = box123(kTilted, Vec3(0.5, 3.0, -0.3));
        spec.shape = BoxShape{Vec3(0.3, 1.0, 0.2)};
        spec.mass = 2.0;
        spec.position = Vec3(0.5, -0.8, 0.2);
        world.addRigidBody(spec);
        const Index nail = world.addParticle(Vec3::Zero(), Vec3::Zero(), 1.0, true);
        world.addSpring({nail, Anchor::onBody(0, Vec3(0.15, 0.5, 0.1)), k, 0.0, 0.3});
        const Index bob = world.addParticle(Vec3(1.0, -1.5, 0.0), Vec3(0.0, 0.0, 1.0), 0.5);
        world.addSpring({Anchor::onBody(0, Vec3(-0.15, -0.5, -0.1)), bob, k, 0.0, 0.4});
        const double E0 = sim.totalEnergy();
        double maxEnergy = E0;
        for (int frame = 0; frame < 600; ++frame) {
            const FrameReport report = sim.step();
            ASSERT_FALSE(report.diverged) << "k = " << k << ": " << report.message;
            maxEnergy = std::max(maxEnergy, sim.totalEnergy());
        }
        EXPECT_LE(maxEnergy, E0 + 1e-9 * std::abs(E0)) << "k = " << k;
        EXPECT_LT(sim.totalEnergy(), E0) << "implicit Euler damps";
    }
}

// In a planar simulation a body tilted in its velocity and spin (and pulled by a gravity
// with a z part) stays in z = 0 and turns about z only.
TEST(RigidBody, PlanarBodyStaysInThePlaneAndTurnsAboutZ) {
    SimulationSettings settings = test::simulationSettings("rk4", 1.0 / 60.0);
    settings.planar = true;
    settings.gravity = Vec3(0.5, -9.81, 2.0);
    Simulation sim(settings);
    World& world = sim.world();
    RigidBodySpec spec = box123(Quat(Eigen::AngleAxisd(0.4, Vec3::UnitZ())), Vec3(0.3, -0.5, 2.0));
    spec.position = Vec3(0.5, 1.0, 0.7);
    spec.velocity = Vec3(1.0, 2.0, 3.0);
    const Index body = world.addRigidBody(spec);
    const Index nail = world.addParticle(Vec3(0.0, 3.0, 0.0), Vec3::Zero(), 1.0, true);
    world.addSpring({nail, Anchor::onBody(body, Vec3(0.5, 1.0, 1.5)), 30.0, 0.2, 1.5});
    const RigidBodies& bodies = world.rigidBodies();
    EXPECT_EQ(bodies.position(0).z(), 0.0);
    double turned = 0.0;
    for (int frame = 0; frame < 300; ++frame) {  // 5 s
        ASSERT_FALSE(sim.step().diverged);
        const Quat& q = bodies.orientation(0);
        ASSERT_EQ(bodies.position(0).z(), 0.0) << "frame " << frame;
        ASSERT_EQ(bodies.velocity(0).z(), 0.0) << "frame " << frame;
        // A rotation about z: q = (cos a/2, 0, 0, sin a/2).
        ASSERT_LT(std::hypot(q.x(), q.y()), 1e-15) << "frame " << frame;
        ASSERT_LT(bodies.angularVelocity(0).head<2>().norm(), 1e-15) << "frame " << frame;
        turned = std::max(turned, std::abs(2.0 * std::atan2(q.z(), q.w()) - 0.4));
    }
    EXPECT_GT(turned, 0.1);  // it did turn (about z)
}

}  // namespace
}  // namespace tinkerbox
