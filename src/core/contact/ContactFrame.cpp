#include "core/contact/ContactFrame.h"

#include "core/dynamics/World.h"
#include "core/math/Rotation.h"

namespace tinkerbox {

namespace {

bool surfaceOf(const World& world, const ColliderRef& c, ContactMaterial& material) {
    if (c.kind == ColliderKind::Rigid) {
        const RigidBodySpec& spec = world.rigidBodies().spec(c.index);
        material = {spec.friction, spec.restitution};
        return true;
    }
    if (c.kind == ColliderKind::Plane) {
        const Plane& plane = world.planes()[static_cast<std::size_t>(c.index)];
        material = {plane.friction, plane.restitution};
        return true;
    }
    return false;
}

}  // namespace

ContactMaterial manifoldMaterial(const World& world, const ContactManifold& manifold) {
    ContactMaterial a, b, material;
    const bool hasA = surfaceOf(world, manifold.a, a), hasB = surfaceOf(world, manifold.b, b);
    if (hasA && hasB) material = combine(a, b);
    else if (hasA) material = a;
    else if (hasB) material = b;
    return material;
}

void contactTangents(const World& world, const Vec3& normal, Vec3& t1, Vec3& t2) {
    if (world.planar()) {
        const Vec3 inPlane(-normal.y(), normal.x(), 0.0);
        t1 = inPlane.norm() > 1e-12 ? Vec3(inPlane.normalized()) : Vec3(Vec3::UnitX());
        t2.setZero();
    } else {
        orthonormalComplement(normal, t1, t2);
    }
}

void colliderBlocks(const World& world, const ColliderRef& c, const Vec3& point, Index& linear, Index& angular,
                    Vec3& arm) {
    linear = angular = -1;
    arm.setZero();
    if (c.kind == ColliderKind::Particle) {
        linear = c.index;
    } else if (c.kind == ColliderKind::Rigid) {
        linear = world.rigidBlock(c.index);
        angular = linear + 1;
        arm = point - world.rigidBodies().position(c.index);
    }
}

}  // namespace tinkerbox
