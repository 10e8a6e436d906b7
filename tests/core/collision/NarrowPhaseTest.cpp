// The narrow phase against closed forms: boxes and hulls face to face, vertex to face and
// edge to edge, speculative contacts within the margin, the cached separating axis, spheres
// and points against polyhedra; and random box pairs against a brute-force separating axis
// test.
#include "core/collision/NarrowPhase.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numbers>
#include <random>
#include <set>
#include <stdexcept>

namespace tinkerbox {
namespace {

constexpr double kTolerance = 1e-12;
const double kRoot2 = std::numbers::sqrt2;

Mat3 rotation(const Vec3& axis, double angle) { return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix(); }

Pose at(const Vec3& translation, const Mat3& orientation = Mat3::Identity()) { return {orientation, translation}; }

void expectValidPolyhedron(const Polyhedron& p) {
    const long v = static_cast<long>(p.vertices.size()), e = static_cast<long>(p.edges.size()),
               f = static_cast<long>(p.faces.size());
    EXPECT_EQ(v - e + f, 2);
    ASSERT_EQ(p.edgeFaces.size(), p.edges.size());
    for (const auto& [first, second] : p.edgeFaces) {
        EXPECT_GE(first, 0);
        EXPECT_GE(second, 0);
        EXPECT_NE(first, second);
    }
    for (const Polyhedron::Face& face : p.faces) {
        EXPECT_NEAR(face.normal.norm(), 1.0, kTolerance);
        const int n = static_cast<int>(face.vertices.size());
        ASSERT_GE(n, 3);
        for (int i = 0; i < n; ++i) {
            const Vec3& x0 = p.vertices[face.vertices[i]];
            const Vec3& x1 = p.vertices[face.vertices[(i + 1) % n]];
            const Vec3& x2 = p.vertices[face.vertices[(i + 2) % n]];
            EXPECT_NEAR(face.normal.dot(x0), face.offset, 1e-12);
            EXPECT_GT((x1 - x0).cross(x2 - x1).dot(face.normal), 0.0) << "a convex, counter-clockwise loop";
        }
        for (const Vec3& x : p.vertices) EXPECT_LE(face.normal.dot(x), face.offset + 1e-12);
    }
    for (const Vec3& x : p.vertices) EXPECT_LE((x - p.center).norm(), p.radius + kTolerance);
}

TEST(Polyhedron, BoxHasEightCornersSixQuadsAndTwelveEdges) {
    const Polyhedron box = boxPolyhedron(Vec3(1.0, 2.0, 3.0));
    ASSERT_EQ(box.vertices.size(), 8u);
    ASSERT_EQ(box.faces.size(), 6u);
    EXPECT_EQ(box.edges.size(), 12u);
    expectValidPolyhedron(box);
    for (const Vec3& x : box.vertices) EXPECT_EQ(x.cwiseAbs(), Vec3(0.5, 1.0, 1.5));
    for (const Polyhedron::Face& face : box.faces) EXPECT_EQ(face.vertices.size(), 4u);
    EXPECT_EQ(box.center, Vec3::Zero());
    EXPECT_NEAR(box.radius, std::sqrt(0.25 + 1.0 + 2.25), kTolerance);
}

TEST(Polyhedron, HullOfBoxCornersMergesTrianglesIntoTheBoxFaces) {
    const Polyhedron box = boxPolyhedron(Vec3(1.0, 2.0, 3.0));
    const Mat3 turn = rotation(Vec3(1.0, 2.0, 3.0), 0.7);
    std::vector<Vec3> corners;
    for (const Vec3& x : box.vertices) corners.push_back(turn * x);
    corners.push_back(Vec3(0.1, 0.2, 0.3));  // inside: not a vertex
    const Polyhedron hull = hullPolyhedron(corners);
    EXPECT_EQ(hull.vertices.size(), 8u);
    ASSERT_EQ(hull.faces.size(), 6u);
    EXPECT_EQ(hull.edges.size(), 12u);
    expectValidPolyhedron(hull);
    for (const Polyhedron::Face& face : hull.faces) EXPECT_EQ(face.vertices.size(), 4u);
}

TEST(Polyhedron, HullsOfTetrahedronAndOctahedron) {
    const Polyhedron tetrahedron = hullPolyhedron({Vec3(1, 1, 1), Vec3(1, -1, -1), Vec3(-1, 1, -1), Vec3(-1, -1, 1)});
    EXPECT_EQ(tetrahedron.faces.size(), 4u);
    EXPECT_EQ(tetrahedron.edges.size(), 6u);
    expectValidPolyhedron(tetrahedron);
    for (const Polyhedron::Face& face : tetrahedron.faces) EXPECT_NEAR(face.offset, 1.0 / std::sqrt(3.0), kTolerance);

    const Polyhedron octahedron =
        hullPolyhedron({Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, -1, 0), Vec3(0, 0, 1), Vec3(0, 0, -1)});
    EXPECT_EQ(octahedron.faces.size(), 8u);
    EXPECT_EQ(octahedron.edges.size(), 12u);
    expectValidPolyhedron(octahedron);
}

std::vector<Vec3> hexagonalPrism(double radius, double height) {
    std::vector<Vec3> corners;
    for (int k = 0; k < 6; ++k) {
        const double angle = k * std::numbers::pi / 3;
        for (const double y : {-height / 2, height / 2})
            corners.emplace_back(radius * std::cos(angle), y, radius * std::sin(angle));
    }
    return corners;
}

TEST(Polyhedron, HullOfHexagonalPrismHasTwoHexagonsAndSixQuads) {
    const Mat3 turn = rotation(Vec3(0.3, -1.0, 0.2), 1.1);
    std::vector<Vec3> corners = hexagonalPrism(0.5, 1.0);
    for (Vec3& x : corners) x = turn * x;
    const Polyhedron prism = hullPolyhedron(corners);
    ASSERT_EQ(prism.faces.size(), 8u);
    EXPECT_EQ(prism.edges.size(), 18u);
    expectValidPolyhedron(prism);
    int hexagons = 0, quads = 0;
    for (const Polyhedron::Face& face : prism.faces) {
        hexagons += face.vertices.size() == 6;
        quads += face.vertices.size() == 4;
    }
    EXPECT_EQ(hexagons, 2);
    EXPECT_EQ(quads, 6);
}

TEST(Polyhedron, HullOfCoplanarPointsThrows) {
    EXPECT_THROW(hullPolyhedron({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0)}), std::invalid_argument);
}

