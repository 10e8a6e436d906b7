#pragma once
// A running model: the particle system (with its constraints), the parametric beads,
// their settings, the chosen integrator, and the stepping loop (integrator step, then
// plane contacts, per substep). The particles and the beads are separate systems, each
// stepped by its own instance of the chosen integrator. The
// integrator can be changed at any moment: the state lives in the system, so the
// model keeps moving from where it is. A frame that makes the state non-finite is
// rolled back to its start; an energy explosion (DivergenceGuard) is rolled back to
// a state from before it began. Both are reported, never propagated.
#include <map>
#include <memory>
#include <string>

#include "core/DivergenceGuard.h"
#include "core/Gravity.h"
#include "core/Integrator.h"
#include "core/ParametricBeadSystem.h"
#include "core/ParticleSystem.h"
#include "core/ViscousDrag.h"

namespace tinkerbox {

struct SimulationSettings {
    std::string integrator = "rk4";
    double dt = 1.0 / 60.0;  // one frame
    int substeps = 1;        // integrator steps per frame, each of dt / substeps
    // Substeps for particular integrators, overriding `substeps` while they are chosen:
    // a scene can say that euler needs 1024 where rk4 needs 8.
    std::map<std::string, int> integratorSubsteps;
    Vec3 gravity{0.0, -9.81, 0.0};
    double drag = 0.0;
    IntegratorSettings solver;
    ConstraintSettings constraints;

    bool operator==(const SimulationSettings&) const = default;
};

struct FrameReport {
    bool diverged = false;
    std::string message;  // why it diverged, and what to try
    int contacts = 0;
    StepReport integrator;  // summed over the substeps
};

class Simulation {
public:
    explicit Simulation(const SimulationSettings& settings = {});
    Simulation(const Simulation&) = delete;
    Simulation& operator=(const Simulation&) = delete;

    ParticleSystem& system() { return system_; }
    const ParticleSystem& system() const { return system_; }
    ParametricBeadSystem& beads() { return beads_; }
    const ParametricBeadSystem& beads() const { return beads_; }
    const SimulationSettings& settings() const { return settings_; }
    // Integrator steps per frame for the chosen integrator.
    int substeps() const;
    const Integrator& integrator() const { return *integrator_; }
    double time() const { return system_.time(); }
    void setTime(double t);  // e.g. to keep the clock when a model is rebuilt after an edit

    // Live changes; each keeps the current state.
    void setIntegrator(const std::string& name);  // throws std::invalid_argument on an unknown name
    // Sets dt and the substeps of the chosen integrator (its override, if it has one).
    void setTimeStep(double dt, int substeps);
    void setGravity(const Vec3& g);
    void setDrag(double kd);
    void setSolverSettings(const IntegratorSettings& solver);
    void setConstraintSettings(const ConstraintSettings& constraints);

    // The whole model: particles and parametric beads.
    double kineticEnergy() const { return system_.kineticEnergy() + beads_.kineticEnergy(); }
    double potentialEnergy() const { return system_.potentialEnergy() + beads_.potentialEnergy(); }
    double totalEnergy() const { return kineticEnergy() + potentialEnergy(); }
    double constraintError() { return system_.constraintError(); }

    // Advances one frame (dt); the time after n frames of the same dt is t0 + n dt,
    // computed as such, not summed. On divergence the state is restored (see above).
    FrameReport step();
    // Call after changing the state from outside (an edit, a drag while paused), so
    // that the divergence guard does not compare against the old model.
    void stateEdited() { guard_.clear(); }
    // Call before a frame in which an input (the mouse spring, a dragged nail) does
    // work on the model: the guard's energy budget starts again after that frame.
    void drivenByInput() { drivenByInput_ = true; }
    // What the divergence guard measures (DivergenceGuard.h).
    EnergyReading energyReading() const;

private:
    SimulationSettings settings_;
    void getFullState(VecX& state) const;  // [particles | beads]
    void setFullState(const VecX& state, double t);

    ParticleSystem system_;
    ParametricBeadSystem beads_;
    Gravity* gravity_;
    ViscousDrag* drag_;
    std::unique_ptr<Integrator> integrator_, beadIntegrator_;
    DivergenceGuard guard_;
    bool drivenByInput_ = false;
    // The clock: time = clockStart_ + frames_ * dt, one rounding instead of a sum of
    // steps. It starts again whenever the time or dt was changed from outside.
    double clockStart_ = 0.0;
    long frames_ = 0;
    VecX frameStart_, substepStart_;
    mutable VecX beadState_;
};

}  // namespace tinkerbox
