#include "render/Camera.h"

#include <algorithm>
#include <cmath>

namespace tinkerbox {

namespace {
constexpr double kNear = 0.01;
constexpr double kFar = 1000.0;
constexpr double kDepth2D = 100.0;  // the 2D view looks down -z from z = +kDepth2D / 2
}  // namespace

void Camera::setViewport(int width, int height) {
    width_ = std::max(1, width);
    height_ = std::max(1, height);
}

void Camera::frame(const Vec3& low, const Vec3& high, const ViewInsets& insets) {
    const Vec3 centre = 0.5 * (low + high);
    const Vec3 size = (high - low).cwiseMax(Vec3::Constant(1e-3));
    const double freeWidth = std::max(50.0, width_ - insets.left - insets.right);
    const double freeHeight = std::max(50.0, height_ - insets.top - insets.bottom);
    // 2D: fit x and y with a margin, centred in the free part of the window.
    worldPerPixel_ = 1.15 * std::max(size.x() / freeWidth, size.y() / freeHeight);
    center_ = Vec3(centre.x() - 0.5 * (insets.left - insets.right) * worldPerPixel_,
                   centre.y() + 0.5 * (insets.top - insets.bottom) * worldPerPixel_, 0.0);
    // 3D: far enough that the bounding sphere fits the narrower free field of view.
    target_ = centre;
    const double fit = std::min(1.0, freeWidth / freeHeight);
    distance_ = std::max(0.5, 0.55 * size.norm() / (std::sin(0.5 * fovY_) * fit));
}

void Camera::zoomAbout(double x, double y, double factor) {
    if (!(factor > 0.0)) return;
    if (mode_ == Mode::TwoD) {
        const Vec3 before = ray(x, y).origin;
        worldPerPixel_ = std::clamp(worldPerPixel_ / factor, 1e-7, 1e4);
        const Vec3 after = ray(x, y).origin;
        center_ += Vec3(before.x() - after.x(), before.y() - after.y(), 0.0);
    } else {
        // Dolly toward the point under the cursor on the plane through the target.
        const Ray r = ray(x, y);
        const double along = (target_ - r.origin).dot(forward()) / r.direction.dot(forward());
        const Vec3 focus = r.origin + along * r.direction;
        const double newDistance = std::clamp(distance_ / factor, 0.05, 500.0);
        const double k = 1.0 - newDistance / distance_;
        target_ += k * (focus - target_);
        distance_ = newDistance;
    }
}

void Camera::pan(double dx, double dy) {
    if (mode_ == Mode::TwoD) {
        center_ += Vec3(-dx * worldPerPixel_, dy * worldPerPixel_, 0.0);
    } else {
        const Vec3 f = forward();
        const Vec3 right = f.cross(Vec3::UnitY()).normalized();
        const Vec3 up = right.cross(f);
        const double s = pixelSize(distance_);
        target_ += -dx * s * right + dy * s * up;
    }
}

void Camera::orbit(double dx, double dy) {
    yaw_ -= 0.008 * dx;
    pitch_ = std::clamp(pitch_ + 0.008 * dy, -1.5, 1.5);
}

Vec3 Camera::forward() const {
    if (mode_ == Mode::TwoD) return -Vec3::UnitZ();
    return -Vec3(std::cos(pitch_) * std::sin(yaw_), std::sin(pitch_), std::cos(pitch_) * std::cos(yaw_));
}

Vec3 Camera::eye() const {
    if (mode_ == Mode::TwoD) return center_ + Vec3(0.0, 0.0, 0.5 * kDepth2D);
    return target_ - distance_ * forward();
}

Mat4 Camera::view() const {
    const Vec3 f = forward();
    const Vec3 right = f.cross(Vec3::UnitY()).normalized();
    const Vec3 up = right.cross(f);
    const Vec3 e = eye();
    Mat4 m = Mat4::Identity();
    m.block<1, 3>(0, 0) = right.transpose();
    m.block<1, 3>(1, 0) = up.transpose();
    m.block<1, 3>(2, 0) = -f.transpose();
    m(0, 3) = -right.dot(e);
    m(1, 3) = -up.dot(e);
    m(2, 3) = f.dot(e);
    return m;
}

Mat4 Camera::projection() const {
    Mat4 p = Mat4::Zero();
    if (mode_ == Mode::TwoD) {
        const double halfW = 0.5 * width_ * worldPerPixel_, halfH = 0.5 * height_ * worldPerPixel_;
        p(0, 0) = 1.0 / halfW;
        p(1, 1) = 1.0 / halfH;
        // Depth: from the eye at z = +kDepth2D / 2 (near) to z = -kDepth2D / 2 (far), so
        // that bodies on either side of z = 0 are kept and occlude each other.
        p(2, 2) = -2.0 / kDepth2D;
        p(2, 3) = -1.0;
        p(3, 3) = 1.0;
        return p;
    }
    const double aspect = static_cast<double>(width_) / height_;
    const double f = 1.0 / std::tan(0.5 * fovY_);
    p(0, 0) = f / aspect;
    p(1, 1) = f;
    p(2, 2) = (kFar + kNear) / (kNear - kFar);
    p(2, 3) = 2.0 * kFar * kNear / (kNear - kFar);
    p(3, 2) = -1.0;
    return p;
}

Camera::Ray Camera::ray(double x, double y) const {
    // Normalized device coordinates of the pixel centre.
    const double nx = 2.0 * x / width_ - 1.0;
    const double ny = 1.0 - 2.0 * y / height_;
    const Vec3 f = forward();
    const Vec3 right = f.cross(Vec3::UnitY()).normalized();
    const Vec3 up = right.cross(f);
    if (mode_ == Mode::TwoD) {
        const Vec3 origin =
            eye() + nx * 0.5 * width_ * worldPerPixel_ * right + ny * 0.5 * height_ * worldPerPixel_ * up;
        return {origin, f};
    }
    const double tanHalf = std::tan(0.5 * fovY_);
    const double aspect = static_cast<double>(width_) / height_;
    const Vec3 direction = (f + nx * tanHalf * aspect * right + ny * tanHalf * up).normalized();
    return {eye(), direction};
}

Vec3 Camera::project(const Vec3& world) const {
    const Eigen::Vector4d clip = viewProjection() * world.homogeneous();
    const Vec3 ndc = clip.head<3>() / clip.w();
    return {(ndc.x() + 1.0) * 0.5 * width_, (1.0 - ndc.y()) * 0.5 * height_, (world - eye()).dot(forward())};
}

double Camera::pixelSize(double distance) const {
    if (mode_ == Mode::TwoD) return worldPerPixel_;
    return 2.0 * std::max(distance, kNear) * std::tan(0.5 * fovY_) / height_;
}

double Camera::pixelSizePerDistance() const {
    return mode_ == Mode::TwoD ? 0.0 : 2.0 * std::tan(0.5 * fovY_) / height_;
}

}  // namespace tinkerbox
