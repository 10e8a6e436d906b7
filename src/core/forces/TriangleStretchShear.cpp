#include "core/forces/TriangleStretchShear.h"

#include <cmath>
#include <stdexcept>

namespace tinkerbox {

Index TriangleStretchShear::add(const StretchShearTriangle& t) {
    const Eigen::Vector2d d1 = t.restUV[1] - t.restUV[0], d2 = t.restUV[2] - t.restUV[0];
    Eigen::Matrix2d D;
    D << d1.x(), d2.x(), d1.y(), d2.y();
    const double det = D.determinant();
    const double scale = d1.squaredNorm() + d2.squaredNorm();
    if (!(std::abs(det) > 1e-12 * scale)) throw std::invalid_argument("a cloth triangle's rest (u, v) corners are on one line");
    // [w_u w_v] = [dx1 dx2] D^-1: w_u = (x1 - x0) Dinv(0, 0) + (x2 - x0) Dinv(1, 0), likewise w_v.
    const Eigen::Matrix2d Dinv = D.inverse();
    Triangle tri{t, 0.5 * std::abs(det), Vec3::Zero(), Vec3::Zero()};
    tri.du << -(Dinv(0, 0) + Dinv(1, 0)), Dinv(0, 0), Dinv(1, 0);
    tri.dv << -(Dinv(0, 1) + Dinv(1, 1)), Dinv(0, 1), Dinv(1, 1);
    addElement(t.particles);
    triangles_.push_back(tri);
    return elementCount() - 1;
}

namespace {
Vec3 combine(const Vec3& weights, const Eigen::Matrix<double, 9, 1>& x) {
    return weights[0] * x.segment<3>(0) + weights[1] * x.segment<3>(3) + weights[2] * x.segment<3>(6);
}
}  // namespace

Vec3 TriangleStretchShear::strain(const World& world, Index e) const {
    Eigen::Matrix<double, 9, 1> x;
    for (int m = 0; m < 3; ++m) x.segment<3>(3 * m) = world.position(element(e)[m]);
    const Triangle& t = triangles_[e];
    const Vec3 wu = combine(t.du, x), wv = combine(t.dv, x);
    return Vec3(wu.norm(), wv.norm(), wu.dot(wv));
}

void TriangleStretchShear::conditions(const Triangle& t, const Vector& x, Hessians hessians,
                                      ElementCondition<3> c[3]) const {
    const Vec3 wu = combine(t.du, x), wv = combine(t.dv, x);
    const double a = t.area;
    // Stretch along u and v: C = a (|w| - b), dC/dx_m = a d_m w/|w|, d2C/dx_m dx_n = a d_m d_n (I - n n^T)/|w|.
    const auto stretch = [&](const Vec3& w, const Vec3& d, double b, ElementCondition<3>& out) {
        const double length = w.norm();
        if (length < 1e-12) {  // a collapsed triangle: no direction to pull along
            out.value = 0.0;
            out.gradient.setZero();
            if (hessians == Hessians::All) out.hessian.setZero();
            return;
        }
        const Vec3 n = w / length;
        out.value = a * (length - b);
        for (int m = 0; m < 3; ++m) out.gradient.segment<3>(3 * m) = (a * d[m]) * n;
        if (hessians == Hessians::None || (hessians == Hessians::WhereStretched && out.value <= 0.0)) return;
        const Mat3 P = (Mat3::Identity() - n * n.transpose()) * (a / length);
        for (int m = 0; m < 3; ++m)
            for (int k = 0; k < 3; ++k) out.hessian.block<3, 3>(3 * m, 3 * k) = (d[m] * d[k]) * P;
    };
    stretch(wu, t.du, t.spec.bu, c[0]);
    stretch(wv, t.dv, t.spec.bv, c[1]);
    // Shear: C = a w_u . w_v, dC/dx_m = a (du_m w_v + dv_m w_u), d2C/dx_m dx_n = a (du_m dv_n + dv_m du_n) I.
    c[2].value = a * wu.dot(wv);
    for (int m = 0; m < 3; ++m) c[2].gradient.segment<3>(3 * m) = a * (t.du[m] * wv + t.dv[m] * wu);
    if (hessians == Hessians::All)
        for (int m = 0; m < 3; ++m)
            for (int k = 0; k < 3; ++k)
                c[2].hessian.block<3, 3>(3 * m, 3 * k) = (a * (t.du[m] * t.dv[k] + t.dv[m] * t.du[k])) * Mat3::Identity();
}

void TriangleStretchShear::elementForce(const World&, Index e, const Vector& x, const Vector& v, Vector& fe) const {
    const Triangle& t = triangles_[e];
    ElementCondition<3> c[3];
    conditions(t, x, Hessians::None, c);
    addConditionForce(c[0], t.spec.stretchStiffness, t.spec.stretchDamping, v, fe);
    addConditionForce(c[1], t.spec.stretchStiffness, t.spec.stretchDamping, v, fe);
    addConditionForce(c[2], t.spec.shearStiffness, t.spec.shearDamping, v, fe);
}

double TriangleStretchShear::elementEnergy(Index e, const Vector& x) const {
    const Triangle& t = triangles_[e];
    const Vec3 wu = combine(t.du, x), wv = combine(t.dv, x);
    const double su = t.area * (wu.norm() - t.spec.bu), sv = t.area * (wv.norm() - t.spec.bv), shear = t.area * wu.dot(wv);
    return 0.5 * t.spec.stretchStiffness * (su * su + sv * sv) + 0.5 * t.spec.shearStiffness * shear * shear;
}

void TriangleStretchShear::elementJacobians(const World&, Index e, const Vector& x, const Vector& v,
                                            const JacobianRequest& r, Matrix& K, Vector& KxV) const {
    const Triangle& t = triangles_[e];
    ElementCondition<3> c[3];
    // The definite form needs the stretch Hessians only where stretched, and never the shear's.
    conditions(t, x, r.form == JacobianForm::Exact ? Hessians::All : Hessians::WhereStretched, c);
    for (int k = 0; k < 2; ++k)
        addConditionJacobians(c[k], t.spec.stretchStiffness, t.spec.stretchDamping, v, r.form,
                              ConditionCurvature::KeepWhenPositive, r.cx, r.cv, K, KxV);
    addConditionJacobians(c[2], t.spec.shearStiffness, t.spec.shearDamping, v, r.form, ConditionCurvature::Drop, r.cx, r.cv,
                          K, KxV);
}

}  // namespace tinkerbox