// The points of a manifold as a set of (rounded) positions, for comparing with corners.
void expectPointsAt(const ContactManifold& m, std::vector<Vec3> expected, double tolerance = 1e-12) {
    ASSERT_EQ(m.count, static_cast<int>(expected.size()));
    for (int i = 0; i < m.count; ++i) {
        const auto match = std::find_if(expected.begin(), expected.end(),
                                        [&](const Vec3& x) { return (x - m.points[i].position).norm() < tolerance; });
        ASSERT_NE(match, expected.end()) << "unexpected point " << m.points[i].position.transpose();
        expected.erase(match);
    }
}

std::set<std::uint32_t> featuresOf(const ContactManifold& m) {
    std::set<std::uint32_t> features;
    for (int i = 0; i < m.count; ++i) features.insert(m.points[i].feature);
    return features;
}

TEST(CollidePolyhedra, CubesFaceToFaceGiveTheFourCornersOfTheOverlap) {
    const Polyhedron cube = boxPolyhedron(Vec3::Ones());
    SeparatingAxisCache cache;
    ContactManifold m;
    ASSERT_TRUE(collidePolyhedra(cube, at(Vec3::Zero()), cube, at(Vec3(0.0, 0.99, 0.0)), 0.0, cache, m));
    EXPECT_NEAR((m.normal - Vec3::UnitY()).norm(), 0.0, kTolerance);
    for (int i = 0; i < m.count; ++i) EXPECT_NEAR(m.points[i].separation, -0.01, kTolerance);
    expectPointsAt(m, {Vec3(0.5, 0.495, 0.5), Vec3(-0.5, 0.495, 0.5), Vec3(0.5, 0.495, -0.5), Vec3(-0.5, 0.495, -0.5)});
    EXPECT_EQ(featuresOf(m).size(), 4u);
    EXPECT_EQ(cache.kind, SeparatingAxisCache::Kind::FaceA);

    // Sliding across: the overlap's corners move, and each keeps its id (the lines that
    // cross there stay the same), which is what warm starts match on.
    ASSERT_TRUE(collidePolyhedra(cube, at(Vec3::Zero()), cube, at(Vec3(0.2, 0.99, 0.1)), 0.0, cache, m));
    std::map<std::uint32_t, Vec3> before;
    for (int i = 0; i < m.count; ++i) before[m.points[i].feature] = m.points[i].position;
    ASSERT_EQ(before.size(), 4u);
    ASSERT_TRUE(collidePolyhedra(cube, at(Vec3::Zero()), cube, at(Vec3(0.21, 0.99, 0.1)), 0.0, cache, m));
    ASSERT_EQ(m.count, 4);
    for (int i = 0; i < m.count; ++i) {
        ASSERT_EQ(before.count(m.points[i].feature), 1u);
        EXPECT_LE((m.points[i].position - before[m.points[i].feature]).norm(), 0.01 + 1e-12);
    }

    // Swapped, the normal still points from the first to the second.
    ASSERT_TRUE(collidePolyhedra(cube, at(Vec3(0.0, 0.99, 0.0)), cube, at(Vec3::Zero()), 0.0, cache, m));
    EXPECT_NEAR((m.normal + Vec3::UnitY()).norm(), 0.0, kTolerance);
    EXPECT_EQ(m.count, 4);
}

TEST(CollidePolyhedra, CubeRestingExactlyOnCubeHasZeroSeparation) {
    const Polyhedron cube = boxPolyhedron(Vec3::Ones());
    SeparatingAxisCache cache;
    ContactManifold m;
    // Shifted sideways by a quarter: the overlap is [-0.25, 0.5] x [-0.5, 0.5].
    ASSERT_TRUE(collidePolyhedra(cube, at(Vec3(2.0, 1.0, 3.0)), cube, at(Vec3(2.25, 2.0, 3.0)), 1e-3, cache, m));
    for (int i = 0; i < m.count; ++i) EXPECT_EQ(m.points[i].separation, 0.0);
    expectPointsAt(m, {Vec3(2.5, 1.5, 3.5), Vec3(1.75, 1.5, 3.5), Vec3(2.5, 1.5, 2.5), Vec3(1.75, 1.5, 2.5)});
}

