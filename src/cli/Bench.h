#pragma once
// `tinkerbox-sim bench`: the benchmark scenes (scene/BenchmarkScenes.h) with each
// integrator and contact model, CSV on stdout:
// scene,integrator,contact_model,freezing,particles,bodies,springs,dt,ms_per_step,cg_iterations,constraints,
// ms_per_constraint_solve,constraint_cg_iterations,warm_start,max_constraint_error,
// contacts,max_penetration,ms_per_contact_solve,contact_iterations
// (cg_iterations: implicit-euler's solve per step; constraint_*: per multiplier solve,
// and scenes with constraints run once with and once without warm start; freezing: the
// model oba's, yes or no (it runs once with and once without), empty for the others; contacts,
// ms_per_contact_solve and contact_iterations: the contact model's, per step;
// max_penetration: the deepest over the run, in metres).
// Each integrator runs at a dt it is stable at: 1/60 divided by 1.5 times the fewest
// substeps that kept a one-second run bounded on the family's smallest member, or at
// 1/60 itself when that is bounded (same
// spacing, mass and stiffness; a bigger cloth hangs more weight from its pins and so
// is a little stiffer, hence the margin). Every case is timed over the same second of
// simulated motion after one warm-up frame (or `seconds` of wall time, if that comes
// first). The rod grid runs at its own dt, 1/60, where its target is stated; the box
// chain at 64 substeps of it with every integrator (BenchmarkScenes.h says why). `bodies`
// counts rigid bodies (the box chain's boxes).
#include <string>
#include <vector>

#include "core/integrators/Integrator.h"

namespace tinkerbox {

struct BenchOptions {
    std::vector<std::string> scenes;         // benchmark scene names; empty: all
    std::vector<std::string> integrators;    // empty: all
    std::vector<std::string> contactModels;  // empty: all
    std::vector<bool> obaFreezing;           // oba: with freezing, without; empty: both
    bool obaHopFix = true;                   // oba: the hop fix
    double seconds = 2.0;                    // wall time cap per case
    IntegratorSettings solver;               // CG tolerance and cap, adaptive tolerance
};

int runBench(const BenchOptions& options);

}  // namespace tinkerbox
