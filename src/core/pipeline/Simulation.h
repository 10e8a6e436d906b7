#pragma once
// A running model: the world (particles, rigid bodies and parametric beads, with their
// forces and constraints), its settings, the chosen integrator, and the stepping loop
// (integrator step, then the contact model, per substep). The integrator can be changed at any moment: the state lives
// in the system, so the model keeps moving from where it is. A frame that makes the state non-finite is rolled back to
// its start; an energy explosion (DivergenceGuard) is rolled back to a state from before it began. Both are reported,
// never propagated. A frame can be run a few substeps at a time (advance), so that a caller with a time budget, the
// app, stays responsive however much work a frame is; the result is bitwise that of the whole frame in one call.
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "core/contact/ContactModel.h"
#include "core/pipeline/DivergenceGuard.h"
#include "core/forces/Gravity.h"
#include "core/integrators/Integrator.h"
#include "core/dynamics/World.h"
#include "core/forces/ViscousDrag.h"

namespace tinkerbox {

struct SimulationSettings {
    std::string integrator = "rk4";
    double dt = 1.0 / 60.0;  // one frame
    int substeps = 1;        // integrator steps per frame, each of dt / substeps
    // The most substeps a frame may have, in a scene file, on the command line or in the app
    // (which clamps to it, so that it never saves a scene it could not open again).
    static constexpr int kMaxSubsteps = 100000;
    // Substeps for particular integrators, overriding `substeps` while they are chosen:
    // a scene can say that euler needs 1024 where rk4 needs 8.
    std::map<std::string, int> integratorSubsteps;
    Vec3 gravity{0.0, -9.81, 0.0};
    double drag = 0.0;
    // Every body and particle in the z = 0 plane, turning about z only (2D scenes).
    bool planar = false;
    std::string contactModel = "baraff";  // a name of contactModelKinds()
    ContactModelSettings contact;         // the contact model's choices (freezing, the hop fix)
    IntegratorSettings solver;
    ConstraintSettings constraints;

    bool operator==(const SimulationSettings&) const = default;
};

struct FrameReport {
    // False when advance() stopped inside the frame: the sums below are those so far.
    bool finished = true;
    bool diverged = false;
    // It stopped because the contact step passed its bound of contact points: no time step or
    // integrator helps, only bodies moved apart.
    bool contactBound = false;
    std::string message;    // why it diverged, and what to try
    ContactReport contact;  // summed over the substeps
    StepReport integrator;  // summed over the substeps
};

// A frame's end as the next frame reads it: the state, the time and the clock, and what the
// integrator carries from step to step. Restoring it and stepping on gives bitwise the
// frames that followed it the first time, as long as the settings and the model are the same
// and the multipliers' and contact solvers' warm starts play no part (they start afresh:
// constraint and contact scenes go on within those solvers' tolerances).
struct SimulationFrame {
    VecX state;
    double time = 0.0;
    double clockStart = 0.0;  // time = clockStart + frames dt (the clock, see Simulation)
    long frames = 0;
    std::string integrator;  // whose memory follows
    VecX integratorMemory;
};

class Simulation {
public:
    explicit Simulation(const SimulationSettings& settings = {});
    Simulation(const Simulation&) = delete;
    Simulation& operator=(const Simulation&) = delete;

    // (Whoever takes the world to change it may change the model's energy.)
    World& world() {
        endReading_.reset();
        return world_;
    }
    const World& world() const { return world_; }
    const SimulationSettings& settings() const { return settings_; }
    // Integrator steps per frame for the chosen integrator.
    int substeps() const;
    const Integrator& integrator() const { return *integrator_; }
    const ContactModel& contactModel() const { return *contact_; }
    double time() const { return world_.time(); }
    void setTime(double t);  // e.g. to keep the clock when a model is rebuilt after an edit

