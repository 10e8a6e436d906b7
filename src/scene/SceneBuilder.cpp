#include "scene/SceneBuilder.h"

namespace tinkerbox {

std::unique_ptr<Simulation> buildSimulation(const Scene& scene) {
    auto simulation = std::make_unique<Simulation>(scene.settings);
    ParticleSystem& system = simulation->system();
    system.addParticles(scene.particles);
    for (const DampedSpring& s : scene.springs) system.addSpring(s);
    for (const Plane& p : scene.planes) system.addPlane(p);
    for (const ConstraintSpec& c : scene.constraints) system.addConstraint(makeConstraint(c));
    for (const ParametricBead& b : scene.parametricBeads) simulation->beads().addBead(b);
    return simulation;
}

Scene captureScene(const Simulation& simulation, const Scene& base) {
    const ParticleSystem& system = simulation.system();
    Scene scene;
    scene.name = base.name;
    scene.description = base.description;
    scene.wires = base.wires;
    scene.settings = simulation.settings();
    scene.particles.reserve(system.particleCount());
    for (Index i = 0; i < system.particleCount(); ++i)
        scene.particles.push_back({system.position(i), system.velocity(i), system.mass(i), system.isNailed(i)});
    scene.springs = system.springs().springs();
    scene.planes = system.planes();
    for (const auto& c : system.constraints()) scene.constraints.push_back(c->spec());
    for (Index i = 0; i < simulation.beads().beadCount(); ++i) scene.parametricBeads.push_back(simulation.beads().bead(i));
    return scene;
}

}  // namespace tinkerbox
