#pragma once
// A rigid body as a scene describes it (Baraff, Rigid Body Simulation, SIGGRAPH 2001 notes):
// a shape in the body's frame, its mass (given, or from a density), and the body's
// position, orientation and velocities. The simulation keeps the body by its centre of
// mass; `position` is the origin of the frame the shape is given in (for a box or a sphere
// that is the centre of mass; for a convex hull it need not be).
#include "core/bodies/Shape.h"
#include "core/math/Rotation.h"

namespace tinkerbox {

struct RigidBodySpec {
    Shape shape = BoxShape{};
    // Exactly one of mass and density is positive; the other is 0. The mass of a body
    // given by density is density x volume.
    double mass = 1.0;
    double density = 0.0;
    Vec3 position = Vec3::Zero();
    Quat orientation = Quat::Identity();  // unit
    Vec3 velocity = Vec3::Zero();         // of the centre of mass
    Vec3 angularVelocity = Vec3::Zero();  // world frame, rad/s
    bool fixed = false;                   // infinite mass: never moves
    // The surface: Coulomb friction coefficient and coefficient of restitution (0 no bounce,
    // 1 elastic), combined with the other surface's at a contact (core/collision/Contact.h).
    double friction = 0.5;
    double restitution = 0.2;

    bool operator==(const RigidBodySpec& o) const {
        return shape == o.shape && mass == o.mass && density == o.density && position == o.position &&
               orientation.coeffs() == o.orientation.coeffs() && velocity == o.velocity &&
               angularVelocity == o.angularVelocity && fixed == o.fixed && friction == o.friction &&
               restitution == o.restitution;
    }
};

}  // namespace tinkerbox
