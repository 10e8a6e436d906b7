#include "scene/SceneBuilder.h"

#include <algorithm>

namespace tinkerbox {

namespace {

// The energies of the scene's cloths and hair, each one force object labelled for the Stats
// panel's energies, and its force fields (on the cloths' triangles; no energy to show).
void addClothAndHair(const Scene& scene, World& world) {
    const auto add = [&world](std::unique_ptr<Force> force, const char* label) {
        force->setLabel(label);
        world.addForce(std::move(force));
    };
    std::vector<std::array<Index, 3>> surfaces;
    for (const ClothSpec& c : scene.cloths) {
        const std::vector<ClothTriangle> triangles = c.triangles();
        add(makeStretchShear(triangles, c.material), "cloth stretch and shear");
        add(makeBending(triangles, c.material), "cloth bending");
        for (const ClothTriangle& t : triangles) surfaces.push_back(t.particles);
    }
    for (const ForceFieldSpec& field : scene.fields) world.addForce(forceFieldKind(field).make(field, surfaces));
    std::vector<Vec3> rest;
    for (const ParticleInit& p : scene.particles) rest.push_back(p.position);
    for (const HairSpec& h : scene.hair) {
        std::copy(h.restShape.begin(), h.restShape.end(), rest.begin() + h.firstParticle);
        HairForces forces = makeHair(rest, h.runs(), h.material);
        add(std::move(forces.segments), "hair stretch");
        add(std::move(forces.joints), "hair bending");
        if (forces.twist->elementCount() > 0) add(std::move(forces.twist), "hair twist");
    }
}

}  // namespace

std::unique_ptr<Simulation> buildSimulation(const Scene& scene) {
    auto simulation = std::make_unique<Simulation>(scene.settings);
    World& system = simulation->world();
    system.addParticles(scene.particles);
    for (const RigidBodySpec& b : scene.bodies) system.addRigidBody(b);
    for (const DampedSpring& s : scene.springs) system.addSpring(s);
    for (const Plane& p : scene.planes) system.addPlane(p);
    for (const ConstraintSpec& c : scene.constraints) system.addConstraint(makeConstraint(c));
    for (const ParametricBead& b : scene.parametricBeads) system.addBead(b);
    addClothAndHair(scene, system);
    return simulation;
}

Scene captureScene(const Simulation& simulation, const Scene& base) {
    const World& system = simulation.world();
    Scene scene;
    scene.name = base.name;
    scene.description = base.description;
    scene.wires = base.wires;
    scene.cloths = base.cloths;
    scene.hair = base.hair;
    // The strands' rest shape is the one they were built with, not where they hang now.
    for (HairSpec& h : scene.hair)
        if (h.restShape.empty())
            for (Index i = h.firstParticle; i < h.firstParticle + h.particleCount(); ++i)
                h.restShape.push_back(base.particles[i].position);
    scene.fields = base.fields;
    scene.compare = base.compare;
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
