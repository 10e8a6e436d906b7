#pragma once
// How small a step an integrator needs on a scene: the fewest substeps per frame for
// which a run stays bounded (finite, and the total energy does not grow beyond 5 %
// of the motion's energy scale; a stable damped model only loses energy).
#include "scene/Scene.h"

namespace tinkerbox {

struct StabilityResult {
    int substeps = 0;  // 0: not stable even at maxSubsteps
    double dt = 0.0;   // the integrator step at that many substeps
};

// Runs the scene for `duration` seconds at settings.dt split into substeps.
bool runsBounded(const Scene& scene, const std::string& integrator, int substeps, double duration);
StabilityResult findStableSubsteps(const Scene& scene, const std::string& integrator, double duration,
                                   int maxSubsteps = 4096);

}  // namespace tinkerbox
