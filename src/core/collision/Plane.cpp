#include "core/collision/Plane.h"

#include <algorithm>

namespace tinkerbox {

namespace {
// Particles closer than this to the surface count as touching it.
constexpr double kContactSlop = 1e-9;
// A particle is approaching (colliding) only if its normal speed exceeds rounding, relative
// to its speed. After a resting correction on a tilted plane, vBefore.N is noise of either
// sign (about 1e-17 |v|); taken as a collision it would bounce a sliding particle.
constexpr double kApproachSlop = 1e-9;
}  // namespace

bool resolvePlaneContact(const Plane& plane, const Vec3& xBefore, const Vec3& vBefore, double h, Vec3& x, Vec3& v,
                         double heldImpulse) {
    const Vec3& N = plane.normal;
    const double d = plane.signedDistance(x);
    if (d >= kContactSlop) return false;
    const double vn = v.dot(N);
    const bool held = heldImpulse > 0.0;
    if (vn >= 0.0 && !held) {
        if (d < 0.0)
            x -=
                d * N;  // leaving, but still inside: displace the point (Witkin, Particle System Dynamics, section 7.1)
        return d < 0.0;
    }
    const bool colliding = vBefore.dot(N) < -kApproachSlop * vBefore.norm();
    // A held particle leaves with the step's rounding of its normal velocity, or rests.
    const double vnAfter = colliding ? -plane.restitution * vn : std::max(vn, 0.0);
    const double normalImpulse = vnAfter - vn + heldImpulse;  // per unit mass, > 0
    Vec3 vt = v - vn * N;
    const double speed = vt.norm();
    if (speed > 0.0) vt *= std::max(0.0, 1.0 - plane.friction * normalImpulse / speed);
    v = vt + vnAfter * N;
    if (colliding) {
        if (d < 0.0) x -= d * N;
    } else {
        // Resting: the step's motion follows the corrected velocity, and the particle sits on the surface.
        x = xBefore + h * v;
        x -= plane.signedDistance(x) * N;
    }
    return true;
}

}  // namespace tinkerbox
