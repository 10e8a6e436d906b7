// libFuzzer target: scene text -> loader -> simulation build -> a few frames under both
// contact models and two integrators (the scene's own and one the input picks).
// Whatever the loader accepts must build and step without an exception, a crash or
// undefined behaviour, and every frame must end in a finite state of finite energy (a frame
// that diverged is rolled back to a finite one); whatever the loader rejects must be a
// SceneError.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/contact/ObaContact.h"
#include "scene/SceneBuilder.h"
#include "scene/SceneJson.h"

using namespace tinkerbox;

namespace {

// A finding: says what and aborts, so that libFuzzer keeps the input.
[[noreturn]] void finding(const std::string& what, const Simulation& simulation) {
    std::fprintf(stderr, "finding: %s under %s and %s at t = %g\n", what.c_str(),
                 simulation.settings().integrator.c_str(), simulation.settings().contactModel.c_str(),
                 simulation.time());
    std::abort();
}

// Three frames of the scene under one integrator and contact model.
void stepFrames(const Scene& scene, const std::string& integrator, const std::string& contactModel) {
    Scene chosen = scene;
    chosen.settings.integrator = integrator;
    chosen.settings.contactModel = contactModel;
    // No try: an exception from building or stepping an accepted scene is a finding (it aborts).
    const auto simulation = buildSimulation(chosen);
    // Stepping costs grow with the solver settings: capped substeps and iterations keep every
    // input within milliseconds.
    IntegratorSettings solver = chosen.settings.solver;
    solver.implicitSolver.maxIterations = std::min(solver.implicitSolver.maxIterations, 50);
    solver.adaptiveTolerance = std::max(solver.adaptiveTolerance, 1e-6);
    solver.projectiveIterations = std::min(solver.projectiveIterations, 20);
    simulation->setSolverSettings(solver);
    ConstraintSettings constraints = chosen.settings.constraints;
    constraints.solver.maxIterations = std::min(constraints.solver.maxIterations, 50);
    simulation->setConstraintSettings(constraints);
    simulation->setTimeStep(chosen.settings.dt, std::min(simulation->substeps(), 4));
    for (int frame = 0; frame < 3; ++frame) {
        const FrameReport report = simulation->step();
        if (!simulation->world().stateIsFinite()) finding("a state that is not finite", *simulation);
        if (!std::isfinite(simulation->totalEnergy())) finding("an energy that is not finite", *simulation);
        if (report.diverged && report.message.empty()) finding("a divergence without a message", *simulation);
        if (report.diverged) return;  // rolled back: the next frame would repeat it
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    Scene scene;
    try {
        scene = parseScene(text, "fuzz.json");
    } catch (const SceneError&) {
        return 0;
    }
    buildSimulation(scene);  // every accepted scene builds, however large
    // Stepping costs grow with the model: small ones are stepped.
    constexpr std::size_t kMaxSteppedBodies = 24;
    if (scene.particles.size() + scene.bodies.size() + scene.parametricBeads.size() > kMaxSteppedBodies) return 0;
    // The second integrator is picked by the input, so that the corpus covers them all. All but
    // adaptive, which takes as many steps as its tolerance needs (up to a million a step: a
    // pinned hull of 5 km takes it 80,000 in three frames); it runs when a scene chooses it.
    std::vector<std::string> names;
    for (const IntegratorKind* kind : integratorKinds())
        if (!kind->has(IntegratorCapability::ChoosesItsOwnSteps)) names.emplace_back(kind->name);
    const std::string& picked = names[std::hash<std::string_view>{}(text) % names.size()];
    // oba's programs grow faster with the contact points than baraff's sweeps: under the
    // sanitizers three frames of twenty boxes on one spot take it over 10 s. It steps the
    // scenes of a few bodies (eight on one spot: 112 points).
    constexpr std::size_t kMaxObaBodies = 8;
    for (const ContactModelKind* kind : contactModelKinds()) {
        const std::string model(kind->name);
        if (kind == &kObaContactKind && scene.bodies.size() > kMaxObaBodies) continue;
        stepFrames(scene, scene.settings.integrator, model);
        if (picked != scene.settings.integrator) stepFrames(scene, picked, model);
    }
    return 0;
}
