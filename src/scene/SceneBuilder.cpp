#include "scene/SceneBuilder.h"

namespace tinkerbox {

std::unique_ptr<Simulation> buildSimulation(const Scene& scene) {
    auto simulation = std::make_unique<Simulation>(scene.settings);
    World& system = simulation->world();
    system.addParticles(scene.particles);
    for (const RigidBodySpec& b : scene.bodies) system.addRigidBody(b);
    for (const DampedSpring& s : scene.springs) system.addSpring(s);
    for (const Plane& p : scene.planes) system.addPlane(p);
    for (const ConstraintSpec& c : scene.constraints) system.addConstraint(makeConstraint(c));
    for (const ParametricBead& b : scene.parametricBeads) system.addBead(b);
    return simulation;
}

Scene captureScene(const Simulation& simulation, const Scene& base) {
    const World& system = simulation.world();
    Scene scene;
    scene.name = base.name;
    scene.description = base.description;
    scene.wires = base.wires;
    scene.settings = simulation.settings();
    scene.particles.reserve(system.particleCount());
    for (Index i = 0; i < system.particleCount(); ++i)
        scene.particles.push_back({system.position(i), system.velocity(i), system.mass(i), system.isNailed(i)});
    for (Index k = 0; k < system.rigidBodyCount(); ++k) scene.bodies.push_back(system.rigidBodies().currentSpec(k));
    scene.springs = system.springs().springs();
    scene.planes = system.planes();
    for (const auto& c : system.constraints()) scene.constraints.push_back(c->spec());
    for (Index i = 0; i < system.beadCount(); ++i) scene.parametricBeads.push_back(system.beads().bead(i));
    return scene;
}

}  // namespace tinkerbox
