// Particles colliding with each other: the spatial hash finds what a search of every pair
// finds; pairs an element or a constraint joins, and two nailed particles, never collide;
// a pile on one spot stays bounded; and the contact model's response: an inelastic head-on
// collision conserves momentum, a pair found deep in each other ends its step apart, and a
// particle rests on a bed of particles it would fall through without the thickness.
#include "core/collision/ParticleCollisions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/collision/ContactDetector.h"
#include "core/constraints/RodConstraint.h"
#include "core/contact/ContactSolver.h"
#include "core/pipeline/Simulation.h"
#include "core/dynamics/World.h"
#include "core/forces/Cloth.h"

namespace tinkerbox {
namespace {

constexpr double kSelfCollisionMargin = 0.005;

std::vector<ContactManifold> detectSelfCollisions(const World& world, double thickness) {
    ContactDetector detector;
    std::vector<ContactManifold> out;
    detector.detect(world, kSelfCollisionMargin, out, thickness);
    return out;
}

std::set<std::pair<Index, Index>> pairsOf(const std::vector<ContactManifold>& manifolds) {
    std::set<std::pair<Index, Index>> pairs;
    for (const ContactManifold& m : manifolds) {
        EXPECT_EQ(m.a.kind, ColliderKind::Particle);
        EXPECT_EQ(m.b.kind, ColliderKind::Particle);
        EXPECT_LT(m.a.index, m.b.index);
        pairs.emplace(m.a.index, m.b.index);
    }
    return pairs;
}

TEST(ParticleCollisions, FindsThePairsEveryPairSearchFinds) {
    World world;
    std::mt19937 random(11);
    std::uniform_real_distribution<double> coordinate(-0.5, 0.5);
    constexpr Index kCount = 1500;
    for (Index i = 0; i < kCount; ++i)
        world.addParticle(Vec3(coordinate(random), coordinate(random), coordinate(random)), Vec3::Zero(), 1.0,
                          i % 7 == 0);
    // Springs between some close pairs, so that leaving out joined pairs is tested too.
    constexpr double kThickness = 0.06;
    std::set<std::pair<Index, Index>> springs;
    for (Index a = 0; a < kCount; ++a)
        for (Index b = a + 1; b < kCount; ++b)
            if ((a + b) % 3 == 0 && (world.position(a) - world.position(b)).norm() < kThickness) {
                world.addSpring({a, b, 1.0, 0.0, 0.05});
                springs.emplace(a, b);
            }
    ASSERT_GT(springs.size(), 20u);

    const std::vector<ContactManifold> found = detectSelfCollisions(world, kThickness);
    std::set<std::pair<Index, Index>> expected;
    for (Index a = 0; a < kCount; ++a)
        for (Index b = a + 1; b < kCount; ++b) {
            const double distance = (world.position(a) - world.position(b)).norm();
            if (distance - kThickness < kSelfCollisionMargin && !springs.contains({a, b}) &&
                !(world.isNailed(a) && world.isNailed(b)))
                expected.emplace(a, b);
        }
    ASSERT_GT(expected.size(), 100u);
    EXPECT_EQ(pairsOf(found), expected);
    EXPECT_TRUE(std::is_sorted(found.begin(), found.end(), [](const ContactManifold& p, const ContactManifold& q) {
        return std::pair(p.a, p.b) < std::pair(q.a, q.b);
    }));
    for (const ContactManifold& m : found) {
        const Vec3 xa = world.position(m.a.index), xb = world.position(m.b.index);
        ASSERT_EQ(m.count, 1);
        EXPECT_NEAR(m.points[0].separation, (xb - xa).norm() - kThickness, 1e-12);
        EXPECT_LT((m.normal - (xb - xa).normalized()).norm(), 1e-12);
        // Midway between the two spheres' surfaces.
        EXPECT_LT((m.points[0].position - 0.5 * (xa + xb)).norm(), 1e-12);
    }
}

TEST(ParticleCollisions, ParticlesATriangleAHingeOrARodJoinsNeverCollide) {
    // A triangle cloth of spacing 0.1 with a thickness of 0.12: every particle is closer
    // than the thickness to those its triangles join, and to no other.
    World world;
    constexpr int kSide = 6;
    constexpr double kSpacing = 0.1, kThickness = 0.12;
    for (int j = 0; j < kSide; ++j)
        for (int i = 0; i < kSide; ++i) world.addParticle(Vec3(kSpacing * i, 0.0, kSpacing * j), Vec3::Zero(), 1.0);
    const std::vector<ClothTriangle> triangles =
        gridTriangles(0, kSide, kSide, kSpacing * (kSide - 1), kSpacing * (kSide - 1));
    ClothMaterial material;
    world.addForce(makeStretchShear(triangles, material));
    EXPECT_TRUE(detectSelfCollisions(world, kThickness).empty());

    // Folded in half across x = 0.25, its layers 0.05 apart: each particle of the folded half
    // meets the one below it.
    for (int j = 0; j < kSide; ++j)
        for (int i = 3; i < kSide; ++i) world.setPosition(j * kSide + i, Vec3(kSpacing * (5 - i), 0.05, kSpacing * j));
    ContactDetector detector;
    std::vector<ContactManifold> folded;
    detector.detect(world, kSelfCollisionMargin, folded, kThickness);
    const std::set<std::pair<Index, Index>> pairs = pairsOf(folded);
    // (Columns 2 and 3, side by side at the fold, share triangles.)
    for (int j = 0; j < kSide; ++j)
        for (int i = 0; i < 2; ++i)
            EXPECT_TRUE(pairs.contains({j * kSide + i, j * kSide + 5 - i})) << "row " << j << ", column " << i;

    // Bending, which joins the corners across each edge (column 1 to column 3 across the
    // fold), then a rod between one pair: the same detector leaves out what each joins from
    // the next call on.
    world.addForce(makeBending(triangles, material));
    std::vector<std::pair<Index, Index>> couplings;
    world.couplings(couplings);
    std::set<std::pair<Index, Index>> joined;
    for (auto [p, q] : couplings) joined.emplace(std::min(p, q), std::max(p, q));
    std::set<std::pair<Index, Index>> expected = pairs;
    std::erase_if(expected, [&](const std::pair<Index, Index>& p) { return joined.contains(p); });
    ASSERT_LT(expected.size(), pairs.size());
    detector.detect(world, kSelfCollisionMargin, folded, kThickness);
    EXPECT_EQ(pairsOf(folded), expected);

    const Index a = 0, b = 5;
    ASSERT_TRUE(expected.contains({a, b}));
    world.addConstraint(std::make_unique<RodConstraint>(RodSpec{a, b, 0.05}));
    expected.erase({a, b});
    detector.detect(world, kSelfCollisionMargin, folded, kThickness);
    EXPECT_EQ(pairsOf(folded), expected);
}

// A rod added while self collision is off (the detector still runs, for planes and bodies)
// joins its particles once self collision is back on.
TEST(ParticleCollisions, ARodAddedWhileSelfCollisionIsOffStillJoins) {
    World world;
    world.addParticle(Vec3::Zero(), Vec3::Zero(), 1.0);
    world.addParticle(Vec3(0.01, 0.0, 0.0), Vec3::Zero(), 1.0);
    ContactDetector detector;
    std::vector<ContactManifold> out;
    detector.detect(world, kSelfCollisionMargin, out, 0.02);
    EXPECT_EQ(out.size(), 1u);
    world.addConstraint(std::make_unique<RodConstraint>(RodSpec{0, 1, 0.01}));
    detector.detect(world, kSelfCollisionMargin, out, 0.0);
    EXPECT_TRUE(out.empty());
    detector.detect(world, kSelfCollisionMargin, out, 0.02);
    EXPECT_TRUE(out.empty()) << "the rod's particles collide";
}

TEST(ParticleCollisions, TwoNailedParticlesDoNotCollideAndOneFreeDoes) {
    World world;
    world.addParticle(Vec3::Zero(), Vec3::Zero(), 1.0, true);
    world.addParticle(Vec3(0.01, 0.0, 0.0), Vec3::Zero(), 1.0, true);
    EXPECT_TRUE(detectSelfCollisions(world, 0.02).empty());
    world.setNailed(1, false);
    EXPECT_EQ(detectSelfCollisions(world, 0.02).size(), 1u);
    EXPECT_TRUE(detectSelfCollisions(world, 0.0).empty());  // no thickness: no self collision at all
}

TEST(ParticleCollisions, APileOnOneSpotMakesAtMostSixteenContactsAParticle) {
    World world;
    constexpr Index kCount = 200;
    for (Index i = 0; i < kCount; ++i) world.addParticle(Vec3(0.3, 0.2, 0.1), Vec3::Zero(), 1.0);
    // A particle gone to infinity or NaN is left out rather than hashed.
    world.setPosition(7, Vec3(std::numeric_limits<double>::quiet_NaN(), 0.0, 0.0));
    world.setPosition(8, Vec3::Constant(std::numeric_limits<double>::infinity()));
    const std::vector<ContactManifold> found = detectSelfCollisions(world, 0.01);
    std::size_t expected = 0;
    for (Index a = 0; a < kCount; ++a) {
        const Index partners = a == 7 || a == 8 ? 0 : kCount - 1 - a - (a < 7) - (a < 8);
        expected += std::min<std::size_t>(ParticleCollisions::kMaxPartners, static_cast<std::size_t>(partners));
    }
    EXPECT_EQ(found.size(), expected);
    for (const ContactManifold& m : found) {
        EXPECT_NE(m.a.index, 7);
        EXPECT_NE(m.b.index, 8);
        EXPECT_DOUBLE_EQ(m.points[0].separation, -0.01);
        EXPECT_EQ(m.normal, Vec3::UnitY());  // concentric: up
    }
}

SimulationSettings selfColliding(double thickness, const Vec3& gravity, const std::string& contactModel = "baraff") {
    SimulationSettings settings;
    settings.contactModel = contactModel;
    settings.integrator = "symplectic-euler";
    settings.gravity = gravity;
    settings.substeps = 4;
    settings.contact.selfCollisionThickness = thickness;
    return settings;
}

TEST(ParticleCollisions, HeadOnParticlesCollideInelasticallyAndKeepTheirMomentum) {
    // Particles of 1 and 3 kg meet at 2 and -1 m/s. A contact without restitution leaves
    // them both the centre of mass's velocity, (1 * 2 + 3 * -1) / 4 = -0.25 m/s, a thickness
    // apart.
    const auto build = [](Simulation& simulation) {
        simulation.world().addParticle(Vec3(-0.3, 0.0, 0.0), Vec3(2.0, 0.0, 0.0), 1.0);
        simulation.world().addParticle(Vec3(0.3, 0.0, 0.0), Vec3(-1.0, 0.0, 0.0), 3.0);
    };
    for (const ContactModelKind* kind : contactModelKinds()) {
        const std::string model(kind->name);
        SCOPED_TRACE(model);
        Simulation simulation(selfColliding(0.1, Vec3::Zero(), model));
        build(simulation);
        const World& world = simulation.world();
        const Vec3 momentum = world.linearMomentum();
        for (int frame = 0; frame < 30; ++frame) simulation.step();
        EXPECT_LT((world.linearMomentum() - momentum).norm(), 1e-12);
        EXPECT_LT((world.velocity(0) - Vec3(-0.25, 0.0, 0.0)).norm(), 1e-9);
        EXPECT_LT((world.velocity(1) - Vec3(-0.25, 0.0, 0.0)).norm(), 1e-9);
        // baraff holds them at the slop; oba stops them where it finds them, up to a step's
        // closing (3 m/s times h = 1/240 s) short of touching.
        const double gap = (world.position(1) - world.position(0)).norm() - 0.1;
        EXPECT_GE(gap, -2.0 * ContactSolver::kSlop);
        EXPECT_LE(gap, model == "baraff" ? 2.0 * ContactSolver::kSlop : 3.0 / 240.0 + 1e-12);
    }

    // Without the thickness, they pass through each other untouched.
    Simulation passing(selfColliding(0.0, Vec3::Zero()));
    build(passing);
    for (int frame = 0; frame < 30; ++frame) passing.step();
    EXPECT_EQ(passing.world().velocity(0), Vec3(2.0, 0.0, 0.0));
    EXPECT_GT(passing.world().position(0).x(), passing.world().position(1).x());
}

// Found 2 cm deep in each other and closing at 1 m/s: the collision stops them, but its
// bounce moves them apart by no more than the step's length times their change of velocity
// (1/60 s * 1 m/s). The position pass pushes them the rest of the way in the same step.
TEST(ParticleCollisions, APairFoundDeeperThanAStepsApproachEndsTheStepApart) {
    SimulationSettings settings = selfColliding(0.1, Vec3::Zero());
    settings.substeps = 1;
    Simulation simulation(settings);
    World& world = simulation.world();
    world.addParticle(Vec3(-0.04, 0.0, 0.0), Vec3(0.5, 0.0, 0.0), 1.0);
    world.addParticle(Vec3(0.04, 0.0, 0.0), Vec3(-0.5, 0.0, 0.0), 1.0);
    simulation.step();
    EXPECT_LT(world.velocity(0).norm(), 1e-9);  // inelastic: both at rest
    EXPECT_GE((world.position(1) - world.position(0)).norm(), 0.1 - 2.0 * ContactSolver::kSlop);
}

TEST(ParticleCollisions, ParticleRestsOnABedOfNailedParticlesItWouldFallThrough) {
    // A bed of nailed particles 0.05 apart, narrower than the thickness 0.06: a particle
    // dropped onto one of them comes to rest on top of it, a thickness above it.
    constexpr double kSpacing = 0.05, kThickness = 0.06;
    const auto build = [&](Simulation& simulation) {
        World& world = simulation.world();
        for (int j = 0; j < 6; ++j)
            for (int i = 0; i < 6; ++i)
                world.addParticle(Vec3(kSpacing * i, 0.0, kSpacing * j), Vec3::Zero(), 1.0, true);
        return world.addParticle(Vec3(0.1, 0.3, 0.1), Vec3::Zero(), 0.01);
    };
    Simulation simulation(selfColliding(kThickness, Vec3(0.0, -9.81, 0.0)));
    const Index dropped = build(simulation);
    for (int frame = 0; frame < 120; ++frame) simulation.step();
    EXPECT_NEAR(simulation.world().position(dropped).y(), kThickness, 2.0 * ContactSolver::kSlop);
    EXPECT_LT(simulation.world().velocity(dropped).norm(), 1e-3);

    Simulation falling(selfColliding(0.0, Vec3(0.0, -9.81, 0.0)));
    const Index through = build(falling);
    for (int frame = 0; frame < 120; ++frame) falling.step();
    EXPECT_LT(falling.world().position(through).y(), -1.0);
}

}  // namespace
}  // namespace tinkerbox
