#include "cli/Bench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <map>

#include "cli/Csv.h"
#include "cli/Stability.h"
#include "core/contact/ContactModel.h"
#include "core/contact/ObaContact.h"
#include "core/integrators/Integrator.h"
#include "scene/BenchmarkScenes.h"
#include "scene/SceneBuilder.h"

namespace tinkerbox {

namespace {

constexpr double kFrame = 1.0 / 60.0;    // the benchmark scenes' dt
constexpr double kStabilityProbe = 1.0;  // seconds simulated per stability trial
constexpr double kStabilityMargin = 1.5;
constexpr double kMeasured = 1.0;  // seconds of simulated motion timed per case

const BenchmarkScene& benchmarkScene(const std::string& name) {
    const auto scenes = benchmarkScenes();
    return *std::ranges::find_if(scenes, [&](const BenchmarkScene& s) { return s.name == name; });
}

}  // namespace

namespace {

struct Measurement {
    long steps = 0;
    double msPerStep = 0.0;
    double cgIterations = 0.0;  // implicit solve, per step
    ConstraintSolveStats constraints;
    double maxConstraintError = 0.0;
    ContactReport contact;  // summed over the timed steps (maxPenetration: the deepest)
    std::string failure;
};

// Times the scene over kMeasured simulated seconds (or options.seconds of wall time)
// after one warm-up frame.
Measurement measure(const Scene& scene, double wallCap) {
    Measurement m;
    const auto simulation = buildSimulation(scene);
    simulation->step();  // warm-up: the Jacobian pattern and the first allocations are built once
    simulation->world().constraintSolver().resetStats();
    const double timedFrom = simulation->time();
    long cgIterations = 0;
    double seconds = 0.0;
    while (simulation->time() - timedFrom < kMeasured - 0.5 * scene.settings.dt && seconds < wallCap) {
        const auto start = std::chrono::steady_clock::now();
        const FrameReport report = simulation->step();
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (report.diverged) {
            m.failure = report.message;
            return m;
        }
        cgIterations += report.integrator.linearSolve.iterations;
        m.contact.add(report.contact);
        ++m.steps;
        m.maxConstraintError = std::max(m.maxConstraintError, simulation->constraintError());
    }
    m.msPerStep = m.steps ? 1e3 * seconds / m.steps : 0.0;
    m.cgIterations = m.steps ? static_cast<double>(cgIterations) / m.steps : 0.0;
    m.constraints = simulation->world().constraintSolver().stats();
    return m;
}

}  // namespace

int runBench(const BenchOptions& options) {
    const std::vector<std::string> scenes = options.scenes.empty() ? benchmarkSceneNames() : options.scenes;
    std::vector<std::string> integrators = options.integrators;
    if (integrators.empty())
        for (const IntegratorKind* kind : integratorKinds()) integrators.emplace_back(kind->name);

    std::vector<std::string> contactModels = options.contactModels;
    if (contactModels.empty())
        for (const ContactModelKind* kind : contactModelKinds()) contactModels.emplace_back(kind->name);

    std::cout
        << "scene,integrator,contact_model,freezing,particles,bodies,springs,dt,ms_per_step,cg_iterations,constraints,"
           "ms_per_constraint_solve,constraint_cg_iterations,warm_start,max_constraint_error,contacts,"
           "max_penetration,ms_per_contact_solve,contact_iterations\n";
    std::map<std::pair<std::string, std::string>, int> substepsFound;
    for (const std::string& name : scenes) {
        const Scene base = makeBenchmarkScene(name, options.solver);
        const bool constrained = !base.constraints.empty();
        const std::string probeName(benchmarkScene(name).stabilityProbe);
        for (const std::string& integrator : integrators) {
            int substeps = benchmarkScene(name).substeps;
            if (!probeName.empty() && !integratorKind(integrator).has(IntegratorCapability::ChoosesItsOwnSteps)) {
                auto [it, fresh] = substepsFound.try_emplace({probeName, integrator}, 0);
                if (fresh) {
                    const Scene probe = makeBenchmarkScene(probeName, options.solver);
                    const int bounded = findStableSubsteps(probe, integrator, kStabilityProbe).substeps;
                    // A method bounded at the full frame (implicit-euler) runs at the full frame.
                    it->second = bounded <= 1 ? bounded : static_cast<int>(std::ceil(kStabilityMargin * bounded));
                    std::cerr << probeName << " " << integrator << ": bounded from " << bounded
                              << " substeps per 1/60 s; benchmarked at " << it->second << '\n';
                }
                substeps = it->second;
            }
            if (substeps == 0) {
                std::cerr << name << " " << integrator << ": not stable at any tried dt, skipped\n";
                continue;
            }
            for (const std::string& contactModel : contactModels) {
                // Freezing is the model oba's: its rows come with and without it (or as asked).
                const bool freezes = contactModel == kObaContactKind.name;
                const std::vector<bool> freezings = !freezes                      ? std::vector<bool>{true}
                                                    : options.obaFreezing.empty() ? std::vector<bool>{true, false}
                                                                                  : options.obaFreezing;
                for (const bool freezing : freezings) {
                    for (const bool warmStart :
                         constrained ? std::vector<bool>{true, false} : std::vector<bool>{true}) {
                        Scene scene = base;
                        scene.settings.integrator = integrator;
                        scene.settings.contactModel = contactModel;
                        scene.settings.contact.freezing = freezing;
                        scene.settings.contact.hopFix = options.obaHopFix;
                        scene.settings.dt = kFrame / substeps;
                        scene.settings.constraints.warmStart = warmStart;
                        const Measurement m = measure(scene, options.seconds);
                        if (!m.failure.empty()) {
                            std::cerr << name << " " << integrator << " " << contactModel
                                      << (freezes && !freezing ? " (no freezing)" : "")
                                      << (warmStart ? "" : " (no warm start)") << ": " << m.failure << '\n';
                            continue;
                        }
                        const ConstraintSolveStats& c = m.constraints;
                        const Index particles = static_cast<Index>(scene.particles.size());
                        const Index bodies = static_cast<Index>(scene.bodies.size());
                        const ContactReport& contact = m.contact;
                        const auto perStep = [&m](double total) {
                            return m.steps ? total / static_cast<double>(m.steps) : 0.0;
                        };
                        std::cout << name << ',' << integrator << ',' << contactModel << ','
                                  << (freezes ? (freezing ? "yes" : "no") : "") << ',' << particles << ',' << bodies
                                  << ',' << scene.springs.size() << ',' << formatDouble(scene.settings.dt) << ','
                                  << formatDouble(m.msPerStep) << ',' << formatDouble(m.cgIterations) << ','
                                  << scene.constraints.size() << ','
                                  << formatDouble(c.solves ? 1e3 * c.seconds / c.solves : 0.0) << ','
                                  << formatDouble(c.solves ? static_cast<double>(c.iterations) / c.solves : 0.0) << ','
                                  << (constrained ? (warmStart ? "yes" : "no") : "") << ','
                                  << formatDouble(m.maxConstraintError) << ','
                                  << formatDouble(perStep(contact.contacts)) << ','
                                  << formatDouble(contact.maxPenetration) << ','
                                  << formatDouble(perStep(1e3 * contact.seconds)) << ','
                                  << formatDouble(perStep(static_cast<double>(contact.iterations))) << '\n';
                        std::cerr << name << " " << integrator << ": " << 1e6 * m.msPerStep / (particles + bodies)
                                  << " ns per particle or body per step\n";
                    }
                }
            }
        }
    }
    return 0;
}

}  // namespace tinkerbox
