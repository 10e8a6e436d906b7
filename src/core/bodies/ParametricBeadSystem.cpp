#include "core/bodies/ParametricBeadSystem.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/constraints/ConstraintSpec.h"

namespace tinkerbox {

void ParametricBeadSystem::addBead(const ParametricBead& bead) {
    if (!(bead.radius > 0.0)) throw std::invalid_argument("a parametric bead's wire must have a positive radius");
    if (!(bead.mass > 0.0)) throw std::invalid_argument("a parametric bead must have a positive mass");
    const std::optional<Vec3> normal = unitVector(bead.normal);
    if (!normal) throw std::invalid_argument("a parametric bead's wire normal must be finite and not zero");
    Wire wire{bead.center, Vec3::Zero(), Vec3::Zero(), bead.radius, bead.mass};
    orthonormalComplement(*normal, wire.u, wire.w);
    geometry_.push_back(wire);
    const Index n = beadCount();
    q_.conservativeResize(3 * n);
    qdot_.conservativeResize(3 * n);
    inverseMass_.conservativeResize(3 * n);
    block3(q_, n - 1) = Vec3(bead.angle, 0.0, 0.0);
    block3(qdot_, n - 1) = Vec3(bead.angularVelocity, 0.0, 0.0);
    block3(inverseMass_, n - 1).setConstant(1.0 / (bead.mass * bead.radius * bead.radius));
}

ParametricBead ParametricBeadSystem::bead(Index i) const {
    const Wire& wire = geometry_[i];
    return {wire.center, wire.radius, wire.u.cross(wire.w), wire.mass, q_[3 * i], qdot_[3 * i]};
}

Vec3 ParametricBeadSystem::point(const Wire& wire, double theta) const {
    return wire.center + wire.radius * (std::cos(theta) * wire.u + std::sin(theta) * wire.w);
}

Vec3 ParametricBeadSystem::tangent(const Wire& wire, double theta) const {
    return wire.radius * (-std::sin(theta) * wire.u + std::cos(theta) * wire.w);
}

Vec3 ParametricBeadSystem::position(Index i) const { return point(geometry_[i], q_[3 * i]); }
Vec3 ParametricBeadSystem::velocity(Index i) const { return tangent(geometry_[i], q_[3 * i]) * qdot_[3 * i]; }

double ParametricBeadSystem::kineticEnergy() const {
    double k = 0.0;
    for (Index i = 0; i < beadCount(); ++i) k += 0.5 * geometry_[i].mass * velocity(i).squaredNorm();
    return k;
}

double ParametricBeadSystem::potentialEnergy() const {
    double u = 0.0;
    for (Index i = 0; i < beadCount(); ++i) u -= geometry_[i].mass * gravity_.dot(position(i));
    return u;
}

void ParametricBeadSystem::getState(VecX& x) const {
    const Index n3 = 3 * beadCount();
    x.resize(2 * n3);
    x.head(n3) = q_;
    x.tail(n3) = qdot_;
}

void ParametricBeadSystem::setState(const VecX& x, double t) {
    const Index n3 = 3 * beadCount();
    if (x.size() != 2 * n3) throw std::invalid_argument("ParametricBeadSystem::setState: wrong state size");
    q_ = x.head(n3);
    qdot_ = x.tail(n3);
    t_ = t;
}

void ParametricBeadSystem::appliedForces(VecX& f) {
    // Generalized force J^T Q - J^T M Jdot theta'; the second term vanishes on a circle
    // (J . dJ/dtheta = 0) but is kept so that the code is the notes' equation.
    f.setZero(3 * beadCount());
    for (Index i = 0; i < beadCount(); ++i) {
        const Wire& wire = geometry_[i];
        const double theta = q_[3 * i], thetaDot = qdot_[3 * i];
        const Vec3 J = tangent(wire, theta);
        const Vec3 Jdot = (wire.center - point(wire, theta)) * thetaDot;  // dJ/dtheta theta'
        const Vec3 Q = wire.mass * gravity_ - drag_ * J * thetaDot;
        f[3 * i] = J.dot(Q) - wire.mass * J.dot(Jdot) * thetaDot;
    }
}

void ParametricBeadSystem::accelerations(VecX& a) {
    appliedForces(force_);
    a = inverseMass_.cwiseProduct(force_);
}

void ParametricBeadSystem::derivative(VecX& xdot) {
    const Index n3 = 3 * beadCount();
    xdot.resize(2 * n3);
    xdot.head(n3) = qdot_;
    accelerations(acceleration_);
    xdot.tail(n3) = acceleration_;
}

void ParametricBeadSystem::combinedJacobian(double cx, double cv, BlockSparseMatrix& J, VecX& dFdxTimesVelocity) {
    if (J.blockRows() != beadCount() || J.storage() != BlockSparseMatrix::Storage::Upper)
        J.setPattern(beadCount(), {}, BlockSparseMatrix::Storage::Upper);
    J.setZero();
    dFdxTimesVelocity.setZero(3 * beadCount());
    for (Index i = 0; i < beadCount(); ++i) {
        const Wire& wire = geometry_[i];
        // d/dtheta (J . m g) = m g . dJ/dtheta = -m g . (x - c); definite: clamped at 0
        // (the top of the wire, where gravity pushes the bead away, is left out).
        const double dQdTheta = std::min(0.0, -wire.mass * gravity_.dot(point(wire, q_[3 * i]) - wire.center));
        const double dQdThetaDot = -drag_ * wire.radius * wire.radius;
        J.diagonal(i)(0, 0) = cx * dQdTheta + cv * dQdThetaDot;
        dFdxTimesVelocity[3 * i] = dQdTheta * qdot_[3 * i];
    }
}

}  // namespace tinkerbox
