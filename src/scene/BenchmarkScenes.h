#pragma once
// The scenes `tinkerbox-sim bench` and tinkerbox-bench measure: square cloths of
// n x n particles (n = 32, 64, 128) with structural, shear and bend springs, and a
// chain of 1000 springs. A cloth keeps its spacing (2 cm), particle mass (1 g) and
// stiffness as n grows, so that every size has the same local stiffness; its springs
// are stiff enough that rk4 needs about 10 substeps of a 1/60 s frame and euler
// hundreds, while implicit-euler takes the frame in one step.
#include <string>
#include <vector>

#include "core/Integrator.h"
#include "scene/Scene.h"

namespace tinkerbox {

// cloth-32, cloth-64, cloth-128, chain-1000
std::vector<std::string> benchmarkSceneNames();
// At dt = 1/60, one substep; throws std::invalid_argument for an unknown name.
Scene makeBenchmarkScene(const std::string& name, const IntegratorSettings& solver = {});

}  // namespace tinkerbox
