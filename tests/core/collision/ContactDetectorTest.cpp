// Contact detection over a world against the closed forms of simple placements: a box, a
// hull and a sphere on a plane, a particle in a box, a stack of boxes; what is skipped
// (jointed bodies, fixed pairs); the order of the output, and bodies added and changed.
#include "core/collision/ContactDetector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <random>
#include <vector>

#include "core/collision/NarrowPhase.h"
#include "core/constraints/PinConstraint.h"
#include "core/dynamics/World.h"

namespace tinkerbox {
namespace {

constexpr double kMargin = 0.02;

Plane ground() { return Plane{}; }  // y = 0, normal +y

RigidBodySpec boxAt(const Vec3& position, const Vec3& size = Vec3::Ones(), const Quat& q = Quat::Identity()) {
    RigidBodySpec spec;
    spec.shape = BoxShape{size};
    spec.position = position;
    spec.orientation = q;
    return spec;
}

RigidBodySpec sphereAt(const Vec3& position, double radius) {
    RigidBodySpec spec;
    spec.shape = SphereShape{radius};
    spec.position = position;
    return spec;
}

std::vector<ContactManifold> detect(const World& world, double margin = kMargin) {
    ContactDetector detector;
    std::vector<ContactManifold> out;
    detector.detect(world, margin, out);
    return out;
}

// The corners of a box of size s at a pose.
std::vector<Vec3> corners(const Vec3& size, const Vec3& position, const Quat& q) {
    std::vector<Vec3> out;
    for (int i = 0; i < 8; ++i) {
        const Vec3 local(i & 1 ? 0.5 : -0.5, i & 2 ? 0.5 : -0.5, i & 4 ? 0.5 : -0.5);
        out.push_back(position + q * local.cwiseProduct(size));
    }
    return out;
}

bool samePoint(const Vec3& a, const Vec3& b, double tolerance = 1e-12) { return (a - b).norm() <= tolerance; }

// Whether every point of `expected` is a point of the manifold.
bool hasPoints(const ContactManifold& m, const std::vector<Vec3>& expected, double tolerance = 1e-12) {
    if (m.count != static_cast<int>(expected.size())) return false;
    return std::all_of(expected.begin(), expected.end(), [&](const Vec3& x) {
        return std::any_of(m.points.begin(), m.points.begin() + m.count,
                           [&](const ContactPoint& p) { return samePoint(p.position, x, tolerance); });
    });
}

void expectSameManifolds(const std::vector<ContactManifold>& x, const std::vector<ContactManifold>& y) {
    ASSERT_EQ(x.size(), y.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        EXPECT_EQ(x[i].a, y[i].a);
        EXPECT_EQ(x[i].b, y[i].b);
        EXPECT_EQ(x[i].normal, y[i].normal);
        ASSERT_EQ(x[i].count, y[i].count);
        for (int k = 0; k < x[i].count; ++k) {
            EXPECT_EQ(x[i].points[k].position, y[i].points[k].position);
            EXPECT_EQ(x[i].points[k].separation, y[i].points[k].separation);
            EXPECT_EQ(x[i].points[k].feature, y[i].points[k].feature);
        }
    }
}

TEST(ContactDetector, BoxRestingOnThePlaneTouchesAtItsFourLowerCorners) {
    World world;
    world.addPlane(ground());
    const Vec3 size(2.0, 1.0, 3.0), position(0.3, 0.5, -0.2);
    world.addRigidBody(boxAt(position, size));
    const std::vector<ContactManifold> contacts = detect(world);
    ASSERT_EQ(contacts.size(), 1u);
    const ContactManifold& m = contacts[0];
    EXPECT_EQ(m.a, (ColliderRef{ColliderKind::Rigid, 0}));
    EXPECT_EQ(m.b, (ColliderRef{ColliderKind::Plane, 0}));
    EXPECT_EQ(m.normal, Vec3(0.0, -1.0, 0.0));  // from the body to the plane
    std::vector<Vec3> lower;
    for (const Vec3& x : corners(size, position, Quat::Identity()))
        if (x.y() == 0.0) lower.push_back(x);
    ASSERT_EQ(lower.size(), 4u);
    EXPECT_TRUE(hasPoints(m, lower));
    // Each point is its vertex of the box's polyhedron: the feature names the vertex.
    const Polyhedron box = boxPolyhedron(size);
    for (int k = 0; k < m.count; ++k) {
        EXPECT_EQ(m.points[k].separation, 0.0);
        ASSERT_LT(m.points[k].feature, box.vertices.size());
        EXPECT_TRUE(samePoint(box.vertices[m.points[k].feature] + position, m.points[k].position));
    }
    // Lifted beyond the margin: nothing.
    world.rigidBodies().setPosition(0, position + Vec3(0.0, kMargin, 0.0));
    EXPECT_TRUE(detect(world).empty());
    // Below the margin: the same four, that far apart, halfway between body and plane.
    world.rigidBodies().setPosition(0, position + Vec3(0.0, 0.75 * kMargin, 0.0));
    const std::vector<ContactManifold> near = detect(world);
    ASSERT_EQ(near.size(), 1u);
    ASSERT_EQ(near[0].count, 4);
    for (int k = 0; k < 4; ++k) {
        EXPECT_NEAR(near[0].points[k].separation, 0.75 * kMargin, 1e-15);
        EXPECT_NEAR(near[0].points[k].position.y(), 0.375 * kMargin, 1e-15);
    }
}

TEST(ContactDetector, TiltedBoxTouchesAtItsLowestEdgeOrCorner) {
    World world;
    world.addPlane(ground());
    // Turned 30 degrees about z: the lowest edge (two corners) is 0.01 into the plane.
    const double angle = std::numbers::pi / 6.0, depth = 0.01;
    const Quat q(Eigen::AngleAxisd(angle, Vec3::UnitZ()));
    const double lowest = 0.5 * (std::cos(angle) + std::sin(angle));
    const Vec3 position(1.0, lowest - depth, 0.0);
    world.addRigidBody(boxAt(position, Vec3::Ones(), q));
    std::vector<ContactManifold> contacts = detect(world);
    ASSERT_EQ(contacts.size(), 1u);
    std::vector<Vec3> expected;
    for (const Vec3& x : corners(Vec3::Ones(), position, q))
        if (x.y() < 0.0) expected.push_back(x + Vec3(0.0, 0.5 * depth, 0.0));  // halfway up to the plane
    ASSERT_EQ(expected.size(), 2u);
    EXPECT_TRUE(hasPoints(contacts[0], expected, 1e-12));
    for (int k = 0; k < contacts[0].count; ++k) EXPECT_NEAR(contacts[0].points[k].separation, -depth, 1e-12);

    // Turned about a skew axis: one lowest corner, at the height the corners' formula gives.
    const Quat skew(Eigen::AngleAxisd(0.4, Vec3(1.0, 0.3, 0.7).normalized()));
    const std::vector<Vec3> turned = corners(Vec3::Ones(), Vec3::Zero(), skew);
    const Vec3 low =
        *std::min_element(turned.begin(), turned.end(), [](const Vec3& a, const Vec3& b) { return a.y() < b.y(); });
    world.rigidBodies().setOrientation(0, skew);
    world.rigidBodies().setPosition(0, Vec3(0.0, -low.y() + 0.005, 0.0));
    contacts = detect(world);
    ASSERT_EQ(contacts.size(), 1u);
    ASSERT_EQ(contacts[0].count, 1);
    EXPECT_NEAR(contacts[0].points[0].separation, 0.005, 1e-12);
    EXPECT_TRUE(samePoint(contacts[0].points[0].position, Vec3(low.x(), 0.0025, low.z())));
}

TEST(ContactDetector, HullOnThePlaneKeepsTheFourPointsSpanningMostArea) {
    // A regular octagonal prism lying on its octagon: eight vertices touch, four are kept,
    // and the largest quadrilateral among its vertices is the square of alternate ones,
    // area 2 r^2.
    ConvexShape prism;
    const double r = 1.0;
    for (int i = 0; i < 8; ++i) {
        const double a = 2.0 * std::numbers::pi * i / 8.0 + 0.1;
        prism.points.emplace_back(r * std::cos(a), 0.0, r * std::sin(a));
        prism.points.emplace_back(r * std::cos(a), 0.5, r * std::sin(a));
    }
    World world;
    world.addPlane(ground());
    RigidBodySpec spec;
    spec.shape = prism;
    spec.position = Vec3(2.0, 0.0, 1.0);  // the hull's frame origin on its lower face
    world.addRigidBody(spec);
    const std::vector<ContactManifold> contacts = detect(world);
    ASSERT_EQ(contacts.size(), 1u);
    const ContactManifold& m = contacts[0];
    ASSERT_EQ(m.count, 4);
    Vec3 centroid = Vec3::Zero();
    for (int k = 0; k < 4; ++k) {
        EXPECT_NEAR(m.points[k].separation, 0.0, 1e-15);
        centroid += m.points[k].position / 4.0;
    }
    std::array<Vec3, 4> quad;
    for (int k = 0; k < 4; ++k) quad[k] = m.points[k].position - centroid;
    std::sort(quad.begin(), quad.end(),
              [](const Vec3& a, const Vec3& b) { return std::atan2(a.z(), a.x()) < std::atan2(b.z(), b.x()); });
    double area = 0.0;
    for (int k = 0; k < 4; ++k) {
        const Vec3& next = quad[(k + 1) % 4];
        area += 0.5 * (quad[k].z() * next.x() - quad[k].x() * next.z());
    }
    EXPECT_NEAR(std::abs(area), 2.0 * r * r, 1e-12);
}

TEST(ContactDetector, SphereWithinTheMarginOfAPlane) {
    World world;
    world.addPlane(ground());
    // A second plane tilted by 0.3 rad about z through (8, 2, 0), beyond the margin of the
    // sphere's first place.
    Plane wall;
    wall.point = Vec3(8.0, 2.0, 0.0);
    wall.normal = Vec3(-std::sin(0.3), std::cos(0.3), 0.0);
    world.addPlane(wall);
    const double radius = 0.5, gap = 0.013;
    world.addRigidBody(sphereAt(Vec3(0.2, radius + gap, -0.4), radius));
    const std::vector<ContactManifold> contacts = detect(world);
    ASSERT_EQ(contacts.size(), 1u);
    const ContactManifold& m = contacts[0];
    EXPECT_EQ(m.b, (ColliderRef{ColliderKind::Plane, 0}));
    EXPECT_EQ(m.normal, Vec3(0.0, -1.0, 0.0));
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.points[0].separation, gap, 1e-15);
    EXPECT_TRUE(samePoint(m.points[0].position, Vec3(0.2, 0.5 * gap, -0.4)));
    EXPECT_EQ(m.points[0].feature, 0u);

