#pragma once
// Markers for rigid bodies, as plain overlay segments and discs of a RenderFrame (seen
// through the bodies): the centre of mass, the body axes and the angular velocity.
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

}  // namespace tinkerbox
