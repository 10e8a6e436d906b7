#include "core/forces/TriangleStretchShear.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tinkerbox {

Index TriangleStretchShear::add(const StretchShearTriangle& t) {
    const Eigen::Vector2d d1 = t.restUV[1] - t.restUV[0], d2 = t.restUV[2] - t.restUV[0];
    Eigen::Matrix2d D;
    D << d1.x(), d2.x(), d1.y(), d2.y();
    const double det = D.determinant();
    const double scale = d1.squaredNorm() + d2.squaredNorm();
    if (!(std::abs(det) > 1e-12 * scale))
        throw std::invalid_argument("a cloth triangle's rest (u, v) corners are on one line");
    // [w_u w_v] = [dx1 dx2] D^-1: w_u = (x1 - x0) Dinv(0, 0) + (x2 - x0) Dinv(1, 0), likewise w_v.
    const Eigen::Matrix2d Dinv = D.inverse();
    Triangle tri{t, 0.5 * std::abs(det), Vec3::Zero(), Vec3::Zero()};
    tri.du << -(Dinv(0, 0) + Dinv(1, 0)), Dinv(0, 0), Dinv(1, 0);
    tri.dv << -(Dinv(0, 1) + Dinv(1, 1)), Dinv(0, 1), Dinv(1, 1);
    addElement(t.particles);
    triangles_.push_back(tri);
    const auto e = static_cast<std::size_t>(elementCount() - 1);
    if (e % kLanes == 0) laneBlocks_.emplace_back();
    LaneBlock& block = laneBlocks_.back();
    for (std::size_t lane = e % kLanes; lane < kLanes; ++lane) {  // this lane and the repeats after it
        for (int m = 0; m < 3; ++m) {
            block.particles[m][lane] = static_cast<std::int32_t>(t.particles[m]);
            block.du[m][lane] = tri.du[m];
            block.dv[m][lane] = tri.dv[m];
        }
        block.bu[lane] = t.bu;
        block.bv[lane] = t.bv;
    }
    return elementCount() - 1;
}

namespace {
Vec3 combine(const Vec3& weights, const Eigen::Matrix<double, 9, 1>& x) {
    return weights[0] * x.segment<3>(0) + weights[1] * x.segment<3>(3) + weights[2] * x.segment<3>(6);
}
}  // namespace

Vec3 TriangleStretchShear::strain(const ModelState& state, Index e) const {
    Eigen::Matrix<double, 9, 1> x;
    for (int m = 0; m < 3; ++m) x.segment<3>(3 * m) = state.position(element(e)[m]);
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
                c[2].hessian.block<3, 3>(3 * m, 3 * k) =
                    (a * (t.du[m] * t.dv[k] + t.dv[m] * t.du[k])) * Mat3::Identity();
}

void TriangleStretchShear::elementForce(const ModelState&, Index e, const Vector& x, const Vector& v,
                                        Vector& fe) const {
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
    const double su = t.area * (wu.norm() - t.spec.bu), sv = t.area * (wv.norm() - t.spec.bv),
                 shear = t.area * wu.dot(wv);
    return 0.5 * t.spec.stretchStiffness * (su * su + sv * sv) + 0.5 * t.spec.shearStiffness * shear * shear;
}

EIGEN_ALWAYS_INLINE void TriangleStretchShear::laneRows(const VecX& x, const LaneBlock& t, LaneVec3& u, LaneVec3& v) {
    // (Written out: as a loop the corners were kept in memory.)
    const std::array<LaneVec3, 3> xs{laneVectors(x, t.particles[0]), laneVectors(x, t.particles[1]),
                                     laneVectors(x, t.particles[2])};
    const std::array<Lanes, 3> cu{loadLanes(t.du[0].data()), loadLanes(t.du[1].data()), loadLanes(t.du[2].data())};
    const std::array<Lanes, 3> cv{loadLanes(t.dv[0].data()), loadLanes(t.dv[1].data()), loadLanes(t.dv[2].data())};
    u = cu[0] * xs[0] + cu[1] * xs[1] + cu[2] * xs[2];
    v = cv[0] * xs[0] + cv[1] * xs[1] + cv[2] * xs[2];
}