    // Against the tilted plane: separation n . (c - p) - r.
    const Vec3 center = wall.point + (radius - 0.01) * wall.normal + Vec3(0.0, 0.0, 3.0);
    world.rigidBodies().setPosition(0, center);
    const std::vector<ContactManifold> tilted = detect(world);
    ASSERT_EQ(tilted.size(), 1u);
    EXPECT_EQ(tilted[0].b, (ColliderRef{ColliderKind::Plane, 1}));
    EXPECT_TRUE(tilted[0].normal.isApprox(-wall.normal, 1e-15));
    EXPECT_NEAR(tilted[0].points[0].separation, -0.01, 1e-12);
    EXPECT_TRUE(samePoint(tilted[0].points[0].position, center - (radius - 0.005) * wall.normal));
}

TEST(ContactDetector, FixedBodiesMeetNeitherPlanesNorFixedBodies) {
    World world;
    world.addPlane(ground());
    RigidBodySpec a = boxAt(Vec3(0.0, 0.4, 0.0)), b = boxAt(Vec3(0.5, 0.4, 0.0));
    a.fixed = b.fixed = true;
    world.addRigidBody(a);
    world.addRigidBody(b);
    EXPECT_TRUE(detect(world).empty());
    // A free box resting 0.1 into both meets each of them.
    world.addRigidBody(boxAt(Vec3(0.25, 1.3, 0.0)));
    const std::vector<ContactManifold> contacts = detect(world);
    ASSERT_EQ(contacts.size(), 2u);
    EXPECT_EQ(contacts[0].a, (ColliderRef{ColliderKind::Rigid, 0}));
    EXPECT_EQ(contacts[0].b, (ColliderRef{ColliderKind::Rigid, 2}));
    EXPECT_EQ(contacts[1].a, (ColliderRef{ColliderKind::Rigid, 1}));
    EXPECT_EQ(contacts[1].b, (ColliderRef{ColliderKind::Rigid, 2}));
}

TEST(ContactDetector, ParticleInsideABoxIsPushedOutThroughTheNearestFace) {
    World world;
    world.addRigidBody(boxAt(Vec3(1.0, 2.0, 3.0)));
    world.addParticle(Vec3(1.1, 2.45, 3.0), Vec3::Zero(), 1.0);                       // 0.05 below the top face
    world.addParticle(Vec3(1.0, 2.0 + 0.5 + 2.0 * kMargin, 3.0), Vec3::Zero(), 1.0);  // beyond the margin
    const std::vector<ContactManifold> contacts = detect(world);
    ASSERT_EQ(contacts.size(), 1u);
    const ContactManifold& m = contacts[0];
    EXPECT_EQ(m.a, (ColliderRef{ColliderKind::Particle, 0}));
    EXPECT_EQ(m.b, (ColliderRef{ColliderKind::Rigid, 0}));
    EXPECT_TRUE(m.normal.isApprox(Vec3(0.0, -1.0, 0.0), 1e-12));  // from the particle into the box
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.points[0].separation, -0.05, 1e-12);
    EXPECT_TRUE(samePoint(m.points[0].position, Vec3(1.1, 2.475, 3.0), 1e-12));
}

