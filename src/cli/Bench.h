#pragma once
// `tinkerbox-sim bench`: built-in benchmark scenes for each integrator, CSV on stdout:
// scene,integrator,particles,springs,dt,ms_per_step,cg_iterations
// Each integrator runs at a dt it is stable at: 1/60 divided by 1.5 times the fewest
// substeps that kept a one-second run bounded on the family's smallest member, or at
// 1/60 itself when that is bounded (same
// spacing, mass and stiffness; a bigger cloth hangs more weight from its pins and so
// is a little stiffer, hence the margin). Every case is timed over the same second of
// simulated motion after one warm-up frame (or `seconds` of wall time, if that comes
// first).
#include <string>
#include <vector>

#include "core/Integrator.h"
#include "scene/Scene.h"

namespace tinkerbox {

struct BenchOptions {
    std::vector<std::string> scenes;       // empty: all
    std::vector<std::string> integrators;  // empty: all
    double seconds = 5.0;                  // wall time cap per case
    IntegratorSettings solver;             // CG tolerance and cap, adaptive tolerance
};

// Bench scene names: cloth-32, cloth-64, cloth-128, chain-1000.
std::vector<std::string> benchSceneNames();
// Throws std::invalid_argument for an unknown name.
Scene makeBenchScene(const std::string& name, const IntegratorSettings& solver = {});

int runBench(const BenchOptions& options);

}  // namespace tinkerbox
