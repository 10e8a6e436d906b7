#pragma once
// Scene <-> core: builds the simulation a scene describes, and reads a running
// simulation back into a scene (for saving, or before an edit).
#include <memory>

#include "core/Simulation.h"
#include "scene/Scene.h"

namespace tinkerbox {

std::unique_ptr<Simulation> buildSimulation(const Scene& scene);

// The scene as the simulation stands now: particle and bead states, nails, springs,
// planes, constraints and settings are taken from the simulation; name, description and
// wires from base.
Scene captureScene(const Simulation& simulation, const Scene& base);

}  // namespace tinkerbox
