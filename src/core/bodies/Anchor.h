#pragma once
// Where a spring, a rod, a nail, a joint or the mouse spring holds a body: a particle, or
// a point fixed in a rigid body, given in the body's frame (the frame its shape and its
// `position` are given in; see RigidBodySpec.h).
#include <cstdint>

#include "core/math/Types.h"

namespace tinkerbox {

enum class BodyKind : std::uint8_t { Particle, Rigid };

struct BodyRef {
    BodyKind kind = BodyKind::Particle;
    Index index = 0;

    bool operator==(const BodyRef&) const = default;
};

struct Anchor {
    BodyRef body;
    Vec3 point = Vec3::Zero();  // body frame; zero for a particle

    Anchor() = default;
    // A particle index is an anchor: RodSpec{0, 1, 1.0} joins particles 0 and 1.
    Anchor(Index particle) : body{BodyKind::Particle, particle} {}  // NOLINT(google-explicit-constructor)
    static Anchor onBody(Index rigidBody, const Vec3& pointInBodyFrame) {
        Anchor anchor;
        anchor.body = {BodyKind::Rigid, rigidBody};
        anchor.point = pointInBodyFrame;
        return anchor;
    }

    bool isParticle() const { return body.kind == BodyKind::Particle; }
    bool isRigid() const { return body.kind == BodyKind::Rigid; }
    Index index() const { return body.index; }

    bool operator==(const Anchor&) const = default;
};

}  // namespace tinkerbox