TEST(ContactDetector, ParticlesSkipFixedBodiesWhenNailedAndBodiesTheyArePinnedTo) {
    World world;
    RigidBodySpec fixed = boxAt(Vec3::Zero());
    fixed.fixed = true;
    world.addRigidBody(fixed);
    world.addRigidBody(boxAt(Vec3(3.0, 0.0, 0.0)));
    world.addRigidBody(sphereAt(Vec3(6.0, 0.0, 0.0), 0.5));
    world.addParticle(Vec3(0.0, 0.4, 0.0), Vec3::Zero(), 1.0, true);  // nailed in the fixed box
    world.addParticle(Vec3(0.0, -0.4, 0.0), Vec3::Zero(), 1.0);       // free in it
    world.addParticle(Vec3(3.0, 0.4, 0.0), Vec3::Zero(), 1.0, true);  // nailed in the free box
    world.addParticle(Vec3(6.0, 0.3, 0.0), Vec3::Zero(), 1.0);        // in the sphere, 0.2 deep
    std::vector<ContactManifold> contacts = detect(world);
    ASSERT_EQ(contacts.size(), 3u);
    EXPECT_EQ(contacts[0].a.index, 1);
    EXPECT_EQ(contacts[0].b.index, 0);
    EXPECT_EQ(contacts[1].a.index, 2);
    EXPECT_EQ(contacts[1].b.index, 1);
    EXPECT_EQ(contacts[2].a.index, 3);
    EXPECT_EQ(contacts[2].b.index, 2);
    ASSERT_EQ(contacts[2].count, 1);
    EXPECT_NEAR(contacts[2].points[0].separation, -0.2, 1e-12);
    EXPECT_TRUE(contacts[2].normal.isApprox(Vec3(0.0, -1.0, 0.0), 1e-12));
    EXPECT_TRUE(samePoint(contacts[2].points[0].position, Vec3(6.0, 0.4, 0.0), 1e-12));
    // Pinned to the free box, particle 2 no longer collides with it.
    world.addConstraint(std::make_unique<PinConstraint>(PinSpec{Anchor(2), Anchor::onBody(1, Vec3(0.0, 0.4, 0.0))}));
    contacts = detect(world);
    ASSERT_EQ(contacts.size(), 2u);
    EXPECT_EQ(contacts[1].a.index, 3);
}

