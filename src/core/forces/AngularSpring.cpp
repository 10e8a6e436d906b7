#include "core/forces/AngularSpring.h"

#include <algorithm>
#include <cmath>
#include <numbers>

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

void nearestPairAtAngle(const Vec3& e0, const Vec3& e1, double angle, Vec3& p, Vec3& q) {
    const double l0 = e0.squaredNorm(), l1 = e1.squaredNorm();
    Vec3 n = e0.cross(e1);
    const double s = n.norm();
    if (s > 1e-12 * std::sqrt(l0 * l1) && s > 0.0) {
        n /= s;
    } else {  // parallel: a fixed plane through the segments' line
        const Vec3& along = l0 > 0.0 ? e0 : e1;
        if (!(along.squaredNorm() > 0.0)) {  // both zero: already there
            p = e0;
            q = e1;
            return;
        }
        Eigen::Index smallest = 0;
        along.cwiseAbs().minCoeff(&smallest);
        n = Vec3::Unit(smallest).cross(along).normalized();
    }
    const double delta = angle - std::atan2(s, e0.dot(e1));
    if (std::abs(delta) > 0.5 * std::numbers::pi) {  // far from it: turned, lengths kept (AngularSpring.h)
        const double alpha = delta * l1 / (l0 + l1);
        p = Eigen::AngleAxisd(-alpha, n) * e0;
        q = Eigen::AngleAxisd(delta - alpha, n) * e1;
        return;
    }
    // alpha and beta lie between 0 and delta here: both turns below a quarter turn.
    const double alpha = 0.5 * std::atan2(l1 * std::sin(2.0 * delta), l0 + l1 * std::cos(2.0 * delta));
    const double beta = delta - alpha;
    p = std::cos(alpha) * (Eigen::AngleAxisd(-alpha, n) * e0);
    q = std::cos(beta) * (Eigen::AngleAxisd(beta, n) * e1);
}

Index AngularSpringSet::add(const AngularSpring& s) {
    addElement(s.particles);
    springs_.push_back(s);
    const Index e = elementCount() - 1;
    if (s.restLength0 > 0.0 && s.restLength1 > 0.0) {
        projectiveJoints_.push_back(e);
    } else {
        explicitJoints_.push_back(e);
    }
    return e;
}

double AngularSpringSet::weightPerStiffness(const AngularSpring& s) {
    return 1.0 / (s.restLength0 * s.restLength0) + 1.0 / (s.restLength1 * s.restLength1);
}

void AngularSpringSet::accumulateOutsideProjectiveTerm(const ModelState& state, VecX& f) const {
    const VecX& positions = state.positions();
    const VecX& velocities = state.velocities();
    for (const Index e : explicitJoints_) accumulateElement(state, positions, velocities, e, f);
}

void AngularSpringSet::appendProjectiveStencils(double h, std::vector<ProjectiveStencil>& out) const {
    for (const Index e : projectiveJoints_) {
        const AngularSpring& s = springs_[e];
        ProjectiveStencil c;
        c.particleCount = 3;
        c.rows = 2;
        for (int m = 0; m < 3; ++m) c.particles[m] = s.particles[m];
        c.coefficients[0] = {-1.0, 1.0, 0.0, 0.0};  // e0 = x_b - x_a
        c.coefficients[1] = {0.0, -1.0, 1.0, 0.0};  // e1 = x_c - x_b
        c.weight = (s.stiffness + s.damping / h) * weightPerStiffness(s);
        out.push_back(c);
    }
}

namespace {
// A joint's segments e0 = x_b - x_a, e1 = x_c - x_b at positions x.
std::array<Vec3, 2> jointSegments(const VecX& x, const std::array<Index, 3>& particles) {
    const Vec3 xb = block3(x, particles[1]);
    return {xb - block3(x, particles[0]), block3(x, particles[2]) - xb};
}
}  // namespace

