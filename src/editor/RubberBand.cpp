#include "editor/RubberBand.h"

#include <algorithm>
#include <cmath>

namespace tinkerbox {

void planeAxes(const Vec3& normal, Vec3& u, Vec3& v) {
    const Vec3 n = normal.normalized();
    const Vec3 reference = std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
    u = (reference - reference.dot(n) * n).normalized();
    v = n.cross(u);
}

bool PlaneRectangle::contains(const Vec3& p) const {
    Vec3 u, v;
    planeAxes(normal, u, v);
    const Vec3 diagonal = to - from, offset = p - from;
    const auto between = [](double x, double end) { return std::min(0.0, end) <= x && x <= std::max(0.0, end); };
    return between(offset.dot(u), diagonal.dot(u)) && between(offset.dot(v), diagonal.dot(v));
}

std::array<Vec3, 4> PlaneRectangle::corners() const {
    Vec3 u, v;
    planeAxes(normal, u, v);
    const Vec3 diagonal = to - from;
    const Vec3 alongU = diagonal.dot(u) * u, alongV = diagonal.dot(v) * v;
    return {from, from + alongU, from + alongU + alongV, from + alongV};
}

Selection itemsInside(const Simulation& simulation, const Scene& scene, const PlaneRectangle& rectangle) {
    const World& world = simulation.world();
    Selection inside;
    for (Index i = 0; i < world.particleCount(); ++i)
        if (rectangle.contains(world.position(i))) inside.particles.insert(i);
    const RigidBodies& bodies = world.rigidBodies();
    for (Index k = 0; k < bodies.count(); ++k)
        if (rectangle.contains(bodies.position(k))) inside.bodies.insert(k);
    for (std::size_t k = 0; k < scene.wires.size(); ++k)
        if (rectangle.contains(scene.wires[k].center)) inside.wires.insert(static_cast<Index>(k));
    const auto anchorInside = [&](const Anchor& a) { return rectangle.contains(world.anchorPosition(a)); };
    for (std::size_t k = 0; k < scene.springs.size(); ++k)
        if (anchorInside(scene.springs[k].a) && anchorInside(scene.springs[k].b))
            inside.springs.insert(static_cast<Index>(k));
    for (std::size_t k = 0; k < scene.constraints.size(); ++k) {
        bool all = true;
        forEachAnchor(scene.constraints[k], [&](const Anchor& a) { all = all && anchorInside(a); });
        if (all) inside.constraints.insert(static_cast<Index>(k));
    }
    return inside;
}

}  // namespace tinkerbox
