#include "core/dynamics/World.h"

#include <algorithm>
#include <stdexcept>

namespace tinkerbox {

Index World::addParticle(const Vec3& x, const Vec3& v, double mass, bool nailed) {
    addParticles({ParticleInit{x, v, mass, nailed}});
    return particleCount() - 1;
}

void World::addParticles(const std::vector<ParticleInit>& particles) {
    ModelState::addParticles(particles);
    elementsChanged();
    constraintLayoutDirty_ = true;
}

Index World::addRigidBody(const RigidBodySpec& spec) {
    const Index k = ModelState::addRigidBody(spec);
    elementsChanged();
    constraintLayoutDirty_ = true;
    return k;
}

void World::addBead(const ParametricBead& bead) {
    ModelState::addBead(bead);
    elementsChanged();
    constraintLayoutDirty_ = true;
}

void World::setSpring(Index k, const DampedSpring& s) {
    if (!hasAnchor(s.a) || !hasAnchor(s.b) || s.a == s.b)
        throw std::invalid_argument("a spring must join two different existing anchors");
    springs_.set(k, s);
    elementsChanged();
}

Index World::addSpring(const DampedSpring& s) {
    if (!hasAnchor(s.a) || !hasAnchor(s.b) || s.a == s.b)
        throw std::invalid_argument("a spring must join two different existing anchors");
    elementsChanged();
    return springs_.add(s);
}

Force& World::addForce(std::unique_ptr<Force> force) {
    forces_.push_back(std::move(force));
    elementsChanged();
    return *forces_.back();
}

void World::addPlane(const Plane& plane) {
    const std::optional<Vec3> normal = unitVector(plane.normal);
    if (!normal) throw std::invalid_argument("a plane's normal must be finite and not zero");
    Plane unit = plane;
    unit.normal = *normal;
    planes_.push_back(unit);
}

void World::removeForce(const Force* force) {
    std::erase_if(forces_, [force](const std::unique_ptr<Force>& f) { return f.get() == force; });
    elementsChanged();
}

Constraint& World::addConstraint(std::unique_ptr<Constraint> constraint) {
    for (const Anchor& a : constraint->anchors())
        if (!hasAnchor(a)) throw std::invalid_argument("constraint refers to a particle or body that does not exist");
    constraints_.push_back(std::move(constraint));
    constraintLayoutDirty_ = true;
    return *constraints_.back();
}

void World::removeConstraint(const Constraint* constraint) {
    std::erase_if(constraints_, [constraint](const std::unique_ptr<Constraint>& c) { return c.get() == constraint; });
    constraintLayoutDirty_ = true;
}

void World::evaluateConstraints() {
    if (constraintLayoutDirty_) {
        constraintSolver_.layout(constraints_, *this);
        constraintLayoutDirty_ = false;
    }
    constraintSolver_.evaluate(constraints_, *this);
}

double World::constraintError() {
    if (constraints_.empty()) return 0.0;
    evaluateConstraints();
    return constraintSolver_.maxRelativeError();
}

int World::resolveContacts(const Eigen::Ref<const VecX>& xBefore, const Eigen::Ref<const VecX>& vBefore, double h) {
    int contacts = 0;
    if (planes_.empty()) return contacts;
    auto held = heldImpulses_.cbegin();
    for (Index i = 0; i < particleCount(); ++i) {
        if (isNailed(i)) continue;
        Vec3 x = position(i);
        Vec3 v = velocity(i);
        bool touched = false;
        const bool isHeld = held != heldImpulses_.cend() && held->first == i;
        for (const Plane& plane : planes_) {
            // The part of the step's filter impulse along this plane's normal, per unit mass.
            const double heldImpulse = isHeld ? std::max(0.0, held->second.dot(plane.normal)) / mass_[i] : 0.0;
            if (resolvePlaneContact(plane, xBefore.segment<3>(3 * i), vBefore.segment<3>(3 * i), h, x, v,
                                    heldImpulse)) {
                ++contacts;
                touched = true;
            }
        }
        if (isHeld) ++held;
        if (touched) {
            block3(x_, i) = x;
            block3(v_, i) = v;
        }
    }
    return contacts;
}

void World::setParticleContacts(const std::vector<ContactManifold>& manifolds) {
    heldImpulses_.clear();
    particleContacts_.clear();
    for (const ContactManifold& m : manifolds) {
        if (m.a.kind != ColliderKind::Particle || m.b.kind != ColliderKind::Rigid || !bodies_.isFixed(m.b.index))
            continue;
        // The point lies midway between the particle and the body's surface, the normal
        // pointing from the particle to the body.
        const Index k = m.b.index;
        const Mat3 toShape = bodies_.rotation(k).transpose();
        for (int p = 0; p < m.count; ++p) {
            const Vec3 surface = m.points[p].position + 0.5 * m.points[p].separation * m.normal;
            particleContacts_.push_back(
                {m.a.index, k, bodies_.centerOfMassInShapeFrame(k) + toShape * (surface - bodies_.position(k)),
                 toShape * -m.normal});
        }
    }
    std::sort(particleContacts_.begin(), particleContacts_.end(),
              [](const ParticleContact& a, const ParticleContact& b) { return a.particle < b.particle; });
}

void World::filterImpulses(const std::vector<VelocityFilter>& filters, const std::vector<Vec3>& impulses) {
    heldImpulses_.clear();
    for (std::size_t f = 0; f < filters.size(); ++f)
        if (filters[f].block < particleCount()) heldImpulses_.emplace_back(filters[f].block, impulses[f]);
}

double World::heldImpulse(Index i, const Vec3& direction) const {
    const auto it =
        std::lower_bound(heldImpulses_.begin(), heldImpulses_.end(), i,
                         [](const std::pair<Index, Vec3>& held, Index particle) { return held.first < particle; });
    return it != heldImpulses_.end() && it->first == i ? std::max(0.0, it->second.dot(direction)) : 0.0;
}

void World::velocityFilters(std::vector<VelocityFilter>& filters) const {
    filters.clear();
    if (planes_.empty() && particleContacts_.empty()) return;
    auto contact = particleContacts_.begin();
    for (Index i = 0; i < particleCount(); ++i) {
        VelocityFilter filter;
        filter.block = i;
        // n . (v + dv - surface velocity) = 0 for a particle touching and not leaving.
        const auto constrain = [&](const Vec3& normal, double separation, const Vec3& surfaceVelocity) {
            const double normalVelocity = (velocity(i) - surfaceVelocity).dot(normal);
            if (separation < kTouching && normalVelocity <= kRestingSpeed) filter.constrain(normal, -normalVelocity);
        };
        for (const Plane& plane : planes_) constrain(plane.normal, plane.signedDistance(position(i)), Vec3::Zero());
        for (; contact != particleContacts_.end() && contact->particle == i; ++contact) {
            const Index k = contact->body;
            if (k >= rigidBodyCount() || !bodies_.isFixed(k)) continue;  // the bodies changed since
            const Vec3 surface = bodies_.worldPoint(k, contact->surfacePoint);
            const Vec3 normal = bodies_.rotation(k) * contact->normal;
            constrain(normal, (position(i) - surface).dot(normal), bodies_.pointVelocity(k, surface));
        }
        if (filter.count > 0 && !isNailed(i)) filters.push_back(filter);
    }
}

double World::potentialEnergy(TwoWayParallel* parallel) const {
    if (!parallel) {
        double u = springs_.potentialEnergy(*this);
        for (const auto& f : forces_) u += f->potentialEnergy(*this);
        return u;
    }
    // The halves of the springs' energy, then of each force's (Force::potentialEnergyHalf).
    std::vector<double> halves(2 * (forces_.size() + 1));
    parallel->forEach(static_cast<std::int64_t>(halves.size()), [&](std::int64_t k) {
        const auto f = static_cast<std::size_t>(k / 2);
        const Force& force = f == 0 ? static_cast<const Force&>(springs_) : *forces_[f - 1];
        halves[static_cast<std::size_t>(k)] = force.potentialEnergyHalf(*this, static_cast<int>(k % 2));
    });
    double u = halves[0] + halves[1];
    for (std::size_t f = 1; 2 * f < halves.size(); ++f) u += halves[2 * f] + halves[2 * f + 1];
    return u;
}

void World::getState(VecX& x) const {
    const Index n = configurationDimension();
    x.resize(dimension());
    getConfiguration(x.head(n));
    x.tail(velocityDimension()) = velocities();
}

void World::setState(const VecX& x, double t) {
    if (x.size() != dimension()) throw std::invalid_argument("World::setState: wrong state size");
    setConfiguration(x.head(configurationDimension()));
    const auto u = x.tail(velocityDimension());  // as setVelocities, without a copy of u
    v_ = u.head(3 * particleCount());
    bodies_.setMomenta(u.segment(3 * particleCount(), 6 * rigidBodyCount()));
    beads_.setAngularVelocities(u.tail(3 * beadCount()));
    t_ = t;
}

void World::derivative(VecX& xdot) {
    const Index n3 = 3 * particleCount();
    xdot.resize(dimension());
    // Fixed particles have zero inverse mass: neither their position nor their velocity changes.
    xdot.head(n3) = (particleInverseMass_.array() > 0.0).select(v_, 0.0);
    bodies_.configurationRate(xdot.segment(n3, 7 * rigidBodyCount()));
    xdot.segment(n3 + 7 * rigidBodyCount(), 3 * beadCount()) = beads_.angularVelocities();
    accelerations(acceleration_);
    xdot.tail(velocityDimension()) = acceleration_;
}

void World::velocityRates(const VecX& Q, VecX& a) const {
    // Particles and beads: a = W Q. Bodies: (Pdot, Ldot) = (F, tau), as they are.
    a.resize(Q.size());
    a.head(3 * particleCount()) = particleInverseMass_.cwiseProduct(Q.head(3 * particleCount()));
    for (Index k = 0; k < rigidBodyCount(); ++k) {
        const bool fixed = bodies_.isFixed(k);
        block3(a, rigidBlock(k)) = fixed ? Vec3::Zero() : bodies_.planarLinear(block3(Q, rigidBlock(k)));
        block3(a, rigidBlock(k) + 1) = fixed ? Vec3::Zero() : bodies_.planarAngular(block3(Q, rigidBlock(k) + 1));
    }
    a.tail(3 * beadCount()) = beads_.inverseMassPerDof().cwiseProduct(Q.tail(3 * beadCount()));
}

void World::accelerations(VecX& a) {
    // The derivative evaluation loop (Witkin, Particle System Dynamics and Constrained
    // Dynamics, SIGGRAPH 2001 notes): clear the accumulators, let every force apply
    // itself, add the constraint forces, turn forces into rates.
    appliedForces(force_);
    if (!constraints_.empty()) {
        evaluateConstraints();
        const InverseMass& W = inverseMass();
        // What the bodies would do without the constraints, in (v, omega) space: W Q, and
        // for a body's angular part also -Iinv (omega x L), the rate of omega = Iinv L
        // that comes from the turning of Iinv (Baraff, Rigid Body Simulation, section 2.11).
        W.apply(force_, freeAcceleration_);
        for (Index k = 0; k < rigidBodyCount(); ++k) {
            const Vec3 w = bodies_.angularVelocity(k);
            block3(freeAcceleration_, rigidBlock(k) + 1) -= W.fullBlocks[k] * w.cross(bodies_.angularMomentum(k));
        }
        constraintSolver_.addConstraintForces(W, generalizedVelocities(), freeAcceleration_, force_,
                                              constraintSettings_);
    }
    velocityRates(force_, a);
}

void World::unconstrainedAccelerations(VecX& a) {
    appliedForces(force_);
    velocityRates(force_, a);
}

void World::drift(double h) { drift(h, false); }

void World::driftBackward(double h) { drift(h, true); }

void World::drift(double h, bool backward) {
    if (!constraints_.empty()) getState(driftStartState_);  // where constrainPositions takes its gradients
    x_ += h * (particleInverseMass_.array() > 0.0).select(v_, 0.0);
    if (backward) bodies_.driftBackward(h);
    else bodies_.drift(h);
    beads_.drift(h);
}

void World::displace(const VecX& d) {
    x_ += d.head(3 * particleCount());
    for (Index k = 0; k < rigidBodyCount(); ++k)
        bodies_.displace(k, block3(d, rigidBlock(k)), block3(d, rigidBlock(k) + 1));
}

void World::constrainVelocities() {
    if (constraints_.empty()) return;
    evaluateConstraints();
    constraintSolver_.projectVelocities(inverseMass(), generalizedVelocities(), velocityChange_, constraintSettings_);
    changeVelocities(velocityChange_);
}

void World::constrainPositions(double h) {
    if (constraints_.empty()) return;
    // SHAKE: back onto C(x) = 0 along the gradients at the drift's start; the velocity
    // takes the same correction, so that it stays the step's displacement over h.
    getState(driftEndState_);
    setState(driftStartState_, t_);
    evaluateConstraints();
    constraintSolver_.holdStartJacobian(inverseMass());
    startInertia_.resize(rigidBodyCount());
    for (Index k = 0; k < rigidBodyCount(); ++k) startInertia_[k] = bodies_.inertiaWorld(k);
    setState(driftEndState_, t_);
    correction_.setZero(velocityDimension());
    const VecX particlesBefore = x_;
    for (int iteration = 0; iteration < ConstraintSolver::kProjectionIterations; ++iteration) {
        evaluateConstraints();
        if (constraintSolver_.maxRelativeError() <= ConstraintSolver::kProjectionTolerance) break;
        constraintSolver_.projectPositions(velocityChange_, constraintSettings_);
        displace(velocityChange_);
        correction_ += velocityChange_;
    }
    // The particles' correction is where they ended minus where they started (one
    // rounding, not a sum); a body's is the sum of its displacements and rotations.
    correction_.head(3 * particleCount()) = x_ - particlesBefore;
    // The displacements are W0 J0^T nu: the momenta take the impulse J0^T nu / h that
    // makes them, M0 d / h with the inertia at the drift's start, where W0 was taken. (The
    // inertia at the end, as changeVelocities would use, differs from it by O(h omega),
    // and that error fed energy into a tumbling constrained body step after step.)
    for (Index k = 0; k < rigidBodyCount(); ++k) {
        const Index b = rigidBlock(k);
        bodies_.addImpulse(k, (bodies_.mass(k) / h) * block3(correction_, b),
                           startInertia_[k] * block3(correction_, b + 1) / h);
        block3(correction_, b).setZero();
        block3(correction_, b + 1).setZero();
    }
    changeVelocities(correction_ / h);
}

void World::appliedForces(VecX& f) {
    f.setZero(velocityDimension());
    springs_.accumulate(*this, f, threads_);
    for (const auto& force : forces_) force->accumulate(*this, f, threads_);
    beads_.addVelocityTerms(f.tail(3 * beadCount()));
}

void World::projectiveTerms(std::vector<const ProjectiveTerm*>& terms) const {
    terms.clear();
    terms.push_back(springs_.projectiveTerm());
    for (const auto& force : forces_)
        if (const ProjectiveTerm* term = force->projectiveTerm()) terms.push_back(term);
}

void World::forcesOutsideProjectiveTerms(VecX& f) {
    f.setZero(velocityDimension());
    springs_.accumulateOutsideProjectiveTerm(*this, f);
    for (const auto& force : forces_) {
        if (force->projectiveTerm()) force->accumulateOutsideProjectiveTerm(*this, f);
        else force->accumulate(*this, f, threads_);
    }
    beads_.addVelocityTerms(f.tail(3 * beadCount()));
}

void World::couplings(std::vector<std::pair<Index, Index>>& out) const {
    springs_.appendCouplings(*this, out);
    for (const auto& f : forces_) f->appendCouplings(*this, out);
}

void World::elementsChanged() {
    patternDirty_ = true;
    ++elementsRevision_;
}

void World::bindJacobianPattern(BlockSparseMatrix::Storage storage) {
    if (!patternDirty_ && pattern_.storage() == storage && pattern_.blockRows() == velocityBlocks()) return;
    std::vector<std::pair<Index, Index>> pairs;
    couplings(pairs);
    pattern_.setPattern(velocityBlocks(), pairs, storage);
    springs_.bindPattern(*this, pattern_);
    for (const auto& f : forces_) f->bindPattern(*this, pattern_);
    patternDirty_ = false;
}

void World::bindJacobian(const JacobianRequest& request, BlockSparseMatrix& J) {
    bindJacobianPattern(request.form == JacobianForm::Exact ? BlockSparseMatrix::Storage::Full
                                                            : BlockSparseMatrix::Storage::Upper);
    if (!J.samePattern(pattern_)) J.copyPattern(pattern_);
}

void World::prepareJacobian(const JacobianRequest& request, BlockSparseMatrix& J) {
    bindJacobian(request, J);
    if (request.parallel) J.setZero(*request.parallel);
    else J.setZero();
}

void World::addJacobians(const JacobianRequest& request, BlockSparseMatrix& J) {
    prepareJacobian(request, J);
    springs_.addJacobians(*this, request, J);
    for (const auto& f : forces_) f->addJacobians(*this, request, J);
}

void World::forceJacobians(JacobianForm form, BlockSparseMatrix& dFdx, BlockSparseMatrix& dFdv) {
    addJacobians({form, 1.0, 0.0, nullptr}, dFdx);
    addJacobians({form, 0.0, 1.0, nullptr}, dFdv);
}

void World::combinedJacobian(double cx, double cv, BlockSparseMatrix& J, VecX& dFdxTimesVelocity) {
    dFdxTimesVelocity.setZero(velocityDimension());
    addJacobians({JacobianForm::Definite, cx, cv, &dFdxTimesVelocity}, J);
}

void World::appliedForcesAndCombinedJacobian(VecX& f, double cx, double cv, BlockSparseMatrix& J,
                                             VecX& dFdxTimesVelocity, TwoWayParallel* parallel) {
    // In appliedForces' order.
    f.setZero(velocityDimension());
    dFdxTimesVelocity.setZero(velocityDimension());
    const JacobianRequest request{JacobianForm::Definite, cx, cv, &dFdxTimesVelocity, parallel};
    // The springs set J (zeroing it first would be a pass of its own), then the forces add.
    bindJacobian(request, J);
    springs_.accumulateSettingJacobians(*this, request, f, J);
    for (const auto& force : forces_) force->accumulateWithJacobians(*this, request, f, J);
    beads_.addVelocityTerms(f.tail(3 * beadCount()));
}

}  // namespace tinkerbox
