#pragma once
// An infinite plane barrier (ground, wall) for particles, Witkin, Particle System Dynamics, SIGGRAPH 2001 notes,
// section 7. The normal points to the legal side. Contact is resolved after each integrator step, at the velocity
// level, so every integrator gets the same behaviour:
// - collision (the particle was approaching the plane when the step began): the
//   normal velocity is reflected and scaled by the restitution, v' = vT - kr vN,
//   and the particle is put back on the surface;
// - resting contact (it was not approaching; this step's forces pushed it in): the
//   normal velocity is removed, which is the time integral of the notes' contact
//   force -(N.f)N, and the position is re-advanced with the corrected velocity;
// - Coulomb friction: the tangential velocity loses at most mu times the normal
//   velocity change, so a sliding particle decelerates at mu g and stops exactly
//   instead of reversing (the notes' linear drag -kf(-f.N)vT never stops it).
#include "core/math/Types.h"

namespace tinkerbox {

struct Plane {
    Vec3 point = Vec3::Zero();
    Vec3 normal = Vec3::UnitY();  // unit length
    double restitution = 0.5;     // kr: 0 no bounce, 0.9 superball
    double friction = 0.3;        // Coulomb coefficient mu

    bool operator==(const Plane&) const = default;
    double signedDistance(const Vec3& x) const { return (x - point).dot(normal); }
};

// Resolves one particle against one plane after a step of length h that started at
// (xBefore, vBefore). Returns true when the particle is in contact. heldImpulse: the normal
// impulse per unit mass the step itself applied to hold the particle on the plane (the
// implicit step's contact filter, Baraff & Witkin 1998, section 5.3); the particle then
// counts as in contact, and friction takes it into its bound as the plane's own.
bool resolvePlaneContact(const Plane& plane, const Vec3& xBefore, const Vec3& vBefore, double h, Vec3& x, Vec3& v,
                         double heldImpulse = 0.0);

}  // namespace tinkerbox
