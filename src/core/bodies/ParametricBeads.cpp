#include "core/bodies/ParametricBeads.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/math/Rotation.h"

namespace tinkerbox {

void ParametricBeads::addBead(const ParametricBead& bead) {
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

ParametricBead ParametricBeads::bead(Index i) const {
    const Wire& wire = geometry_[i];
    return {wire.center, wire.radius, wire.u.cross(wire.w), wire.mass, q_[3 * i], qdot_[3 * i]};
}

Vec3 ParametricBeads::point(const Wire& wire, double theta) const {
    return wire.center + wire.radius * (std::cos(theta) * wire.u + std::sin(theta) * wire.w);
}

Vec3 ParametricBeads::tangent(const Wire& wire, double theta) const {
    return wire.radius * (-std::sin(theta) * wire.u + std::cos(theta) * wire.w);
}

Vec3 ParametricBeads::position(Index i) const { return point(geometry_[i], q_[3 * i]); }
Vec3 ParametricBeads::velocity(Index i) const { return tangent(geometry_[i], q_[3 * i]) * qdot_[3 * i]; }

double ParametricBeads::kineticEnergy() const {
    double k = 0.0;
    for (Index i = 0; i < beadCount(); ++i) k += 0.5 * geometry_[i].mass * velocity(i).squaredNorm();
    return k;
}

double ParametricBeads::potentialEnergy(const Vec3& g) const {
    double u = 0.0;
    for (Index i = 0; i < beadCount(); ++i) u -= geometry_[i].mass * g.dot(position(i));
    return u;
}

void ParametricBeads::addForces(const Vec3& g, double kd, Eigen::Ref<VecX> f) const {
    // Generalized force J^T Q (Witkin, Constrained Dynamics, SIGGRAPH 2001 notes, parametric bead).
    for (Index i = 0; i < beadCount(); ++i) {
        const Wire& wire = geometry_[i];
        const double theta = q_[3 * i], thetaDot = qdot_[3 * i];
        const Vec3 J = tangent(wire, theta);
        f[3 * i] += J.dot(wire.mass * g - kd * J * thetaDot);
    }
}

void ParametricBeads::addVelocityTerms(Eigen::Ref<VecX> f) const {
    // -J^T M Jdot theta' (the same notes' equation); it vanishes on a circle (J . dJ/dtheta
    // = 0) but is kept so that the code is the notes' equation.
    for (Index i = 0; i < beadCount(); ++i) {
        const Wire& wire = geometry_[i];
        const double theta = q_[3 * i], thetaDot = qdot_[3 * i];
        const Vec3 Jdot = (wire.center - point(wire, theta)) * thetaDot;  // dJ/dtheta theta'
        f[3 * i] -= wire.mass * tangent(wire, theta).dot(Jdot) * thetaDot;
    }
}

double ParametricBeads::jacobian(Index i, const Vec3& g, double kd, double cx, double cv,
                                 double& dFdxTimesVelocity) const {
    const Wire& wire = geometry_[i];
    // d/dtheta (J . m g) = m g . dJ/dtheta = -m g . (x - c); definite: clamped at 0
    // (the top of the wire, where gravity pushes the bead away, is left out).
    const double dQdTheta = std::min(0.0, -wire.mass * g.dot(point(wire, q_[3 * i]) - wire.center));
    const double dQdThetaDot = -kd * wire.radius * wire.radius;
    dFdxTimesVelocity = dQdTheta * qdot_[3 * i];
    return cx * dQdTheta + cv * dQdThetaDot;
}

}  // namespace tinkerbox
