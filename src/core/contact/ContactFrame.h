#pragma once
// What the contact models share about a manifold: its surface, the directions its points
// slide along, and where its colliders' velocities are.
#include "core/collision/Contact.h"

namespace tinkerbox {

class World;

// The surface of the pair: both materials combined (Contact.h), or the one side's that has
// one (a particle has none).
ContactMaterial manifoldMaterial(const World& world, const ContactManifold& manifold);

// The tangents of a contact normal: two orthonormal ones in 3D; in a planar world the one in
// the plane (x for a normal out of it, where nothing can slide) and t2 = 0.
void contactTangents(const World& world, const Vec3& normal, Vec3& t1, Vec3& t2);

// The velocity blocks of a collider (-1: none) and the arm from its centre of mass to the point.
void colliderBlocks(const World& world, const ColliderRef& c, const Vec3& point, Index& linear, Index& angular,
                    Vec3& arm);

}  // namespace tinkerbox
