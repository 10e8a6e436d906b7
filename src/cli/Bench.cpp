#include "cli/Bench.h"

#include <chrono>
#include <cmath>
#include <iostream>
#include <map>

#include "cli/Csv.h"
#include "cli/Stability.h"
#include "core/Integrator.h"
#include "scene/BenchmarkScenes.h"
#include "scene/SceneBuilder.h"

namespace tinkerbox {

namespace {

constexpr double kFrame = 1.0 / 60.0;    // the benchmark scenes' dt
constexpr double kStabilityProbe = 1.0;  // seconds simulated per stability trial
constexpr double kStabilityMargin = 1.5;
constexpr double kMeasured = 1.0;  // seconds of simulated motion timed per case

// The smallest member of a scene's family, where the stability search is cheap.
std::string familyProbe(const std::string& name) { return name.starts_with("cloth-") ? "cloth-32" : name; }

}  // namespace

int runBench(const BenchOptions& options) {
    const std::vector<std::string> scenes = options.scenes.empty() ? benchmarkSceneNames() : options.scenes;
    std::vector<std::string> integrators = options.integrators;
    if (integrators.empty())
        for (std::string_view n : integratorNames()) integrators.emplace_back(n);

    std::cout << "scene,integrator,particles,springs,dt,ms_per_step,cg_iterations\n";
    std::map<std::pair<std::string, std::string>, int> substepsFound;
    for (const std::string& name : scenes) {
        const Scene base = makeBenchmarkScene(name, options.solver);
        for (const std::string& integrator : integrators) {
            // adaptive chooses its own internal steps: it is measured per frame.
            int substeps = 1;
            if (integrator != "adaptive") {
                auto [it, fresh] = substepsFound.try_emplace({familyProbe(name), integrator}, 0);
                if (fresh) {
                    const Scene probe = makeBenchmarkScene(familyProbe(name), options.solver);
                    const int bounded = findStableSubsteps(probe, integrator, kStabilityProbe).substeps;
                    // A method bounded at the full frame (implicit-euler) runs at the full frame.
                    it->second = bounded <= 1 ? bounded : static_cast<int>(std::ceil(kStabilityMargin * bounded));
                    std::cerr << familyProbe(name) << " " << integrator << ": bounded from " << bounded
                              << " substeps per 1/60 s; benchmarked at " << it->second << '\n';
                }
                substeps = it->second;
            }
            if (substeps == 0) {
                std::cerr << name << " " << integrator << ": not stable at any tried dt, skipped\n";
                continue;
            }
            Scene scene = base;
            scene.settings.integrator = integrator;
            scene.settings.dt = kFrame / substeps;
            const auto simulation = buildSimulation(scene);
            simulation->step();  // warm-up: the Jacobian pattern and the first allocations are built once
            const double timedFrom = simulation->time();
            long steps = 0;
            long cgIterations = 0;
            bool diverged = false;
            const auto start = std::chrono::steady_clock::now();
            double elapsed = 0.0;
            while (simulation->time() - timedFrom < kMeasured - 0.5 * scene.settings.dt && elapsed < options.seconds) {
                const FrameReport report = simulation->step();
                if (report.diverged) {
                    std::cerr << name << " " << integrator << ": " << report.message << '\n';
                    diverged = true;
                    break;
                }
                cgIterations += report.integrator.linearSolve.iterations;
                ++steps;
                elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            }
            if (diverged) continue;
            if (steps == 0) continue;
            const double msPerStep = 1e3 * elapsed / steps;
            const Index particles = simulation->system().particleCount();
            std::cout << name << ',' << integrator << ',' << particles << ',' << simulation->system().springs().size()
                      << ',' << formatDouble(scene.settings.dt) << ',' << formatDouble(msPerStep) << ','
                      << formatDouble(static_cast<double>(cgIterations) / steps) << '\n';
            std::cerr << name << " " << integrator << ": " << 1e6 * msPerStep / particles
                      << " ns per particle per step\n";
        }
    }
    return 0;
}

}  // namespace tinkerbox