// A cube on the one below it, offset by half a box plus 2.5 cm as in a pyramid's rows, and
// moved as a pile's cubes are: turned by a fraction of a milliradian about the normal and
// shifted by tens of micrometres across, so that the faces' sides cross within the region
// and it has six vertices, and tilted by 1e-7 rad (its points' depths differ by about 1e-7
// m). However it moved, the manifold keeps the four corners of the region x in [0.025, 0.5],
// z in [-0.5, 0.5], with the same features for them: what a pile's warm starts match.
TEST(CollidePolyhedra, PileCubeTurnedSlightlyKeepsTheFourCornersOfItsSupport) {
    const Polyhedron cube = boxPolyhedron(Vec3::Ones());
    const std::vector<Vec3> corners{Vec3(0.025, 0.5, 0.5), Vec3(0.5, 0.5, 0.5), Vec3(0.025, 0.5, -0.5),
                                    Vec3(0.5, 0.5, -0.5)};
    std::map<int, std::uint32_t> featureAt;  // corner -> feature
    for (const double twist : {2e-4, 1e-4, 3e-4, 2.5e-4}) {
        for (const double tilt : {1e-7, -1e-7}) {
            const Mat3 turn = rotation(Vec3::UnitY(), twist) * rotation(Vec3(1.0, 0.0, 1.0), tilt);
            const Vec3 centre(0.525, 0.99995, -0.3 * twist);  // the sides cross at x = 0.225
            SeparatingAxisCache cache;
            ContactManifold m;
            ASSERT_TRUE(collidePolyhedra(cube, at(Vec3::Zero()), cube, at(centre, turn), 1e-3, cache, m));
            ASSERT_EQ(m.count, 4) << "twist " << twist << ", tilt " << tilt;
            std::set<int> found;
            for (int i = 0; i < m.count; ++i) {
                int nearest = 0;
                for (int c = 1; c < 4; ++c)
                    if ((m.points[i].position - corners[c]).norm() < (m.points[i].position - corners[nearest]).norm())
                        nearest = c;
                EXPECT_LT((m.points[i].position - corners[nearest]).norm(), 1e-3)
                    << "twist " << twist << ", tilt " << tilt;
                found.insert(nearest);
                const auto [known, fresh] = featureAt.emplace(nearest, m.points[i].feature);
                if (!fresh) {
                    EXPECT_EQ(known->second, m.points[i].feature) << "corner " << nearest << ", twist " << twist;
                }
            }
            EXPECT_EQ(found.size(), 4u) << "twist " << twist << ", tilt " << tilt;
        }
    }
}

TEST(CollidePolyhedra, CubeTurnedOnCubeClipsTheOctagonToFourOfItsCorners) {
    const Polyhedron cube = boxPolyhedron(Vec3::Ones());
    SeparatingAxisCache cache;
    ContactManifold m;
    const Pose top = at(Vec3(0.0, 0.98, 0.0), rotation(Vec3::UnitY(), std::numbers::pi / 4));
    ASSERT_TRUE(collidePolyhedra(cube, at(Vec3::Zero()), cube, top, 0.0, cache, m));
    ASSERT_EQ(m.count, 4);
    EXPECT_NEAR((m.normal - Vec3::UnitY()).norm(), 0.0, kTolerance);
    // The octagon where the squares |x|, |z| <= 1/2 and |x +- z| <= 1/sqrt(2) meet has its
    // corners at (+-1/2, +-(1/sqrt(2) - 1/2)) and (+-(1/sqrt(2) - 1/2), +-1/2).
    const double shortSide = 1.0 / kRoot2 - 0.5;
    std::set<std::pair<long, long>> corners;
    for (int i = 0; i < m.count; ++i) {
        const Vec3& x = m.points[i].position;
        EXPECT_NEAR(m.points[i].separation, -0.02, kTolerance);
        EXPECT_NEAR(x.y(), 0.49, kTolerance);
        EXPECT_NEAR(std::max(std::abs(x.x()), std::abs(x.z())), 0.5, 1e-12);
        EXPECT_NEAR(std::min(std::abs(x.x()), std::abs(x.z())), shortSide, 1e-12);
        corners.insert({std::lround(x.x() * 1e6), std::lround(x.z() * 1e6)});
    }
    EXPECT_EQ(corners.size(), 4u);
    // Kept so that they span the octagon: two pairs of opposite corners.
    Vec3 sum = Vec3::Zero();
    for (int i = 0; i < m.count; ++i) sum += m.points[i].position;
    EXPECT_NEAR(sum.x(), 0.0, 1e-12);
    EXPECT_NEAR(sum.z(), 0.0, 1e-12);

    // A step later, a little lower: the same features touch, with the same ids.
    const std::set<std::uint32_t> before = featuresOf(m);
    ASSERT_TRUE(collidePolyhedra(cube, at(Vec3::Zero()), cube, at(Vec3(0.0, 0.979, 0.0), top.rotation), 0.0, cache, m));
    EXPECT_EQ(featuresOf(m), before);
}

TEST(CollidePolyhedra, CubeOnItsEdgeTouchesAtTheEdgesEnds) {
    const Polyhedron cube = boxPolyhedron(Vec3::Ones());
    // Turned 45 degrees about z: its lowest edge, along z, is 1/sqrt(2) below its centre.
    const Pose onEdge = at(Vec3(0.0, 0.5 + 1.0 / kRoot2 - 0.01, 0.0), rotation(Vec3::UnitZ(), std::numbers::pi / 4));
    SeparatingAxisCache cache;
    ContactManifold m;
    ASSERT_TRUE(collidePolyhedra(cube, at(Vec3::Zero()), cube, onEdge, 0.0, cache, m));
    EXPECT_NEAR((m.normal - Vec3::UnitY()).norm(), 0.0, kTolerance);
    for (int i = 0; i < m.count; ++i) EXPECT_NEAR(m.points[i].separation, -0.01, kTolerance);
    expectPointsAt(m, {Vec3(0.0, 0.495, 0.5), Vec3(0.0, 0.495, -0.5)}, 1e-12);
}

