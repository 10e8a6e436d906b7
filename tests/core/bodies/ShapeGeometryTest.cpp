// Support points (Gilbert, Johnson and Keerthi 1988) and bounding radii against the shapes'
// closed forms and brute force over their extreme points.
#include "core/bodies/ShapeGeometry.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

namespace tinkerbox {
namespace {

TEST(ShapeGeometry, BoxSupportIsTheCornerOnTheDirectionsSide) {
    const Shape box = BoxShape{Vec3(2.0, 4.0, 6.0)};
    EXPECT_EQ(support(box, Vec3(0.3, -2.0, 0.1)), Vec3(1.0, -2.0, 3.0));
    EXPECT_EQ(support(box, Vec3(-1.0, 0.0, -0.5)), Vec3(-1.0, 2.0, -3.0));  // a tie goes to +size/2
}

TEST(ShapeGeometry, SphereSupportIsOnTheRayOfTheDirection) {
    const Shape sphere = SphereShape{0.5};
    EXPECT_TRUE(support(sphere, Vec3(3.0, 0.0, -4.0)).isApprox(Vec3(0.3, 0.0, -0.4), 1e-15));
    EXPECT_NEAR(support(sphere, Vec3::Zero()).norm(), 0.5, 1e-15);
}

TEST(ShapeGeometry, ConvexSupportIsTheFarthestPoint) {
    const Shape convex = ConvexShape{{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 2, 0), Vec3(0, 0, 3), Vec3(0.2, 0.2, 0.2)}};
    EXPECT_EQ(support(convex, Vec3(1, 0.4, 0.3)), Vec3(1, 0, 0));  // 1 > 0.8, 0.9
    EXPECT_EQ(support(convex, Vec3(1, 0.4, 0.4)), Vec3(0, 0, 3));  // 1.2
    EXPECT_EQ(support(convex, Vec3(-1, -1, -1)), Vec3(0, 0, 0));
    EXPECT_THROW(support(Shape{ConvexShape{}}, Vec3::UnitX()), std::invalid_argument);
}

// Over many directions no point of the shape is farther than the bounding radius, and the
// farthest corner reaches it.
TEST(ShapeGeometry, BoundingRadiusReachesTheFarthestPoint) {
    const Vec3 center(0.1, -0.3, 0.2);
    const Shape box = BoxShape{Vec3(1.0, 2.0, 3.0)};
    EXPECT_NEAR(boundingRadius(box, center), Vec3(0.6, 1.3, 1.7).norm(), 1e-15);  // the corner (-0.5, 1, -1.5)
    EXPECT_NEAR(boundingRadius(SphereShape{0.5}, center), 0.5 + center.norm(), 1e-15);
    const Shape convex = ConvexShape{{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 2, 0), Vec3(0, 0, 3)}};
    EXPECT_NEAR(boundingRadius(convex, center), (Vec3(0, 0, 3) - center).norm(), 1e-15);

    std::mt19937 random(2);
    std::normal_distribution<double> gauss;
    for (const Shape& shape : {box, Shape{SphereShape{0.5}}, convex}) {
        const double radius = boundingRadius(shape, center);
        double farthest = 0.0;
        for (int i = 0; i < 2000; ++i) {
            const Vec3 x = support(shape, Vec3(gauss(random), gauss(random), gauss(random)));
            EXPECT_LE((x - center).norm(), radius * (1.0 + 1e-15));
            farthest = std::max(farthest, (x - center).norm());
        }
        EXPECT_GT(farthest, 0.99 * radius);
    }
}

}  // namespace
}  // namespace tinkerbox
