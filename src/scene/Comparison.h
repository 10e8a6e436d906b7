#pragma once
// Compare mode (issue 12): the same model under several integrators (and contact models) at
// once, from the same start, stepping together. Each run is a Simulation of its own, built
// from the same scene with only its integrator (and contact model) changed, and stepped
// exactly as it would be alone, so that every run is bitwise the run of that integrator by
// itself. Every frame each run records its total energy, constraint error and wall time
// per integrator step. A run that diverges (the Simulation rolls it back and says so) is
// marked and frozen at its last good state while the others go on.
// A pull (the user's mouse spring) is applied to every run alike: the same anchor (a
// particle, or a point fixed in a body), the same target and the same spring.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/pipeline/Simulation.h"
#include "core/forces/MouseSpring.h"
#include "scene/Scene.h"

namespace tinkerbox {

struct ComparisonChoice {
    std::string integrator;
    std::string contactModel;  // empty: the scene's
    int substeps = 0;          // integrator steps per frame; 0: the scene's for the integrator
};

struct ComparisonSample {
    double time = 0.0;
    double energy = 0.0;           // kinetic + potential, J
    double constraintError = 0.0;  // the world's constraint error
    double msPerStep = 0.0;        // wall time per integrator step of the frame that ended here; 0 at the start
};

class Comparison {
public:
    struct Run {
        ComparisonChoice choice;  // its contact model and substeps filled in
        std::unique_ptr<Simulation> simulation;
        std::vector<ComparisonSample> samples;  // one at the start, then one per frame stepped
        long integratorSteps = 0;               // the substeps taken (adaptive's own steps)
        double stepSeconds = 0.0;               // wall time spent in its frames
        bool diverged = false;                  // frozen since
        std::string divergence;                 // what the simulation said
        MouseSpring* pull = nullptr;            // owned by the simulation's world
        // The frame in progress: ended (waiting for the other runs) and its wall time so far.
        bool frameEnded = false;
        double frameSeconds = 0.0;
    };

    // Throws std::invalid_argument for an unknown integrator or contact model, and what
    // buildSimulation throws for a scene it cannot build.
    Comparison(const Scene& scene, const std::vector<ComparisonChoice>& choices);

    std::size_t size() const { return runs_.size(); }
    const Run& run(std::size_t i) const { return runs_[i]; }
    const Scene& scene() const { return scene_; }
    bool anyRunning() const;

    // One frame of every run that has not diverged, in order.
    void step();
    // At most maxSubsteps (>= 1) substeps of the frame in progress of every run still going
    // (Simulation::advance), starting a frame where none is; true once every run has ended
    // the frame, which each then records. A frame run so over several calls ends bitwise as
    // step() ends it: a caller with a time budget (the app) stays responsive.
    bool advance(int maxSubsteps);
    // The frame time of every run from the next frame on (each keeps its substeps), e.g. a
    // last, shorter frame that ends a run at a duration dt does not divide.
    void setFrameTime(double dt);

    // The same mouse spring on every run: at the anchor (a body point in the body's own
    // frame), sized by grabSpringParameters on the first run still going. False, and no
    // pull, for a nailed particle or a fixed body.
    bool beginPull(const Anchor& anchor, const Vec3& target);
    // The pull's target for the next frame, its velocity from the last target over dt.
    void movePull(const Vec3& target, double dt);
    void endPull();
    bool pulling() const { return pullAnchor_.has_value(); }
    const std::optional<Anchor>& pullAnchor() const { return pullAnchor_; }

private:
    void record(Run& run, double msPerStep);

    Scene scene_;
    std::vector<Run> runs_;
    std::optional<Anchor> pullAnchor_;
    Vec3 pullTarget_ = Vec3::Zero();  // the last, for the target's velocity
};

// The points of a model whose motion runs are compared by: every particle, every parametric
// bead and every rigid body's centre of mass.
std::vector<Vec3> trackedPoints(const World& world);
// The largest distance between the same tracked point in two worlds of the same model.
double maxPointDistance(const World& a, const World& b);

}  // namespace tinkerbox
