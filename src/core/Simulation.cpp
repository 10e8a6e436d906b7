#include "core/Simulation.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace tinkerbox {

Simulation::Simulation(const SimulationSettings& settings) : settings_(settings) {
    if (!(settings.dt > 0.0) || settings.substeps < 1) throw std::invalid_argument("dt must be > 0 and substeps >= 1");
    gravity_ = &static_cast<Gravity&>(system_.addForce(std::make_unique<Gravity>(settings.gravity)));
    drag_ = &static_cast<ViscousDrag&>(system_.addForce(std::make_unique<ViscousDrag>(settings.drag)));
    integrator_ = makeIntegrator(settings.integrator, settings.solver);
}

void Simulation::setIntegrator(const std::string& name) {
    integrator_ = makeIntegrator(name, settings_.solver);
    settings_.integrator = name;
}

void Simulation::setTimeStep(double dt, int substeps) {
    if (!(dt > 0.0) || substeps < 1) throw std::invalid_argument("dt must be > 0 and substeps >= 1");
    settings_.dt = dt;
    settings_.substeps = substeps;
}

void Simulation::setGravity(const Vec3& g) {
    settings_.gravity = g;
    gravity_->setAcceleration(g);
}

void Simulation::setDrag(double kd) {
    settings_.drag = kd;
    drag_->setCoefficient(kd);
}

void Simulation::setSolverSettings(const IntegratorSettings& solver) {
    settings_.solver = solver;
    integrator_ = makeIntegrator(settings_.integrator, solver);
}

double Simulation::energyScale() const {
    const ParticleSystem& s = system_;
    const double elastic = s.potentialEnergy() - gravity_->potentialEnergy(s);
    double totalMass = 0.0;
    Vec3 low = Vec3::Constant(INFINITY), high = Vec3::Constant(-INFINITY);
    for (Index i = 0; i < s.particleCount(); ++i) {
        totalMass += s.mass(i);
        low = low.cwiseMin(s.position(i));
        high = high.cwiseMax(s.position(i));
    }
    const double size = s.particleCount() > 0 ? std::max(1.0, (high - low).norm()) : 1.0;
    return s.kineticEnergy() + elastic + totalMass * (settings_.gravity.norm() * size + 1.0);
}

FrameReport Simulation::step() {
    FrameReport report;
    const double h = settings_.dt / settings_.substeps;
    const double t0 = system_.time();
    system_.getState(frameStart_);
    guard_.record(frameStart_, t0, energyScale());
    const Index n3 = system_.velocityDimension();
    const auto divergence = [&](const std::string& what) {
        std::ostringstream msg;
        msg << integrator_->name() << " diverged at t = " << system_.time() << " s with dt = " << settings_.dt;
        if (settings_.substeps > 1) msg << " (" << settings_.substeps << " substeps)";
        msg << ": " << what << ". Try a smaller dt, more substeps, or implicit-euler.";
        report.diverged = true;
        report.message = msg.str();
    };
    for (int s = 0; s < settings_.substeps; ++s) {
        system_.getState(substepStart_);
        integrator_->step(system_, h, report.integrator);
        const bool finite = system_.positions().allFinite() && system_.velocities().allFinite();
        if (!report.integrator.failure.empty() || !finite) {
            divergence(report.integrator.failure.empty() ? "the state became non-finite" : report.integrator.failure);
            system_.setState(frameStart_, t0);
            return report;
        }
        report.contacts += system_.resolveContacts(substepStart_.head(n3), substepStart_.tail(n3), h);
    }
    if (guard_.exploded(system_.kineticEnergy())) {
        divergence("the kinetic energy grew more than " + std::to_string(static_cast<int>(DivergenceGuard::kGrowth)) +
                   "-fold within " + std::to_string(DivergenceGuard::kWindow) + " frames");
        system_.setState(guard_.safeState(), guard_.safeTime());
        guard_.clear();
    }
    return report;
}

}  // namespace tinkerbox