TEST(CollidePolyhedra, CrossedEdgesTouchAtOnePoint) {
    const Polyhedron cube = boxPolyhedron(Vec3::Ones());
    const double depth = 0.01;
    // A's top is the edge along z at y = 1/sqrt(2); B's bottom the edge along x at y = 1/sqrt(2) - depth.
    const Pose poseA = at(Vec3::Zero(), rotation(Vec3::UnitZ(), std::numbers::pi / 4));
    const Pose poseB = at(Vec3(0.0, kRoot2 - depth, 0.0), rotation(Vec3::UnitX(), std::numbers::pi / 4));
    SeparatingAxisCache cache;
    ContactManifold m;
    ASSERT_TRUE(collidePolyhedra(cube, poseA, cube, poseB, 0.0, cache, m));
    ASSERT_EQ(m.count, 1);
    EXPECT_EQ(cache.kind, SeparatingAxisCache::Kind::Edges);
    EXPECT_NEAR((m.normal - Vec3::UnitY()).norm(), 0.0, 1e-12);
    EXPECT_NEAR(m.points[0].separation, -depth, 1e-12);
    EXPECT_NEAR((m.points[0].position - Vec3(0.0, 1.0 / kRoot2 - depth / 2, 0.0)).norm(), 0.0, 1e-12);
}

TEST(CollidePolyhedra, MarginFindsSpeculativeContactsAndTheCacheSkipsSeparatedPairs) {
    const Polyhedron cube = boxPolyhedron(Vec3::Ones());
    const Pose below = at(Vec3::Zero()), above = at(Vec3(0.2, 1.1, -0.1));
    SeparatingAxisCache cache;
    ContactManifold m;
    EXPECT_FALSE(collidePolyhedra(cube, below, cube, above, 0.05, cache, m));
    EXPECT_EQ(m.count, 0);
    ASSERT_NE(cache.kind, SeparatingAxisCache::Kind::None);
    // Its separating axis: a face normal along y.
    const Vec3 axis = cache.kind == SeparatingAxisCache::Kind::FaceA ? cube.faces[cache.first].normal
                                                                     : Vec3(-cube.faces[cache.first].normal);
    EXPECT_EQ(axis, Vec3::UnitY());
    // The same poses again: the cached axis alone decides, and leaves the cache as it was.
    const SeparatingAxisCache witness = cache;
    EXPECT_FALSE(collidePolyhedra(cube, below, cube, above, 0.05, cache, m));
    EXPECT_EQ(cache.kind, witness.kind);
    EXPECT_EQ(cache.first, witness.first);

    // A wider margin: four speculative points 0.1 apart, whatever the cache says.
    ASSERT_TRUE(collidePolyhedra(cube, below, cube, above, 0.2, cache, m));
    ASSERT_EQ(m.count, 4);
    for (int i = 0; i < m.count; ++i) {
        EXPECT_NEAR(m.points[i].separation, 0.1, kTolerance);
        EXPECT_NEAR(m.points[i].position.y(), 0.55, kTolerance);
    }
    expectPointsAt(m, {Vec3(0.5, 0.55, 0.4), Vec3(-0.3, 0.55, 0.4), Vec3(0.5, 0.55, -0.5), Vec3(-0.3, 0.55, -0.5)},
                   1e-12);
    // An axis that no longer separates does not hide a contact.
    cache = witness;
    EXPECT_TRUE(collidePolyhedra(cube, below, cube, at(Vec3(0.2, 0.95, -0.1)), 0.05, cache, m));
}