TEST(ContactDetector, PinnedBodiesDoNotCollide) {
    World world;
    world.addRigidBody(boxAt(Vec3::Zero()));
    world.addRigidBody(boxAt(Vec3(0.8, 0.1, 0.0)));  // overlapping the first by 0.2
    ContactDetector detector;
    std::vector<ContactManifold> contacts;
    detector.detect(world, kMargin, contacts);
    ASSERT_EQ(contacts.size(), 1u);
    EXPECT_TRUE(contacts[0].normal.isApprox(Vec3::UnitX(), 1e-12));
    ASSERT_GE(contacts[0].count, 1);
    for (int k = 0; k < contacts[0].count; ++k) EXPECT_NEAR(contacts[0].points[k].separation, -0.2, 1e-12);
    const Constraint& pin = world.addConstraint(std::make_unique<PinConstraint>(
        PinSpec{Anchor::onBody(0, Vec3(0.45, 0.0, 0.0)), Anchor::onBody(1, Vec3(-0.35, -0.1, 0.0))}));
    detector.detect(world, kMargin, contacts);
    EXPECT_TRUE(contacts.empty());
    EXPECT_EQ(detector.stats().candidatePairs, 1);
    world.removeConstraint(&pin);
    detector.detect(world, kMargin, contacts);
    EXPECT_EQ(contacts.size(), 1u);
}

