// libFuzzer target: scene text -> loader -> simulation build -> a few frames.
// Whatever the loader accepts must build and step without an exception, a crash or
// undefined behaviour; whatever it rejects must be a SceneError.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "scene/SceneBuilder.h"
#include "scene/SceneJson.h"

using namespace tinkerbox;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    Scene scene;
    try {
        scene = parseScene(text, "fuzz.json");
    } catch (const SceneError&) {
        return 0;
    }
    // No try: an exception from building an accepted scene is a finding (it aborts).
    const auto simulation = buildSimulation(scene);
    // Stepping costs grow with the model and the solver settings; small models with
    // capped substeps and iterations keep every input within milliseconds.
    constexpr std::size_t kMaxSteppedBodies = 24;
    if (scene.particles.size() + scene.bodies.size() + scene.parametricBeads.size() > kMaxSteppedBodies) return 0;
    IntegratorSettings solver = scene.settings.solver;
    solver.implicitSolver.maxIterations = std::min(solver.implicitSolver.maxIterations, 50);
    solver.adaptiveTolerance = std::max(solver.adaptiveTolerance, 1e-6);
    simulation->setSolverSettings(solver);
    ConstraintSettings constraints = scene.settings.constraints;
    constraints.solver.maxIterations = std::min(constraints.solver.maxIterations, 50);
    simulation->setConstraintSettings(constraints);
    simulation->setTimeStep(scene.settings.dt, std::min(simulation->substeps(), 4));
    for (int frame = 0; frame < 3; ++frame) simulation->step();
    return 0;
}