TEST(CollidePolyhedra, HullsTouchBoxesLikeTheirShapes) {
    const Polyhedron box = boxPolyhedron(Vec3(4.0, 1.0, 4.0));
    // An octahedron standing on its bottom vertex, 0.01 into the box's top.
    const Polyhedron octahedron =
        hullPolyhedron({Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, -1, 0), Vec3(0, 0, 1), Vec3(0, 0, -1)});
    SeparatingAxisCache cache;
    ContactManifold m;
    ASSERT_TRUE(collidePolyhedra(box, at(Vec3::Zero()), octahedron, at(Vec3(0.3, 1.49, 0.2)), 0.0, cache, m));
    EXPECT_NEAR((m.normal - Vec3::UnitY()).norm(), 0.0, kTolerance);
    expectPointsAt(m, {Vec3(0.3, 0.495, 0.2)});
    EXPECT_NEAR(m.points[0].separation, -0.01, kTolerance);

    // A tetrahedron on one face (an equilateral triangle of circumradius 1), 0.02 into it:
    // three points at the triangle's corners.
    const double h = std::sqrt(2.0);
    const std::vector<Vec3> corners{Vec3(1.0, 0.0, 0.0), Vec3(-0.5, 0.0, std::sqrt(3.0) / 2),
                                    Vec3(-0.5, 0.0, -std::sqrt(3.0) / 2), Vec3(0.0, h, 0.0)};
    const Polyhedron tetrahedron = hullPolyhedron(corners);
    ASSERT_TRUE(collidePolyhedra(box, at(Vec3::Zero()), tetrahedron, at(Vec3(0.1, 0.48, 0.0)), 0.0, cache, m));
    EXPECT_NEAR((m.normal - Vec3::UnitY()).norm(), 0.0, kTolerance);
    for (int i = 0; i < m.count; ++i) EXPECT_NEAR(m.points[i].separation, -0.02, kTolerance);
    expectPointsAt(
        m, {corners[0] + Vec3(0.1, 0.49, 0.0), corners[1] + Vec3(0.1, 0.49, 0.0), corners[2] + Vec3(0.1, 0.49, 0.0)});

    // A hexagonal prism standing on its end: four of the six corners, spanning as much of the
    // hexagon as four of its corners can, r^2 sqrt(3) (two pairs of opposite corners, or
    // three neighbours and the corner opposite the middle one).
    const std::vector<Vec3> prismCorners = hexagonalPrism(0.5, 1.0);
    const Polyhedron prism = hullPolyhedron(prismCorners);
    ASSERT_TRUE(collidePolyhedra(box, at(Vec3::Zero()), prism, at(Vec3(0.2, 0.99, 0.3)), 0.0, cache, m));
    ASSERT_EQ(m.count, 4);
    std::vector<double> angles;
    for (int i = 0; i < m.count; ++i) {
        EXPECT_NEAR(m.points[i].separation, -0.01, kTolerance);
        const Vec3 offset = m.points[i].position - Vec3(0.2, 0.495, 0.3);
        EXPECT_NEAR(offset.norm(), 0.5, 1e-12) << "a corner of the hexagon";
        angles.push_back(std::atan2(offset.z(), offset.x()));
    }
    std::sort(angles.begin(), angles.end());
    double area = 0.0;  // of the quadrilateral, corners in order around the centre
    for (std::size_t i = 0; i < angles.size(); ++i)
        area += 0.5 * 0.25 *
                std::sin(angles[(i + 1) % angles.size()] - angles[i] +
                         (i + 1 == angles.size() ? 2.0 * std::numbers::pi : 0.0));
    EXPECT_NEAR(area, 0.25 * std::sqrt(3.0), 1e-12);

    // The hull of a box's corners touches as the box does.
    const Polyhedron cube = boxPolyhedron(Vec3::Ones());
    const Polyhedron hull = hullPolyhedron(cube.vertices);
    ASSERT_TRUE(collidePolyhedra(hull, at(Vec3::Zero()), hull, at(Vec3(0.0, 0.99, 0.0)), 0.0, cache, m));
    for (int i = 0; i < m.count; ++i) EXPECT_NEAR(m.points[i].separation, -0.01, kTolerance);
    expectPointsAt(m, {Vec3(0.5, 0.495, 0.5), Vec3(-0.5, 0.495, 0.5), Vec3(0.5, 0.495, -0.5), Vec3(-0.5, 0.495, -0.5)});
}

TEST(CollideSpherePolyhedron, FaceEdgeCornerAndInside) {
    const Polyhedron cube = boxPolyhedron(Vec3::Ones());
    // Placed away from the origin and turned, to exercise the frames: checked in the cube's frame.
    const Pose pose = at(Vec3(1.0, -2.0, 0.5), rotation(Vec3(1.0, 1.0, 0.0), 0.4));
    auto world = [&](const Vec3& local) { return pose.apply(local); };
    auto local = [&](const Vec3& x) { return Vec3(pose.rotation.transpose() * (x - pose.translation)); };
    ContactManifold m;

    // Above the top face, 0.05 into it.
    ASSERT_TRUE(collideSpherePolyhedron(world(Vec3(0.1, 0.7, -0.2)), 0.25, cube, pose, 0.0, m));
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.points[0].separation, -0.05, kTolerance);
    EXPECT_NEAR((pose.rotation.transpose() * m.normal - Vec3(0, -1, 0)).norm(), 0.0, kTolerance);
    EXPECT_NEAR((local(m.points[0].position) - Vec3(0.1, 0.475, -0.2)).norm(), 0.0, kTolerance);

    // Beside the edge x = y = 1/2: the distance is sqrt(0.2^2 + 0.2^2).
    ASSERT_TRUE(collideSpherePolyhedron(world(Vec3(0.7, 0.7, 0.1)), 0.25, cube, pose, 0.1, m));
    EXPECT_NEAR(m.points[0].separation, 0.2 * kRoot2 - 0.25, kTolerance);
    EXPECT_NEAR((pose.rotation.transpose() * m.normal - Vec3(-1, -1, 0) / kRoot2).norm(), 0.0, kTolerance);
    EXPECT_FALSE(collideSpherePolyhedron(world(Vec3(0.7, 0.7, 0.1)), 0.25, cube, pose, 0.0, m));

    // Off the corner (1/2, 1/2, 1/2).
    const Vec3 offCorner(0.7, 0.8, 0.9);
    ASSERT_TRUE(collideSpherePolyhedron(world(offCorner), 0.5, cube, pose, 0.1, m));
    EXPECT_NEAR(m.points[0].separation, std::sqrt(0.29) - 0.5, kTolerance);
    const Vec3 direction = (Vec3(0.5, 0.5, 0.5) - offCorner).normalized();
    EXPECT_NEAR((pose.rotation.transpose() * m.normal - direction).norm(), 0.0, kTolerance);
    EXPECT_NEAR((local(m.points[0].position) - 0.5 * (Vec3(0.5, 0.5, 0.5) + offCorner + 0.5 * direction)).norm(), 0.0,
                kTolerance);

    // Centre inside, 0.2 below the top and deeper under every other face: out through the top.
    ASSERT_TRUE(collideSpherePolyhedron(world(Vec3(0.1, 0.3, 0.05)), 0.1, cube, pose, 0.0, m));
    EXPECT_NEAR(m.points[0].separation, -0.3, kTolerance);
    EXPECT_NEAR((pose.rotation.transpose() * m.normal - Vec3(0, -1, 0)).norm(), 0.0, kTolerance);

    // A point (radius 0) inside: its depth under the nearest face, here the -x face.
    ASSERT_TRUE(collideSpherePolyhedron(world(Vec3(-0.45, 0.1, 0.05)), 0.0, cube, pose, 0.0, m));
    EXPECT_NEAR(m.points[0].separation, -0.05, kTolerance);
    EXPECT_NEAR((pose.rotation.transpose() * m.normal - Vec3(1, 0, 0)).norm(), 0.0, kTolerance);
    EXPECT_NEAR((local(m.points[0].position) - Vec3(-0.475, 0.1, 0.05)).norm(), 0.0, kTolerance);
    // And outside, beyond the margin.
    EXPECT_FALSE(collideSpherePolyhedron(world(Vec3(0.0, 0.6, 0.0)), 0.0, cube, pose, 0.05, m));
    EXPECT_TRUE(collideSpherePolyhedron(world(Vec3(0.0, 0.6, 0.0)), 0.0, cube, pose, 0.15, m));
    EXPECT_NEAR(m.points[0].separation, 0.1, kTolerance);
}

