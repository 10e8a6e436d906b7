#include "cli/RunCommand.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/Csv.h"
#include "cli/FramePlan.h"
#include "cli/Progress.h"
#include "scene/SceneBuilder.h"
#include "scene/SceneJson.h"

namespace tinkerbox {

namespace {

// Opens path for writing when one is given; says so and returns false when it cannot.
bool openOutput(const std::string& path, std::ofstream& out) {
    if (path.empty()) return true;
    out.open(path);
    if (!out) std::cerr << "error: cannot write " << path << '\n';
    return static_cast<bool>(out);
}

// An option that tunes one integrator or contact model, given for a run under another: a usage
// error, because the user expects it to change something. Else the options are applied.
template <class Choice, class Settings>
std::string applyChoices(const std::vector<Choice>& choices, const std::string& running, Settings& settings) {
    for (const Choice& c : choices)
        if (c.kind->name != running)
            return "--" + std::string(c.parameter->option) + " sets " + std::string(c.kind->name) + "'s " +
                   std::string(c.parameter->label) + ", but this run uses " + running;
    for (const Choice& c : choices) c.parameter->set(settings, c.value);
    return {};
}

}  // namespace

int runScene(const RunOptions& o) {
    Scene scene;
    try {
        scene = loadScene(o.scene);
    } catch (const SceneError& e) {
        std::cerr << "error: " << e.what() << '\n';
        return 1;
    }
    if (o.integrator) scene.settings.integrator = *o.integrator;
    if (o.contactModel) scene.settings.contactModel = *o.contactModel;
    if (o.selfCollision) scene.settings.contact.selfCollisionThickness = *o.selfCollision;
    if (const std::string why = applyChoices(o.integratorParameters, scene.settings.integrator, scene.settings.solver);
        !why.empty()) {
        std::cerr << "error: " << why << " (for the constraint multipliers' solve use --constraint-tolerance)\n";
        return 2;
    }
    if (const std::string why =
            applyChoices(o.contactModelParameters, scene.settings.contactModel, scene.settings.contact);
        !why.empty()) {
        std::cerr << "error: " << why << '\n';
        return 2;
    }
    if (o.constraintTolerance && scene.constraints.empty())
        std::cerr << "warning: " << o.scene << " has no constraints: --constraint-tolerance changes nothing\n";
    if (o.dt) scene.settings.dt = *o.dt;
    if (o.substeps) {  // for whichever integrator runs
        scene.settings.substeps = *o.substeps;
        scene.settings.integratorSubsteps.clear();
    }
    if (o.constraintTolerance) scene.settings.constraints.solver.tolerance = *o.constraintTolerance;
    std::unique_ptr<Simulation> simulation;
    try {
        simulation = buildSimulation(scene);
    } catch (const std::exception& e) {
        std::cerr << "error: " << o.scene << ": " << e.what() << '\n';
        return 1;
    }
    const double dt = scene.settings.dt;
    const std::optional<FramePlan> plan = planFrames(o.steps, o.duration, dt);
    if (!plan) {
        std::cerr << "error: " << o.scene << ": a run of " << o.duration.value_or(10.0) << " s at dt " << dt
                  << " s would take more than 1e15 frames\n";
        return 1;
    }
    const long steps = plan->wholeFrames, frames = plan->frames();
    const double lastFrame = plan->lastFrame, endTime = plan->endTime(dt);

    std::ofstream file, stepLog;
    if (!openOutput(o.out, file) || !openOutput(o.stepLog, stepLog)) return 1;
    std::ostream& csv = o.out.empty() ? std::cout : file;
    if (stepLog.is_open()) stepLog << "t,h\n";

    // Nothing that is not finite reaches the CSV: the simulation rolls back what diverged, and
    // a row that would still hold inf or NaN (a momentum's product overflowing) ends the run.
    const auto writeRow = [&](const ContactReport& contact) {
        const std::string column = writeRunRow(csv, *simulation, contact);
        if (!column.empty())
            std::cerr << "error: " << scene.settings.integrator << " at t = " << simulation->time() << " s: the run's "
                      << column << " is not finite; the run stops before its row\n";
        return column.empty();
    };
    writeRunHeader(csv, *simulation);
    if (!writeRow(ContactReport{})) return 1;
    ProgressBar progress;
    const auto start = std::chrono::steady_clock::now();
    long internalSteps = 0;
    double hMin = INFINITY, hMax = 0.0;
    int exitCode = 0;
    for (long s = 1; s <= frames; ++s) {
        if (s > steps) simulation->setTimeStep(lastFrame, simulation->substeps());
        const double t0 = simulation->time();
        const double frameDt = simulation->settings().dt;
        const FrameReport report = simulation->step();
        if (report.diverged) {
            std::cerr << "error: " << report.message << '\n';
            exitCode = 1;
            break;
        }
        // Fixed-step integrators take `substeps` equal steps; adaptive reports the ones it took.
        std::vector<double> sizes = report.integrator.stepSizes;
        if (sizes.empty()) sizes.assign(simulation->substeps(), frameDt / simulation->substeps());
        double t = t0;
        for (double h : sizes) {
            t += h;
            if (stepLog.is_open()) stepLog << formatDouble(t) << ',' << formatDouble(h) << '\n';
            hMin = std::min(hMin, h);
            hMax = std::max(hMax, h);
        }
        internalSteps += static_cast<long>(sizes.size());
        if ((s % o.every == 0 || s == frames) && !writeRow(report.contact)) {
            exitCode = 1;
            break;
        }
        progress.update(static_cast<double>(s) / frames, simulation->time(), endTime);
    }
    csv.flush();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cerr << scene.settings.integrator << ": t = " << simulation->time() << " s, " << internalSteps
              << " integrator steps";
    if (internalSteps > 0) std::cerr << " (h " << hMin << " .. " << hMax << ")";
    std::cerr << ", " << seconds << " s wall\n";
    return exitCode;
}

int validateScene(const std::string& file) {
    try {
        const Scene scene = loadScene(file);
        buildSimulation(scene);  // what validate accepts, run builds
        std::cout << file << ": ok: \"" << scene.name << "\", " << scene.particles.size() << " particles, "
                  << scene.springs.size() << " springs, " << scene.constraints.size() << " constraints, "
                  << scene.wires.size() << " wires, " << scene.parametricBeads.size() << " parametric beads, "
                  << scene.planes.size() << " planes, " << scene.bodies.size() << " bodies, integrator "
                  << scene.settings.integrator << ", contact model " << scene.settings.contactModel << ", dt "
                  << scene.settings.dt << '\n';
        return 0;
    } catch (const SceneError& e) {
        std::cerr << "error: " << e.what() << '\n';
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "error: " << file << ": " << e.what() << '\n';
        return 1;
    }
}

}  // namespace tinkerbox
