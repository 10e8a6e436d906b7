#include "cli/RunCommand.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>

#include "cli/Csv.h"
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
    if (o.dt) scene.settings.dt = *o.dt;
    if (o.substeps) {  // for whichever integrator runs
        scene.settings.substeps = *o.substeps;
        scene.settings.integratorSubsteps.clear();
    }
    if (o.cgTolerance) scene.settings.solver.implicitSolver.tolerance = *o.cgTolerance;
    if (o.cgMaxIterations) scene.settings.solver.implicitSolver.maxIterations = *o.cgMaxIterations;
    if (o.adaptiveTolerance) scene.settings.solver.adaptiveTolerance = *o.adaptiveTolerance;
    const auto simulation = buildSimulation(scene);
    const double dt = scene.settings.dt;
    const long steps = o.steps ? *o.steps : std::lround(o.duration.value_or(10.0) / dt);

    std::ofstream file, stepLog;
    if (!openOutput(o.out, file) || !openOutput(o.stepLog, stepLog)) return 1;
    std::ostream& csv = o.out.empty() ? std::cout : file;
    if (stepLog.is_open()) stepLog << "t,h\n";

    writeRunHeader(csv, *simulation);
    writeRunRow(csv, *simulation);
    ProgressBar progress;
    const auto start = std::chrono::steady_clock::now();
    long internalSteps = 0;
    double hMin = INFINITY, hMax = 0.0;
    int exitCode = 0;
    for (long s = 1; s <= steps; ++s) {
        const double t0 = simulation->time();
        const FrameReport report = simulation->step();
        if (report.diverged) {
            std::cerr << "error: " << report.message << '\n';
            exitCode = 1;
            break;
        }
        // Fixed-step integrators take `substeps` equal steps; adaptive reports the ones it took.
        std::vector<double> sizes = report.integrator.stepSizes;
        if (sizes.empty()) sizes.assign(simulation->substeps(), dt / simulation->substeps());
        double t = t0;
        for (double h : sizes) {
            t += h;
            if (stepLog.is_open()) stepLog << formatDouble(t) << ',' << formatDouble(h) << '\n';
            hMin = std::min(hMin, h);
            hMax = std::max(hMax, h);
        }
        internalSteps += static_cast<long>(sizes.size());
        if (s % o.every == 0) writeRunRow(csv, *simulation);
        progress.update(static_cast<double>(s) / steps, simulation->time(), steps * dt);
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
        std::cout << file << ": ok: \"" << scene.name << "\", " << scene.particles.size() << " particles, "
                  << scene.springs.size() << " springs, " << scene.planes.size() << " planes, integrator "
                  << scene.settings.integrator << ", dt " << scene.settings.dt << '\n';
        return 0;
    } catch (const SceneError& e) {
        std::cerr << "error: " << e.what() << '\n';
        return 1;
    }
}

}  // namespace tinkerbox
