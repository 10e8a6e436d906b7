#pragma once
// `tinkerbox-sim bench`: the benchmark scenes (scene/BenchmarkScenes.h) with each
// integrator, CSV on stdout:
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

namespace tinkerbox {

struct BenchOptions {
    std::vector<std::string> scenes;       // benchmark scene names; empty: all
    std::vector<std::string> integrators;  // empty: all
    double seconds = 5.0;                  // wall time cap per case
    IntegratorSettings solver;             // CG tolerance and cap, adaptive tolerance
};

int runBench(const BenchOptions& options);

}  // namespace tinkerbox
