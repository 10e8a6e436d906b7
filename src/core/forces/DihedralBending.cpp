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
    if (theta) {
        // sin theta |n1| |n2| = (n2 x n1) . e / |e|, written out: as a vector expression the cross
        // product went through a temporary whose two halves were stored apart and read back as one.
        const T triple = e[0] * (n2[1] * n1[2] - n2[2] * n1[1]) + e[1] * (n2[2] * n1[0] - n2[0] * n1[2]) +
                         e[2] * (n2[0] * n1[1] - n2[1] * n1[0]);
        *theta = atan2(triple * inverseLength, n1.dot(n2));
    }
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

namespace {
// The cotangent of the angle at a of the triangle (a, b, c).
double cotangent(const Vec3& a, const Vec3& b, const Vec3& c) {
    const Vec3 u = b - a, v = c - a;
    return u.dot(v) / u.cross(v).norm();
}

// m = (sign n1/|n1| + n2/|n2|) |n1| |n2|, n1 and n2 the normals of the hinge's triangles
// (x0, x1, x2) and (x1, x0, x3): the frame's direction, not normalized (one square root
// fewer: the damping only needs m m^T / |m|^2); false where a triangle has no area or the
// sum vanishes (no frame).
bool normalFrame(const std::array<Vec3, 4>& x, double sign, Vec3& m) {
    const Vec3 n1 = (x[2] - x[0]).cross(x[2] - x[1]), n2 = (x[3] - x[1]).cross(x[3] - x[0]);
    const double n1norm = n1.norm(), n2norm = n2.norm();
    m = (sign * n2norm) * n1 + n1norm * n2;
    return m.squaredNorm() > 1e-24 * (n1norm * n2norm) * (n1norm * n2norm);
}
}  // namespace

Index DihedralBending::add(const BendingHinge& h) {
    addElement(h.particles);
    hinges_.push_back(h);
    const Index e = elementCount() - 1;
    const auto rest = [&](int m) -> Vec3 { return h.restShape.segment<3>(3 * m); };
    const Vec3 edge = rest(1) - rest(0);
    const double e2 = edge.squaredNorm();
    // Twice the rest triangles' areas, relative to |e|^2 (degenerate below 1e-10, as for theta).
    const double area1 = edge.cross(rest(2) - rest(0)).norm(), area2 = edge.cross(rest(3) - rest(0)).norm();
    if (!(e2 > 0.0) || !(area1 > 1e-10 * e2) || !(area2 > 1e-10 * e2)) {
        explicitHinges_.push_back(e);
        return e;
    }
    const double c10 = cotangent(rest(0), rest(1), rest(2)), c11 = cotangent(rest(1), rest(0), rest(2));
    const double c20 = cotangent(rest(0), rest(1), rest(3)), c21 = cotangent(rest(1), rest(0), rest(3));
    const double length = std::sqrt(e2), halfAngle = 0.5 * angleDifference(h.restAngle, 0.0);
    if (std::abs(halfAngle) <= 0.25 * std::numbers::pi) {  // open: K = -|e| (u1 + u2), along m = n1 + n2
        const double halfCos = std::cos(halfAngle);
        projectiveRows_.push_back({e, {c11 + c21, c10 + c20, -(c10 + c11), -(c20 + c21)}, 1.0,
                                   -2.0 * length * std::sin(halfAngle), 1.0 / (e2 * halfCos * halfCos)});
    } else {  // closing: K = -|e| (u1 - u2), along n2 - n1 (DihedralBending.h)
        const double halfSin = std::sin(halfAngle);
        projectiveRows_.push_back({e, {c11 - c21, c10 - c20, -(c10 + c11), c20 + c21}, -1.0,
                                   -2.0 * length * std::abs(std::cos(halfAngle)) * (halfAngle > 0.0 ? 1.0 : -1.0),
                                   1.0 / (e2 * halfSin * halfSin)});
    }
    projectiveHinges_.push_back(e);
    return e;
}

void DihedralBending::accumulateOutsideProjectiveTerm(const World& world, VecX& f) const {
    const VecX& positions = world.positions();
    const VecX& velocities = world.velocities();
    for (const Index e : explicitHinges_) accumulateElement(world, positions, velocities, e, f);
}

void DihedralBending::appendProjectiveStencils(double h, std::vector<ProjectiveStencil>& out) const {
    for (const ProjectiveRow& row : projectiveRows_) {
        const BendingHinge& hinge = hinges_[row.hinge];
        ProjectiveStencil c;
        c.particleCount = 4;
        c.rows = 1;
        for (int m = 0; m < 4; ++m) {
            c.particles[m] = hinge.particles[m];
            c.coefficients[0][m] = row.coefficients[m];
        }
        c.weight = (hinge.stiffness + hinge.damping / h) * row.weightPerStiffness;
        out.push_back(c);
    }
}

void DihedralBending::projectTargets(const VecX& x, const VecX& x0, double h, Index first, Index last,
                                     Vec3* targets) const {
    for (Index c = first; c < last; ++c, ++targets) {
        const ProjectiveRow& row = projectiveRows_[c];
        const BendingHinge& hinge = hinges_[row.hinge];
        std::array<Vec3, 4> xs, x0s;  // the corners now and at the step's start
        Vec3 K = Vec3::Zero(), K0 = Vec3::Zero();
        for (int m = 0; m < 4; ++m) {
            xs[m] = block3(x, hinge.particles[m]);
            x0s[m] = block3(x0, hinge.particles[m]);
            K += row.coefficients[m] * xs[m];
            K0 += row.coefficients[m] * x0s[m];
        }
        const double stiffness = hinge.stiffness * row.weightPerStiffness;
        const double damping = hinge.damping * row.weightPerStiffness / h;
        if (!(stiffness + damping > 0.0)) {  // no constraint: the target does not matter
            *targets = K;
            continue;
        }
        // Without a frame (a collapsed triangle, a hinge folded shut) K is left where it is,
        // but a flat rest shape needs none.
        Vec3 m, elastic = K, damped = K;
        if (row.restCurvature == 0.0) {  // flat at rest: the nearest point of {0}
            elastic.setZero();
        } else if (normalFrame(xs, row.frameSign, m)) {
            elastic = (row.restCurvature / m.norm()) * m;
        }
        if (damping > 0.0 && normalFrame(x0s, row.frameSign, m)) damped -= (m.dot(K - K0) / m.squaredNorm()) * m;
        *targets = (stiffness * elastic + damping * damped) / (stiffness + damping);
    }
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

void DihedralBending::definiteElementForceAndJacobians(const World&, Index e, const Vector& x, const Vector& v,
                                                       const JacobianRequest& r, Vector& fe, Blocks& blocks,
                                                       Vector& KxV) const {
    Vector g;
    double theta = 0.0;
    if (!hingeAngle<double>(x, &theta, &g)) return;  // degenerate: no force
    const BendingHinge& hinge = hinges_[e];
    const double k = hinge.stiffness, kd = hinge.damping;
    const double c = angleDifference(theta, hinge.restAngle), gv = g.dot(v);
    // As addConditionForce and addConditionJacobians (ConditionCurvature::Drop) do, block by block.
    fe -= (k * c + kd * gv) * g;
    KxV -= (k * gv) * g;
    const double weight = r.cx * k + r.cv * kd;
    for (int m = 0; m < 4; ++m) {
        const Vec3 gm = -weight * g.segment<3>(3 * m);
        for (int n = m; n < 4; ++n) blocks.addSymmetric(m, n, [&](int r, int c) { return gm[r] * g[3 * n + c]; });
    }
}

}  // namespace tinkerbox
