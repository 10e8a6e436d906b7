#include "core/dynamics/ParticleSystem.h"

#include <algorithm>
#include <stdexcept>

namespace tinkerbox {

Index ParticleSystem::addParticle(const Vec3& x, const Vec3& v, double mass, bool nailed) {
    addParticles({ParticleInit{x, v, mass, nailed}});
    return particleCount() - 1;
}

void ParticleSystem::addParticles(const std::vector<ParticleInit>& particles) {
    const Index first = particleCount();
    const Index count = first + static_cast<Index>(particles.size());
    x_.conservativeResize(3 * count);
    v_.conservativeResize(3 * count);
    mass_.conservativeResize(count);
    inverseMass_.conservativeResize(3 * count);
    for (Index k = 0; k < static_cast<Index>(particles.size()); ++k) {
        const ParticleInit& p = particles[k];
        if (!(p.mass > 0.0)) throw std::invalid_argument("particle mass must be positive");
        const Index i = first + k;
        block3(x_, i) = p.position;
        block3(v_, i) = p.velocity;
        mass_[i] = p.mass;
        block3(inverseMass_, i).setConstant(p.nailed ? 0.0 : 1.0 / p.mass);
    }
    patternDirty_ = true;
}

void ParticleSystem::setMass(Index i, double m) {
    if (!(m > 0.0)) throw std::invalid_argument("particle mass must be positive");
    const bool nailed = isNailed(i);
    mass_[i] = m;
    block3(inverseMass_, i).setConstant(nailed ? 0.0 : 1.0 / m);
}

void ParticleSystem::setNailed(Index i, bool nailed) {
    block3(inverseMass_, i).setConstant(nailed ? 0.0 : 1.0 / mass_[i]);
    if (nailed) block3(v_, i).setZero();
}

void ParticleSystem::moveNailed(Index i, const Vec3& target, double h) {
    block3(v_, i) = (target - position(i)) / h;
    block3(x_, i) = target;
}

Index ParticleSystem::addSpring(const DampedSpring& s) {
    if (s.a < 0 || s.b < 0 || s.a >= particleCount() || s.b >= particleCount() || s.a == s.b)
        throw std::invalid_argument("spring must join two distinct existing particles");
    patternDirty_ = true;
    return springs_.add(s);
}

Force& ParticleSystem::addForce(std::unique_ptr<Force> force) {
    forces_.push_back(std::move(force));
    patternDirty_ = true;
    return *forces_.back();
}

void ParticleSystem::addPlane(const Plane& plane) {
    const std::optional<Vec3> normal = unitVector(plane.normal);
    if (!normal) throw std::invalid_argument("a plane's normal must be finite and not zero");
    Plane unit = plane;
    unit.normal = *normal;
    planes_.push_back(unit);
}

void ParticleSystem::removeForce(const Force* force) {
    std::erase_if(forces_, [force](const std::unique_ptr<Force>& f) { return f.get() == force; });
    patternDirty_ = true;
}

Constraint& ParticleSystem::addConstraint(std::unique_ptr<Constraint> constraint) {
    for (Index p : constraint->particles())
        if (p < 0 || p >= particleCount()) throw std::invalid_argument("constraint refers to a particle that does not exist");
    constraints_.push_back(std::move(constraint));
    constraintLayoutDirty_ = true;
    return *constraints_.back();
}

void ParticleSystem::removeConstraint(const Constraint* constraint) {
    std::erase_if(constraints_, [constraint](const std::unique_ptr<Constraint>& c) { return c.get() == constraint; });
    constraintLayoutDirty_ = true;
}

void ParticleSystem::evaluateConstraints() {
    if (constraintLayoutDirty_) {
        constraintSolver_.layout(constraints_);
        constraintLayoutDirty_ = false;
    }
    constraintSolver_.evaluate(constraints_, *this);
}

double ParticleSystem::constraintError() {
    if (constraints_.empty()) return 0.0;
    evaluateConstraints();
    return constraintSolver_.maxRelativeError();
}

void ParticleSystem::constrainVelocities() {
    if (constraints_.empty()) return;
    evaluateConstraints();
    constraintSolver_.projectVelocities(inverseMass_, v_, constraintSettings_);
}

void ParticleSystem::constrainPositions(double h) {
    if (constraints_.empty()) return;
    // SHAKE: back onto C(x) = 0 along the gradients at the drift's start; the velocity
    // takes the same correction, so that it stays the step's displacement over h.
    positionCorrection_ = x_;
    x_.swap(driftStart_);
    evaluateConstraints();
    constraintSolver_.holdStartJacobian();
    x_.swap(driftStart_);
    for (int iteration = 0; iteration < ConstraintSolver::kProjectionIterations; ++iteration) {
        evaluateConstraints();
        if (constraintSolver_.maxRelativeError() <= ConstraintSolver::kProjectionTolerance) break;
        constraintSolver_.projectPositions(inverseMass_, x_, constraintSettings_);
    }
    v_ += (x_ - positionCorrection_) / h;
}

int ParticleSystem::resolveContacts(const Eigen::Ref<const VecX>& xBefore, const Eigen::Ref<const VecX>& vBefore,
                                    double h) {
    int contacts = 0;
    if (planes_.empty()) return contacts;
    for (Index i = 0; i < particleCount(); ++i) {
        if (isNailed(i)) continue;
        Vec3 x = position(i);
        Vec3 v = velocity(i);
        bool touched = false;
        for (const Plane& plane : planes_) {
            if (resolvePlaneContact(plane, xBefore.segment<3>(3 * i), vBefore.segment<3>(3 * i), h, x, v)) {
                ++contacts;
                touched = true;
            }
        }
        if (touched) {
            block3(x_, i) = x;
            block3(v_, i) = v;
        }
    }
    return contacts;
}

double ParticleSystem::kineticEnergy() const {
    double k = 0.0;
    for (Index i = 0; i < particleCount(); ++i) k += 0.5 * mass_[i] * block3(v_, i).squaredNorm();
    return k;
}

double ParticleSystem::potentialEnergy() const {
    double u = springs_.potentialEnergy(*this);
    for (const auto& f : forces_) u += f->potentialEnergy(*this);
    return u;
}

void ParticleSystem::getState(VecX& x) const {
    const Index n3 = 3 * particleCount();
    x.resize(2 * n3);
    x.head(n3) = x_;
    x.tail(n3) = v_;
}

void ParticleSystem::setState(const VecX& x, double t) {
    const Index n3 = 3 * particleCount();
    if (x.size() != 2 * n3) throw std::invalid_argument("ParticleSystem::setState: wrong state size");
    x_ = x.head(n3);
    v_ = x.tail(n3);
    t_ = t;
}

void ParticleSystem::derivative(VecX& xdot) {
    const Index n3 = 3 * particleCount();
    xdot.resize(2 * n3);
    // Nailed particles have zero inverse mass: neither their position nor their velocity changes.
    xdot.head(n3) = (inverseMass_.array() > 0.0).select(v_, 0.0);
    accelerations(acceleration_);
    xdot.tail(n3) = acceleration_;
}

void ParticleSystem::accelerations(VecX& a) {
    // The derivative evaluation loop (Witkin, Particle System Dynamics and Constrained Dynamics, SIGGRAPH 2001 notes): clear the accumulators, let
    // every force apply itself, add the constraint forces, divide by mass.
    appliedForces(force_);
    if (!constraints_.empty()) {
        evaluateConstraints();
        constraintSolver_.addConstraintForces(inverseMass_, v_, force_, constraintSettings_);
    }
    a = inverseMass_.cwiseProduct(force_);
}

void ParticleSystem::unconstrainedAccelerations(VecX& a) {
    appliedForces(force_);
    a = inverseMass_.cwiseProduct(force_);
}

void ParticleSystem::drift(double h) {
    if (!constraints_.empty()) driftStart_ = x_;  // where constrainPositions takes its gradients
    x_ += h * (inverseMass_.array() > 0.0).select(v_, 0.0);
}

void ParticleSystem::appliedForces(VecX& f) {
    f.setZero(3 * particleCount());
    springs_.accumulate(*this, f);
    for (const auto& force : forces_) force->accumulate(*this, f);
}

void ParticleSystem::bindJacobianPattern(BlockSparseMatrix::Storage storage) {
    if (!patternDirty_ && pattern_.storage() == storage) return;
    std::vector<std::pair<Index, Index>> couplings;
    springs_.appendCouplings(couplings);
    for (const auto& f : forces_) f->appendCouplings(couplings);
    pattern_.setPattern(particleCount(), couplings, storage);
    springs_.bindPattern(pattern_);
    for (const auto& f : forces_) f->bindPattern(pattern_);
    patternDirty_ = false;
}

void ParticleSystem::addJacobians(const JacobianRequest& request, BlockSparseMatrix& J) {
    bindJacobianPattern(request.form == JacobianForm::Exact ? BlockSparseMatrix::Storage::Full
                                                            : BlockSparseMatrix::Storage::Upper);
    if (!J.samePattern(pattern_)) J.copyPattern(pattern_);
    J.setZero();
    springs_.addJacobians(*this, request, J);
    for (const auto& f : forces_) f->addJacobians(*this, request, J);
}

void ParticleSystem::forceJacobians(JacobianForm form, BlockSparseMatrix& dFdx, BlockSparseMatrix& dFdv) {
    addJacobians({form, 1.0, 0.0, nullptr}, dFdx);
    addJacobians({form, 0.0, 1.0, nullptr}, dFdv);
}

void ParticleSystem::combinedJacobian(double cx, double cv, BlockSparseMatrix& J, VecX& dFdxTimesVelocity) {
    dFdxTimesVelocity.setZero(3 * particleCount());
    addJacobians({JacobianForm::Definite, cx, cv, &dFdxTimesVelocity}, J);
}

}  // namespace tinkerbox