void AngularSpringSet::prepareProjections(const VecX& x0, double h, Index first, Index last, double* state) const {
    for (Index c = first; c < last; ++c, state += projectionStateSize()) {
        const AngularSpring& s = springs_[projectiveJoints_[c]];
        const double stiffness = s.stiffness * weightPerStiffness(s), damping = s.damping * weightPerStiffness(s) / h;
        std::fill(state, state + projectionStateSize(), 0.0);
        if (!(stiffness + damping > 0.0)) continue;  // no constraint: the target does not matter
        state[0] = stiffness / (stiffness + damping);
        state[1] = damping / (stiffness + damping);
        if (!(damping > 0.0)) continue;
        // dtheta/d(e0, e1) at the step's start (AngularSpring.h); none where straight.
        const std::array<Vec3, 2> y0 = jointSegments(x0, s.particles);
        const Vec3 n = y0[0].cross(y0[1]);
        const double l0 = y0[0].squaredNorm(), l1 = y0[1].squaredNorm(), sine = n.norm();
        if (!(sine > 1e-12 * std::sqrt(l0 * l1) && sine > 0.0)) continue;
        const std::array<Vec3, 2> direction =
            projectiveDampingDirection<2>({y0[0].cross(n) / (l0 * sine), -y0[1].cross(n) / (l1 * sine)});
        for (int r = 0; r < 2; ++r) Eigen::Map<Vec3>(state + 2 + 3 * r) = direction[r];
    }
}

void AngularSpringSet::projectTargets(const VecX& x, const VecX& x0, Index first, Index last, const double* state,
                                      ProjectiveTarget* targets) const {
    using Rows = std::array<Vec3, 2>;
    for (Index c = first; c < last; ++c, targets += 2, state += projectionStateSize()) {
        const AngularSpring& s = springs_[projectiveJoints_[c]];
        const Rows y = jointSegments(x, s.particles), y0 = jointSegments(x0, s.particles);
        Rows elastic;
        nearestPairAtAngle(y[0], y[1], s.restAngle, elastic[0], elastic[1]);
        const Rows damped = projectiveDampingDisplacement<2>(
            {y[0] - y0[0], y[1] - y0[1]}, {Vec3(state[2], state[3], state[4]), Vec3(state[5], state[6], state[7])});
        for (int r = 0; r < 2; ++r)
            targets[r] = projectiveTarget(state[0] * (elastic[r] - y0[r]) + state[1] * damped[r]);
    }
}

double AngularSpringSet::angle(const ModelState& state, Index e) const {
    return jointAngle(state.position(element(e)[0]), state.position(element(e)[1]), state.position(element(e)[2]));
}

ElementCondition<3> AngularSpringSet::condition(Index e, const Vector& x, bool withHessian) const {
    return angleCondition<3>(
        x, withHessian, [](const auto& xs, auto& theta, auto& gradient) { return turningAngle(xs, theta, gradient); },
        [rest = springs_[e].restAngle](double theta) { return theta - rest; });
}

void AngularSpringSet::elementForce(const ModelState&, Index e, const Vector& x, const Vector& v, Vector& fe) const {
    addConditionForce(condition(e, x, false), springs_[e].stiffness, springs_[e].damping, v, fe);
}

double AngularSpringSet::elementEnergy(Index e, const Vector& x) const {
    // The energy is taken from the angle itself (a straight strand with a rest angle still holds energy).
    const double d = jointAngle(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6)) - springs_[e].restAngle;
    return 0.5 * springs_[e].stiffness * d * d;
}

void AngularSpringSet::elementJacobians(const ModelState&, Index e, const Vector& x, const Vector& v,
                                        const JacobianRequest& r, Matrix& K, Vector& KxV) const {
    addConditionJacobians(condition(e, x, r.form == JacobianForm::Exact), springs_[e].stiffness, springs_[e].damping, v,
                          r.form, ConditionCurvature::Drop, r.cx, r.cv, K, KxV);
}

}  // namespace tinkerbox
