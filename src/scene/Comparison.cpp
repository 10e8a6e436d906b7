#include "scene/Comparison.h"

#include <algorithm>
#include <chrono>
#include <limits>

#include "core/dynamics/GrabSpring.h"
#include "scene/SceneBuilder.h"

namespace tinkerbox {

Comparison::Comparison(const Scene& scene, const std::vector<ComparisonChoice>& choices) : scene_(scene) {
    for (const ComparisonChoice& choice : choices) {
        Scene own = scene;
        own.settings.integrator = choice.integrator;
        if (!choice.contactModel.empty()) own.settings.contactModel = choice.contactModel;
        if (choice.substeps > 0) own.settings.integratorSubsteps[choice.integrator] = choice.substeps;
        Run run;
        run.simulation = buildSimulation(own);
        run.choice = {own.settings.integrator, own.settings.contactModel, run.simulation->substeps()};
        record(run, 0.0);
        runs_.push_back(std::move(run));
    }
}

bool Comparison::anyRunning() const {
    return std::ranges::any_of(runs_, [](const Run& run) { return !run.diverged; });
}

void Comparison::record(Run& run, double msPerStep) {
    Simulation& s = *run.simulation;
    run.samples.push_back({s.time(), s.totalEnergy(), s.constraintError(), msPerStep});
}

void Comparison::step() {
    advance(std::numeric_limits<int>::max());  // every run ends its frame in this one call
}

bool Comparison::advance(int maxSubsteps) {
    bool ended = true;
    for (Run& run : runs_) {
        if (run.diverged || run.frameEnded) continue;
        const auto start = std::chrono::steady_clock::now();
        const FrameReport report = run.simulation->advance(maxSubsteps);
        run.frameSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!report.finished) {
            ended = false;
            continue;
        }
        run.frameEnded = true;
        if (report.diverged) {  // rolled back by the simulation: frozen there
            run.diverged = true;
            run.divergence = report.message;
            continue;
        }
        // Fixed-step integrators take their substeps; adaptive reports the steps it took.
        const long steps = report.integrator.stepSizes.empty() ? run.simulation->substeps()
                                                               : static_cast<long>(report.integrator.stepSizes.size());
        run.integratorSteps += steps;
        run.stepSeconds += run.frameSeconds;
        record(run, 1e3 * run.frameSeconds / static_cast<double>(std::max(steps, 1L)));
    }
    if (ended)
        for (Run& run : runs_) {
            run.frameEnded = false;
            run.frameSeconds = 0.0;
        }
    return ended;
}

void Comparison::setFrameTime(double dt) {
    for (Run& run : runs_) run.simulation->setTimeStep(dt, run.simulation->substeps());
}

bool Comparison::beginPull(const Anchor& anchor, const Vec3& target) {
    endPull();
    const auto sizer = std::ranges::find_if(runs_, [](const Run& run) { return !run.diverged; });
    if (sizer == runs_.end()) return false;
    const World& world = sizer->simulation->world();
    if (anchor.isParticle() ? world.isNailed(anchor.index()) : world.rigidBodies().isFixed(anchor.index()))
        return false;
    const GrabSpringParameters p = grabSpringParameters(world, anchor, sizer->simulation->settings().gravity.norm());
    for (Run& run : runs_) {
        auto spring = std::make_unique<MouseSpring>(anchor, p.stiffness, p.damping, p.maxForce);
        spring->setTarget(target);
        run.pull = &static_cast<MouseSpring&>(run.simulation->world().addForce(std::move(spring)));
        run.simulation->drivenByInput();
    }
    pullAnchor_ = anchor;
    pullTarget_ = target;
    return true;
}

void Comparison::movePull(const Vec3& target, double dt) {
    if (!pullAnchor_) return;
    const Vec3 velocity = (target - pullTarget_) / dt;
    pullTarget_ = target;
    for (Run& run : runs_) {
        run.pull->setTarget(target, velocity);
        run.simulation->drivenByInput();
    }
}

void Comparison::endPull() {
    for (Run& run : runs_) {
        if (run.pull) run.simulation->world().removeForce(run.pull);
        run.pull = nullptr;
    }
    pullAnchor_.reset();
}

std::vector<Vec3> trackedPoints(const World& world) {
    std::vector<Vec3> points;
    for (Index i = 0; i < world.particleCount(); ++i) points.push_back(world.position(i));
    for (Index i = 0; i < world.beadCount(); ++i) points.push_back(world.beads().position(i));
    for (Index k = 0; k < world.rigidBodyCount(); ++k) points.push_back(world.rigidBodies().position(k));
    return points;
}

double maxPointDistance(const World& a, const World& b) {
    const std::vector<Vec3> pa = trackedPoints(a), pb = trackedPoints(b);
    double distance = 0.0;
    for (std::size_t i = 0; i < std::min(pa.size(), pb.size()); ++i)
        distance = std::max(distance, (pa[i] - pb[i]).norm());
    return distance;
}

}  // namespace tinkerbox
