#include "cli/CompareCommand.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>

#include "cli/Csv.h"
#include "cli/FramePlan.h"
#include "cli/Plot.h"
#include "cli/Progress.h"
#include "scene/Comparison.h"
#include "scene/SceneJson.h"

namespace tinkerbox {

int compareIntegrators(const CompareOptions& o) {
    Scene scene;
    try {
        scene = loadScene(o.scene);
    } catch (const SceneError& e) {
        std::cerr << "error: " << e.what() << '\n';
        return 1;
    }
    if (o.contactModel) scene.settings.contactModel = *o.contactModel;
    if (o.dt) scene.settings.dt = *o.dt;
    if (o.substeps) {  // for every integrator
        scene.settings.substeps = *o.substeps;
        scene.settings.integratorSubsteps.clear();
    }
    const double dt = scene.settings.dt;
    const std::optional<FramePlan> plan = planFrames(o.steps, o.duration, dt);
    if (!plan) {
        std::cerr << "error: " << o.scene << ": a run of " << o.duration.value_or(10.0) << " s at dt " << dt
                  << " s would take more than 1e15 frames\n";
        return 1;
    }

    std::vector<ComparisonChoice> choices;
    for (const std::string& name : o.integrators.empty() ? scene.compare : o.integrators)
        choices.push_back({name, "", 0});
    if (choices.empty()) {
        std::cerr << "error: nothing to compare: give --integrator (repeatable), or a \"compare\" list in " << o.scene
                  << '\n';
        return 2;
    }
    std::optional<Comparison> runs, reference;
    try {
        runs.emplace(scene, choices);
        // The reference: its integrator at 16 times the substeps the scene gives it.
        const auto own = scene.settings.integratorSubsteps.find(o.reference);
        const long substeps =
            kReferenceRefinement *
            static_cast<long>(own == scene.settings.integratorSubsteps.end() ? scene.settings.substeps : own->second);
        if (substeps > SimulationSettings::kMaxSubsteps) {
            std::cerr << "error: the reference would need " << substeps << " substeps a frame, more than "
                      << SimulationSettings::kMaxSubsteps << '\n';
            return 1;
        }
        reference.emplace(scene, std::vector<ComparisonChoice>{{o.reference, "", static_cast<int>(substeps)}});
    } catch (const std::exception& e) {
        std::cerr << "error: " << o.scene << ": " << e.what() << '\n';
        return 1;
    }

    std::ofstream file;
    if (!o.out.empty()) {
        file.open(o.out);
        if (!file) {
            std::cerr << "error: cannot write " << o.out << '\n';
            return 1;
        }
    }
    std::ostream& csv = o.out.empty() ? std::cout : file;

    // Each run's distance from the reference at every frame's end (0 at the start).
    std::vector<std::vector<double>> positionError(runs->size(), std::vector<double>{0.0});
    const Simulation& finest = *reference->run(0).simulation;
    ProgressBar progress;
    const long frames = plan->frames();
    for (long f = 1; f <= frames && runs->anyRunning(); ++f) {
        if (f > plan->wholeFrames) {
            runs->setFrameTime(plan->lastFrame);
            reference->setFrameTime(plan->lastFrame);
        }
        runs->step();
        reference->step();
        for (std::size_t r = 0; r < runs->size(); ++r) {
            const Comparison::Run& run = runs->run(r);
            if (run.diverged || reference->run(0).diverged) continue;
            positionError[r].push_back(maxPointDistance(run.simulation->world(), finest.world()));
        }
        progress.update(static_cast<double>(f) / frames, finest.time(), plan->endTime(dt));
    }

    int exitCode = 0;
    if (reference->run(0).diverged) {
        std::cerr << "error: the reference, " << o.reference << " at " << finest.substeps()
                  << " substeps, diverged: " << reference->run(0).divergence << '\n';
        exitCode = 1;
    }
    csv << "integrator,dt,substeps,steps,ms_per_step,max_energy_drift,max_constraint_error,"
           "max_position_error_vs_finest\n";
    PlotPanel energy{"total energy (J)", false, {}};
    PlotPanel error{
        "position error vs " + o.reference + " at " + std::to_string(finest.substeps()) + " substeps (m)", true, {}};
    PlotPanel constraint{"constraint error", true, {}};
    std::vector<PlotLegendEntry> legend;
    for (std::size_t r = 0; r < runs->size(); ++r) {
        const Comparison::Run& run = runs->run(r);
        double drift = 0.0, constraintError = 0.0;
        PlotSeries e, c, p;
        for (const ComparisonSample& s : run.samples) {
            drift = std::max(drift, std::abs(s.energy - run.samples.front().energy));
            constraintError = std::max(constraintError, s.constraintError);
            e.t.push_back(s.time);
            e.y.push_back(s.energy);
            c.t.push_back(s.time);
            c.y.push_back(s.constraintError);
        }
        for (std::size_t k = 0; k < positionError[r].size(); ++k) {
            p.t.push_back(run.samples[k].time);
            p.y.push_back(positionError[r][k]);
        }
        double positionDrift = reference->run(0).diverged ? NAN : *std::ranges::max_element(positionError[r]);
        // A run that diverged has no bound on its errors, whatever it measured before.
        if (run.diverged) drift = constraintError = positionDrift = INFINITY;
        const double msPerStep =
            run.integratorSteps > 0 ? 1e3 * run.stepSeconds / static_cast<double>(run.integratorSteps) : 0.0;
        csv << run.choice.integrator << ',' << formatDouble(dt) << ',' << run.choice.substeps << ','
            << run.integratorSteps << ',' << formatDouble(msPerStep) << ',' << formatDouble(drift) << ','
            << formatDouble(constraintError) << ',' << formatDouble(positionDrift) << '\n';
        energy.series.push_back(std::move(e));
        error.series.push_back(std::move(p));
        constraint.series.push_back(std::move(c));
        std::string label = run.choice.integrator;
        if (run.diverged) {
            std::cerr << "error: " << run.divergence << '\n';
            label += " (diverged at " + formatDouble(run.simulation->time()) + " s)";
            exitCode = 1;
        }
        legend.push_back({label, run.diverged});
    }
    csv.flush();
    if (!o.plot.empty() && !writePlotPng(o.plot, kComparePlotWidth, kComparePlotHeight, plan->endTime(dt),
                                         {energy, error, constraint}, legend)) {
        std::cerr << "error: cannot write " << o.plot << '\n';
        return 1;
    }
    return exitCode;
}

}  // namespace tinkerbox
