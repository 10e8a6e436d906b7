#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/contact/ContactModelKind.h"
#include "core/integrators/IntegratorKind.h"

namespace tinkerbox {

struct RunOptions {
    std::string scene;
    std::optional<std::string> integrator;
    std::optional<std::string> contactModel;
    std::optional<double> selfCollision;  // particles' thickness, m; 0: off
    std::optional<double> dt;
    std::optional<int> substeps;
    // A kind's own setting given as an option (--cg-tolerance, --oba-freezing, ...).
    template <class Kind, class Settings>
    struct ParameterChoice {
        const Kind* kind;
        const Parameter<Settings>* parameter;
        double value;
    };
    std::vector<ParameterChoice<IntegratorKind, IntegratorSettings>> integratorParameters;  // in the order given
    std::vector<ParameterChoice<ContactModelKind, ContactModelSettings>> contactModelParameters;
    std::optional<double> constraintTolerance;  // the multiplier solve, every integrator
    std::optional<double> duration;             // seconds; default 10 when neither this nor steps is given
    std::optional<long> steps;
    std::string out;  // empty: stdout
    long every = 1;
    std::string stepLog;  // every integrator step size, "t,h" (adaptive reports its own)
};

// Returns the process exit code: 0 done, 1 the scene failed to load or the run diverged,
// 2 an option that does not apply to the run's integrator or contact model.
int runScene(const RunOptions& options);
int validateScene(const std::string& file);

}  // namespace tinkerbox
