#include "render/Camera.h"

#include <gtest/gtest.h>

namespace tinkerbox {
namespace {

Camera camera2D() {
    Camera c;
    c.setViewport(800, 600);
    c.frame(Vec3(-2, -1, 0), Vec3(2, 1, 0));
    return c;
}

Camera camera3D() {
    Camera c = camera2D();
    c.setMode(Camera::Mode::ThreeD);
    c.frame(Vec3(-1, -1, -1), Vec3(1, 1, 1));
    return c;
}

TEST(Camera, TwoDLooksDownZWithYUp) {
    const Camera c = camera2D();
    const Camera::Ray centre = c.ray(400, 300);
    EXPECT_TRUE(centre.direction.isApprox(-Vec3::UnitZ()));
    EXPECT_NEAR(centre.origin.x(), 0.0, 1e-12);
    EXPECT_NEAR(centre.origin.y(), 0.0, 1e-12);
    EXPECT_GT(c.ray(400, 100).origin.y(), 0.0);  // up the window is up the world
    EXPECT_GT(c.ray(700, 300).origin.x(), 0.0);
}

TEST(Camera, FrameShowsTheWholeBox) {
    for (const Camera& c : {camera2D(), camera3D()})
        for (const Vec3& corner : {Vec3(-1, -1, 0), Vec3(1, 1, 0), Vec3(-1, 1, 0), Vec3(1, -1, 0)}) {
            const Vec3 p = c.project(corner);
            EXPECT_GT(p.x(), 0.0);
            EXPECT_LT(p.x(), 800.0);
            EXPECT_GT(p.y(), 0.0);
            EXPECT_LT(p.y(), 600.0);
        }
}

TEST(Camera, FrameKeepsTheBoxInTheFreePartOfTheWindow) {
    Camera c;
    c.setViewport(1000, 600);
    c.frame(Vec3(-1, -1, 0), Vec3(1, 1, 0), {300.0, 100.0, 0.0, 0.0});
    const Vec3 centre = c.project(Vec3::Zero());
    EXPECT_NEAR(centre.x(), 300.0 + 0.5 * (1000.0 - 400.0), 1e-9);
    EXPECT_GT(c.project(Vec3(-1, 0, 0)).x(), 300.0);
    EXPECT_LT(c.project(Vec3(1, 0, 0)).x(), 900.0);
}

TEST(Camera, ProjectAndRayAgree) {
    for (Camera c : {camera2D(), camera3D()}) {
        const Vec3 world(0.3, -0.4, c.mode() == Camera::Mode::TwoD ? 0.0 : 0.2);
        const Vec3 pixel = c.project(world);
        const Camera::Ray r = c.ray(pixel.x(), pixel.y());
        const double t = (world - r.origin).dot(r.direction);
        EXPECT_LT((r.origin + t * r.direction - world).norm(), 1e-9);
    }
}

TEST(Camera, ZoomKeepsThePointUnderTheCursor) {
    Camera c = camera2D();
    const Vec3 before = c.ray(650, 120).origin;
    c.zoomAbout(650, 120, 1.7);
    const Vec3 after = c.ray(650, 120).origin;
    EXPECT_NEAR(before.x(), after.x(), 1e-12);
    EXPECT_NEAR(before.y(), after.y(), 1e-12);
    EXPECT_NEAR(c.pixelSize(), camera2D().pixelSize() / 1.7, 1e-15);
}

TEST(Camera, PanMovesTheSceneWithThePointer) {
    Camera c = camera2D();
    const Vec3 grabbed = c.ray(300, 200).origin;
    c.pan(50, -30);
    const Vec3 now = c.ray(350, 170).origin;
    EXPECT_NEAR(grabbed.x(), now.x(), 1e-12);
    EXPECT_NEAR(grabbed.y(), now.y(), 1e-12);
}

TEST(Camera, ThreeDZoomDolliesAndPixelsGrowWithDistance) {
    Camera c = camera3D();
    const double distance = (c.eye() - c.target()).norm();
    c.zoomAbout(400, 300, 2.0);
    EXPECT_NEAR((c.eye() - c.target()).norm(), distance / 2.0, 1e-9);
    EXPECT_GT(c.pixelSizePerDistance(), 0.0);
    EXPECT_NEAR(c.pixelSize(10.0), 2.0 * c.pixelSize(5.0), 1e-12);
    EXPECT_EQ(camera2D().pixelSizePerDistance(), 0.0);
}

TEST(Camera, OrbitTurnsAroundTheTarget) {
    Camera c = camera3D();
    const Vec3 target = c.target();
    const double distance = (c.eye() - target).norm();
    c.orbit(120, 40);
    EXPECT_EQ(c.target(), target);
    EXPECT_NEAR((c.eye() - target).norm(), distance, 1e-9);
    EXPECT_NEAR(c.project(target).x(), 400.0, 1e-6);  // still in the middle
}

TEST(Camera, TwoDKeepsDepthOnBothSidesOfThePlane) {
    // Bodies have thickness: points before and behind z = 0 are inside the depth range,
    // nearer the viewer (larger z) at smaller depth.
    const Camera c = camera2D();
    const auto depth = [&](double z) {
        const Eigen::Vector4d clip = c.viewProjection() * Eigen::Vector4d(0.3, -0.2, z, 1.0);
        return clip.z() / clip.w();
    };
    EXPECT_NEAR(depth(0.0), 0.0, 1e-12);
    EXPECT_NEAR(depth(10.0), -0.2, 1e-12);
    EXPECT_NEAR(depth(-10.0), 0.2, 1e-12);
}

}  // namespace
}  // namespace tinkerbox