TEST(CollideSpherePolyhedron, HullVertexAndFace) {
    const Polyhedron octahedron =
        hullPolyhedron({Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, -1, 0), Vec3(0, 0, 1), Vec3(0, 0, -1)});
    const Pose pose = at(Vec3(0.0, 2.0, 0.0));
    ContactManifold m;
    // Above the top vertex, within its cone of normals (|x| + |z| < y): the vertex is closest.
    const Vec3 overVertex(0.1, 2.0 + 1.5, 0.0);
    ASSERT_TRUE(collideSpherePolyhedron(overVertex, 0.2, octahedron, pose, 0.5, m));
    EXPECT_NEAR(m.points[0].separation, std::sqrt(0.01 + 0.25) - 0.2, kTolerance);
    EXPECT_NEAR((m.normal - (Vec3(0.0, 3.0, 0.0) - overVertex).normalized()).norm(), 0.0, kTolerance);
    // Over the middle of the face x + y + z = 1, 0.3 from it.
    const Vec3 faceNormal = Vec3::Ones().normalized();
    const Vec3 overFace = pose.apply(Vec3::Constant(1.0 / 3.0) + 0.3 * faceNormal);
    ASSERT_TRUE(collideSpherePolyhedron(overFace, 0.25, octahedron, pose, 0.1, m));
    EXPECT_NEAR(m.points[0].separation, 0.05, kTolerance);
    EXPECT_NEAR((m.normal + faceNormal).norm(), 0.0, kTolerance);
    EXPECT_FALSE(collideSpherePolyhedron(overFace, 0.25, octahedron, pose, 0.0, m));
}

TEST(NarrowPhase, PosesThatAreNotFiniteTouchNothing) {
    const Polyhedron cube = boxPolyhedron(Vec3::Ones());
    const Polyhedron hull = hullPolyhedron(cube.vertices);
    const Vec3 nan = Vec3::Constant(std::numeric_limits<double>::quiet_NaN());
    SeparatingAxisCache cache;
    ContactManifold m;
    EXPECT_FALSE(collidePolyhedra(cube, at(Vec3::Zero()), cube, at(nan), 0.1, cache, m));
    EXPECT_FALSE(collidePolyhedra(hull, at(nan), hull, at(Vec3::Zero()), 0.1, cache, m));
    EXPECT_FALSE(collideSpherePolyhedron(nan, 0.5, cube, at(Vec3::Zero()), 0.1, m));
    EXPECT_FALSE(collideSpheres(nan, 0.5, Vec3::Zero(), 0.5, 0.1, m));
    EXPECT_EQ(m.count, 0);
}

// The signed distance of a point to a box in the box's frame: out of it, the distance to
// the point clamped into it; in it, minus the distance to the nearest face.
TEST(CollideSpherePolyhedron, RandomSpheresAgreeWithTheBoxDistance) {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> unit(-1.0, 1.0), size(0.2, 2.0);
    for (int trial = 0; trial < 2000; ++trial) {
        const Vec3 half = 0.5 * Vec3(size(random), size(random), size(random));
        const Polyhedron box = boxPolyhedron(2.0 * half);
        const Pose pose = at(Vec3(unit(random), unit(random), unit(random)),
                             rotation(Vec3(unit(random), unit(random), unit(random)), 3.0 * unit(random)));
        const Vec3 local = Vec3(unit(random), unit(random), unit(random)).cwiseProduct(half) * 2.0;
        const double radius = trial % 3 == 0 ? 0.0 : 0.5 * (1.0 + unit(random));
        const Vec3 clamped = local.cwiseMax(-half).cwiseMin(half);
        const double distance = clamped == local ? -(half - local.cwiseAbs()).minCoeff() : (local - clamped).norm();
        ContactManifold m;
        const double margin = 0.1;
        const bool touches = collideSpherePolyhedron(pose.apply(local), radius, box, pose, margin, m);
        ASSERT_EQ(touches, distance - radius < margin) << "trial " << trial;
        if (!touches) continue;
        EXPECT_NEAR(m.points[0].separation, distance - radius, 1e-12) << "trial " << trial;
        EXPECT_NEAR(m.normal.norm(), 1.0, 1e-12);
        if (distance > 0.0) {
            // From the centre towards the closest point of the box.
            EXPECT_NEAR((pose.rotation.transpose() * m.normal - (clamped - local) / distance).norm(), 0.0, 1e-9);
        }
    }
}