TEST(ContactDetector, StackOfTenBoxesGivesNineBoxManifoldsAndOneOnTheGround) {
    World world;
    world.addPlane(ground());
    for (int i = 0; i < 10; ++i) world.addRigidBody(boxAt(Vec3(0.0, 0.5 + i, 0.0)));
    ContactDetector detector;
    std::vector<ContactManifold> contacts;
    detector.detect(world, kMargin, contacts);
    ASSERT_EQ(contacts.size(), 10u);
    EXPECT_EQ(detector.stats().candidatePairs, 9);
    EXPECT_EQ(detector.stats().manifolds, 10);
    // In the order of (a, b): body 0 with body 1, then with the plane; then body i with i + 1.
    EXPECT_EQ(contacts[0].b, (ColliderRef{ColliderKind::Rigid, 1}));
    EXPECT_EQ(contacts[1].b, (ColliderRef{ColliderKind::Plane, 0}));
    EXPECT_EQ(contacts[1].count, 4);
    for (std::size_t m = 0; m < contacts.size(); ++m) {
        if (m == 1) continue;
        const Index lower = m == 0 ? 0 : static_cast<Index>(m) - 1;
        EXPECT_EQ(contacts[m].a, (ColliderRef{ColliderKind::Rigid, lower}));
        EXPECT_EQ(contacts[m].b, (ColliderRef{ColliderKind::Rigid, lower + 1}));
        EXPECT_TRUE(contacts[m].normal.isApprox(Vec3::UnitY(), 1e-12));  // from the lower to the upper
        EXPECT_EQ(contacts[m].count, 4);
        for (int k = 0; k < contacts[m].count; ++k) {
            EXPECT_NEAR(contacts[m].points[k].separation, 0.0, 1e-12);
            EXPECT_NEAR(contacts[m].points[k].position.y(), lower + 1.0, 1e-12);
        }
    }
}

TEST(ContactDetector, SpheresMeetSpheresAndBoxesWithTheNormalFromAToB) {
    World world;
    world.addRigidBody(boxAt(Vec3::Zero()));
    world.addRigidBody(sphereAt(Vec3(0.0, 0.5 + 0.3 - 0.01, 0.0), 0.3));          // on the box, 0.01 in
    world.addRigidBody(sphereAt(Vec3(0.0, 0.79 + 0.3 + 0.2 + 0.005, 0.0), 0.2));  // on that sphere, 0.005 apart
    const std::vector<ContactManifold> contacts = detect(world);
    ASSERT_EQ(contacts.size(), 2u);
    EXPECT_EQ(contacts[0].a.index, 0);
    EXPECT_EQ(contacts[0].b.index, 1);
    EXPECT_TRUE(contacts[0].normal.isApprox(Vec3::UnitY(), 1e-12));  // from the box up to the sphere
    ASSERT_EQ(contacts[0].count, 1);
    EXPECT_NEAR(contacts[0].points[0].separation, -0.01, 1e-12);
    EXPECT_TRUE(samePoint(contacts[0].points[0].position, Vec3(0.0, 0.495, 0.0), 1e-12));
    EXPECT_EQ(contacts[1].a.index, 1);
    EXPECT_EQ(contacts[1].b.index, 2);
    EXPECT_TRUE(contacts[1].normal.isApprox(Vec3::UnitY(), 1e-12));
    EXPECT_NEAR(contacts[1].points[0].separation, 0.005, 1e-12);
}

