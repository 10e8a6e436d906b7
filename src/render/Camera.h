#pragma once
// The view: the z = 0 plane seen head-on (2D, orthographic, y up), or a 3D orbit around a
// target (perspective). Pure math, no GL: the app asks it for matrices, for the ray under
// a pixel, and for how big a pixel is at some depth.
#include <Eigen/Core>

#include "core/math/Types.h"

namespace tinkerbox {

using Mat4 = Eigen::Matrix4d;

// Pixels along each edge of the window that panels cover.
struct ViewInsets {
    double left = 0.0, right = 0.0, top = 0.0, bottom = 0.0;
};

class Camera {
public:
    enum class Mode { TwoD, ThreeD };

    Mode mode() const { return mode_; }
    void setMode(Mode mode) { mode_ = mode; }
    void setViewport(int width, int height);
    int width() const { return width_; }
    int height() const { return height_; }

    // Shows the axis-aligned box [low, high] whole (with a margin), in either mode, inside
    // the part of the window the insets (pixels covered by panels) leave free.
    void frame(const Vec3& low, const Vec3& high, const ViewInsets& insets = {});

    // Wheel zoom: factor > 1 zooms in; the point under the pixel (x, y) stays under it.
    void zoomAbout(double x, double y, double factor);
    // Middle-drag pan by a pixel delta: the scene follows the pointer.
    void pan(double dx, double dy);
    // 3D: orbit around the target by a pixel delta.
    void orbit(double dx, double dy);

    Mat4 view() const;
    Mat4 projection() const;
    Mat4 viewProjection() const { return projection() * view(); }

    struct Ray {
        Vec3 origin, direction;  // direction unit length
    };
    // The ray through pixel (x, y), y down from the top of the window.
    Ray ray(double x, double y) const;
    // Window pixel of a world point (y down); z is the depth along the view direction.
    Vec3 project(const Vec3& world) const;
    // World length of one pixel at a distance along the view direction (2D: everywhere).
    double pixelSize(double distance = 0.0) const;
    // How pixel sizes grow with distance: 0 in 2D.
    double pixelSizePerDistance() const;

    Vec3 eye() const;
    Vec3 forward() const;  // unit view direction
    const Vec3& target() const { return target_; }

    // 2D view state, exposed for tests and for saving the view.
    const Vec3& center2D() const { return center_; }
    double worldPerPixel2D() const { return worldPerPixel_; }

private:
    Mode mode_ = Mode::TwoD;
    int width_ = 1280, height_ = 800;
    // 2D
    Vec3 center_ = Vec3::Zero();
    double worldPerPixel_ = 0.01;
    // 3D
    Vec3 target_ = Vec3::Zero();
    double yaw_ = 0.6, pitch_ = 0.35, distance_ = 6.0;
    double fovY_ = 0.8;  // radians
};

}  // namespace tinkerbox
