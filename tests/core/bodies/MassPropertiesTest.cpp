// Mass properties against closed forms: the box I = V/12 diag(b^2 + c^2, ...), the sphere
// I = 2/5 m r^2, the regular tetrahedron I = m a^2 / 20, and a general tetrahedron's
// covariance from the canonical one (Blow and Binstock 2004; Tonon 2004), checked in turn by
// the 4-point quadrature exact for quadratics (Keast, "Moderate-degree tetrahedral
// quadrature formulas", CMAME 55, 1986).
#include "core/bodies/MassProperties.h"

#include <gtest/gtest.h>

#include <numbers>
#include <random>
#include <stdexcept>

#include "core/TestSystems.h"

namespace tinkerbox {
namespace {

ConvexHull hullOf(const std::vector<Vec3>& points) {
    std::string error;
    const auto hull = convexHull(points, &error);
    EXPECT_TRUE(hull) << error;
    return hull.value_or(ConvexHull{});
}

void expectRelativelyNear(const MassProperties& got, const MassProperties& expected, double relative, double length) {
    EXPECT_NEAR(got.volume, expected.volume, relative * expected.volume);
    EXPECT_LE((got.centerOfMass - expected.centerOfMass).norm(), relative * length);
    EXPECT_LE((got.inertia - expected.inertia).norm(), relative * expected.inertia.norm());
    EXPECT_EQ(got.inertia, got.inertia.transpose());
}

// A tetrahedron (v0, v1, v2, v3) as the affine image v0 + A x of the canonical one, A =
// [v1 - v0, v2 - v0, v3 - v0]: its covariance about v0 is det(A) A C' A^T with
// C' = 1/120 [[2, 1, 1], [1, 2, 1], [1, 1, 2]] (Blow and Binstock 2004).
MassProperties tetrahedronClosedForm(const std::array<Vec3, 4>& v) {
    Mat3 a;
    a << v[1] - v[0], v[2] - v[0], v[3] - v[0];
    Mat3 canonical;
    canonical << 2, 1, 1, 1, 2, 1, 1, 1, 2;
    canonical /= 120.0;
    const double det = a.determinant();
    MassProperties result;
    result.volume = std::abs(det) / 6.0;
    result.centerOfMass = (v[0] + v[1] + v[2] + v[3]) / 4.0;
    const Vec3 c = result.centerOfMass - v[0];
    const Mat3 covariance = std::abs(det) * a * canonical * a.transpose() - result.volume * c * c.transpose();
    result.inertia = covariance.trace() * Mat3::Identity() - covariance;
    return result;
}

TEST(MassProperties, BoxClosedForm) {
    const MassProperties box = massProperties(BoxShape{Vec3(1.0, 2.0, 3.0)});
    EXPECT_EQ(box.volume, 6.0);
    EXPECT_EQ(box.centerOfMass, Vec3::Zero());
    EXPECT_EQ(box.inertia, Vec3(6.5, 5.0, 2.5).asDiagonal().toDenseMatrix());  // 6/12 (4 + 9, 1 + 9, 1 + 4)
    // A 3 kg body of this shape: m/12 (b^2 + c^2) ...
    EXPECT_TRUE(box.inertiaForMass(3.0).isApprox(Vec3(3.25, 2.5, 1.25).asDiagonal().toDenseMatrix(), 1e-15));
}

TEST(MassProperties, SphereClosedForm) {
    const double r = 0.7;
    const MassProperties sphere = massProperties(SphereShape{r});
    EXPECT_NEAR(sphere.volume, 4.0 / 3.0 * std::numbers::pi * r * r * r, 1e-15);
    EXPECT_EQ(sphere.centerOfMass, Vec3::Zero());
    const double m = 2.5;
    EXPECT_TRUE(sphere.inertiaForMass(m).isApprox(0.4 * m * r * r * Mat3::Identity(), 1e-14));
}

TEST(MassProperties, HullOfAClutteredBoxIsTheBox) {
    const Vec3 size(2.0, 3.0, 0.5);
    std::vector<Vec3> points = test::boxCorners(size);
    points.push_back(Vec3(0.3, -0.2, 0.1));   // inside
    points.push_back(Vec3(1.0, 0.4, -0.1));   // on a face
    points.push_back(Vec3(-1.0, 1.5, 0.05));  // on an edge
    points.push_back(points[5]);              // a duplicate
    const ConvexHull hull = hullOf(points);
    EXPECT_EQ(hull.vertices.size(), 8u);
    EXPECT_EQ(hull.triangles.size(), 12u);
    expectRelativelyNear(massProperties(hull), massProperties(BoxShape{size}), 1e-12, size.norm());
}

TEST(MassProperties, RotatedTranslatedBoxHullHasRotatedInertia) {
    const Vec3 size(0.4, 1.1, 2.3);
    const Mat3 r = Eigen::AngleAxisd(0.83, Vec3(1, -2, 0.5).normalized()).toRotationMatrix();
    const Vec3 t(12.0, -3.5, 7.25);
    std::vector<Vec3> points = test::boxCorners(size);
    for (Vec3& x : points) x = r * x + t;
    const MassProperties box = massProperties(BoxShape{size});
    MassProperties expected = box;
    expected.centerOfMass = t;
    expected.inertia = r * box.inertia * r.transpose();
    expectRelativelyNear(massProperties(hullOf(points)), expected, 1e-12, size.norm());
}

TEST(MassProperties, RegularTetrahedron) {
    // Edge a = 2 sqrt(2): V = a^3 / (6 sqrt 2) = 8/3, I = m a^2 / 20 on every axis = 16/15.
    const std::vector<Vec3> points{{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
    MassProperties expected;
    expected.volume = 8.0 / 3.0;
    expected.inertia = 16.0 / 15.0 * Mat3::Identity();
    expectRelativelyNear(massProperties(hullOf(points)), expected, 1e-14, 1.0);
}

TEST(MassProperties, GeneralTetrahedron) {
    const std::array<Vec3, 4> v{Vec3(0.3, -1.2, 2.0), Vec3(2.1, 0.4, 1.7), Vec3(-0.5, 1.9, 2.6), Vec3(0.8, 0.2, -0.9)};
    const MassProperties expected = tetrahedronClosedForm(v);

    // The closed form agrees with the 4-point quadrature, exact for the quadratic x x^T.
    const double alpha = 0.5854101966249685, beta = 0.1381966011250105;
    Mat3 second = Mat3::Zero();
    for (int k = 0; k < 4; ++k) {
        Vec3 x = alpha * v[k];
        for (int j = 0; j < 4; ++j)
            if (j != k) x += beta * v[j];
        const Vec3 d = x - expected.centerOfMass;
        second += expected.volume / 4.0 * d * d.transpose();
    }
    EXPECT_TRUE((second.trace() * Mat3::Identity() - second).isApprox(expected.inertia, 1e-13));
    EXPECT_NEAR(expected.volume, std::abs((v[1] - v[0]).dot((v[2] - v[0]).cross(v[3] - v[0]))) / 6.0, 1e-15);

    expectRelativelyNear(massProperties(hullOf({v.begin(), v.end()})), expected, 1e-13, 3.0);
}

TEST(MassProperties, ShapeEntryFollowsTheShape) {
    const Vec3 size(1.0, 0.5, 0.25);
    EXPECT_EQ(massProperties(Shape{BoxShape{size}}).inertia, massProperties(BoxShape{size}).inertia);
    EXPECT_EQ(massProperties(Shape{SphereShape{0.3}}).volume, massProperties(SphereShape{0.3}).volume);

    // A convex shape's frame need not be at its centre of mass.
    std::vector<Vec3> points = test::boxCorners(size);
    for (Vec3& x : points) x += Vec3(0.5, 0.0, 1.0);
    points.push_back(Vec3(0.5, 0.0, 1.0));
    const MassProperties convex = massProperties(Shape{ConvexShape{points}});
    expectRelativelyNear(
        convex,
        [&] {
            MassProperties box = massProperties(BoxShape{size});
            box.centerOfMass = Vec3(0.5, 0.0, 1.0);
            return box;
        }(),
        1e-12, 1.0);
}

TEST(MassProperties, InvalidShapesAreRejected) {
    EXPECT_THROW(massProperties(BoxShape{Vec3(1.0, 0.0, 1.0)}), std::invalid_argument);
    EXPECT_THROW(massProperties(BoxShape{Vec3(1.0, 1.0, std::numeric_limits<double>::infinity())}),
                 std::invalid_argument);
    EXPECT_THROW(massProperties(SphereShape{-1.0}), std::invalid_argument);
    EXPECT_THROW(massProperties(SphereShape{std::numeric_limits<double>::quiet_NaN()}), std::invalid_argument);
    try {
        massProperties(Shape{ConvexShape{{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0)}}});
        ADD_FAILURE() << "a flat convex shape has no mass properties";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("one plane"), std::string::npos) << e.what();
    }
    // A mesh turned inside out has a negative volume.
    ConvexHull inverted = hullOf({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
    for (auto& t : inverted.triangles) std::swap(t[1], t[2]);
    EXPECT_THROW(massProperties(inverted), std::invalid_argument);
}

TEST(MassProperties, PrincipalAxesDiagonalizeTheInertia) {
    const Mat3 r = Eigen::AngleAxisd(-1.2, Vec3(0.3, 1.0, -0.7).normalized()).toRotationMatrix();
    const Mat3 inertia = r * Vec3(2.5, 6.5, 5.0).asDiagonal() * r.transpose();
    const PrincipalAxes axes = principalAxes(inertia);
    EXPECT_TRUE(axes.moments.isApprox(Vec3(2.5, 5.0, 6.5), 1e-13));
    const Mat3 rotation = axes.rotation.toRotationMatrix();
    EXPECT_NEAR(rotation.determinant(), 1.0, 1e-14);
    EXPECT_TRUE((rotation * axes.moments.asDiagonal() * rotation.transpose()).isApprox(inertia, 1e-13));
}

}  // namespace
}  // namespace tinkerbox