TEST(CollideSpheres, SeparationAlongTheLineOfCentres) {
    ContactManifold m;
    ASSERT_TRUE(collideSpheres(Vec3(1, 1, 1), 1.0, Vec3(1, 1, 2.5), 0.75, 0.0, m));
    EXPECT_NEAR(m.points[0].separation, -0.25, kTolerance);
    EXPECT_NEAR((m.normal - Vec3::UnitZ()).norm(), 0.0, kTolerance);
    EXPECT_NEAR((m.points[0].position - Vec3(1, 1, 1.875)).norm(), 0.0, kTolerance);
    EXPECT_FALSE(collideSpheres(Vec3(0, 0, 0), 1.0, Vec3(3, 0, 0), 1.0, 0.5, m));
    EXPECT_TRUE(collideSpheres(Vec3(0, 0, 0), 1.0, Vec3(3, 0, 0), 1.0, 1.5, m));
    EXPECT_NEAR(m.points[0].separation, 1.0, kTolerance);
}

// How far B's shadow on the axis starts beyond A's: < 0 where they overlap.
double gapFromAToB(const Vec3& axis, const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    double highA = -INFINITY, lowB = INFINITY;
    for (const Vec3& x : a) highA = std::max(highA, axis.dot(x));
    for (const Vec3& x : b) lowB = std::min(lowB, axis.dot(x));
    return lowB - highA;
}

// The gap between the shadows of two point sets on an axis, either way round: > 0 when
// it separates them.
double gapAlong(const Vec3& axis, const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    return std::max(gapFromAToB(axis, a, b), gapFromAToB(-axis, a, b));
}

// Boxes as boxes (tested in closed form) and as hulls of their corners (the general test
// over faces and Gauss-map-pruned edge pairs).
class RandomBoxPairs : public ::testing::TestWithParam<bool> {};

Polyhedron boxShape(const Vec3& size, bool asHull) {
    const Polyhedron box = boxPolyhedron(size);
    return asHull ? hullPolyhedron(box.vertices) : box;
}

// Two boxes overlap least along one of their 15 axes (3 + 3 face normals, 9 edge cross
// products), and no other axis gives more: random axes check that second part.
TEST_P(RandomBoxPairs, AgreeWithBruteForce) {
    std::mt19937 random(20261125);
    std::uniform_real_distribution<double> unit(-1.0, 1.0), size(0.2, 2.0);
    auto randomRotation = [&] {
        return Eigen::Quaterniond(Eigen::Vector4d(unit(random), unit(random), unit(random), unit(random)).normalized())
            .toRotationMatrix();
    };
    int touching = 0, apart = 0, edgeContacts = 0;
    for (int trial = 0; trial < 1000; ++trial) {
        const Vec3 sizeA(size(random), size(random), size(random)), sizeB(size(random), size(random), size(random));
        const Polyhedron a = boxShape(sizeA, GetParam()), b = boxShape(sizeB, GetParam());
        const Pose poseA = at(Vec3(unit(random), unit(random), unit(random)), randomRotation());
        const Pose poseB = at(Vec3(unit(random), unit(random), unit(random)) * 1.5, randomRotation());
        const double margin = trial % 2 ? 0.05 : 0.0;
        std::vector<Vec3> cornersA, cornersB;
        for (const Vec3& x : a.vertices) cornersA.push_back(poseA.apply(x));
        for (const Vec3& x : b.vertices) cornersB.push_back(poseB.apply(x));

        double separation = -INFINITY;
        for (int i = 0; i < 3; ++i) {
            separation = std::max(separation, gapAlong(poseA.rotation.col(i), cornersA, cornersB));
            separation = std::max(separation, gapAlong(poseB.rotation.col(i), cornersA, cornersB));
            for (int j = 0; j < 3; ++j) {
                const Vec3 axis = poseA.rotation.col(i).cross(poseB.rotation.col(j));
                if (axis.norm() > 1e-9)
                    separation = std::max(separation, gapAlong(axis.normalized(), cornersA, cornersB));
            }
        }
        double sampled = -INFINITY;
        for (int k = 0; k < 500; ++k) {
            const Vec3 axis = Vec3(unit(random), unit(random), unit(random)).normalized();
            sampled = std::max(sampled, gapAlong(axis, cornersA, cornersB));
        }
        // Overlapping boxes overlap least along one of the 15 axes; separated ones are
        // separated along one of them (though their distance may be along another).
        if (separation <= 0.0) {
            ASSERT_LE(sampled, separation + 1e-12);
        }
        if (sampled > 0.0) {
            ASSERT_GT(separation, 0.0);
        }

        SeparatingAxisCache cache;
        ContactManifold m;
        const bool touches = collidePolyhedra(a, poseA, b, poseB, margin, cache, m);
        if (std::abs(separation - margin) < 1e-9) continue;  // too close to call
        // Overlapping, they touch; apart by more than the margin along an axis, they do not.
        // In between, a speculative contact is found unless it would be an edge-edge point
        // beside the edges (a pair of edges that are not what comes closest).
        if (separation < 0.0 || separation >= margin) {
            ASSERT_EQ(touches, separation < margin) << "trial " << trial << ", separation " << separation;
        }
        if (sampled > 0.0 && margin == 0.0) {
            EXPECT_FALSE(touches);
        }
        if (!touches) {
            ++apart;
            // The cache holds the witness: the same call stops at it.
            EXPECT_FALSE(collidePolyhedra(a, poseA, b, poseB, margin, cache, m));
            continue;
        }
        ++touching;
        if (cache.kind == SeparatingAxisCache::Kind::Edges) ++edgeContacts;
        ASSERT_GE(m.count, 1);
        ASSERT_LE(m.count, 4);
        EXPECT_NEAR(m.normal.norm(), 1.0, 1e-12);
        // The normal is the axis chosen: the gap along it is the deepest point's separation.
        // Overlapping, it is the least overlap within the preferences' slack; apart (a
        // speculative contact), it may be less than the distance, never more.
        const double gap = gapFromAToB(m.normal, cornersA, cornersB);
        double deepest = INFINITY;
        for (int i = 0; i < m.count; ++i) deepest = std::min(deepest, m.points[i].separation);
        EXPECT_GE(deepest, gap - 1e-9);
        EXPECT_LE(gap, separation + 1e-9);
        if (separation < 0.0) {
            const double slack = 0.11 * std::abs(separation) + 2.5e-3 * std::min(a.radius, b.radius);
            EXPECT_GE(gap, separation - slack - 1e-9) << "trial " << trial;
        }
        // Each point of an overlap is midway between the surfaces, within half its depth of
        // both boxes; a speculative one is within the margin of both.
        for (int i = 0; i < m.count; ++i) {
            const ContactPoint& p = m.points[i];
            EXPECT_LT(p.separation, margin);
            const double reach = p.separation < 0.0 ? 0.5 * std::abs(p.separation) : margin;
            const Vec3 inA = poseA.rotation.transpose() * (p.position - poseA.translation);
            const Vec3 inB = poseB.rotation.transpose() * (p.position - poseB.translation);
            EXPECT_LE((inA.cwiseAbs() - 0.5 * sizeA).maxCoeff(), reach + 1e-9) << "trial " << trial;
            EXPECT_LE((inB.cwiseAbs() - 0.5 * sizeB).maxCoeff(), reach + 1e-9) << "trial " << trial;
        }
    }
    // Each kind of case comes up often enough to be tested.
    EXPECT_GT(touching, 200);
    EXPECT_GT(apart, 200);
    EXPECT_GT(edgeContacts, 50);
}