double TriangleStretchShear::potentialEnergyHalf(const ModelState& state, int half) const {
    const VecX& x = state.positions();
    const Index count = elementCount();
    const auto [begin, end] = laneHalf(count, half);
    double energy = 0.0;
    for (Index block = begin; block < end; block += kLanes) {
        // Lane k: triangle block + k (past the last one, lanes repeat it and are dropped);
        // elementEnergy's quantities by the same operations in the same order.
        LaneVec3 u, v;
        laneRows(x, laneBlocks_[static_cast<std::size_t>(block / kLanes)], u, v);
        const Lanes lengthU = dot(u, u).sqrt(), lengthV = dot(v, v).sqrt(), shear = dot(u, v);
        for (int k = 0; k < kLanes && block + k < count; ++k) {
            const Triangle& triangle = triangles_[static_cast<std::size_t>(block + k)];
            const double a = triangle.area;
            const double su = a * (lengthU[k] - triangle.spec.bu), sv = a * (lengthV[k] - triangle.spec.bv);
            const double sh = a * shear[k];
            energy += 0.5 * triangle.spec.stretchStiffness * (su * su + sv * sv) +
                      0.5 * triangle.spec.shearStiffness * sh * sh;
        }
    }
    return energy;
}

void TriangleStretchShear::elementJacobians(const ModelState&, Index e, const Vector& x, const Vector& v,
                                            const JacobianRequest& r, Matrix& K, Vector& KxV) const {
    const Triangle& t = triangles_[e];
    ElementCondition<3> c[3];
    // The definite form needs the stretch Hessians only where stretched, and never the shear's.
    conditions(t, x, r.form == JacobianForm::Exact ? Hessians::All : Hessians::WhereStretched, c);
    for (int k = 0; k < 2; ++k)
        addConditionJacobians(c[k], t.spec.stretchStiffness, t.spec.stretchDamping, v, r.form,
                              ConditionCurvature::KeepWhenPositive, r.cx, r.cv, K, KxV);
    addConditionJacobians(c[2], t.spec.shearStiffness, t.spec.shearDamping, v, r.form, ConditionCurvature::Drop, r.cx,
                          r.cv, K, KxV);
}

namespace {
// What a stretch condition C = a (|w| - b) (gradient g_m = a d_m n) adds, as vectors and a
// matrix that particle m takes d_m of (block (m, n): d_m d_n): force -(k C + kd g.v) a n,
// dF/dx v -k (g.v) a n [- k C (a/|w|) P wdot], and the definite block -(cx k + cv kd) a^2 n n^T
// [- cx k C (a/|w|) P] (P = I - n n^T, wdot = sum_m d_m v_m; the bracketed curvature terms where
// C > 0, as ConditionCurvature::KeepWhenPositive).
struct StretchTerms {
    Vec3 force = Vec3::Zero(), product = Vec3::Zero();
    Mat3 block = Mat3::Zero();
};

StretchTerms stretchTerms(const Vec3& w, const Vec3& wdot, double a, double b, double k, double kd, double cx,
                          double cv) {
    StretchTerms terms;
    const double length = w.norm();
    if (length < 1e-12) return terms;  // a collapsed triangle: no direction to pull along (as conditions())
    const Vec3 n = w / length;
    const double c = a * (length - b), gv = a * n.dot(wdot);
    terms.force = -(k * c + kd * gv) * a * n;
    terms.product = -(k * gv) * a * n;
    const Mat3 nn = n * n.transpose();
    terms.block = -(cx * k + cv * kd) * a * a * nn;
    if (c > 0.0) {
        const double curvature = k * c * a / length;
        terms.product -= curvature * (wdot - n * n.dot(wdot));
        terms.block -= (cx * curvature) * (Mat3::Identity() - nn);
    }
    return terms;
}
}  // namespace

void TriangleStretchShear::definiteElementForceAndJacobians(const ModelState&, Index e, const Vector& x,
                                                            const Vector& v, const JacobianRequest& r, Vector& fe,
                                                            Blocks& blocks, Vector& KxV) const {
    const Triangle& t = triangles_[e];
    const StretchShearTriangle& spec = t.spec;
    const double a = t.area;
    const Vec3 wu = combine(t.du, x), wv = combine(t.dv, x), wuDot = combine(t.du, v), wvDot = combine(t.dv, v);
    const StretchTerms u = stretchTerms(wu, wuDot, a, spec.bu, spec.stretchStiffness, spec.stretchDamping, r.cx, r.cv);
    const StretchTerms w = stretchTerms(wv, wvDot, a, spec.bv, spec.stretchStiffness, spec.stretchDamping, r.cx, r.cv);
    // Shear: C = a w_u . w_v, g_m = a (du_m w_v + dv_m w_u), g . v = a (w_v . wdot_u + w_u . wdot_v).
    const double shear = a * wu.dot(wv), shearRate = a * (wv.dot(wuDot) + wu.dot(wvDot));
    const double shearForce = spec.shearStiffness * shear + spec.shearDamping * shearRate;
    const double shearWeight = r.cx * spec.shearStiffness + r.cv * spec.shearDamping;
    Vec3 g[3];
    for (int m = 0; m < 3; ++m) {
        g[m] = a * (t.du[m] * wv + t.dv[m] * wu);
        fe.segment<3>(3 * m) += t.du[m] * u.force + t.dv[m] * w.force - shearForce * g[m];
        KxV.segment<3>(3 * m) += t.du[m] * u.product + t.dv[m] * w.product - (spec.shearStiffness * shearRate) * g[m];
    }
    for (int m = 0; m < 3; ++m) {
        const Vec3 gm = -shearWeight * g[m];
        for (int n = m; n < 3; ++n) {
            const double uu = t.du[m] * t.du[n], vv = t.dv[m] * t.dv[n];
            blocks.addSymmetric(
                m, n, [&](int r, int c) { return uu * u.block(r, c) + vv * w.block(r, c) + gm[r] * g[n][c]; });
        }
    }
}

