#include "core/forces/DihedralBending.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/forces/AngleCondition.h"
#include "core/math/Lanes.h"

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
    gradient.template segment<3>(3) =
        -((x2 - x0).dot(e) * inverseLength) * u1 - ((x3 - x0).dot(e) * inverseLength) * u2;
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
// fewer), for four hinges at once (Lanes.h); per lane 1 where it is a frame, 0 where a triangle
// has no area or the sum vanishes.
EIGEN_ALWAYS_INLINE Lanes normalFrame(const std::array<LaneVec3, 4>& x, const Lanes& sign, LaneVec3& m) {
    const LaneVec3 n1 = cross(x[2] - x[0], x[2] - x[1]), n2 = cross(x[3] - x[1], x[3] - x[0]);
    const Lanes n1norm = dot(n1, n1).sqrt(), n2norm = dot(n2, n2).sqrt();
    m = (sign * n2norm) * n1 + n1norm * n2;
    const Lanes product = n1norm * n2norm;
    return select(lanesLess(1e-24 * product * product, dot(m, m)), Lanes::Ones(), Lanes::Zero());
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
        projectiveRows_.push_back({e,
                                   h.particles,
                                   {c11 + c21, c10 + c20, -(c10 + c11), -(c20 + c21)},
                                   1.0,
                                   -2.0 * length * std::sin(halfAngle),
                                   1.0 / (e2 * halfCos * halfCos)});
    } else {  // closing: K = -|e| (u1 - u2), along n2 - n1 (DihedralBending.h)
        const double halfSin = std::sin(halfAngle);
        projectiveRows_.push_back({e,
                                   h.particles,
                                   {c11 - c21, c10 - c20, -(c10 + c11), c20 + c21},
                                   -1.0,
                                   -2.0 * length * std::abs(std::cos(halfAngle)) * (halfAngle > 0.0 ? 1.0 : -1.0),
                                   1.0 / (e2 * halfSin * halfSin)});
    }
    projectiveHinges_.push_back(e);
    const std::size_t r = projectiveRows_.size() - 1;
    if (r % kLanes == 0) laneBlocks_.emplace_back();
    LaneBlock& block = laneBlocks_.back();
    for (std::size_t lane = r % kLanes; lane < kLanes; ++lane) {  // this lane and the repeats after it
        for (int m = 0; m < 4; ++m) {
            block.particles[m][lane] = static_cast<std::int32_t>(h.particles[m]);
            block.coefficients[m][lane] = projectiveRows_[r].coefficients[m];
        }
        block.frameSign[lane] = projectiveRows_[r].frameSign;
        block.restCurvature[lane] = projectiveRows_[r].restCurvature;
        block.stiffnessWeight[lane] = h.stiffness * projectiveRows_[r].weightPerStiffness;
        block.dampingWeight[lane] = h.damping * projectiveRows_[r].weightPerStiffness;
    }
    return e;
}

