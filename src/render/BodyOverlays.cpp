#include "render/BodyOverlays.h"

#include <cmath>
#include <numbers>

namespace tinkerbox {

namespace {

constexpr Color kCentreOfMass{0.98f, 0.98f, 0.98f, 1.0f};
constexpr Color kCentreOfMassRim{0.05f, 0.05f, 0.06f, 1.0f};
constexpr Color kAxisColors[3] = {
    {0.95f, 0.30f, 0.30f, 1.0f}, {0.35f, 0.85f, 0.35f, 1.0f}, {0.35f, 0.55f, 1.00f, 1.0f}};
constexpr Color kAngularVelocity{1.00f, 0.55f, 0.90f, 1.0f};
constexpr Color kContact{1.00f, 0.85f, 0.20f, 1.0f};      // touching, or within the margin
constexpr Color kPenetrating{1.00f, 0.35f, 0.20f, 1.0f};  // overlapping
constexpr Color kContactRim{0.05f, 0.05f, 0.06f, 1.0f};
constexpr float kOverlayWidth = 2.0f;  // pixels

// Two strokes from tip back along -direction, 25 degrees either side in the plane of
// direction and side (both unit, perpendicular).
void addArrowHead(RenderFrame& frame, const Vec3& tip, const Vec3& direction, const Vec3& side, double length) {
    const double c = std::cos(25.0 * std::numbers::pi / 180.0), s = std::sin(25.0 * std::numbers::pi / 180.0);
    for (double sign : {-1.0, 1.0})
        frame.overlaySegments.push_back(
            {tip, tip - length * (c * direction + sign * s * side), kOverlayWidth, kAngularVelocity});
}

}  // namespace

void addCentreOfMass(RenderFrame& frame, const Vec3& centre) {
    frame.overlayDiscs.push_back({centre, 4.0f, kCentreOfMass, kCentreOfMassRim, 1.5f});
}

void addBodyAxes(RenderFrame& frame, const Vec3& origin, const Eigen::Quaterniond& orientation, double length) {
    const Mat3 rotation = orientation.normalized().toRotationMatrix();
    for (int k = 0; k < 3; ++k)
        frame.overlaySegments.push_back({origin, origin + length * rotation.col(k), kOverlayWidth, kAxisColors[k]});
}

void addAngularVelocity(RenderFrame& frame, const Vec3& centre, const Vec3& omega, double metresPerRadianPerSecond,
                        double arcRadius) {
    const std::optional<Vec3> axis = unitVector(omega);
    if (!axis) return;
    // u, v span the plane of rotation; turning from u toward v is turning about +axis.
    const Vec3 u = (std::abs(axis->x()) < 0.9 ? axis->cross(Vec3::UnitX()) : axis->cross(Vec3::UnitY())).normalized();
    const Vec3 v = axis->cross(u);

    const Vec3 tip = centre + metresPerRadianPerSecond * omega;
    const double shaft = (tip - centre).norm();
    frame.overlaySegments.push_back({centre, tip, kOverlayWidth, kAngularVelocity});
    addArrowHead(frame, tip, *axis, u, 0.2 * shaft);

    // Three quarters of a circle, from angle 0 to 3 pi / 2.
    constexpr int kPieces = 24;
    const auto at = [&](double angle) { return centre + arcRadius * (std::cos(angle) * u + std::sin(angle) * v); };
    const double end = 1.5 * std::numbers::pi;
    for (int k = 0; k < kPieces; ++k)
        frame.overlaySegments.push_back(
            {at(end * k / kPieces), at(end * (k + 1) / kPieces), kOverlayWidth, kAngularVelocity});
    const Vec3 tangent = -std::sin(end) * u + std::cos(end) * v;
    const Vec3 outward = std::cos(end) * u + std::sin(end) * v;
    addArrowHead(frame, at(end), tangent, outward, 0.35 * arcRadius);
}

void addContacts(RenderFrame& frame, std::span<const ContactManifold> manifolds, double normalLength) {
    for (const ContactManifold& m : manifolds)
        for (int i = 0; i < m.count; ++i) {
            const ContactPoint& p = m.points[static_cast<std::size_t>(i)];
            const Color color = p.separation < 0.0 ? kPenetrating : kContact;
            frame.overlaySegments.push_back({p.position, p.position + normalLength * m.normal, 1.5f, color});
            frame.overlayDiscs.push_back({p.position, 3.0f, color, kContactRim, 1.0f});
        }
}

}  // namespace tinkerbox
