#include "core/forces/AngularSpring.h"

#include <cmath>

#include "core/forces/AngleCondition.h"

namespace tinkerbox {

namespace {

// theta and its gradient for any scalar type; false where the strand is straight (or a
// segment has no length) and the gradient is undefined.
template <class T>
bool turningAngle(const Eigen::Matrix<T, 9, 1>& x, T& theta, Eigen::Matrix<T, 9, 1>& gradient) {
    using V = Eigen::Matrix<T, 3, 1>;
    const V e0 = x.template segment<3>(3) - x.template segment<3>(0);
    const V e1 = x.template segment<3>(6) - x.template segment<3>(3);
    const V c = e0.cross(e1);
    const T l0 = e0.squaredNorm(), l1 = e1.squaredNorm(), s2 = c.squaredNorm();
    using std::atan2;
    using std::sqrt;
    if (!(s2 > 1e-24 * l0 * l1)) return false;
    const T s = sqrt(s2);
    theta = atan2(s, e0.dot(e1));
    const V d0 = e0.cross(c) / (l0 * s), d1 = -e1.cross(c) / (l1 * s);
    gradient.template segment<3>(0) = -d0;
    gradient.template segment<3>(3) = d0 - d1;
    gradient.template segment<3>(6) = d1;
    return true;
}

}  // namespace

double jointAngle(const Vec3& xa, const Vec3& xb, const Vec3& xc) {
    return std::atan2((xb - xa).cross(xc - xb).norm(), (xb - xa).dot(xc - xb));
}

Index AngularSpringSet::add(const AngularSpring& s) {
    addElement(s.particles);
    springs_.push_back(s);
    return elementCount() - 1;
}

double AngularSpringSet::angle(const World& world, Index e) const {
    return jointAngle(world.position(element(e)[0]), world.position(element(e)[1]), world.position(element(e)[2]));
}

ElementCondition<3> AngularSpringSet::condition(Index e, const Vector& x, bool withHessian) const {
    return angleCondition<3>(
        x, withHessian, [](const auto& xs, auto& theta, auto& gradient) { return turningAngle(xs, theta, gradient); },
        [rest = springs_[e].restAngle](double theta) { return theta - rest; });
}

void AngularSpringSet::elementForce(const World&, Index e, const Vector& x, const Vector& v, Vector& fe) const {
    addConditionForce(condition(e, x, false), springs_[e].stiffness, springs_[e].damping, v, fe);
}

double AngularSpringSet::elementEnergy(Index e, const Vector& x) const {
    // The energy is taken from the angle itself (a straight strand with a rest angle still holds energy).
    const double d = jointAngle(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6)) - springs_[e].restAngle;
    return 0.5 * springs_[e].stiffness * d * d;
}

void AngularSpringSet::elementJacobians(const World&, Index e, const Vector& x, const Vector& v, const JacobianRequest& r,
                                        Matrix& K, Vector& KxV) const {
    addConditionJacobians(condition(e, x, r.form == JacobianForm::Exact), springs_[e].stiffness, springs_[e].damping, v,
                          r.form, ConditionCurvature::Drop, r.cx, r.cv, K, KxV);
}

}  // namespace tinkerbox