void nearestOrthogonalPair(const Vec3& a, const Vec3& b, Vec3& p, Vec3& q) {
    LaneVec3 pLanes, qLanes;
    nearestOrthogonalPair(broadcast(a), broadcast(b), pLanes, qLanes);
    p = lane(pLanes, 0);
    q = lane(qLanes, 0);
}

namespace {
// The weights of a triangle's constraints: elastic and damping (ProjectiveTerm.h).
struct TriangleWeights {
    double stretch, stretchDamping, shear, shearDamping;
};
TriangleWeights projectiveWeights(const StretchShearTriangle& spec, double area, double h) {
    const double a2 = area * area, restSquares = spec.bu * spec.bu + spec.bv * spec.bv;
    return {spec.stretchStiffness * a2, spec.stretchDamping * a2 / h, spec.shearStiffness * a2 * restSquares,
            spec.shearDamping * a2 * restSquares / h};
}

}  // namespace

void TriangleStretchShear::appendProjectiveStencils(double h, std::vector<ProjectiveStencil>& out) const {
    for (Index e = 0; e < elementCount(); ++e) {
        const Triangle& t = triangles_[e];
        const TriangleWeights w = projectiveWeights(t.spec, t.area, h);
        ProjectiveStencil c;
        c.particleCount = 3;
        c.rows = 2;
        for (int m = 0; m < 3; ++m) {
            c.particles[m] = element(e)[m];
            c.coefficients[0][m] = t.du[m];
            c.coefficients[1][m] = t.dv[m];
        }
        c.weight = w.stretch + w.stretchDamping + w.shear + w.shearDamping;
        out.push_back(c);
    }
}

namespace {
// What prepareProjections keeps per triangle, in this order: the shares of the weight of the
// stretch, of the shear and of both dampings together; the stretch damping's share over
// |w_u|^2 and over |w_v|^2 at the start (its directions are w_u and w_v there), and the shear
// damping's over |w_u|^2 + |w_v|^2 (its direction is d(w_u . w_v)/dy = (w_v, w_u)), each 0
// where its direction vanishes; then w_u and w_v at the start. Lane by lane in blocks of
// kLanes triangles, number j of a block's lane k at kLanes j + k: 12 numbers a triangle, the
// local step's reads of its state from memory in every iteration.
enum TriangleState {
    kStretchShare,
    kShearShare,
    kDampingShare,
    kStretchDampingU,
    kStretchDampingV,
    kShearDamping,
    kStartU,
    kStartV = 9
};
}  // namespace

void TriangleStretchShear::prepareProjections(const VecX& x0, double h, Index first, Index last, double* state) const {
    for (Index block = first; block < last; block += kLanes, state += kLanes * projectionStateSize()) {
        // Lane k prepares triangle block + k; past the last one, lanes repeat it, as
        // projectTargets reads them.
        std::array<TriangleWeights, kLanes> w;
        for (int k = 0; k < kLanes; ++k) {
            const Triangle& t = triangles_[static_cast<std::size_t>(std::min<Index>(block + k, last - 1))];
            w[static_cast<std::size_t>(k)] = projectiveWeights(t.spec, t.area, h);
        }
        const auto part = [&](double TriangleWeights::*member) {
            return lanes([&](int k) { return w[static_cast<std::size_t>(k)].*member; });
        };
        const Lanes stretch = part(&TriangleWeights::stretch), stretchDamping = part(&TriangleWeights::stretchDamping),
                    shear = part(&TriangleWeights::shear), shearDamping = part(&TriangleWeights::shearDamping);
        const Lanes weight = stretch + stretchDamping + shear + shearDamping;
        // No constraint: the target does not matter (its shares are 0).
        const LaneMask constrained = lanesGreater(weight, 0.0);
        const Lanes inverseWeight = 1.0 / weight;
        const auto share = [&](const Lanes& part) {
            return select(constrained, Lanes(part * inverseWeight), Lanes::Zero());
        };
        // w_u and w_v at the start, summed as projectTargets sums them now.
        LaneVec3 u0, v0;
        laneRows(x0, laneBlocks_[static_cast<std::size_t>(block / kLanes)], u0, v0);
        const Lanes uu = dot(u0, u0), vv = dot(v0, v0);
        const auto over = [](const Lanes& part, const Lanes& squaredNorm) {
            return select(lanesGreater(squaredNorm, 1e-24), Lanes(part / squaredNorm), Lanes::Zero());
        };
        storeLanes(state + kLanes * kStretchShare, share(stretch));
        storeLanes(state + kLanes * kShearShare, share(shear));
        storeLanes(state + kLanes * kDampingShare, share(stretchDamping + shearDamping));
        storeLanes(state + kLanes * kStretchDampingU, over(share(stretchDamping), uu));
        storeLanes(state + kLanes * kStretchDampingV, over(share(stretchDamping), vv));
        storeLanes(state + kLanes * kShearDamping, over(share(shearDamping), uu + vv));
        storeLaneVec3(state + kLanes * kStartU, u0);
        storeLaneVec3(state + kLanes * kStartV, v0);
    }
}

