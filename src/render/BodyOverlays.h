#pragma once
// Markers for rigid bodies, as plain overlay segments and discs of a RenderFrame (seen
// through the bodies): the centre of mass, the body axes, the angular velocity and the
// contacts.
#include <span>

#include "core/collision/Contact.h"
#include "render/RenderFrame.h"

namespace tinkerbox {

// A small two-tone disc at the centre of mass.
void addCentreOfMass(RenderFrame& frame, const Vec3& centre);

// The body's x, y and z axes (red, green, blue), `length` long from origin.
void addBodyAxes(RenderFrame& frame, const Vec3& origin, const Eigen::Quaterniond& orientation, double length);

// The angular velocity omega (rad/s) at centre: an arrow along omega, `metresPerRadianPerSecond`
// long per rad/s, and an arrowed arc of radius `arcRadius` around it turning the way the
// body turns (right-hand rule), which still shows the sense of rotation when omega points
// at the viewer, as it does in the 2D view. Nothing for omega = 0.
void addAngularVelocity(RenderFrame& frame, const Vec3& centre, const Vec3& omega, double metresPerRadianPerSecond,
                        double arcRadius);

// Each contact point of the manifolds as a small dot, and its manifold's normal (from a
// toward b) as a line `normalLength` long from the point. Points that overlap (separation
// < 0) are drawn in a warmer colour than those that touch or are about to.
void addContacts(RenderFrame& frame, std::span<const ContactManifold> manifolds, double normalLength);

}  // namespace tinkerbox
