#include "core/pipeline/Simulation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace tinkerbox {

Simulation::Simulation(const SimulationSettings& settings) : settings_(settings) {
    if (!(settings.dt > 0.0) || settings.substeps < 1) throw std::invalid_argument("dt must be > 0 and substeps >= 1");
    for (const auto& [name, count] : settings.integratorSubsteps)
        if (count < 1) throw std::invalid_argument("substeps for " + name + " must be >= 1");
    gravity_ = &static_cast<Gravity&>(world_.addForce(std::make_unique<Gravity>(settings.gravity)));
    drag_ = &static_cast<ViscousDrag&>(world_.addForce(std::make_unique<ViscousDrag>(settings.drag)));
    world_.setConstraintSettings(settings.constraints);
    world_.setPlanar(settings.planar);
    install(makeIntegrator(settings.integrator, settings.solver));
    contact_ = makeContactModel(settings.contactModel, settings.contact);
}

void Simulation::install(std::unique_ptr<Integrator> integrator) {
    integrator_ = std::move(integrator);
    world_.shareThreads(integrator_->parallel());
}

void Simulation::setContactModel(const std::string& name) {
    contact_ = makeContactModel(name, settings_.contact);  // throws before anything changes
    settings_.contactModel = name;
    world_.setParticleContacts({});
    endFrameEarly();
}

void Simulation::setContactModelSettings(const ContactModelSettings& contact) {
    settings_.contact = contact;
    contact_->setSettings(contact);
}

void Simulation::setIntegrator(const std::string& name) {
    install(makeIntegrator(name, settings_.solver));  // throws before anything changes
    settings_.integrator = name;
    endFrameEarly();
}

int Simulation::substeps() const {
    const auto it = settings_.integratorSubsteps.find(settings_.integrator);
    return it != settings_.integratorSubsteps.end() ? it->second : settings_.substeps;
}

void Simulation::setTime(double t) {
    world_.setTime(t);
    endFrameEarly();
}

void Simulation::setTimeStep(double dt, int substeps) {
    if (!(dt > 0.0) || substeps < 1) throw std::invalid_argument("dt must be > 0 and substeps >= 1");
    settings_.dt = dt;
    const auto it = settings_.integratorSubsteps.find(settings_.integrator);
    (it != settings_.integratorSubsteps.end() ? it->second : settings_.substeps) = substeps;
    endFrameEarly();
}

void Simulation::setGravity(const Vec3& g) {
    settings_.gravity = g;
    gravity_->setAcceleration(g);
    guard_.rebase();  // the potential energy changed with it
    endReading_.reset();
}

void Simulation::setDrag(double kd) {
    settings_.drag = kd;
    drag_->setCoefficient(kd);
}

void Simulation::setPlanar(bool planar) {
    settings_.planar = planar;
    world_.setPlanar(planar);
    stateEdited();  // a model pressed into the plane is another model
}

void Simulation::setSolverSettings(const IntegratorSettings& solver) {
    settings_.solver = solver;
    install(makeIntegrator(settings_.integrator, solver));
    endFrameEarly();
}

void Simulation::setConstraintSettings(const ConstraintSettings& constraints) {
    settings_.constraints = constraints;
    world_.setConstraintSettings(constraints);
}

void Simulation::saveFrame(SimulationFrame& frame) const {
    world_.getState(frame.state);
    frame.time = world_.time();
    frame.clockStart = clockStart_;
    frame.frames = frames_;
    frame.integrator = settings_.integrator;
    integrator_->saveMemory(frame.integratorMemory);
}

void Simulation::restoreFrame(const SimulationFrame& frame) {
    world_.setState(frame.state, frame.time);  // throws on a state of another model
    endReading_.reset();
    clockStart_ = frame.clockStart;
    frames_ = frame.frames;
    endFrameEarly();
    drivenByInput_ = false;
    guard_.clear();
    contact_->reset();
    world_.setParticleContacts({});
    world_.constraintSolver().forgetWarmStarts();
    install(makeIntegrator(settings_.integrator, settings_.solver));
    if (frame.integrator == settings_.integrator) integrator_->restoreMemory(frame.integratorMemory);
}

EnergyReading Simulation::energyReading() const {
    const World& s = world_;
    EnergyReading r;
    r.kinetic = kineticEnergy();
    // Once: with cloth energies over thousands of elements it costs as much as a force
    // evaluation. On the integrator's helper thread too, where it keeps one.
    const double potential = world_.potentialEnergy(integrator_->parallel());
    r.total = r.kinetic + potential;
    double totalMass = 0.0;
    r.lightestMass = INFINITY;
    Vec3 low = Vec3::Constant(INFINITY), high = Vec3::Constant(-INFINITY);
    const auto include = [&](const Vec3& x, double m) {
        totalMass += m;
        r.lightestMass = std::min(r.lightestMass, m);
        low = low.cwiseMin(x);
        high = high.cwiseMax(x);
    };
    for (Index i = 0; i < s.particleCount(); ++i) include(s.position(i), s.mass(i));
    for (Index k = 0; k < s.rigidBodyCount(); ++k)
        if (!s.rigidBodies().isFixed(k)) include(s.rigidBodies().position(k), s.rigidBodies().mass(k));
    for (Index i = 0; i < s.beadCount(); ++i) include(s.beads().position(i), s.beads().bead(i).mass);
    if (totalMass > 0.0) {
        r.low = low;
        r.high = high;
    } else {
        r.lightestMass = 1.0;
    }
    const double size = std::max(1.0, (r.high - r.low).norm());
    const double elastic = potential - gravity_->potentialEnergy(s);
    r.scale = r.kinetic + elastic + totalMass * (settings_.gravity.norm() * size + 1.0);
    return r;
}

