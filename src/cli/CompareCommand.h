#pragma once
// `tinkerbox-sim compare`: a scene under several integrators at once (scene/Comparison.h),
// from the same start and frame by frame, against a reference run of the same frames: the
// reference integrator at 16 times the substeps the scene gives it, so steps 16 times
// smaller than its own. CSV, one row per integrator:
// integrator,dt,substeps,steps,ms_per_step,max_energy_drift,max_constraint_error,max_position_error_vs_finest
// (steps: integrator steps taken; max_energy_drift: the most the total energy moved from
// its start, J; max_constraint_error: the largest constraint error of any frame;
// max_position_error_vs_finest: the largest distance, at any frame's end, of any particle,
// bead or body centre from where the reference has it, m; the three are inf for a run that
// diverged, which stops there while the others go on).
#include <optional>
#include <string>
#include <vector>

namespace tinkerbox {

struct CompareOptions {
    std::string scene;
    std::vector<std::string> integrators;  // empty: the scene's "compare" list
    std::string reference = "rk4";         // the finest: this at 16 times its substeps in the scene
    std::optional<std::string> contactModel;
    std::optional<double> dt;
    std::optional<int> substeps;
    std::optional<double> duration;  // seconds; default 10 when neither this nor steps is given
    std::optional<long> steps;
    std::string out;   // CSV file; empty: stdout
    std::string plot;  // PNG of energy and errors over time; empty: none
};

// The size of the plot's PNG, whatever the run.
inline constexpr int kComparePlotWidth = 960, kComparePlotHeight = 720;
// How much finer the reference run's steps are than the scene's for its integrator.
inline constexpr int kReferenceRefinement = 16;

// Returns the process exit code: 0 done, 1 the scene failed to load, a file could not be
// written, or a run (a compared one or the reference) diverged (the others' rows and the
// plot are written all the same), 2 no integrator given and none in the scene.
int compareIntegrators(const CompareOptions& options);

}  // namespace tinkerbox
