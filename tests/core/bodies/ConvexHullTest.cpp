// Quickhull (Barber, Dobkin and Huhdanpaa 1996): the hull is closed (V - E + F = 2, every
// edge shared by two triangles in opposite directions), convex with outward triangles,
// contains every input point, and keeps only extreme points as vertices.
#include "core/bodies/ConvexHull.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <utility>

#include "core/TestSystems.h"
#include "core/math/Orientation.h"

namespace tinkerbox {
namespace {

Vec3 normalOf(const ConvexHull& hull, const std::array<int, 3>& t) {
    const Vec3& a = hull.vertices[t[0]];
    return (hull.vertices[t[1]] - a).cross(hull.vertices[t[2]] - a).normalized();
}

// A closed, oriented 2-manifold of sphere topology: each directed edge once, with its
// reverse in another triangle, and V - E + F = 2.
void expectClosedSphere(const ConvexHull& hull) {
    std::map<std::pair<int, int>, int> directedEdges;
    for (const auto& t : hull.triangles)
        for (int i = 0; i < 3; ++i) ++directedEdges[{t[i], t[(i + 1) % 3]}];
    for (const auto& [edge, count] : directedEdges) {
        EXPECT_EQ(count, 1);
        EXPECT_EQ(directedEdges.count({edge.second, edge.first}), 1u);
    }
    const long v = static_cast<long>(hull.vertices.size());
    const long e = static_cast<long>(directedEdges.size()) / 2;
    const long f = static_cast<long>(hull.triangles.size());
    EXPECT_EQ(v - e + f, 2);
}

// Every point is inside or on every triangle's plane, the vertices included: the hull is
// convex and its normals point out. A planar hull face split in two is allowed (distance 0).
// The planes are computed in long double: a sliver triangle's plane, ill-conditioned, would
// otherwise be off by more than the hull.
void expectContains(const ConvexHull& hull, const std::vector<Vec3>& points, double tolerance) {
    using LongVec3 = Eigen::Matrix<long double, 3, 1>;
    long double worst = -1.0;
    for (const auto& t : hull.triangles) {
        const LongVec3 a = hull.vertices[t[0]].cast<long double>();
        const LongVec3 n = (hull.vertices[t[1]].cast<long double>() - a)
                               .cross(hull.vertices[t[2]].cast<long double>() - a)
                               .normalized();
        for (const Vec3& x : points) worst = std::max(worst, n.dot(x.cast<long double>() - a));
        for (const Vec3& x : hull.vertices) worst = std::max(worst, n.dot(x.cast<long double>() - a));
    }
    EXPECT_LE(worst, tolerance);
}

// Exact: no point is strictly above any triangle's plane.
void expectContainsExactly(const ConvexHull& hull, const std::vector<Vec3>& points) {
    int above = 0;
    for (const auto& t : hull.triangles)
        for (const Vec3& x : points)
            if (orientation(hull.vertices[t[0]], hull.vertices[t[1]], hull.vertices[t[2]], x) > 0) ++above;
    EXPECT_EQ(above, 0);
}

// The corners of a box, repeated, with points inside it, on its faces and on its edges,
// shuffled so that corners need not come first.
std::vector<Vec3> clutteredBox(const Vec3& size, std::mt19937& random) {
    std::uniform_real_distribution<double> unit(-0.5, 0.5);
    std::uniform_int_distribution<int> axis(0, 2), side(0, 1);
    const auto inside = [&] { return Vec3(unit(random), unit(random), unit(random)).cwiseProduct(size).eval(); };
    std::vector<Vec3> points = test::boxCorners(size);
    for (int i = 0; i < 8; ++i) points.push_back(points[i]);  // duplicates
    for (int i = 0; i < 50; ++i) points.push_back(inside());
    for (int i = 0; i < 50; ++i) {  // on a face
        Vec3 x = inside();
        const int a = axis(random);
        x[a] = side(random) ? 0.5 * size[a] : -0.5 * size[a];
        points.push_back(x);
    }
    for (int i = 0; i < 30; ++i) {  // on an edge, at least 1% of it from its ends
        Vec3 x = inside();
        const int a = axis(random), b = (a + 1) % 3;
        x[a] = side(random) ? 0.5 * size[a] : -0.5 * size[a];
        x[b] = side(random) ? 0.5 * size[b] : -0.5 * size[b];
        const int c = 3 - a - b;
        x[c] = std::clamp(x[c], -0.49 * size[c], 0.49 * size[c]);
        points.push_back(x);
    }
    for (int i = 0; i < 12; ++i) points.push_back(Vec3::Zero());  // the centre, repeated
    std::shuffle(points.begin(), points.end(), random);
    return points;
}

std::vector<Vec3> randomOnSphere(int n, std::mt19937& random) {
    std::normal_distribution<double> gauss;
    std::vector<Vec3> points;
    for (int i = 0; i < n; ++i) points.push_back(Vec3(gauss(random), gauss(random), gauss(random)).normalized());
    return points;
}

TEST(ConvexHull, TetrahedronIsItself) {
    const std::vector<Vec3> points{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const auto hull = convexHull(points);
    ASSERT_TRUE(hull);
    EXPECT_EQ(hull->vertices, points);  // exactly the input points, in input order
    EXPECT_EQ(hull->triangles.size(), 4u);
    expectClosedSphere(*hull);
    expectContains(*hull, points, 0.0);
}

TEST(ConvexHull, ClutteredBoxKeepsOnlyItsCorners) {
    const Vec3 size(2.0, 3.0, 0.5);
    const std::vector<Vec3> corners = test::boxCorners(size);
    std::mt19937 random(7);
    for (int trial = 0; trial < 30; ++trial) {
        const std::vector<Vec3> points = clutteredBox(size, random);
        std::string error;
        const auto hull = convexHull(points, &error);
        ASSERT_TRUE(hull) << error;
        ASSERT_EQ(hull->vertices.size(), 8u) << "trial " << trial;
        EXPECT_EQ(hull->triangles.size(), 12u);
        for (const Vec3& v : hull->vertices) EXPECT_NE(std::find(corners.begin(), corners.end(), v), corners.end());
        expectClosedSphere(*hull);
        expectContains(*hull, points, 1e-12);
    }
}

TEST(ConvexHull, BoxFarFromTheOriginKeepsItsCorners) {
    std::mt19937 random(3);
    std::vector<Vec3> points = clutteredBox(Vec3(1e-3, 2e-3, 3e-3), random);
    for (Vec3& x : points) x += Vec3(1e4, -2e4, 5e3);
    const auto hull = convexHull(points);
    ASSERT_TRUE(hull);
    EXPECT_EQ(hull->vertices.size(), 8u);
    EXPECT_EQ(hull->triangles.size(), 12u);
    expectClosedSphere(*hull);
}

TEST(ConvexHull, PointsOnASphereAreAllVerticesOfAClosedOutwardHull) {
    std::mt19937 random(11);
    const std::vector<Vec3> points = randomOnSphere(1500, random);
    const auto hull = convexHull(points);
    ASSERT_TRUE(hull);
    EXPECT_EQ(hull->vertices.size(), points.size());
    EXPECT_EQ(hull->triangles.size(), 2 * points.size() - 4);  // a triangulated sphere: F = 2V - 4
    expectClosedSphere(*hull);
    expectContains(*hull, points, 1e-15);
    expectContainsExactly(*hull, points);
    for (const auto& t : hull->triangles) {  // outward: away from the centre inside
        const Vec3 centroid = (hull->vertices[t[0]] + hull->vertices[t[1]] + hull->vertices[t[2]]) / 3.0;
        EXPECT_GT(normalOf(*hull, t).dot(centroid), 0.0);
    }
}

TEST(ConvexHull, ManyPointsInACube) {
    std::mt19937 random(5);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::vector<Vec3> points;
    for (int i = 0; i < 50000; ++i) points.push_back(Vec3(unit(random), unit(random), unit(random)));
    const auto hull = convexHull(points);
    ASSERT_TRUE(hull);
    expectClosedSphere(*hull);
    expectContains(*hull, points, 1e-12);
    EXPECT_LT(hull->vertices.size(), 1000u);  // of the order of log(n)^2, not n
}

TEST(ConvexHull, ThinButSolidSlabHasAHull) {
    std::mt19937 random(13);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::vector<Vec3> points;
    for (int i = 0; i < 100; ++i) points.push_back(Vec3(unit(random), unit(random), 1e-7 * unit(random)));
    const auto hull = convexHull(points);
    ASSERT_TRUE(hull);
    expectClosedSphere(*hull);
    expectContains(*hull, points, 1e-9);  // a rim vertex within the tolerance (2.8e-10) of its neighbours' segment goes
}

// Rounding puts the points on a rotated box's faces on either side of the faces' planes,
// and the near-duplicates of points on a sphere within a hundred tolerances of each other:
// sides decided with the tolerance, rather than exactly, folded such hulls.
TEST(ConvexHull, RoundingAndNearDuplicatesKeepTheHullClosedAndConvex) {
    std::mt19937 random(19);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const Mat3 r = Eigen::AngleAxisd(2.2, Vec3(0.2, -1.0, 0.6).normalized()).toRotationMatrix();
    for (int trial = 0; trial < 10; ++trial) {
        std::vector<Vec3> box = clutteredBox(Vec3(2.0, 4.0, 1.0), random);
        for (Vec3& x : box)
            x = r * (x + 1e-12 * Vec3(unit(random), unit(random), unit(random))) + Vec3(3.0, -40.0, 7.0);
        const auto hull = convexHull(box);
        ASSERT_TRUE(hull);
        EXPECT_EQ(hull->vertices.size(), 8u);
        expectClosedSphere(*hull);
        expectContains(*hull, box, 1e-9);
    }
    std::vector<Vec3> sphere = randomOnSphere(1000, random);
    for (int i = 0; i < 300; ++i) sphere.push_back(sphere[i] + 1e-8 * Vec3(unit(random), unit(random), unit(random)));
    const auto hull = convexHull(sphere);
    ASSERT_TRUE(hull);
    EXPECT_GE(hull->vertices.size(), 1000u);
    expectClosedSphere(*hull);
    expectContains(*hull, sphere, 1e-9);
}

void expectNoHull(const std::vector<Vec3>& points, const std::string& reason) {
    std::string error;
    EXPECT_FALSE(convexHull(points, &error));
    EXPECT_NE(error.find(reason), std::string::npos) << error;
    EXPECT_FALSE(convexHull(points));  // without an error string too
}

TEST(ConvexHull, DegenerateSetsHaveNoHull) {
    expectNoHull({}, "at least 4 points, got 0");
    expectNoHull({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, "at least 4 points, got 3");
    expectNoHull(std::vector<Vec3>(10, Vec3(1, 2, 3)), "coincide");

    std::vector<Vec3> line;
    for (int i = 0; i < 20; ++i) line.push_back(Vec3(1, 2, 3) + 0.37 * i * Vec3(1, -1, 2));
    expectNoHull(line, "one line");

    // 100 points of a tilted plane, off it only by rounding.
    std::mt19937 random(17);
    std::uniform_real_distribution<double> unit(-5.0, 5.0);
    const Vec3 u = Vec3(1, 2, 2) / 3.0, w = Vec3(2, -2, 1) / 3.0;
    std::vector<Vec3> plane;
    for (int i = 0; i < 100; ++i) plane.push_back(Vec3(3, 1, -2) + unit(random) * u + unit(random) * w);
    expectNoHull(plane, "one plane");
}

TEST(ConvexHull, NonFiniteOrHugePointsHaveNoHull) {
    std::vector<Vec3> points{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
    points[3].y() = std::numeric_limits<double>::quiet_NaN();
    expectNoHull(points, "point 3 is not finite");
    points[3].y() = 0.0;
    points[4].z() = std::numeric_limits<double>::infinity();
    expectNoHull(points, "point 4 is not finite");
    points[4] = Vec3(1.0, -2e100, 1.0);  // its orientation determinants would overflow
    expectNoHull(points, "point 4 is farther than 1e100");
}

}  // namespace
}  // namespace tinkerbox
