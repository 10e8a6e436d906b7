#include "core/bodies/RigidBodies.h"

#include <Eigen/LU>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/bodies/MassProperties.h"
#include "core/bodies/ShapeKind.h"
#include "core/math/Rotation.h"

namespace tinkerbox {

RigidBodyMass rigidBodyMass(const RigidBodySpec& spec, const ConvexHull* hull) {
    const MassProperties properties = shapeKind(spec.shape).massProperties(spec.shape, hull);
    const double mass = spec.density > 0.0 ? spec.density * properties.volume : spec.mass;
    return {mass, properties.inertiaForMass(mass), properties.centerOfMass};
}

namespace {

std::shared_ptr<const ConvexHull> bodyHull(const Shape& shape) {
    const ShapeKind& kind = shapeKind(shape);
    return kind.hull ? kind.hull(shape) : nullptr;
}

}  // namespace

Index RigidBodies::add(const RigidBodySpec& spec, bool planar) {
    std::shared_ptr<const ConvexHull> hull = bodyHull(spec.shape);
    const RigidBodyMass mass = rigidBodyMass(spec, hull.get());
    if (!(mass.mass > 0.0)) throw std::invalid_argument("a rigid body's mass must be positive");
    if (!(mass.inertia.determinant() > 0.0))
        throw std::invalid_argument("a rigid body's inertia must be positive definite");
    planar_ = planar;
    hull_.push_back(std::move(hull));
    spec_.push_back(spec);
    const Quat q = spec.orientation.normalized();
    q_.push_back(q);
    centerOfMass_.push_back(mass.centerOfMass);
    x_.push_back(spec.position + q.toRotationMatrix() * mass.centerOfMass);
    mass_.push_back(mass.mass);
    inertia_.push_back(mass.inertia);
    const PrincipalAxes principal = principalAxes(mass.inertia);
    principalAxes_.push_back(principal.rotation);
    principalMoments_.push_back(principal.moments);
    fixed_.push_back(spec.fixed);
    inverseMass_.push_back(spec.fixed ? 0.0 : 1.0 / mass.mass);
    inverseInertia_.push_back(spec.fixed ? Mat3::Zero() : Mat3(mass.inertia.inverse()));
    P_.push_back(Vec3::Zero());
    L_.push_back(Vec3::Zero());
    setVelocity(count() - 1, spec.velocity, spec.angularVelocity);
    return count() - 1;
}

void RigidBodies::setPlanar(bool planar) {
    planar_ = planar;
    for (Index k = 0; k < count(); ++k) setVelocity(k, velocity(k), angularVelocity(k));
}

Mat3 RigidBodies::inverseInertiaWorld(Index k) const {
    if (fixed_[k]) return Mat3::Zero();
    const Mat3 R = rotation(k);
    if (planar_) {
        Mat3 w = Mat3::Zero();
        w(2, 2) = 1.0 / (R * inertia_[k] * R.transpose())(2, 2);
        return w;
    }
    return R * inverseInertia_[k] * R.transpose();
}

Mat3 RigidBodies::inertiaWorld(Index k) const {
    const Mat3 R = rotation(k);
    const Mat3 I = R * inertia_[k] * R.transpose();
    if (!planar_) return I;
    Mat3 zz = Mat3::Zero();
    zz(2, 2) = I(2, 2);
    return zz;
}

void RigidBodies::setSpec(Index k, const RigidBodySpec& spec) {
    if (!(spec.shape == spec_[k].shape)) hull_[k] = bodyHull(spec.shape);
    spec_[k] = spec;
}

RigidBodySpec RigidBodies::currentSpec(Index k) const {
    RigidBodySpec s = spec_[k];
    s.orientation = q_[k];
    s.position = x_[k] - rotation(k) * centerOfMass_[k];
    s.velocity = fixed_[k] ? s.velocity : velocity(k);
    s.angularVelocity = fixed_[k] ? s.angularVelocity : angularVelocity(k);
    return s;
}

Vec3 RigidBodies::worldPoint(Index k, const Vec3& shapePoint) const {
    return x_[k] + q_[k] * (shapePoint - centerOfMass_[k]);
}

Vec3 RigidBodies::pointVelocity(Index k, const Vec3& worldPoint) const {
    return velocity(k) + angularVelocity(k).cross(worldPoint - x_[k]);
}

void RigidBodies::setVelocity(Index k, const Vec3& v, const Vec3& omega) {
    if (fixed_[k]) {
        P_[k].setZero();
        L_[k].setZero();
        return;
    }
    P_[k] = mass_[k] * planarLinear(v);
    L_[k] = inertiaWorld(k) * planarAngular(omega);
}

void RigidBodies::setFixed(Index k, bool fixed) {
    const Vec3 v = velocity(k), w = angularVelocity(k);
    fixed_[k] = fixed;
    spec_[k].fixed = fixed;
    inverseMass_[k] = fixed ? 0.0 : 1.0 / mass_[k];
    inverseInertia_[k] = fixed ? Mat3::Zero() : Mat3(inertia_[k].inverse());
    setVelocity(k, fixed ? Vec3::Zero() : v, fixed ? Vec3::Zero() : w);
}

void RigidBodies::setMass(Index k, const RigidBodyMass& mass) {
    const Vec3 v = velocity(k), w = angularVelocity(k);
    const Vec3 origin = x_[k] - rotation(k) * centerOfMass_[k];
    mass_[k] = mass.mass;
    inertia_[k] = mass.inertia;
    const PrincipalAxes principal = principalAxes(mass.inertia);
    principalAxes_[k] = principal.rotation;
    principalMoments_[k] = principal.moments;
    centerOfMass_[k] = mass.centerOfMass;
    x_[k] = origin + rotation(k) * mass.centerOfMass;
    inverseMass_[k] = fixed_[k] ? 0.0 : 1.0 / mass.mass;
    inverseInertia_[k] = fixed_[k] ? Mat3::Zero() : Mat3(mass.inertia.inverse());
    setVelocity(k, v, w);
}

void RigidBodies::getConfiguration(Eigen::Ref<VecX> out) const {
    for (Index k = 0; k < count(); ++k) {
        out.segment<3>(7 * k) = x_[k];
        out.segment<4>(7 * k + 3) << q_[k].w(), q_[k].x(), q_[k].y(), q_[k].z();
    }
}

void RigidBodies::setConfiguration(const Eigen::Ref<const VecX>& in) {
    // The quaternion is renormalized, as Baraff does when a state array is read back: an
    // explicit step moves q along qdot, off the unit sphere by O(h^2).
    for (Index k = 0; k < count(); ++k) {
        x_[k] = in.segment<3>(7 * k);
        const auto qk = in.segment<4>(7 * k + 3);
        q_[k] = Quat(qk[0], qk[1], qk[2], qk[3]).normalized();
    }
}

void RigidBodies::getMomenta(Eigen::Ref<VecX> out) const {
    for (Index k = 0; k < count(); ++k) {
        out.segment<3>(6 * k) = P_[k];
        out.segment<3>(6 * k + 3) = L_[k];
    }
}

void RigidBodies::setMomenta(const Eigen::Ref<const VecX>& in) {
    for (Index k = 0; k < count(); ++k) {
        P_[k] = in.segment<3>(6 * k);
        L_[k] = in.segment<3>(6 * k + 3);
    }
}

void RigidBodies::configurationRate(Eigen::Ref<VecX> out) const {
    for (Index k = 0; k < count(); ++k) {
        out.segment<3>(7 * k) = velocity(k);
        out.segment<4>(7 * k + 3) = quaternionRate(q_[k], angularVelocity(k));
    }
}

void RigidBodies::drift(double h) {
    // The axes in the order of the symmetric composition, and the share of h of each turn.
    constexpr int kAxis[5] = {0, 1, 2, 1, 0};
    constexpr double kShare[5] = {0.5, 0.5, 1.0, 0.5, 0.5};
    for (Index k = 0; k < count(); ++k) {
        if (fixed_[k]) continue;
        x_[k] += h * velocity(k);
        if (planar_) {
            q_[k] = rotateBy(q_[k], h * angularVelocity(k));
            continue;
        }
        const Vec3& moments = principalMoments_[k];
        if (moments.x() == moments.y() && moments.y() == moments.z()) {
            q_[k] = rotateBy(q_[k], (h / moments.x()) * L_[k]);
            continue;
        }
        for (int s = 0; s < 5; ++s) {
            // A principal axis is fixed in the body, so a turn about it leaves it, and L . a, as they are.
            const int i = kAxis[s];
            const Vec3 axis = q_[k] * (principalAxes_[k] * Vec3::Unit(i));
            q_[k] = rotateBy(q_[k], (kShare[s] * h * L_[k].dot(axis) / principalMoments_[k][i]) * axis);
        }
    }
}

namespace {

// d/dtheta of exp(theta) v is -exp(theta) [v]x Jr(theta), with the right Jacobian of the
// rotation group Jr(theta) = 1 - (1 - cos t)/t^2 [theta]x + (t - sin t)/t^3 [theta]x^2, t = |theta|.
Mat3 rightJacobian(const Vec3& theta) {
    const double t = theta.norm();
    const Mat3 K = skew(theta);
    if (t < 1e-6) return Mat3::Identity() - 0.5 * K + (1.0 / 6.0) * K * K;
    return Mat3::Identity() - ((1.0 - std::cos(t)) / (t * t)) * K + ((t - std::sin(t)) / (t * t * t)) * K * K;
}

Mat3 rotationMatrix(const Vec3& theta) {
    const double t = theta.norm();
    if (t == 0.0) return Mat3::Identity();
    return Eigen::AngleAxisd(t, theta / t).toRotationMatrix();
}

// The principal-frame angular velocity omega with D omega = exp(-h omega) lambda (see
// driftBackward), by Newton's method with a halving line search from the start's
// D^-1 lambda. False when it does not converge.
bool solveBackwardTurn(const Vec3& moments, const Vec3& lambda, double h, Vec3& omega) {
    const auto residual = [&](const Vec3& w) {
        return Vec3(moments.cwiseProduct(w) - rotationMatrix(-h * w) * lambda);
    };
    const double tolerance = 1e-14 * lambda.norm();
    omega = lambda.cwiseQuotient(moments);
    Vec3 r = residual(omega);
    for (int iteration = 0; iteration < 50; ++iteration) {
        if (r.norm() <= tolerance) return true;
        const Vec3 theta = -h * omega;
        const Mat3 jacobian =
            Mat3(moments.asDiagonal()) - h * rotationMatrix(theta) * skew(lambda) * rightJacobian(theta);
        const Vec3 step = jacobian.partialPivLu().solve(-r);
        double s = 1.0;
        Vec3 next = omega + step, rNext = residual(next);
        while (rNext.norm() >= r.norm() && s > 1e-4) {
            s *= 0.5;
            next = omega + s * step;
            rNext = residual(next);
        }
        if (!(rNext.norm() < r.norm())) return false;
        omega = next;
        r = rNext;
    }
    return r.norm() <= tolerance;
}

}  // namespace

void RigidBodies::driftBackward(double h) {
    for (Index k = 0; k < count(); ++k) {
        if (fixed_[k]) continue;
        x_[k] += h * velocity(k);
        if (planar_) {  // omega about z does not change as the body turns about z
            q_[k] = rotateBy(q_[k], h * angularVelocity(k));
            continue;
        }
        turnBackward(k, h, 0);
    }
}

void RigidBodies::turnBackward(Index k, double h, int depth) {
    const Quat toWorld = q_[k] * principalAxes_[k];
    const Vec3 lambda = toWorld.conjugate() * L_[k];
    Vec3 omega;
    if (solveBackwardTurn(principalMoments_[k], lambda, h, omega) || depth == kMaxBackwardHalvings) {
        q_[k] = rotateBy(q_[k], h * (toWorld * omega));
        return;
    }
    turnBackward(k, 0.5 * h, depth + 1);
    turnBackward(k, 0.5 * h, depth + 1);
}

void RigidBodies::displace(Index k, const Vec3& d, const Vec3& theta) {
    if (fixed_[k]) return;
    x_[k] += planarLinear(d);
    q_[k] = rotateBy(q_[k], planarAngular(theta));
}

void RigidBodies::changeVelocity(Index k, const Vec3& dv, const Vec3& dw) {
    if (fixed_[k]) return;
    P_[k] += mass_[k] * planarLinear(dv);
    L_[k] += inertiaWorld(k) * planarAngular(dw);
}

void RigidBodies::addImpulse(Index k, const Vec3& linear, const Vec3& angular) {
    if (fixed_[k]) return;
    P_[k] += planarLinear(linear);
    L_[k] += planarAngular(angular);
}

double RigidBodies::kineticEnergy() const {
    double e = 0.0;
    for (Index k = 0; k < count(); ++k) e += 0.5 * (P_[k].dot(velocity(k)) + L_[k].dot(angularVelocity(k)));
    return e;
}

}  // namespace tinkerbox
