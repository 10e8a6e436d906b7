#include "cli/Stability.h"

#include <algorithm>
#include <cmath>

#include "scene/SceneBuilder.h"

namespace tinkerbox {

bool runsBounded(const Scene& scene, const std::string& integrator, int substeps, double duration) {
    Scene trial = scene;
    trial.settings.integrator = integrator;
    trial.settings.substeps = substeps;
    trial.settings.integratorSubsteps.clear();
    const auto simulation = buildSimulation(trial);
    const World& system = simulation->world();
    const double e0 = system.totalEnergy();
    double kineticMax = system.kineticEnergy();
    double potentialMin = system.potentialEnergy(), potentialMax = potentialMin;
    const auto frames = static_cast<long>(std::ceil(duration / trial.settings.dt));
    for (long f = 0; f < frames; ++f) {
        if (simulation->step().diverged) return false;
        const double kinetic = system.kineticEnergy(), potential = system.potentialEnergy();
        kineticMax = std::max(kineticMax, kinetic);
        potentialMin = std::min(potentialMin, potential);
        potentialMax = std::max(potentialMax, potential);
        const double scale = std::max({kineticMax, potentialMax - potentialMin, 1e-12});
        if (!std::isfinite(kinetic + potential) || kinetic + potential - e0 > 0.05 * scale) return false;
    }
    return true;
}

StabilityResult findStableSubsteps(const Scene& scene, const std::string& integrator, double duration,
                                   int maxSubsteps) {
    // Double until bounded, then bisect between the last failure and the first success.
    int failed = 0, stable = 1;
    while (!runsBounded(scene, integrator, stable, duration)) {
        failed = stable;
        if (stable >= maxSubsteps) return {};
        stable = std::min(2 * stable, maxSubsteps);
    }
    while (stable - failed > 1) {
        const int middle = (failed + stable) / 2;
        (runsBounded(scene, integrator, middle, duration) ? stable : failed) = middle;
    }
    return {stable, scene.settings.dt / stable};
}

}  // namespace tinkerbox