// A heap of boxes, hulls and spheres on a plane, some overlapping.
World heap(int count, std::mt19937& rng) {
    World world;
    world.addPlane(ground());
    std::uniform_real_distribution<double> where(-2.0, 2.0), height(0.3, 3.0), angle(-3.0, 3.0);
    const ConvexShape wedge{{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1), Vec3(1, 0, 1), Vec3(0, 1, 1)}};
    for (int i = 0; i < count; ++i) {
        RigidBodySpec spec = boxAt(Vec3(where(rng), height(rng), where(rng)), Vec3(0.6, 0.8, 1.0),
                                   Quat(Eigen::AngleAxisd(angle(rng), Vec3(where(rng), where(rng), 1.0).normalized())));
        if (i % 3 == 1) spec.shape = SphereShape{0.4};
        if (i % 3 == 2) spec.shape = wedge;
        world.addRigidBody(spec);
    }
    for (int i = 0; i < count; ++i) world.addParticle(Vec3(where(rng), height(rng), where(rng)), Vec3::Zero(), 1.0);
    return world;
}

TEST(ContactDetector, OutputIsSortedAndTheSameEveryTime) {
    std::mt19937 rng(17);
    World world = heap(40, rng);
    ContactDetector detector;
    std::vector<ContactManifold> first, again;
    detector.detect(world, kMargin, first);
    ASSERT_GT(first.size(), 10u);
    EXPECT_TRUE(std::is_sorted(first.begin(), first.end(), [](const ContactManifold& x, const ContactManifold& y) {
        return std::tie(x.a, x.b) < std::tie(y.a, y.b);
    }));
    EXPECT_TRUE(std::adjacent_find(first.begin(), first.end(), [](const ContactManifold& x, const ContactManifold& y) {
                    return x.a == y.a && x.b == y.b;
                }) == first.end());
    for (const ContactManifold& m : first) {
        EXPECT_NE(m.a.kind, ColliderKind::Plane);
        EXPECT_NEAR(m.normal.norm(), 1.0, 1e-12);
        EXPECT_GE(m.count, 1);
        EXPECT_LE(m.count, 4);
        for (int k = 0; k < m.count; ++k) EXPECT_LT(m.points[k].separation, kMargin);
    }
    detector.detect(world, kMargin, again);  // with what the detector kept
    expectSameManifolds(first, again);
    std::vector<ContactManifold> fresh;
    ContactDetector().detect(world, kMargin, fresh);
    expectSameManifolds(first, fresh);
}

TEST(ContactDetector, BodiesAddedOrChangedBetweenCalls) {
    World world;
    world.addPlane(ground());
    world.addRigidBody(boxAt(Vec3(0.0, 0.5, 0.0)));
    ContactDetector detector;
    std::vector<ContactManifold> contacts;
    detector.detect(world, kMargin, contacts);
    ASSERT_EQ(contacts.size(), 1u);
    // A sphere dropped on the box joins the next call.
    world.addRigidBody(sphereAt(Vec3(0.0, 1.4, 0.0), 0.4));
    detector.detect(world, kMargin, contacts);
    ASSERT_EQ(contacts.size(), 2u);
    EXPECT_EQ(contacts[0].b, (ColliderRef{ColliderKind::Rigid, 1}));
    EXPECT_EQ(contacts[0].count, 1);
    // The box made a sphere of radius 0.6 at the same place: 0.1 into the plane and 0.1
    // into the other sphere.
    RigidBodySpec spec = world.rigidBodies().spec(0);
    spec.shape = SphereShape{0.6};
    world.rigidBodies().setSpec(0, spec);
    detector.detect(world, kMargin, contacts);
    ASSERT_EQ(contacts.size(), 2u);
    EXPECT_EQ(contacts[0].count, 1);
    EXPECT_NEAR(contacts[0].points[0].separation, -0.1, 1e-12);
    EXPECT_EQ(contacts[1].count, 1);
    EXPECT_NEAR(contacts[1].points[0].separation, -0.1, 1e-12);
    // Another world with fewer bodies through the same detector: as a new one finds.
    std::mt19937 rng(23);
    World large = heap(30, rng);
    detector.detect(large, kMargin, contacts);
    std::mt19937 rng2(29);
    World small = heap(20, rng2);
    detector.detect(small, kMargin, contacts);
    std::vector<ContactManifold> fresh;
    ContactDetector().detect(small, kMargin, fresh);
    expectSameManifolds(contacts, fresh);
}