// Hulls of random points: the Gauss map pruning of edge pairs keeps the pair that
// overlaps least, as the separation over all face normals and all edge pairs shows.
TEST(CollidePolyhedra, RandomHullPairsAgreeWithEveryEdgePair) {
    std::mt19937 random(5);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    auto randomHull = [&] {
        std::vector<Vec3> points;
        for (int k = 0; k < 10; ++k) points.emplace_back(unit(random), unit(random), unit(random));
        return hullPolyhedron(points);
    };
    auto randomRotation = [&] {
        return Eigen::Quaterniond(Eigen::Vector4d(unit(random), unit(random), unit(random), unit(random)).normalized())
            .toRotationMatrix();
    };
    int overlapping = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const Polyhedron a = randomHull(), b = randomHull();
        const Pose poseA = at(Vec3(unit(random), unit(random), unit(random)), randomRotation());
        const Pose poseB = at(Vec3(unit(random), unit(random), unit(random)) * 2.0, randomRotation());
        std::vector<Vec3> cornersA, cornersB;
        for (const Vec3& x : a.vertices) cornersA.push_back(poseA.apply(x));
        for (const Vec3& x : b.vertices) cornersB.push_back(poseB.apply(x));
        double separation = -INFINITY;
        for (const Polyhedron::Face& face : a.faces)
            separation = std::max(separation, gapAlong(poseA.rotation * face.normal, cornersA, cornersB));
        for (const Polyhedron::Face& face : b.faces)
            separation = std::max(separation, gapAlong(poseB.rotation * face.normal, cornersA, cornersB));
        for (const auto& [a0, a1] : a.edges)
            for (const auto& [b0, b1] : b.edges) {
                const Vec3 axis = (cornersA[a1] - cornersA[a0]).cross(cornersB[b1] - cornersB[b0]);
                if (axis.norm() > 1e-9)
                    separation = std::max(separation, gapAlong(axis.normalized(), cornersA, cornersB));
            }
        SeparatingAxisCache cache;
        ContactManifold m;
        const bool touches = collidePolyhedra(a, poseA, b, poseB, 0.0, cache, m);
        if (std::abs(separation) < 1e-9) continue;  // too close to call
        ASSERT_EQ(touches, separation < 0.0) << "trial " << trial << ", separation " << separation;
        if (!touches) continue;
        ++overlapping;
        const double gap = gapFromAToB(m.normal, cornersA, cornersB);
        const double slack = 0.11 * std::abs(separation) + 2.5e-3 * std::min(a.radius, b.radius);
        EXPECT_GE(gap, separation - slack - 1e-9) << "trial " << trial;
        EXPECT_LE(gap, separation + 1e-9) << "trial " << trial;
        for (int i = 0; i < m.count; ++i) EXPECT_GE(m.points[i].separation, gap - 1e-9);
    }
    EXPECT_GT(overlapping, 50);
}

INSTANTIATE_TEST_SUITE_P(CollidePolyhedra, RandomBoxPairs, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Hulls" : "Boxes"; });

}  // namespace
}  // namespace tinkerbox