void DihedralBending::accumulateOutsideProjectiveTerm(const ModelState& state, VecX& f) const {
    const VecX& positions = state.positions();
    const VecX& velocities = state.velocities();
    for (const Index e : explicitHinges_) accumulateElement(state, positions, velocities, e, f);
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

namespace {
// What prepareProjections keeps per block of kLanes hinges, lane by lane (Lanes.h): the
// shares of the weight (elastic, damping), the frame's direction at the start and K there.
enum HingeState {
    kHingeElasticShare = 0,
    kHingeDampingShare = kLanes,
    kHingeStartDirection = 2 * kLanes,
    kHingeStartCurvature = 5 * kLanes
};
}  // namespace

void DihedralBending::prepareProjections(const VecX& x0, double h, Index first, Index last, double* state) const {
    const Lanes perStep = Lanes::Constant(1.0 / h), zero = Lanes::Zero();
    for (Index block = first; block < last; block += kLanes, state += kLanes * projectionStateSize()) {
        // Lane k prepares hinge block + k (first is a multiple of kLanes); past the last one,
        // lanes prepare another of the block (and are dropped).
        const LaneBlock& row = laneBlocks_[static_cast<std::size_t>(block / kLanes)];
        const Lanes stiffness = loadLanes(row.stiffnessWeight.data()),
                    damping = loadLanes(row.dampingWeight.data()) * perStep;
        const Lanes weight = stiffness + damping, inverseWeight = 1.0 / weight;
        // No constraint: the target does not matter.
        const LaneMask constrained = lanesGreater(weight, 0.0);
        const Lanes elasticShare = select(constrained, Lanes(stiffness * inverseWeight), zero);
        const Lanes dampingShare = select(constrained, Lanes(damping * inverseWeight), zero);
        // The frame's direction at the start. Without one (a collapsed triangle, a hinge
        // folded shut) the damping holds all of the displacement.
        const std::array<LaneVec3, 4> x0s{laneVectors(x0, row.particles[0]), laneVectors(x0, row.particles[1]),
                                          laneVectors(x0, row.particles[2]), laneVectors(x0, row.particles[3])};
        LaneVec3 m0;
        const Lanes frame = normalFrame(x0s, loadLanes(row.frameSign.data()), m0);
        storeLanes(state + kHingeElasticShare, elasticShare);
        storeLanes(state + kHingeDampingShare, dampingShare);
        const Lanes unit = select(lanesAnd(lanesGreater(dampingShare, 0.0), lanesGreater(frame, 0.0)),
                                  Lanes(1.0 / dot(m0, m0).sqrt()), zero);
        storeLaneVec3(state + kHingeStartDirection, unit * m0);
        const auto coefficient = [&row](std::size_t m) { return loadLanes(row.coefficients[m].data()); };
        storeLaneVec3(state + kHingeStartCurvature, coefficient(0) * x0s[0] + coefficient(1) * x0s[1] +
                                                        coefficient(2) * x0s[2] + coefficient(3) * x0s[3]);
    }
}

void DihedralBending::projectTargets(const VecX& x, const VecX&, Index first, Index last, const double* state,
                                     ProjectiveTarget* targets) const {
    for (Index block = first; block < last; block += kLanes, state += kLanes * projectionStateSize()) {
        // Lane k projects hinge block + k (first is a multiple of kLanes); past the last one,
        // lanes project another of the block (and are dropped).
        const LaneBlock& row = laneBlocks_[static_cast<std::size_t>(block / kLanes)];
        // The corners now and their K (written out: as a loop the corners were kept in memory);
        // K at the start from prepareProjections.
        const std::array<LaneVec3, 4> xs{laneVectors(x, row.particles[0]), laneVectors(x, row.particles[1]),
                                         laneVectors(x, row.particles[2]), laneVectors(x, row.particles[3])};
        const auto coefficient = [&row](std::size_t m) { return loadLanes(row.coefficients[m].data()); };
        const LaneVec3 K =
            coefficient(0) * xs[0] + coefficient(1) * xs[1] + coefficient(2) * xs[2] + coefficient(3) * xs[3];
        const LaneVec3 K0 = loadLaneVec3(state + kHingeStartCurvature);
        // Flat at rest: the nearest point of {0}. Otherwise the rest curvature along the frame;
        // without a frame (a collapsed triangle, a hinge folded shut) K is left where it is.
        const Lanes restCurvature = loadLanes(row.restCurvature.data());
        LaneVec3 elastic{Lanes::Zero(), Lanes::Zero(), Lanes::Zero()};
        if ((restCurvature != 0.0).any()) {
            LaneVec3 m;
            const Lanes frame = normalFrame(xs, loadLanes(row.frameSign.data()), m);
            elastic = select(lanesEqual(restCurvature, 0.0), elastic,
                             select(lanesGreater(frame, 0.0), (restCurvature / dot(m, m).sqrt()) * m, K));
        }
        const LaneVec3 dK = K - K0, unit = loadLaneVec3(state + kHingeStartDirection);
        const LaneVec3 target = loadLanes(state + kHingeElasticShare) * (elastic - K0) +
                                loadLanes(state + kHingeDampingShare) * (dK - dot(dK, unit) * unit);
        storeTargets(target, static_cast<int>(std::min<Index>(kLanes, last - block)), targets + (block - first));
    }
}

double DihedralBending::angle(const ModelState& state, Index e) const {
    Vector x;
    for (int m = 0; m < 4; ++m) x.segment<3>(3 * m) = state.position(element(e)[m]);
    return dihedralAngle(x);
}

ElementCondition<4> DihedralBending::condition(Index e, const Vector& x, bool withHessian) const {
    return angleCondition<4>(
        x, withHessian, [](const auto& xs, auto& theta, auto& gradient) { return hingeAngle(xs, &theta, &gradient); },
        [rest = hinges_[e].restAngle](double theta) { return angleDifference(theta, rest); });
}

void DihedralBending::elementForce(const ModelState&, Index e, const Vector& x, const Vector& v, Vector& fe) const {
    addConditionForce(condition(e, x, false), hinges_[e].stiffness, hinges_[e].damping, v, fe);
}

double DihedralBending::elementEnergy(Index e, const Vector& x) const {
    const double c = angleDifference(dihedralAngle(x), hinges_[e].restAngle);
    return 0.5 * hinges_[e].stiffness * c * c;
}

double DihedralBending::potentialEnergyHalf(const ModelState& state, int half) const {
    const VecX& x = state.positions();
    const Index count = elementCount();
    const auto [begin, end] = laneHalf(count, half);
    constexpr double kPi = std::numbers::pi;
    // In chunks of kChunk blocks of four hinges: first each hinge's sine and cosine (gathering
    // its corners), then the angles and energies, a short chain of arithmetic per block that
    // the processor overlaps across blocks (one pass did a block at a time: a chain too long
    // to overlap, waiting on its divisions).
    constexpr int kChunk = 64;
    std::array<Lanes, kChunk> sines, cosines;
    Lanes u = Lanes::Zero();
    for (Index chunk = begin; chunk < end; chunk += kChunk * kLanes) {
        const int blocks = static_cast<int>(std::min<Index>(kChunk, (end - chunk + kLanes - 1) / kLanes));
        for (int b = 0; b < blocks; ++b) {
            const Index block = chunk + kLanes * b;
            // Lane k: hinge block + k; past the last one, lanes repeat it (at no stiffness below).
            std::array<const Element*, kLanes> hinge;
            for (int k = 0; k < kLanes; ++k) hinge[k] = &element(std::min<Index>(block + k, count - 1));
            const auto corner = [&](int m) { return [&, m](int k) { return 3 * (*hinge[k])[m]; }; };
            const LaneVec3 x0 = laneVectors(x, corner(0)), x1 = laneVectors(x, corner(1)),
                           x2 = laneVectors(x, corner(2)), x3 = laneVectors(x, corner(3));
            // hingeAngle's quantities; a degenerate hinge (no angle) counts as flat, as there.
            const LaneVec3 e = x1 - x0, n1 = cross(x2 - x0, x2 - x1), n2 = cross(x3 - x1, x3 - x0);
            const Lanes e2 = dot(e, e), n1sq = dot(n1, n1), n2sq = dot(n2, n2);
            // (hingeAngle's sine e . (n2 x n1) / |e| and cosine n1 . n2, both times |e|: the same
            // angle without a division.)
            const Lanes small = 1e-20 * e2 * e2;
            const LaneMask hasAngle =
                lanesAnd(lanesAnd(lanesLess(small, n1sq), lanesLess(small, n2sq)), lanesGreater(e2, 0.0));
            // (sine, cosine) = (0, 1) where degenerate: an angle of 0.
            sines[b] = select(hasAngle, dot(e, cross(n2, n1)), Lanes::Zero());
            cosines[b] = select(hasAngle, Lanes(e2.sqrt() * dot(n1, n2)), Lanes::Ones());
        }
        for (int b = 0; b < blocks; ++b) {
            const Index block = chunk + kLanes * b;
            const auto hinge = [&](int k) -> const BendingHinge& {
                return hinges_[static_cast<std::size_t>(std::min<Index>(block + k, count - 1))];
            };
            // elementEnergy: angleDifference, then k c^2 / 2.
            Lanes c = atan2Lanes(sines[b], cosines[b]) - lanes([&](int k) { return hinge(k).restAngle; });
            c = select(lanesGreater(c, kPi), c - 2.0 * kPi, c);
            c = select(lanesGreater(c, -kPi), c, c + 2.0 * kPi);
            u += 0.5 * lanes([&](int k) { return block + k < count ? hinge(k).stiffness : 0.0; }) * c * c;
        }
    }
    return u.sum();
}

void DihedralBending::elementJacobians(const ModelState&, Index e, const Vector& x, const Vector& v,
                                       const JacobianRequest& r, Matrix& K, Vector& KxV) const {
    if (r.form == JacobianForm::Definite) {
        // Only the gradient: the definite form drops the term with the angle.
        ElementCondition<4> c;
        if (!hingeAngle<double>(x, nullptr, &c.gradient)) return;
        addConditionJacobians(c, hinges_[e].stiffness, hinges_[e].damping, v, r.form, ConditionCurvature::Drop, r.cx,
                              r.cv, K, KxV);
        return;
    }
    addConditionJacobians(condition(e, x, true), hinges_[e].stiffness, hinges_[e].damping, v, r.form,
                          ConditionCurvature::Drop, r.cx, r.cv, K, KxV);
}

void DihedralBending::definiteElementForceAndJacobians(const ModelState&, Index e, const Vector& x, const Vector& v,
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
