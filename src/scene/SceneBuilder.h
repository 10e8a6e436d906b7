#pragma once
// Scene <-> core: builds the simulation a scene describes, and reads a running
// simulation back into a scene (for saving, or before an edit).
#include <memory>

#include "core/pipeline/Simulation.h"
#include "scene/Scene.h"

namespace tinkerbox {

// Never throws for a scene that parseScene or loadScene returned: the loader checks all
// that the core's constructors check (tests/fuzz/SceneFuzzer.cpp holds it to that). A
// scene made in code may throw std::invalid_argument (a zero direction, a bad index).
std::unique_ptr<Simulation> buildSimulation(const Scene& scene);

// The scene as the simulation stands now: particle, body and bead states, nails, springs,
// planes, constraints and settings are taken from the simulation; name, description,
// wires, cloths, hair, wind and the compare list from base (each strand keeping the rest shape it was built with).
Scene captureScene(const Simulation& simulation, const Scene& base);

}  // namespace tinkerbox
