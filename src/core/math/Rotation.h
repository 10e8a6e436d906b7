#pragma once
// Rotations as unit quaternions (Baraff, Rigid Body Simulation, SIGGRAPH 2001 notes, section 4:
// qdot = 1/2 [0, omega] q) and the small helpers the rigid-body code shares.
#include "core/math/Types.h"

namespace tinkerbox {

using Quat = Eigen::Quaterniond;

// [v]x: skew(a) b = a x b.
inline Mat3 skew(const Vec3& a) {
    Mat3 m;
    m << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
    return m;
}

// dq/dt = 1/2 [0, omega] q, omega in world coordinates, as the 4 numbers (w, x, y, z).
inline Eigen::Vector4d quaternionRate(const Quat& q, const Vec3& omega) {
    const Quat w(0.0, omega.x(), omega.y(), omega.z());
    const Quat r = w * q;
    return 0.5 * Eigen::Vector4d(r.w(), r.x(), r.y(), r.z());
}

// exp(h omega / 2) q, renormalized: the exact rotation by the angle h |omega| about omega.
// Drifting along it keeps q a unit quaternion whatever the step, which a step along
// quaternionRate does not.
inline Quat rotateBy(const Quat& q, const Vec3& rotationVector) {
    const double angle = rotationVector.norm();
    if (angle == 0.0) return q;
    const Quat dq(Eigen::AngleAxisd(angle, rotationVector / angle));
    return (dq * q).normalized();
}

// Two unit vectors that complete a unit vector n to a right-handed orthonormal frame
// (u, w, n); for n = z it is (x, y).
inline void orthonormalComplement(const Vec3& n, Vec3& u, Vec3& w) {
    // Gram-Schmidt on the axis least aligned with n, so that u is never short, and for
    // n = z the frame is (x, y): angles in the xy plane are measured from +x.
    Index axis;
    n.cwiseAbs().minCoeff(&axis);
    const Vec3 e = Vec3::Unit(axis);
    u = (e - e.dot(n) * n).normalized();
    w = n.cross(u);
}

}  // namespace tinkerbox