    // Live changes; each keeps the current state. Those that change how a frame is
    // stepped (integrator, dt, substeps, solver settings) end a frame in progress where
    // it is (see advance()); gravity, drag and constraint settings apply from the next
    // substep.
    void setIntegrator(const std::string& name);    // throws std::invalid_argument on an unknown name
    void setContactModel(const std::string& name);  // the same
    // The contact model's choices, from its next step.
    void setContactModelSettings(const ContactModelSettings& contact);
    // Sets dt and the substeps of the chosen integrator (its override, if it has one).
    void setTimeStep(double dt, int substeps);
    void setGravity(const Vec3& g);
    void setDrag(double kd);
    // Moves everything into z = 0 (planar) and keeps it there, or frees z.
    void setPlanar(bool planar);
    void setSolverSettings(const IntegratorSettings& solver);
    void setConstraintSettings(const ConstraintSettings& constraints);

    // The whole model.
    double kineticEnergy() const { return world_.kineticEnergy(); }
    double potentialEnergy() const { return world_.potentialEnergy(); }
    double totalEnergy() const { return kineticEnergy() + potentialEnergy(); }
    double constraintError() { return world_.constraintError(); }

    // Advances one frame (dt), or the rest of the frame in progress; the time after n
    // frames of the same dt is t0 + n dt, computed as such, not summed. On divergence the
    // state is restored (see above).
    FrameReport step();
    // Runs at most maxSubsteps (>= 1) substeps of the frame in progress, starting a frame
    // if none is. The frame's end (the clock, the divergence guard, the report's sums)
    // comes with its last substep, so a frame run over several calls ends in bitwise the
    // state of step(). report.finished says whether the frame ended (or was rolled back).
    FrameReport advance(int maxSubsteps);
    // Substeps of the frame in progress done so far; 0 when no frame is in progress.
    int substepsDone() const { return substepsDone_; }
    // Call after changing the state from outside (an edit, a drag while paused), so
    // that the divergence guard does not compare against the old model. A frame in
    // progress ends where it is; the next one starts from the edited state.
    void stateEdited();
    // Call before or during a frame in which an input (the mouse spring, a dragged nail)
    // does work on the model: the guard's energy budget starts again after that frame.
    void drivenByInput() {
        drivenByInput_ = true;
        endReading_.reset();
    }
    // Between frames (substepsDone() == 0): the frame just ended, for a timeline.
    void saveFrame(SimulationFrame& frame) const;
    // Back to a saved frame of this model (throws std::invalid_argument when the state does
    // not fit it). A frame in progress ends; the divergence guard, the contact model and the
    // multipliers forget the later frames; the integrator's memory comes back when the frame
    // was saved under the integrator chosen now.
    void restoreFrame(const SimulationFrame& frame);
    // What the divergence guard measures (DivergenceGuard.h).
    EnergyReading energyReading() const;

private:
    SimulationSettings settings_;
    void beginFrame();
    // Ends the frame in progress at the current state: time and state stay, and the
    // clock starts again from them at the next frame (its time is no longer t0 + n dt).
    void endFrameEarly();
    // Steps with this integrator from now on; the world's force passes share its helper thread.
    void install(std::unique_ptr<Integrator> integrator);

    World world_;
    Gravity* gravity_;
    ViscousDrag* drag_;
    std::unique_ptr<Integrator> integrator_;
    std::unique_ptr<ContactModel> contact_;
    DivergenceGuard guard_;
    bool drivenByInput_ = false;
    // The guard's reading at the last frame's end, and the state and time it was taken at:
    // the next frame starts there unless something moved the model, and then records that
    // reading rather than take another (with cloth energies a reading costs about as much as
    // a force evaluation). world(), stateEdited(), drivenByInput(), setGravity() and
    // restoreFrame() drop it.
    std::optional<EnergyReading> endReading_;
    VecX endState_;
    double endTime_ = 0.0;
    // The clock: time = clockStart_ + frames_ * dt, one rounding instead of a sum of
    // steps. It starts again whenever the time or dt was changed from outside.
    double clockStart_ = 0.0;
    long frames_ = 0;
    VecX frameStart_, substepStart_;
    // The frame in progress: its start time, substeps done and sums so far.
    double frameStartTime_ = 0.0;
    int substepsDone_ = 0;
    FrameReport frame_;
};

}  // namespace tinkerbox
