#pragma once
// Volume, centre of mass and inertia tensor of the rigid-body shapes, for unit density: a body
// of density rho has rho x these, one of mass m has inertiaForMass(m). Exact for every shape:
// closed forms for the box and the sphere, and for a triangle mesh the sum over signed
// tetrahedra from a reference point of the tetrahedron's closed-form covariance (Tonon,
// "Explicit Exact Formulas for the 3-D Tetrahedron Inertia Tensor in Terms of its Vertex
// Coordinates", J. Math. Stat. 1(1), 2004; Blow and Binstock, "How to find the inertia tensor
// (or other mass properties) of a 3D solid body represented by a triangle mesh", 2004).
// Everything is in the shape's own frame (RigidBodySpec::position, orientation).
#include "core/bodies/ConvexHull.h"
#include "core/bodies/Shape.h"
#include "core/math/Rotation.h"

namespace tinkerbox {

struct MassProperties {
    double volume = 0.0;
    Vec3 centerOfMass = Vec3::Zero();
    // About the centre of mass, along the shape frame's axes, for unit density (m^5).
    Mat3 inertia = Mat3::Zero();

    // The inertia tensor of a body of this shape and the given mass.
    Mat3 inertiaForMass(double mass) const { return inertia * (mass / volume); }
};

// Throws std::invalid_argument for an edge length or radius that is not positive and finite.
MassProperties massProperties(const BoxShape& box);
MassProperties massProperties(const SphereShape& sphere);
// Any closed triangle mesh with outward (counter-clockwise) triangles, not only a hull.
// Throws std::invalid_argument when its volume is not positive (inward triangles, or a mesh
// that is open or flat).
MassProperties massProperties(const ConvexHull& mesh);
// The entry the simulation uses: a ConvexShape is the hull of its points. Throws
// std::invalid_argument as above, or with convexHull's reason when its points have no hull.
MassProperties massProperties(const Shape& shape);

// inertia = R diag(moments) R^T: the principal axes are the columns of R = rotation (a proper
// rotation), the principal moments ascend.
struct PrincipalAxes {
    Quat rotation = Quat::Identity();
    Vec3 moments = Vec3::Zero();
};
PrincipalAxes principalAxes(const Mat3& inertia);

}  // namespace tinkerbox