void TriangleStretchShear::projectTargets(const VecX& x, const VecX&, Index first, Index last, const double* state,
                                          ProjectiveTarget* targets) const {
    // Lane k of a block projects triangle block + k (first is a multiple of kLanes); past the
    // last one, lanes project another of the block (and are dropped). In chunks of kChunk
    // blocks: first each block's (w_u, w_v) and what takes square roots and divisions, short
    // chains that the processor overlaps across blocks; then the targets. (A block at a time
    // waited on its square roots and divisions in turn.)
    constexpr int kChunk = 16;
    struct Rows {
        LaneVec3 u, v;
        Lanes stretchU, stretchV;  // b_u / |w_u| and b_v / |w_v| (1 where a row has no direction)
        OrthogonalPairScale shear;
    };
    std::array<Rows, kChunk> rows;
    const Index stateBlock = kLanes * projectionStateSize();
    for (Index chunk = first; chunk < last; chunk += kChunk * kLanes) {
        const Index end = std::min(last, chunk + kChunk * kLanes);
        for (Index block = chunk; block < end; block += kLanes) {
            Rows& r = rows[static_cast<std::size_t>((block - chunk) / kLanes)];
            const LaneBlock& t = laneBlocks_[static_cast<std::size_t>(block / kLanes)];
            laneRows(x, t, r.u, r.v);
            const Lanes lengthU = dot(r.u, r.u).sqrt(), lengthV = dot(r.v, r.v).sqrt();
            r.stretchU = select(lanesLess(lengthU, 1e-12), Lanes::Ones(), Lanes(loadLanes(t.bu.data()) / lengthU));
            r.stretchV = select(lanesLess(lengthV, 1e-12), Lanes::Ones(), Lanes(loadLanes(t.bv.data()) / lengthV));
            r.shear = orthogonalPairScale(r.u, r.v);
        }
        for (Index block = chunk; block < end; block += kLanes) {
            const Rows& r = rows[static_cast<std::size_t>((block - chunk) / kLanes)];
            const double* s = state + stateBlock * ((block - first) / kLanes);
            const auto share = [&](int part) { return loadLanes(s + kLanes * part); };
            // (w_u, w_v) at the step's start (from prepareProjections).
            const LaneVec3 u0 = loadLaneVec3(s + kLanes * kStartU), v0 = loadLaneVec3(s + kLanes * kStartV);
            const LaneVec3 du = r.u - u0, dv = r.v - v0;
            // The shares of the four parts' targets (TriangleStretchShear.h), each less y0.
            // Stretch: each row at its rest length (where it has a direction).
            LaneVec3 targetU = share(kStretchShare) * (r.stretchU * r.u - u0);
            LaneVec3 targetV = share(kStretchShare) * (r.stretchV * r.v - v0);
            // Shear.
            LaneVec3 p, q;
            orthogonalPair(r.u, r.v, r.shear, p, q);
            targetU += share(kShearShare) * (p - u0);
            targetV += share(kShearShare) * (q - v0);
            // The dampings: the displacement less its part along each damping's direction at
            // the start, the stretch's per row (w_u, w_v) and the shear's over both
            // (d(w_u . w_v)/dy = (w_v, w_u)).
            const Lanes along = share(kShearDamping) * (dot(du, v0) + dot(dv, u0));
            targetU += share(kDampingShare) * du - (share(kStretchDampingU) * dot(du, u0)) * u0 - along * v0;
            targetV += share(kDampingShare) * dv - (share(kStretchDampingV) * dot(dv, v0)) * v0 - along * u0;
            const int count = static_cast<int>(std::min<Index>(kLanes, last - block));
            storeTargets(targetU, count, targets + 2 * (block - first), 2);
            storeTargets(targetV, count, targets + 2 * (block - first) + 1, 2);
        }
    }
}

}  // namespace tinkerbox