TEST(ContactDetector, BodiesWithoutAFinitePoseTouchNothing) {
    World world;
    world.addPlane(ground());
    world.addRigidBody(boxAt(Vec3(0.0, 0.5, 0.0)));
    world.addRigidBody(boxAt(Vec3(0.2, 0.5, 0.0)));
    world.addRigidBody(sphereAt(Vec3(0.0, 0.4, 0.0), 0.5));
    world.addParticle(Vec3(0.0, 0.4, 0.0), Vec3::Zero(), 1.0);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    world.rigidBodies().setPosition(1, Vec3(nan, 0.5, 0.0));
    world.rigidBodies().setPosition(2, Vec3(0.0, nan, 0.0));
    const std::vector<ContactManifold> contacts = detect(world);
    ASSERT_EQ(contacts.size(), 2u);  // the particle in box 0, and box 0 on the plane
    EXPECT_EQ(contacts[0].a, (ColliderRef{ColliderKind::Particle, 0}));
    EXPECT_EQ(contacts[0].b, (ColliderRef{ColliderKind::Rigid, 0}));
    EXPECT_EQ(contacts[1].a, (ColliderRef{ColliderKind::Rigid, 0}));
    EXPECT_EQ(contacts[1].b, (ColliderRef{ColliderKind::Plane, 0}));
}

// Ten unit boxes on one spot on the ground: 45 pairs of four points and ten boxes on the
// plane, 220 points. Under a bound of 220 they are all found; under 200 the detection stops
// past it and says so, in words that name the bound.
TEST(ContactDetector, StopsPastItsBoundOfContactPoints) {
    World world;
    world.addPlane(ground());
    for (int k = 0; k < 10; ++k) world.addRigidBody(boxAt(Vec3(0.0, 0.5, 0.0)));
    std::vector<ContactManifold> out;
    ContactDetector whole(220);
    whole.detect(world, kMargin, out);
    EXPECT_FALSE(whole.stats().overflow);
    EXPECT_EQ(whole.stats().points, 220);
    EXPECT_EQ(out.size(), 55u);

    ContactDetector bounded(200);
    bounded.detect(world, kMargin, out);
    EXPECT_TRUE(bounded.stats().overflow);
    EXPECT_GT(bounded.stats().points, 200);
    EXPECT_LE(bounded.stats().points, 204);  // stopped at the manifold that passed it
    EXPECT_EQ(bounded.overflowMessage(), "more than 200 contact points at once (bodies piled on one another)");
    // The same detector finds everything again once the pile is taken apart.
    for (Index k = 0; k < 10; ++k) world.rigidBodies().setPosition(k, Vec3(2.0 * static_cast<double>(k), 0.5, 0.0));
    bounded.detect(world, kMargin, out);
    EXPECT_FALSE(bounded.stats().overflow);
    EXPECT_EQ(out.size(), 10u);
}

TEST(ContactDetector, PlanarWorldsAndParticleOnlyWorlds) {
    World world;
    world.setPlanar(true);
    world.addPlane(ground());
    world.addRigidBody(boxAt(Vec3(0.0, 0.5, 0.0)));
    const std::vector<ContactManifold> contacts = detect(world);
    ASSERT_EQ(contacts.size(), 1u);
    EXPECT_EQ(contacts[0].count, 4);
    // Particles alone (on a plane, even inside it) are World::resolveContacts' business.
    World cloth;
    cloth.addPlane(ground());
    for (int i = 0; i < 100; ++i) cloth.addParticle(Vec3(0.1 * i, -0.01, 0.0), Vec3::Zero(), 1.0);
    ContactDetector detector;
    std::vector<ContactManifold> none;
    detector.detect(cloth, kMargin, none);
    EXPECT_TRUE(none.empty());
    EXPECT_EQ(detector.stats().candidatePairs, 0);
}

}  // namespace
}  // namespace tinkerbox
