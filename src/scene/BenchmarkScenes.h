#pragma once
// The scenes `tinkerbox-sim bench` and tinkerbox-bench measure: square cloths of
// n x n particles (n = 32, 64, 128) with structural, shear and bend springs, the 32 x 32
// and 64 x 64 ones made of triangle energies instead (cloth-tri-32, cloth-tri-64: stretch,
// shear and bending on triangles and hinges), a chain of 1000 springs, a chain of 1000
// rods, a 100 x 100 grid joined by 19,800 rods, and a
// chain of 1000 boxes on ball joints hanging from a nail; and for contact, unit cubes resting
// on a ground plane: a stack of 10, a pyramid of base 20 (210 boxes) standing in a vertical
// plane, and a pyramid of base 100 (5,050 boxes) in a planar world. A cloth keeps its spacing (2 cm), particle mass (1
// g) and stiffness as n grows, so that every size has the same local stiffness; its springs are stiff enough that rk4
// needs about 10 substeps of a 1/60 s frame and euler hundreds, while implicit-euler takes the frame in one step.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/integrators/Integrator.h"
#include "scene/Scene.h"

namespace tinkerbox {

struct BenchmarkScene {
    std::string_view name;
    // The member of the scene's family (same spacing, mass and stiffness, fewer particles)
    // on which `tinkerbox-sim bench` searches each integrator's stable dt; empty when the
    // scene is measured at its own dt (the rod grid, whose target is stated at 1/60 s).
    std::string_view stabilityProbe;
    // Without a probe: the integrator steps per 1/60 s frame, the same for every integrator.
    // The box chain has no probe because a search over 1000 bodies at a few hundred
    // milliseconds per step takes most of an hour per integrator; it runs at 64 (32
    // diverges under midpoint within 0.1 s, 64 stays bounded under midpoint and
    // implicit-euler). The contact scenes run at 4, as the example stacks do; the thesis
    // scenes of the contact model oba (cube-stack-10, cube-jam-100, pendulum-6) at 1, one
    // step per frame as the thesis steps; the example cloth-heap (self collision) at its own 4.
    int substeps = 1;
};

std::span<const BenchmarkScene> benchmarkScenes();
// cloth-32, cloth-64, cloth-128, cloth-tri-32, cloth-tri-64, chain-1000, rod-chain-1000, rod-grid-100, box-chain-1000,
// stack-10, pyramid-20, large-pyramid-100, cube-stack-10, cube-jam-100, pendulum-6, cloth-heap
std::vector<std::string> benchmarkSceneNames();
// At dt = 1/60, one substep; throws std::invalid_argument for an unknown name.
Scene makeBenchmarkScene(const std::string& name, const IntegratorSettings& solver = {});
// Any built-in scene by name: an example (ExampleScenes.h) or a benchmark scene; nullopt
// for neither. What `tinkerbox-sim example` writes and the app's Scenes panel opens.
std::optional<Scene> makeBuiltInScene(std::string_view name);

}  // namespace tinkerbox
