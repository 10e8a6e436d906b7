#pragma once
// A scene: what a scene file holds, and what the editor edits. The core types of
// the model (particles, springs, planes, settings) are reused as they are.
#include <optional>
#include <string>
#include <vector>

#include "core/constraints/ConstraintSpec.h"
#include "core/forces/Cloth.h"
#include "core/forces/DampedSpring.h"
#include "core/forces/Wind.h"
#include "core/bodies/ParametricBeads.h"
#include "core/bodies/RigidBodySpec.h"
#include "core/dynamics/World.h"
#include "core/collision/Plane.h"
#include "core/dynamics/Simulation.h"

namespace tinkerbox {

// A circular wire drawn in the scene, on which beads can be threaded (each bead is a
// WireSpec constraint with the wire's geometry). A wire needs no bead to exist.
struct Wire {
    Vec3 center = Vec3::Zero();
    double radius = 1.0;
    Vec3 normal = Vec3::UnitZ();  // unit length

    bool operator==(const Wire&) const = default;
};

// A cloth of triangle energies over a grid of the scene's particles: columns x rows
// particles laid out row by row from firstParticle (gridTriangles, Cloth.h), whose rest
// shape is a width x height rectangle in (u, v).
struct ClothSpec {
    Index firstParticle = 0;
    int columns = 2, rows = 2;
    double width = 1.0, height = 1.0;  // m
    ClothMaterial material;

    Index particleCount() const { return static_cast<Index>(columns) * rows; }
    bool operator==(const ClothSpec&) const = default;
};

// Hair: `strands` strands of `length` particles each, laid out one after another from
// firstParticle. Their rest shape is restShape (strand after strand), or where the
// particles are in the scene when it is empty (a scene read back from a running model keeps
// the rest shape it was built with, not the one gravity has bent).
struct HairSpec {
    Index firstParticle = 0;
    int strands = 1, length = 2;
    HairMaterial material;
    std::vector<Vec3> restShape;

    Index particleCount() const { return static_cast<Index>(strands) * length; }
    bool operator==(const HairSpec&) const = default;
};

struct Scene {
    std::string name;
    std::string description;
    SimulationSettings settings;
    std::vector<ParticleInit> particles;
    std::vector<RigidBodySpec> bodies;
    std::vector<DampedSpring> springs;  // rest lengths are always resolved (files may omit them)
    std::vector<Plane> planes;          // unit normals
    std::vector<ConstraintSpec> constraints;
    std::vector<ParametricBead> parametricBeads;
    std::vector<Wire> wires;
    std::vector<ClothSpec> cloths;
    std::vector<HairSpec> hair;
    std::optional<WindSettings> wind;  // on every cloth's triangles
    // The integrators compare mode runs this scene under (the app's Ctrl+K, tinkerbox-sim
    // compare): 2 to 4 names; empty: their defaults.
    std::vector<std::string> compare;

    bool operator==(const Scene&) const = default;
};

}  // namespace tinkerbox
