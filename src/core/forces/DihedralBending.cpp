#include "core/forces/DihedralBending.h"

#include <cmath>
#include <numbers>

#include "core/forces/AngleCondition.h"

namespace tinkerbox {

namespace {

// theta and its gradient, each when asked for, for any scalar type (double, or
// automatic-differentiation scalars for the Hessian). Returns false for a degenerate hinge.
template <class T>
bool hingeAngle(const Eigen::Matrix<T, 12, 1>& x, T* theta, Eigen::Matrix<T, 12, 1>* gradientOut) {
    using V = Eigen::Matrix<T, 3, 1>;
    const V x0 = x.template segment<3>(0), x1 = x.template segment<3>(3);
    const V x2 = x.template segment<3>(6), x3 = x.template segment<3>(9);
    const V e = x1 - x0;
    const V n1 = (x2 - x0).cross(x2 - x1), n2 = (x3 - x1).cross(x3 - x0);
    const T e2 = e.squaredNorm(), n1sq = n1.squaredNorm(), n2sq = n2.squaredNorm();
    using std::atan2;
    using std::sqrt;
    // Degenerate below a relative area of 1e-10 (the gradient grows as 1/area).
    if (!(n1sq > 1e-20 * e2 * e2) || !(n2sq > 1e-20 * e2 * e2) || !(e2 > T(0.0))) return false;
    const T length = sqrt(e2), inverseLength = T(1.0) / length;
    if (theta) *theta = atan2(n2.cross(n1).dot(e) * inverseLength, n1.dot(n2));
    if (!gradientOut) return true;
    Eigen::Matrix<T, 12, 1>& gradient = *gradientOut;
    const V u1 = n1 * (T(1.0) / n1sq), u2 = n2 * (T(1.0) / n2sq);
    gradient.template segment<3>(6) = length * u1;
    gradient.template segment<3>(9) = length * u2;
    gradient.template segment<3>(0) = ((x2 - x1).dot(e) * inverseLength) * u1 + ((x3 - x1).dot(e) * inverseLength) * u2;
    gradient.template segment<3>(3) = -((x2 - x0).dot(e) * inverseLength) * u1 - ((x3 - x0).dot(e) * inverseLength) * u2;
    return true;
}

// theta - rest in (-pi, pi].
double angleDifference(double theta, double rest) {
    double d = theta - rest;
    if (d > std::numbers::pi) d -= 2.0 * std::numbers::pi;
    if (d <= -std::numbers::pi) d += 2.0 * std::numbers::pi;
    return d;
}

}  // namespace

double dihedralAngle(const Eigen::Matrix<double, 12, 1>& x, Eigen::Matrix<double, 12, 1>* gradient) {
    double theta = 0.0;
    if (!hingeAngle(x, &theta, gradient)) {
        theta = 0.0;
        if (gradient) gradient->setZero();
    }
    return theta;
}

Index DihedralBending::add(const BendingHinge& h) {
    addElement(h.particles);
    hinges_.push_back(h);
    return elementCount() - 1;
}

double DihedralBending::angle(const World& world, Index e) const {
    Vector x;
    for (int m = 0; m < 4; ++m) x.segment<3>(3 * m) = world.position(element(e)[m]);
    return dihedralAngle(x);
}

ElementCondition<4> DihedralBending::condition(Index e, const Vector& x, bool withHessian) const {
    return angleCondition<4>(
        x, withHessian, [](const auto& xs, auto& theta, auto& gradient) { return hingeAngle(xs, &theta, &gradient); },
        [rest = hinges_[e].restAngle](double theta) { return angleDifference(theta, rest); });
}

void DihedralBending::elementForce(const World&, Index e, const Vector& x, const Vector& v, Vector& fe) const {
    addConditionForce(condition(e, x, false), hinges_[e].stiffness, hinges_[e].damping, v, fe);
}

double DihedralBending::elementEnergy(Index e, const Vector& x) const {
    const double c = angleDifference(dihedralAngle(x), hinges_[e].restAngle);
    return 0.5 * hinges_[e].stiffness * c * c;
}

void DihedralBending::elementJacobians(const World&, Index e, const Vector& x, const Vector& v, const JacobianRequest& r,
                                       Matrix& K, Vector& KxV) const {
    if (r.form == JacobianForm::Definite) {
        // Only the gradient: the definite form drops the term with the angle.
        ElementCondition<4> c;
        if (!hingeAngle<double>(x, nullptr, &c.gradient)) return;
        addConditionJacobians(c, hinges_[e].stiffness, hinges_[e].damping, v, r.form, ConditionCurvature::Drop, r.cx, r.cv,
                              K, KxV);
        return;
    }
    addConditionJacobians(condition(e, x, true), hinges_[e].stiffness, hinges_[e].damping, v, r.form,
                          ConditionCurvature::Drop, r.cx, r.cv, K, KxV);
}

}  // namespace tinkerbox
