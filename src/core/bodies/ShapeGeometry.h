#pragma once
// What contact detection asks of a shape, in the shape's own frame: its farthest point in a
// direction (the support mapping of Gilbert, Johnson and Keerthi, "A Fast Procedure for
// Computing the Distance Between Complex Objects in Three-Dimensional Space", IEEE Journal
// of Robotics and Automation 4(2), 1988) and the radius of a ball about a point that holds it.
#include "core/bodies/RigidBodySpec.h"

namespace tinkerbox {

// A point of the shape farthest along direction (which need not be unit). A box breaks ties
// towards +size/2; a zero direction gives a point of the shape's surface. A ConvexShape
// scans its points (O(n); pass one made of its hull's vertices to scan fewer) and throws
// std::invalid_argument when it has none.
Vec3 support(const Shape& shape, const Vec3& direction);

// The largest distance from center to a point of the shape: with the centre of mass as
// center, the bounding sphere that moves with the body.
double boundingRadius(const Shape& shape, const Vec3& center);

}  // namespace tinkerbox
