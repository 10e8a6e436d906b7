#pragma once
// A scene: what a scene file holds, and what the editor edits. The core types of
// the model (particles, springs, planes, settings) are reused as they are.
#include <string>
#include <vector>

#include "core/ConstraintSpec.h"
#include "core/DampedSpring.h"
#include "core/ParametricBeadSystem.h"
#include "core/ParticleSystem.h"
#include "core/Plane.h"
#include "core/Simulation.h"

namespace tinkerbox {

struct Scene {
    std::string name;
    std::string description;
    SimulationSettings settings;
    std::vector<ParticleInit> particles;
    std::vector<DampedSpring> springs;  // rest lengths are always resolved (files may omit them)
    std::vector<Plane> planes;          // unit normals
    std::vector<ConstraintSpec> constraints;
    std::vector<ParametricBead> parametricBeads;

    bool operator==(const Scene&) const = default;
};

}  // namespace tinkerbox