FrameReport Simulation::step() { return advance(std::numeric_limits<int>::max()); }

void Simulation::beginFrame() {
    const double t0 = world_.time();
    if (t0 != clockStart_ + static_cast<double>(frames_) * settings_.dt) {
        clockStart_ = t0;
        frames_ = 0;
    }
    frameStartTime_ = t0;
    world_.getState(frameStart_);
    const bool unmoved = endReading_ && !drivenByInput_ && t0 == endTime_ && frameStart_.size() == endState_.size() &&
                         frameStart_ == endState_;
    guard_.record(frameStart_, t0, unmoved ? *endReading_ : energyReading());
    endReading_.reset();
    frame_ = {};
}

void Simulation::endFrameEarly() {
    substepsDone_ = 0;
    frame_ = {};
    endReading_.reset();
}

void Simulation::stateEdited() {
    guard_.clear();
    endReading_.reset();
    endFrameEarly();
}

FrameReport Simulation::advance(int maxSubsteps) {
    if (maxSubsteps < 1) throw std::invalid_argument("advance needs at least one substep");
    const int substepCount = substeps();
    const double h = settings_.dt / substepCount;
    if (substepsDone_ == 0) beginFrame();
    FrameReport& report = frame_;
    // " at t = 0.1 s with dt = 0.0166667 (4 substeps)".
    const auto when = [&] {
        std::ostringstream msg;
        msg << " at t = " << world_.time() << " s with dt = " << settings_.dt;
        if (substepCount > 1) msg << " (" << substepCount << " substeps)";
        return msg.str();
    };
    const auto divergence = [&](const std::string& what) {
        const IntegratorKind& kind = integrator_->kind();
        report.diverged = true;
        report.message = std::string(kind.name) + " diverged" + when() + ": " + what +
                         ". Try a smaller dt or more substeps" +
                         (kind.has(IntegratorCapability::ConjugateGradientSolve)
                              ? std::string(" (or a tighter CG tolerance).")
                              : ", or " + std::string(stiffStableIntegratorKind().name) + ".");
    };
    // The frame stops where it failed and goes back to its start.
    const auto rollBack = [&] {
        world_.setState(frameStart_, frameStartTime_);
        drivenByInput_ = false;
        substepsDone_ = 0;
        return std::exchange(frame_, {});
    };
    const Index n3 = 3 * world_.particleCount();
    const Index configuration = world_.configurationDimension();
    const int last = substepsDone_ + std::min(maxSubsteps, substepCount - substepsDone_);
    for (; substepsDone_ < last; ++substepsDone_) {
        if (substepsDone_ > 0) world_.getState(substepStart_);  // the first starts at frameStart_
        const VecX& start = substepsDone_ == 0 ? frameStart_ : substepStart_;
        integrator_->step(world_, h, report.integrator);
        if (!report.integrator.failure.empty() || !world_.stateIsFinite()) {
            divergence(report.integrator.failure.empty() ? "the state became non-finite" : report.integrator.failure);
            return rollBack();
        }
        ContactReport contact;
        contact.contacts = world_.resolveContacts(start.head(n3), start.segment(configuration, n3), h);
        contact_->afterStep(world_, start, h, contact);
        report.contact.add(contact);
        if (!contact.failure.empty()) {
            report.diverged = true;
            report.contactBound = true;
            report.message = "the contact step (" + contact_->name() + ") stopped under " +
                             std::string(integrator_->name()) + when() + ": " + contact.failure +
                             ". Move the bodies apart.";
            return rollBack();
        }
        // From a finite state at speeds whose squares overflow (a drag of 1e50 under an explicit
        // integrator), a contact model's impulses can come out non-finite. A step that found no
        // contact changed nothing and is not read again.
        const bool touched = contact.contacts > 0 || !contact_->manifolds().empty();
        if (touched && !world_.stateIsFinite()) {
            divergence("the state became non-finite in the contact step (" + contact_->name() + ")");
            return rollBack();
        }
        world_.setParticleContacts(contact_->manifolds());  // for the next implicit step's filter
    }
    if (substepsDone_ < substepCount) {
        FrameReport sofar = report;
        sofar.finished = false;
        return sofar;
    }
    substepsDone_ = 0;
    world_.setTime(clockStart_ + static_cast<double>(++frames_) * settings_.dt);
    if (std::exchange(drivenByInput_, false)) guard_.rebase();  // the input's work is not the model's
    const EnergyReading reading = energyReading();
    if (const auto why = guard_.check(reading, world_.time(), settings_.gravity.norm())) {
        divergence(*why);
        world_.setState(guard_.safeState(), guard_.safeTime());
        guard_.clear();
    } else {
        endReading_ = reading;
        world_.getState(endState_);
        endTime_ = world_.time();
    }
    return std::exchange(frame_, {});
}

}  // namespace tinkerbox
