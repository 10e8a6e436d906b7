#pragma once
// What contact detection finds and contact response works on (Baraff, Rigid Body Simulation
// II: Nonpenetration Constraints, SIGGRAPH 2001 notes, section 8): between two colliders,
// a manifold of up to four points sharing one normal, each with the signed distance
// between the surfaces there. A collider is a particle (a point), a rigid body (its
// shape) or a plane of the world.
#include <algorithm>
#include <array>
#include <cmath>
#include <compare>
#include <cstdint>

#include "core/math/Types.h"

namespace tinkerbox {

enum class ColliderKind : std::uint8_t { Particle, Rigid, Plane };

struct ColliderRef {
    ColliderKind kind = ColliderKind::Rigid;
    Index index = 0;
    auto operator<=>(const ColliderRef&) const = default;
};

struct ContactPoint {
    Vec3 position = Vec3::Zero();  // world, midway between the two surfaces
    // Signed distance between the surfaces along the manifold's normal: < 0 where they
    // overlap (the penetration depth is -separation).
    double separation = 0.0;
    // Which features of the two shapes make this point (a vertex and a face, two edges, ...),
    // the same from one step to the next while they touch: what warm starts match on.
    std::uint32_t feature = 0;
};

struct ContactManifold {
    ColliderRef a, b;             // a is never a plane
    Vec3 normal = Vec3::UnitY();  // unit, pointing from a to b
    std::array<ContactPoint, 4> points{};
    int count = 0;
};

// Coulomb friction and restitution of a touching pair, from those of its two surfaces:
// friction the geometric mean, restitution the larger, so that a frictionless surface makes
// a frictionless contact and one bouncy surface a bouncy one.
struct ContactMaterial {
    double friction = 0.5;
    double restitution = 0.0;
};

inline ContactMaterial combine(const ContactMaterial& a, const ContactMaterial& b) {
    return {std::sqrt(a.friction * b.friction), std::max(a.restitution, b.restitution)};
}

}  // namespace tinkerbox
