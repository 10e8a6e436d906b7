#pragma once
#include <optional>
#include <string>

namespace tinkerbox {

struct RunOptions {
    std::string scene;
    std::optional<std::string> integrator;
    std::optional<std::string> contactModel;
    std::optional<bool> obaFreezing, obaHopFix;  // the contact model oba's choices
    std::optional<double> selfCollision;          // particles' thickness, m; 0: off
    std::optional<double> dt;
    std::optional<int> substeps;
    std::optional<double> cgTolerance;
    std::optional<int> cgMaxIterations;
    std::optional<bool> contactFilter;  // implicit-euler's filter of particles in contact
    std::optional<double> adaptiveTolerance;
    std::optional<int> projectiveIterations;
    std::optional<double> constraintTolerance;  // the multiplier solve, every integrator
    std::optional<double> duration;  // seconds; default 10 when neither this nor steps is given
    std::optional<long> steps;
    std::string out;  // empty: stdout
    long every = 1;
    std::string stepLog;  // every integrator step size, "t,h" (adaptive reports its own)
};

// Returns the process exit code: 0 done, 1 the scene failed to load or the run diverged,
// 2 an option that does not apply to the run's integrator.
int runScene(const RunOptions& options);
int validateScene(const std::string& file);

}  // namespace tinkerbox
