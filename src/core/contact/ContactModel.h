#pragma once
// How a simulation keeps bodies from passing through each other: a contact model runs after
// every integrator step (Simulation::advance), finds the contacts at the step's end and
// changes velocities and positions so that nothing approaches or overlaps. Models are chosen
// by name, live, like integrators.
#include <memory>
#include <string>
#include <vector>

#include "core/collision/Contact.h"
#include "core/contact/ContactModelKind.h"

namespace tinkerbox {

class World;

// What the contact step did, summed over the substeps of a frame (maxPenetration: the
// largest).
struct ContactReport {
    int contacts = 0;             // contact points (and particle-plane contacts)
    double maxPenetration = 0.0;  // metres, at the step's end before correction
    long iterations = 0;          // of the contact solver
    double seconds = 0.0;         // spent detecting and solving
    // Why the contact step stopped without a result (the detection reached its bound), or
    // empty: the world is then part-way through the step, for the caller to go back.
    std::string failure;

    void add(const ContactReport& r);
};

// Choices that change how a model works; a model ignores those it has no use for.
struct ContactModelSettings {
    // oba: bodies at rest on fixed or frozen bodies stop being simulated until hit.
    bool freezing = true;
    // oba: normal impulses first, then friction with them held, so that a box sliding fast
    // does not hop (the one impulse program of the thesis makes it hop).
    bool hopFix = true;
    // Both: particles collide with each other (a cloth with itself, hair with hair) as
    // spheres of this diameter, in metres, except those an element or a constraint joins
    // (ParticleCollisions.h); 0: they pass through each other. At most a metre: thicker,
    // every particle of a model touches every other, and the scene files, the command line
    // and the app refuse or clamp it.
    double selfCollisionThickness = 0.0;
    static constexpr double kMaxSelfCollisionThickness = 1.0;

    bool operator==(const ContactModelSettings&) const = default;
};

class ContactModel {
public:
    virtual ~ContactModel() = default;
    virtual const ContactModelKind& kind() const = 0;
    std::string name() const { return std::string(kind().name); }
    // After an integrator step of length h that started at the state `start` (the world's
    // getState layout): resolves collisions and resting contact at the world's state. A
    // detection past its bound (ContactDetector::kMaxContactPoints) stops it with
    // report.failure said.
    virtual void afterStep(World& world, const VecX& start, double h, ContactReport& report) = 0;
    // The manifolds of the last step, for drawing and statistics.
    virtual const std::vector<ContactManifold>& manifolds() const = 0;
    // Forget what was learnt about the contacts (warm starts, cached axes): call when the
    // world changed in a way the model cannot see (bodies removed or renumbered).
    virtual void reset() = 0;
    // Changes take effect from the next step.
    virtual void setSettings(const ContactModelSettings& settings) = 0;
    // Whether the model stopped simulating rigid body k (frozen, for drawing).
    virtual bool isFrozen(Index rigidBody) const = 0;
};

// The model of that kind (ContactModelKind.h lists them). Throws std::invalid_argument
// naming the valid choices when the name is unknown.
std::unique_ptr<ContactModel> makeContactModel(std::string_view name, const ContactModelSettings& settings = {});

}  // namespace tinkerbox
