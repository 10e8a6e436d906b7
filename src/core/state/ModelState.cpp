#include "core/state/ModelState.h"

#include <stdexcept>

namespace tinkerbox {

void ModelState::addParticles(const std::vector<ParticleInit>& particles) {
    const Index first = particleCount();
    const Index count = first + static_cast<Index>(particles.size());
    x_.conservativeResize(3 * count);
    v_.conservativeResize(3 * count);
    mass_.conservativeResize(count);
    particleInverseMass_.conservativeResize(3 * count);
    for (Index k = 0; k < static_cast<Index>(particles.size()); ++k) {
        const ParticleInit& p = particles[k];
        if (!(p.mass > 0.0)) throw std::invalid_argument("particle mass must be positive");
        const Index i = first + k;
        block3(x_, i) = p.position;
        block3(v_, i) = p.velocity;
        mass_[i] = p.mass;
        block3(particleInverseMass_, i).setConstant(p.nailed ? 0.0 : 1.0 / p.mass);
        if (planar_) {
            x_[3 * i + 2] = v_[3 * i + 2] = 0.0;
            particleInverseMass_[3 * i + 2] = 0.0;
        }
    }
}

Index ModelState::addRigidBody(const RigidBodySpec& spec) {
    const Index k = bodies_.add(spec, planar_);
    if (planar_) {  // in the plane, as setPlanar puts the bodies already there and addParticles a particle
        Vec3 x = bodies_.position(k);
        x.z() = 0.0;
        bodies_.setPosition(k, x);
    }
    return k;
}

void ModelState::addBead(const ParametricBead& bead) { beads_.addBead(bead); }

void ModelState::setMass(Index i, double m) {
    if (!(m > 0.0)) throw std::invalid_argument("particle mass must be positive");
    mass_[i] = m;
    setNailed(i, isNailed(i));
}

void ModelState::setNailed(Index i, bool nailed) {
    block3(particleInverseMass_, i).setConstant(nailed ? 0.0 : 1.0 / mass_[i]);
    if (planar_) particleInverseMass_[3 * i + 2] = 0.0;
    if (nailed) block3(v_, i).setZero();
}

void ModelState::moveNailed(Index i, const Vec3& target, double h) {
    block3(v_, i) = (target - position(i)) / h;
    block3(x_, i) = target;
}

void ModelState::setPlanar(bool planar) {
    planar_ = planar;
    for (Index i = 0; i < particleCount(); ++i) {
        if (planar) x_[3 * i + 2] = v_[3 * i + 2] = 0.0;
        setNailed(i, isNailed(i));
    }
    bodies_.setPlanar(planar);
    if (planar)
        for (Index k = 0; k < rigidBodyCount(); ++k) {
            Vec3 x = bodies_.position(k);
            x.z() = 0.0;
            bodies_.setPosition(k, x);
        }
}

bool ModelState::hasAnchor(const Anchor& a) const {
    if (a.index() < 0) return false;
    return a.isParticle() ? a.index() < particleCount() && a.point.isZero(0.0) : a.index() < rigidBodyCount();
}

Vec3 ModelState::anchorPosition(const Anchor& a) const {
    return a.isParticle() ? position(a.index()) : bodies_.worldPoint(a.index(), a.point);
}

Vec3 ModelState::anchorVelocity(const Anchor& a) const {
    return a.isParticle() ? velocity(a.index()) : bodies_.pointVelocity(a.index(), anchorPosition(a));
}

AnchorKinematics ModelState::anchorKinematics(const Anchor& a) const {
    AnchorKinematics k;
    if (a.isParticle()) {
        k.position = position(a.index());
        k.velocity = velocity(a.index());
        return k;
    }
    const Index b = a.index();
    k.rigid = true;
    k.position = bodies_.worldPoint(b, a.point);
    k.lever = k.position - bodies_.position(b);
    k.angularVelocity = bodies_.angularVelocity(b);
    k.velocity = bodies_.velocity(b) + k.angularVelocity.cross(k.lever);
    k.rotation = bodies_.rotation(b);
    return k;
}

double ModelState::effectiveInverseMass(const Anchor& a, const Vec3& n) const {
    if (a.isParticle()) return block3(particleInverseMass_, a.index()).cwiseProduct(n).dot(n);
    const Index b = a.index();
    if (bodies_.isFixed(b)) return 0.0;
    const Vec3 rn = (anchorPosition(a) - bodies_.position(b)).cross(n);
    const Vec3 nLinear = bodies_.planarLinear(n);
    return nLinear.squaredNorm() / bodies_.mass(b) + rn.dot(bodies_.inverseInertiaWorld(b) * rn);
}

void ModelState::applyForce(const Anchor& a, const Vec3& F, VecX& f) const {
    if (a.isParticle()) {
        block3(f, a.index()) += F;
        return;
    }
    const Index block = rigidBlock(a.index());
    block3(f, block) += F;
    block3(f, block + 1) += (anchorPosition(a) - bodies_.position(a.index())).cross(F);
}

Index ModelState::velocityBlock(const BodyRef& body) const {
    return body.kind == BodyKind::Particle ? body.index : rigidBlock(body.index);
}

const InverseMass& ModelState::inverseMass() const {
    const Index blocks = velocityBlocks();
    InverseMass& W = inverseMass_;
    if (W.blocks() != blocks) {
        W.diagonal.setZero(3 * blocks);
        W.full.assign(blocks, -1);
        W.fullBlocks.resize(rigidBodyCount());
        for (Index k = 0; k < rigidBodyCount(); ++k) W.full[rigidBlock(k) + 1] = static_cast<std::int32_t>(k);
    }
    W.diagonal.head(3 * particleCount()) = particleInverseMass_;
    for (Index k = 0; k < rigidBodyCount(); ++k) {
        const double w = bodies_.isFixed(k) ? 0.0 : 1.0 / bodies_.mass(k);
        block3(W.diagonal, rigidBlock(k)) = Vec3(w, w, planar_ ? 0.0 : w);
        W.fullBlocks[k] = bodies_.inverseInertiaWorld(k);
    }
    W.diagonal.tail(3 * beadCount()) = beads_.inverseMassPerDof();
    return W;
}

const VecX& ModelState::velocities() const {
    if (rigidBodyCount() == 0 && beadCount() == 0) return v_;
    VecX& u = velocityCoordinates_;
    u.resize(velocityDimension());
    u.head(3 * particleCount()) = v_;
    bodies_.getMomenta(u.segment(3 * particleCount(), 6 * rigidBodyCount()));
    u.tail(3 * beadCount()) = beads_.angularVelocities();
    return u;
}

void ModelState::setVelocities(const VecX& u) {
    if (u.size() != velocityDimension()) throw std::invalid_argument("setVelocities: wrong size");
    v_ = u.head(3 * particleCount());
    bodies_.setMomenta(u.segment(3 * particleCount(), 6 * rigidBodyCount()));
    beads_.setAngularVelocities(u.tail(3 * beadCount()));
}

const VecX& ModelState::generalizedVelocities() const {
    if (rigidBodyCount() == 0) return velocities();
    VecX& g = generalizedVelocities_;
    g = velocities();
    for (Index k = 0; k < rigidBodyCount(); ++k) {
        block3(g, rigidBlock(k)) = bodies_.velocity(k);
        block3(g, rigidBlock(k) + 1) = bodies_.angularVelocity(k);
    }
    return g;
}

void ModelState::changeVelocities(const VecX& dv) {
    v_ += particleInverseMass_.cwiseSign().cwiseProduct(dv.head(3 * particleCount()));
    for (Index k = 0; k < rigidBodyCount(); ++k)
        bodies_.changeVelocity(k, block3(dv, rigidBlock(k)), block3(dv, rigidBlock(k) + 1));
    if (beadCount() > 0) beads_.setAngularVelocities(beads_.angularVelocities() + dv.tail(3 * beadCount()));
}

void ModelState::massBlocks(std::vector<Mat3>& mass, std::vector<char>& fixed) const {
    // In a plane the blocks keep their full mass in the directions that cannot move (a
    // particle's z, a body's rotation about x and y): the block stays definite, and
    // changeVelocities drops what the solve gives there.
    mass.resize(velocityBlocks());
    fixed.resize(velocityBlocks());
    for (Index i = 0; i < particleCount(); ++i) {
        fixed[i] = isNailed(i);
        mass[i] = mass_[i] * Mat3::Identity();
    }
    for (Index k = 0; k < rigidBodyCount(); ++k) {
        const Index b = rigidBlock(k);
        fixed[b] = fixed[b + 1] = bodies_.isFixed(k);
        mass[b] = bodies_.mass(k) * Mat3::Identity();
        const Mat3 I = bodies_.inertiaWorld(k);
        mass[b + 1] = planar_ ? Mat3(I(2, 2) * Mat3::Identity()) : I;
    }
    for (Index i = 0; i < beadCount(); ++i) {
        fixed[beadBlock(i)] = false;
        mass[beadBlock(i)] = (1.0 / beads_.inverseMassPerDof()[3 * i]) * Mat3::Identity();
    }
}

double ModelState::kineticEnergy() const {
    double k = 0.0;
    for (Index i = 0; i < particleCount(); ++i) k += 0.5 * mass_[i] * block3(v_, i).squaredNorm();
    return k + bodies_.kineticEnergy() + beads_.kineticEnergy();
}

Vec3 ModelState::linearMomentum() const {
    Vec3 p = Vec3::Zero();
    for (Index i = 0; i < particleCount(); ++i) p += mass_[i] * velocity(i);
    for (Index k = 0; k < rigidBodyCount(); ++k) p += bodies_.mass(k) * bodies_.velocity(k);
    for (Index i = 0; i < beadCount(); ++i) p += beads_.bead(i).mass * beads_.velocity(i);
    return p;
}

Vec3 ModelState::angularMomentum() const {
    Vec3 l = Vec3::Zero();
    for (Index i = 0; i < particleCount(); ++i) l += position(i).cross(mass_[i] * velocity(i));
    for (Index k = 0; k < rigidBodyCount(); ++k)
        l += bodies_.position(k).cross(bodies_.mass(k) * bodies_.velocity(k)) +
             bodies_.inertiaWorld(k) * bodies_.angularVelocity(k);
    for (Index i = 0; i < beadCount(); ++i) l += beads_.position(i).cross(beads_.bead(i).mass * beads_.velocity(i));
    return l;
}

void ModelState::getConfiguration(Eigen::Ref<VecX> q) const {
    q.head(3 * particleCount()) = x_;
    bodies_.getConfiguration(q.segment(3 * particleCount(), 7 * rigidBodyCount()));
    q.tail(3 * beadCount()) = beads_.angles();
}

void ModelState::setConfiguration(const Eigen::Ref<const VecX>& q) {
    x_ = q.head(3 * particleCount());
    bodies_.setConfiguration(q.segment(3 * particleCount(), 7 * rigidBodyCount()));
    beads_.setAngles(q.tail(3 * beadCount()));
}

bool ModelState::stateIsFinite() const {
    if (!x_.allFinite() || !v_.allFinite() || !beads_.angles().allFinite() || !beads_.angularVelocities().allFinite())
        return false;
    for (Index k = 0; k < rigidBodyCount(); ++k)
        if (!bodies_.position(k).allFinite() || !bodies_.orientation(k).coeffs().allFinite() ||
            !bodies_.momentum(k).allFinite() || !bodies_.angularMomentum(k).allFinite())
            return false;
    return true;
}

}  // namespace tinkerbox
