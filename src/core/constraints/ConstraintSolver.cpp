#include "core/constraints/ConstraintSolver.h"

#include <algorithm>
#include <cmath>

#include "core/state/ModelState.h"

namespace tinkerbox {

void ConstraintRows::point(int r, int k, const Vec3& c, const Vec3& cdot) {
    const Index e = static_cast<Index>(r) * blocksPerRow + firstBlock[k];
    J[e] += c;
    Jdot[e] += cdot;
    const AnchorKinematics& a = anchors[k];
    if (!a.rigid) return;
    // c . (v + omega x r) = c . v + (r x c) . omega; the rate of r x c with rdot = omega x r.
    J[e + 1] += a.lever.cross(c);
    Jdot[e + 1] += a.lever.cross(cdot) + a.angularVelocity.cross(a.lever).cross(c);
}

void ConstraintRows::angular(int r, int k, const Vec3& a, const Vec3& adot) {
    const Index e = static_cast<Index>(r) * blocksPerRow + firstBlock[k] + 1;
    J[e] += a;
    Jdot[e] += adot;
}

void ConstraintSolver::layout(const ConstraintList& constraints, const ModelState& world) {
    rowOffset_.clear();
    blockOffset_.clear();
    blocksPerRow_.clear();
    firstBlock_.clear();
    blockRow_.clear();
    blockParticle_.clear();
    rowScale_.clear();
    blockCount_ = world.velocityBlocks();
    Index row = 0;
    for (const auto& c : constraints) {
        const std::vector<Anchor> anchors = c->anchors();
        std::vector<std::int32_t> blocks;
        std::vector<int> first;
        for (const Anchor& a : anchors) {
            first.push_back(static_cast<int>(blocks.size()));
            const Index b = world.velocityBlock(a.body);
            blocks.push_back(static_cast<std::int32_t>(b));
            if (a.isRigid()) blocks.push_back(static_cast<std::int32_t>(b + 1));
        }
        rowOffset_.push_back(row);
        blockOffset_.push_back(static_cast<Index>(blockRow_.size()));
        blocksPerRow_.push_back(static_cast<int>(blocks.size()));
        firstBlock_.push_back(std::move(first));
        for (int r = 0; r < c->rowCount(); ++r) {
            for (std::int32_t b : blocks) {
                blockRow_.push_back(static_cast<std::int32_t>(row + r));
                blockParticle_.push_back(b);
            }
            rowScale_.push_back(c->scale() > 0.0 ? c->scale() : 1.0);
        }
        row += c->rowCount();
    }
    rowBlockStart_.assign(row + 1, static_cast<Index>(blockRow_.size()));
    for (Index e = static_cast<Index>(blockRow_.size()) - 1; e >= 0; --e) rowBlockStart_[blockRow_[e]] = e;
    C_.setZero(row);
    Cdot_.setZero(row);
    J_.assign(blockRow_.size(), Vec3::Zero());
    Jdot_.assign(blockRow_.size(), Vec3::Zero());
    lambda_.setZero(row);
    mu_.setZero(row);
    nu_.setZero(row);
}

void ConstraintSolver::evaluate(const ConstraintList& constraints, const ModelState& world) {
    for (std::size_t i = 0; i < constraints.size(); ++i) {
        const Constraint& c = *constraints[i];
        const std::vector<Anchor> anchors = c.anchors();
        kinematics_.resize(anchors.size());
        for (std::size_t k = 0; k < anchors.size(); ++k) kinematics_[k] = world.anchorKinematics(anchors[k]);
        const Index first = blockOffset_[i];
        const Index count = static_cast<Index>(blocksPerRow_[i]) * c.rowCount();
        std::fill(J_.begin() + first, J_.begin() + first + count, Vec3::Zero());
        std::fill(Jdot_.begin() + first, Jdot_.begin() + first + count, Vec3::Zero());
        ConstraintRows rows{C_.data() + rowOffset_[i],
                            Cdot_.data() + rowOffset_[i],
                            J_.data() + first,
                            Jdot_.data() + first,
                            blocksPerRow_[i],
                            firstBlock_[i],
                            kinematics_};
        c.evaluate(kinematics_, rows);
    }
}

// The products walk the blocks through restrict pointers (a 100 x 100 rod grid has
// 39,600 blocks and every CG iteration passes over them twice).
void ConstraintSolver::multiply(const Blocks& J, const VecX& x, VecX& y) const {
    y.setZero(rows());
    const Vec3* __restrict blocks = J.data();
    const std::int32_t* __restrict row = blockRow_.data();
    const std::int32_t* __restrict particle = blockParticle_.data();
    const double* __restrict xs = x.data();
    double* __restrict ys = y.data();
    for (std::size_t e = 0; e < J.size(); ++e) {
        const double* xp = xs + 3 * static_cast<Index>(particle[e]);
        ys[row[e]] += blocks[e].x() * xp[0] + blocks[e].y() * xp[1] + blocks[e].z() * xp[2];
    }
}

void ConstraintSolver::multiplyTransposed(const Blocks& J, const VecX& y, VecX& x) const {
    const Vec3* __restrict blocks = J.data();
    const std::int32_t* __restrict row = blockRow_.data();
    const std::int32_t* __restrict particle = blockParticle_.data();
    const double* __restrict ys = y.data();
    double* __restrict xs = x.data();
    for (std::size_t e = 0; e < J.size(); ++e) {
        double* xp = xs + 3 * static_cast<Index>(particle[e]);
        const double yr = ys[row[e]];
        xp[0] += blocks[e].x() * yr;
        xp[1] += blocks[e].y() * yr;
        xp[2] += blocks[e].z() * yr;
    }
}

namespace {
// The preconditioned matrix A^ below has its eigenvalues in (0, 1] (symmetric Gauss-Seidel
// bounds them by 1). A search direction that it shrinks by 1e-12 or more is in the null
// space as far as double precision can tell: the rows there are redundant and disagree.
constexpr double kNullRayleighQuotient = 1e-12;
// The Tikhonov term for that case, relative to the mean diagonal of J W J^T.
constexpr double kTikhonov = 1e-9;
}  // namespace

double ConstraintSettings::tolerance(double requested) const {
    if (solver.tolerance > 0.0) return solver.tolerance;
    if (!(requested > 0.0)) return kLoosestAutomaticTolerance;
    return std::clamp(requested, kTightestAutomaticTolerance, kLoosestAutomaticTolerance);
}

void ConstraintSolver::prepareSweeps(const Blocks& J, const InverseMass& W, VecX& b, VecX& x) {
    // d_r = (J W J^T)_rr. Rows no free body feels get d_r = 1 and a zero right-hand
    // side: their solution is zero and they touch no other row.
    inverseMass_ = &W;
    diagonal_.setZero(rows());
    for (std::size_t e = 0; e < J.size(); ++e) {
        const Index b = blockParticle_[e];
        const Vec3 w = block3(W.diagonal, b);
        // A particle's three coordinates share one inverse mass.
        diagonal_[blockRow_[e]] +=
            W.full[b] < 0 && w.x() == w.y() && w.y() == w.z() ? w.x() * J[e].squaredNorm() : J[e].dot(W.apply(b, J[e]));
    }
    meanDiagonal_ = rows() > 0 ? diagonal_.sum() / rows() : 0.0;
    for (Index r = 0; r < rows(); ++r)
        if (diagonal_[r] <= 1e-14 * meanDiagonal_) b[r] = x[r] = 0.0;
}

// s_r = (J W J^T + epsilon I)_rr^-1/2, 1 for the rows left out.
void ConstraintSolver::scaleRows(double epsilon) {
    scale_.resize(rows());
    for (Index r = 0; r < rows(); ++r)
        scale_[r] = diagonal_[r] <= 1e-14 * meanDiagonal_ ? 1.0 : 1.0 / std::sqrt(diagonal_[r] + epsilon);
}

// The sweeps over the scaled matrix I + L + U (U_rs = s_r J_r W J_s^T s_s for s > r),
// matrix-free: an accumulator over the velocity blocks, acc = sum over finished rows of
// s_r y_r W J_r^T, turns a row of L or U into J_r . acc. Blocks of a row are contiguous.
template <bool Descending, class Row>
void ConstraintSolver::sweep(const Blocks& J, Row&& row) {
    accumulator_.setZero(3 * blockCount_);
    const Index* __restrict first = rowBlockStart_.data();
    const std::int32_t* __restrict particle = blockParticle_.data();
    const Vec3* __restrict blocks = J.data();
    const double* __restrict inverseMass = inverseMass_->diagonal.data();
    const std::int32_t* __restrict full = inverseMass_->full.data();
    double* __restrict acc = accumulator_.data();
    for (Index i = 0; i < rows(); ++i) {
        const Index r = Descending ? rows() - 1 - i : i;
        double dot = 0.0;
        for (Index e = first[r]; e < first[r + 1]; ++e)
            dot += blocks[e].dot(Eigen::Map<const Vec3>(acc + 3 * static_cast<Index>(particle[e])));
        const double y = scale_[r] * row(r, scale_[r] * dot);  // the row's value, given its part of L or U
        for (Index e = first[r]; e < first[r + 1]; ++e) {
            const Index b = particle[e];
            if (full[b] < 0)  // a particle's, a bead's or a body's linear block: diagonal
                Eigen::Map<Vec3>(acc + 3 * b) +=
                    (y * Eigen::Map<const Vec3>(inverseMass + 3 * b)).cwiseProduct(blocks[e]);
            else Eigen::Map<Vec3>(acc + 3 * b) += y * (inverseMass_->fullBlocks[full[b]] * blocks[e]);
        }
    }
}

CgResult ConstraintSolver::solveWith(double epsilon, const Blocks& J, const VecX& b, VecX& x, const CgSettings& cg,
                                     bool keepUnconverged) {
    scaleRows(epsilon);
    // Split SGS-preconditioned CG (Eisenstat's trick, as in SgsConjugateGradient): CG on
    // A^ = (I + L)^-1 A~ (I + U)^-1 with A~ = S (J W J^T + epsilon I) S, S = diag(s).
    // b^ = (I + L)^-1 S b; x^ = (I + U) S^-1 x.
    bHat_ = scale_.cwiseProduct(b);
    sweep<false>(J, [&](Index r, double lower) { return bHat_[r] -= lower; });
    xHat_ = x.cwiseQuotient(scale_);
    product_ = xHat_;
    sweep<true>(J, [&](Index r, double upper) {
        product_[r] += upper;
        return xHat_[r];
    });
    xHat_.swap(product_);
    const auto applyHat = [&](const VecX& v, VecX& out) {
        // A^ v = t + (I + L)^-1 (v - t), t = (I + U)^-1 v
        t_.resize(rows());
        sweep<true>(J, [&](Index r, double upper) { return t_[r] = v[r] - upper; });
        out = v - t_;
        sweep<false>(J, [&](Index r, double lower) { return out[r] -= lower; });
        out += t_;
    };
    const auto identity = [](const VecX& r, VecX& z) { z = r; };
    const CgResult result = conjugateGradient(applyHat, identity, bHat_, xHat_, cg, work_, kNullRayleighQuotient);
    stats_.iterations += result.iterations;
    if (result.converged || keepUnconverged) {
        // x = S (I + U)^-1 x^
        sweep<true>(J, [&](Index r, double upper) { return xHat_[r] -= upper; });
        x = scale_.cwiseProduct(xHat_);
    }
    return result;
}

void ConstraintSolver::solve(const Blocks& J, const InverseMass& W, VecX& b, VecX& x,
                             const ConstraintSettings& settings) {
    const auto start = std::chrono::steady_clock::now();
    prepareSweeps(J, W, b, x);
    const CgSettings cg{settings.tolerance(requestedTolerance_), settings.solver.maxIterations};
    if (!solveWith(0.0, J, b, x, cg, false).converged) {
        ++stats_.regularized;
        solveWith(kTikhonov * meanDiagonal_, J, b, x, cg, true);
    }
    ++stats_.solves;
    stats_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void ConstraintSolver::addConstraintForces(const InverseMass& W, const VecX& qdot, const VecX& a0, VecX& Q,
                                           const ConstraintSettings& settings) {
    if (rows() == 0) return;
    // rhs = -Jdot qdot - J a0 - ks C - kd Cdot (Witkin, Constrained Dynamics, SIGGRAPH 2001 notes)
    rhs_.setZero(rows());
    for (std::size_t e = 0; e < J_.size(); ++e) {
        const Index b = blockParticle_[e];
        rhs_[blockRow_[e]] -= Jdot_[e].dot(block3(qdot, b)) + J_[e].dot(block3(a0, b));
    }
    rhs_ -= settings.ks * C_ + settings.kd * Cdot_;
    if (!settings.warmStart) {
        lambda_.setZero();
    } else {
        // Start from the earlier solution whose right-hand side is nearest this one: a
        // multi-stage integrator's stages each resemble the same stage of the last step.
        double best = INFINITY;
        for (const WarmStart& w : warmStarts_)
            if (w.rhs.size() == rows())
                if (const double d = (w.rhs - rhs_).squaredNorm(); d < best) {
                    best = d;
                    lambda_ = w.lambda;
                }
    }
    WarmStart& slot = warmStarts_[nextWarmStart_];
    if (settings.warmStart) slot.rhs = rhs_;  // before solve() clears the rows nothing feels
    solve(J_, W, rhs_, lambda_, settings);
    if (settings.warmStart) {
        slot.lambda = lambda_;
        nextWarmStart_ = (nextWarmStart_ + 1) % warmStarts_.size();
    }
    multiplyJTransposed(lambda_, Q);
}

void ConstraintSolver::forgetWarmStarts() {
    warmStarts_ = {};
    nextWarmStart_ = 0;
    lambda_.setZero();
    mu_.setZero();
}

void ConstraintSolver::projectVelocities(const InverseMass& W, const VecX& v, VecX& dv,
                                         const ConstraintSettings& settings) {
    dv.setZero(v.size());
    if (rows() == 0) return;
    multiplyJ(v, jv_);
    rhs_ = -jv_;
    if (!settings.warmStart) mu_.setZero();
    solve(J_, W, rhs_, mu_, settings);
    particleVector_.setZero(v.size());
    multiplyJTransposed(mu_, particleVector_);
    W.apply(particleVector_, dv);
}

void ConstraintSolver::projectPositions(VecX& d, const ConstraintSettings& settings) {
    d.setZero(3 * blockCount_);
    if (rows() == 0) return;
    rhs_ = -C_;
    nu_.setZero(rows());  // each step corrects what is left: nothing to warm start from
    solve(J0_, W0_, rhs_, nu_, settings);
    particleVector_.setZero(d.size());
    multiplyTransposed(J0_, nu_, particleVector_);
    W0_.apply(particleVector_, d);
}

double ConstraintSolver::maxRelativeError() const {
    double worst = 0.0;
    for (Index r = 0; r < rows(); ++r) worst = std::max(worst, std::abs(C_[r]) / rowScale_[r]);
    return worst;
}

}  // namespace tinkerbox
