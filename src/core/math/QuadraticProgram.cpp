// A primal-dual interior-point method with Mehrotra's predictor-corrector (Mehrotra 1992,
// On the Implementation of a Primal-Dual Interior Point Method, SIAM J. Optim. 2(4);
// Nocedal & Wright, Numerical Optimization, 2nd ed., section 16.6, algorithm 16.4, here
// with equality rows as well). With slacks s = C x - d >= 0 the optimality conditions are
//   r_d = H x + g - A^T y - C^T z = 0,   r_p = A x - b = 0,   r_i = C x - s - d = 0,
//   S Z e = 0,   s, z >= 0,
// and each Newton step on them eliminates ds and dz, leaving the reduced KKT system
//   [ H + C^T W C   A^T ] [  dx ]   [ -r_d + C^T S^-1 (r_c - Z r_i) ]
//   [ A             0   ] [ -dy ] = [ -r_p                         ],   W = Z S^-1,
// where r_c is the target of S dz + Z ds (N&W equations 16.58 and 16.67 reduced the same
// way). Small regularization (+rho on the first block, -delta on the second; grown when a
// pivot cancels or round-off spoils a step) makes the matrix quasi-definite, so that an
// LDL^T factorization exists under any symmetric ordering (Vanderbei 1995, Symmetric
// Quasidefinite Matrices, SIAM J. Optim. 5(1)). A few
// steps of iterative refinement on the whole unregularized Newton system remove both the
// perturbation and the round-off that the elimination amplifies where Z S^-1 is large.
// The matrix's pattern does not change between iterations: its symbolic analysis is done
// once per call.
#include "core/math/QuadraticProgram.h"

#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace tinkerbox {
namespace {

double maxNorm(const VecX& v) { return v.size() > 0 ? v.lpNorm<Eigen::Infinity>() : 0.0; }

void requireSize(bool ok, const std::string& what) {
    if (!ok) throw std::invalid_argument("solveQuadraticProgram: " + what);
}

// A matrix of rows constraints on n variables; a matrix without rows may also have no columns.
void checkConstraintRows(const SparseMatrix& M, const VecX& rhs, Index n, const std::string& matrix,
                         const std::string& vector) {
    requireSize(M.cols() == n || (M.rows() == 0 && M.cols() == 0),
                matrix + " has " + std::to_string(M.cols()) + " columns, H has " + std::to_string(n));
    requireSize(rhs.size() == M.rows(), vector + " has " + std::to_string(rhs.size()) + " entries, " + matrix +
                                            " has " + std::to_string(M.rows()) + " rows");
}

void checkSizes(const QuadraticProgram& qp) {
    const Index n = qp.H.rows();
    requireSize(qp.H.cols() == n,
                "H is " + std::to_string(qp.H.rows()) + " x " + std::to_string(qp.H.cols()) + ", not square");
    requireSize(qp.g.size() == n,
                "g has " + std::to_string(qp.g.size()) + " entries, H has " + std::to_string(n) + " rows");
    checkConstraintRows(qp.A, qp.b, n, "A", "b");
    checkConstraintRows(qp.C, qp.d, n, "C", "d");
}

double largestEntry(const SparseMatrix& M) {
    double largest = 0.0;
    for (Index j = 0; j < M.outerSize(); ++j)
        for (SparseMatrix::InnerIterator it(M, j); it; ++it) largest = std::max(largest, std::abs(it.value()));
    return largest;
}

// M v and M^T v that also work for a matrix without rows (and perhaps without columns).
VecX multiply(const SparseMatrix& M, const VecX& v) { return M.rows() > 0 ? VecX(M * v) : VecX(); }
VecX multiplyTransposed(const SparseMatrix& M, const VecX& v, Index n) {
    return M.rows() > 0 ? VecX(M.transpose() * v) : VecX(VecX::Zero(n));
}

// The reduced KKT matrix, with its values refilled for each W. Its rows and columns are
// stored already permuted by an approximate minimum degree ordering (Amestoy, Davis & Duff
// 1996), upper triangle: then the factorization reads the matrix in place, with no
// permuted copy per iteration.
class ReducedKkt {
public:
    ReducedKkt(const QuadraticProgram& qp, double primalRegularization, double dualRegularization);

    // Fills in H + C^T W C and factors the regularized matrix; false if that failed even
    // with a larger regularization.
    bool factorize(const VecX& weight);
    // Solves the regularized system for (dx, -dy) = (top, bottom).
    void solve(const VecX& rhsTop, const VecX& rhsBottom, VecX& top, VecX& bottom);
    // Ten times the regularization from now on (at most 1000 times the initial one).
    void strengthenRegularization() { regularizationScale_ = std::min(10.0 * regularizationScale_, 1e3); }

private:
    // The stored entry of the unpermuted matrix's (row, column).
    Index entry(Index row, Index column) const;

    Index n_, mEq_;
    std::vector<int> permuted_;  // position of each unpermuted row
    SparseMatrix kkt_;           // permuted, upper triangle
    VecX baseValues_;            // H and A: the part that does not depend on W
    VecX regularization_;        // +rho on x's diagonal entries, -delta on y's, by entry
    double regularizationScale_ = 1.0;
    // C^T W C = sum over rows r of w_r c_r c_r^T: each product c_rj c_rl lands in one entry.
    struct WeightedTerm {
        Index entry, row;
        double product;
    };
    std::vector<WeightedTerm> weightedTerms_;
    Eigen::SimplicialLDLT<SparseMatrix, Eigen::Upper, Eigen::NaturalOrdering<int>> ldlt_;
    VecX permutedRhs_, permutedSolution_;
};

ReducedKkt::ReducedKkt(const QuadraticProgram& qp, double primalRegularization, double dualRegularization)
    : n_(qp.H.rows()), mEq_(qp.A.rows()) {
    const Index size = n_ + mEq_;
    using RowMajor = Eigen::SparseMatrix<double, Eigen::RowMajor>;
    const RowMajor C = qp.C;

    // The pattern, lower triangle, unpermuted.
    std::vector<Eigen::Triplet<double>> pattern;
    for (Index i = 0; i < size; ++i) pattern.emplace_back(i, i, 0.0);
    for (Index j = 0; j < qp.H.outerSize(); ++j)
        for (SparseMatrix::InnerIterator it(qp.H, j); it; ++it)
            if (it.row() > j) pattern.emplace_back(it.row(), j, 0.0);
    for (Index r = 0; r < C.outerSize(); ++r)
        for (RowMajor::InnerIterator a(C, r); a; ++a)
            for (RowMajor::InnerIterator b(C, r); b && b.col() < a.col(); ++b)
                pattern.emplace_back(a.col(), b.col(), 0.0);
    for (Index j = 0; j < qp.A.outerSize(); ++j)
        for (SparseMatrix::InnerIterator it(qp.A, j); it; ++it) pattern.emplace_back(n_ + it.row(), j, 0.0);
    SparseMatrix lower(size, size);
    lower.setFromTriplets(pattern.begin(), pattern.end());

    Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> ordering;  // ordering[k]: the row put k-th
    Eigen::AMDOrdering<int>()(lower, ordering);
    permuted_.resize(size);
    for (Index k = 0; k < size; ++k) permuted_[ordering.indices()[k]] = static_cast<int>(k);
    for (auto& t : pattern) {
        const Index i = permuted_[t.row()], j = permuted_[t.col()];
        t = Eigen::Triplet<double>(std::min(i, j), std::max(i, j), 0.0);
    }
    kkt_.resize(size, size);
    kkt_.setFromTriplets(pattern.begin(), pattern.end());
    kkt_.makeCompressed();

    baseValues_ = VecX::Zero(kkt_.nonZeros());
    regularization_ = VecX::Zero(kkt_.nonZeros());
    for (Index i = 0; i < size; ++i) regularization_[entry(i, i)] = i < n_ ? primalRegularization : -dualRegularization;
    for (Index j = 0; j < qp.H.outerSize(); ++j)
        for (SparseMatrix::InnerIterator it(qp.H, j); it; ++it)
            if (it.row() >= j) baseValues_[entry(it.row(), j)] += it.value();
    for (Index j = 0; j < qp.A.outerSize(); ++j)
        for (SparseMatrix::InnerIterator it(qp.A, j); it; ++it) baseValues_[entry(n_ + it.row(), j)] += it.value();
    std::vector<WeightedTerm> terms;
    for (Index r = 0; r < C.outerSize(); ++r)
        for (RowMajor::InnerIterator a(C, r); a; ++a)
            for (RowMajor::InnerIterator b(C, r); b && b.col() <= a.col(); ++b)
                terms.push_back({entry(a.col(), b.col()), r, a.value() * b.value()});
    // Terms in storage order (a counting sort by entry, stable): the refill then writes the
    // values front to back.
    std::vector<Index> first(static_cast<std::size_t>(kkt_.nonZeros()) + 1, 0);
    for (const WeightedTerm& t : terms) ++first[static_cast<std::size_t>(t.entry) + 1];
    for (std::size_t k = 1; k < first.size(); ++k) first[k] += first[k - 1];
    weightedTerms_.resize(terms.size());
    for (const WeightedTerm& t : terms)
        weightedTerms_[static_cast<std::size_t>(first[static_cast<std::size_t>(t.entry)]++)] = t;
    ldlt_.analyzePattern(kkt_);
}

Index ReducedKkt::entry(Index row, Index column) const {
    const Index i = permuted_[row], j = permuted_[column];
    const Index r = std::min(i, j), c = std::max(i, j);
    const auto* begin = kkt_.innerIndexPtr() + kkt_.outerIndexPtr()[c];
    const auto* end = kkt_.innerIndexPtr() + kkt_.outerIndexPtr()[c + 1];
    return std::lower_bound(begin, end, r) - kkt_.innerIndexPtr();
}

bool ReducedKkt::factorize(const VecX& weight) {
    double* values = kkt_.valuePtr();
    const Index entries = kkt_.nonZeros();
    // Where W spans many orders of magnitude a pivot can cancel to zero: the regularization
    // then grows (the refinement of the directions corrects for it).
    for (double scale = regularizationScale_; scale <= 1e6 * regularizationScale_; scale *= 100.0) {
        for (Index k = 0; k < entries; ++k) values[k] = baseValues_[k] + scale * regularization_[k];
        for (const WeightedTerm& t : weightedTerms_) values[t.entry] += weight[t.row] * t.product;
        ldlt_.factorize(kkt_);
        if (ldlt_.info() == Eigen::Success && ldlt_.vectorD().allFinite()) return true;
    }
    return false;
}

void ReducedKkt::solve(const VecX& rhsTop, const VecX& rhsBottom, VecX& top, VecX& bottom) {
    permutedRhs_.resize(n_ + mEq_);
    for (Index i = 0; i < n_; ++i) permutedRhs_[permuted_[i]] = rhsTop[i];
    for (Index i = 0; i < mEq_; ++i) permutedRhs_[permuted_[n_ + i]] = rhsBottom[i];
    permutedSolution_ = ldlt_.solve(permutedRhs_);
    top.resize(n_);
    bottom.resize(mEq_);
    for (Index i = 0; i < n_; ++i) top[i] = permutedSolution_[permuted_[i]];
    for (Index i = 0; i < mEq_; ++i) bottom[i] = permutedSolution_[permuted_[n_ + i]];
}

// The largest alpha with v + alpha dv >= 0, for v > 0 (N&W equation 16.66); infinite when
// dv >= 0.
double stepToBoundary(const VecX& v, const VecX& dv) {
    double alpha = std::numeric_limits<double>::infinity();
    for (Index i = 0; i < v.size(); ++i)
        if (dv[i] < 0.0) alpha = std::min(alpha, -v[i] / dv[i]);
    return alpha;
}

struct Iterate {
    VecX x, y, s, z;
};

struct Direction {
    VecX dx, dy, ds, dz;
};

struct Residuals {
    VecX dual, primal, inequality;  // r_d, r_p, r_i
};

// The products of the data with an iterate, shared by its residuals and measures.
struct Products {
    VecX Hx, Aty, Ctz, Ax, Cx;
};

Products multiplyOut(const QuadraticProgram& qp, const VecX& x, const VecX& y, const VecX& z) {
    const Index n = qp.H.rows();
    return {qp.H * x, multiplyTransposed(qp.A, y, n), multiplyTransposed(qp.C, z, n), multiply(qp.A, x),
            multiply(qp.C, x)};
}

// The relative residuals the result reports, of x, y, z alone (the slacks are C x - d).
struct Measures {
    double primal, dual, complementarity;
};

Measures measure(const QuadraticProgram& qp, const VecX& x, const VecX& z, const Products& p) {
    const double dualScale = std::max({1.0, maxNorm(p.Hx), maxNorm(qp.g), maxNorm(p.Aty), maxNorm(p.Ctz)});
    const double primalScale = std::max({1.0, maxNorm(p.Ax), maxNorm(qp.b), maxNorm(p.Cx), maxNorm(qp.d)});
    const VecX gap = p.Cx - qp.d;
    const double objective = 0.5 * x.dot(p.Hx) + qp.g.dot(x);
    return {std::max(maxNorm(p.Ax - qp.b), maxNorm((-gap).cwiseMax(0.0))) / primalScale,
            maxNorm(p.Hx + qp.g - p.Aty - p.Ctz) / dualScale,
            z.cwiseProduct(gap.cwiseAbs()).sum() / std::max(1.0, std::abs(objective))};
}

class InteriorPoint {
public:
    InteriorPoint(const QuadraticProgram& qp, const QuadraticProgramSettings& settings)
        : qp_(qp),
          settings_(settings),
          n_(qp.H.rows()),
          mIn_(qp.C.rows()),
          kkt_(qp, 1e-9 * std::max(1.0, largestEntry(qp.H)), 1e-9) {}

    QuadraticProgramResult run();

private:
    Residuals residuals(const Iterate& v, const Products& p) const;
    // The Newton direction for the target r_c of S dz + Z ds, on the current factorization,
    // refined or not.
    Direction direction(const Iterate& v, const Residuals& r, const VecX& complementarityTarget, bool refine);
    // One solve of the Newton system through the reduced KKT matrix.
    Direction eliminate(const Iterate& v, const Residuals& r, const VecX& complementarityTarget);
    bool startingPoint(Iterate& v);
    bool provablyInfeasible(const Iterate& v, const Products& p) const;

    const QuadraticProgram& qp_;
    const QuadraticProgramSettings& settings_;
    Index n_, mIn_;
    ReducedKkt kkt_;
};

Residuals InteriorPoint::residuals(const Iterate& v, const Products& p) const {
    return {p.Hx + qp_.g - p.Aty - p.Ctz, p.Ax - qp_.b, p.Cx - v.s - qp_.d};
}

Direction InteriorPoint::direction(const Iterate& v, const Residuals& r, const VecX& complementarityTarget,
                                   bool refine) {
    Direction d = eliminate(v, r, complementarityTarget);
    if (!refine) return d;
    // Refined until what it misses is 1% of the tolerance, relative to the right-hand side.
    const double target =
        1e-2 * settings_.tolerance *
        std::max({1.0, maxNorm(r.dual), maxNorm(r.primal), maxNorm(r.inequality), maxNorm(complementarityTarget)});
    double previous = std::numeric_limits<double>::infinity();
    // The direction before the last correction, the direction itself before any: a first miss
    // that is not finite (products of data near overflow) returns it whole, and the caller's
    // finiteness checks end the solve there.
    Direction unrefined = d;
    for (int corrections = 0;; ++corrections) {
        // What the direction misses of each Newton row is the right-hand side of a correction.
        const Residuals miss{
            r.dual + qp_.H * d.dx - multiplyTransposed(qp_.A, d.dy, n_) - multiplyTransposed(qp_.C, d.dz, n_),
            r.primal + multiply(qp_.A, d.dx), r.inequality + multiply(qp_.C, d.dx) - d.ds};
        const VecX missedTarget = complementarityTarget - v.z.cwiseProduct(d.ds) - v.s.cwiseProduct(d.dz);
        const double size =
            std::max({maxNorm(miss.dual), maxNorm(miss.primal), maxNorm(miss.inequality), maxNorm(missedTarget)});
        // Round-off can make a correction worse than none where W is extreme: it is undone.
        if (!(size < previous)) return unrefined;
        if (size <= target || size > 0.5 * previous || corrections == 4) break;
        previous = size;
        unrefined = d;
        const Direction correction = eliminate(v, miss, missedTarget);
        d.dx += correction.dx;
        d.dy += correction.dy;
        d.ds += correction.ds;
        d.dz += correction.dz;
    }
    return d;
}

Direction InteriorPoint::eliminate(const Iterate& v, const Residuals& r, const VecX& complementarityTarget) {
    // dz = S^-1 (r_c - Z r_i) - W C dx and ds = C dx + r_i, from the last two Newton rows.
    const VecX scaledTarget = (complementarityTarget - v.z.cwiseProduct(r.inequality)).cwiseQuotient(v.s);
    Direction d;
    VecX minusDy;
    kkt_.solve(-r.dual + multiplyTransposed(qp_.C, scaledTarget, n_), -r.primal, d.dx, minusDy);
    d.dy = -minusDy;
    const VecX Cdx = multiply(qp_.C, d.dx);
    d.dz = scaledTarget - v.z.cwiseQuotient(v.s).cwiseProduct(Cdx);
    d.ds = Cdx + r.inequality;
    return d;
}

// Nocedal & Wright's starting point (section 16.6): from x = 0, s = z = 1, the affine
// (predictor) step, its x and y taken whole and s, z moved to at least 1.
bool InteriorPoint::startingPoint(Iterate& v) {
    v.x = VecX::Zero(n_);
    v.y = VecX::Zero(qp_.A.rows());
    v.s = VecX::Ones(mIn_);
    v.z = VecX::Ones(mIn_);
    if (!kkt_.factorize(v.z.cwiseQuotient(v.s))) return false;
    const Direction d = direction(v, residuals(v, multiplyOut(qp_, v.x, v.y, v.z)), -v.s.cwiseProduct(v.z), true);
    if (!d.dx.allFinite() || !d.dy.allFinite() || !d.ds.allFinite() || !d.dz.allFinite()) return false;
    v.x += d.dx;
    v.y += d.dy;
    v.s = (v.s + d.ds).cwiseAbs().cwiseMax(1.0);
    v.z = (v.z + d.dz).cwiseAbs().cwiseMax(1.0);
    return true;
}

// Farkas: with w = A^T y + C^T z and t = b^T y + d^T z, every feasible x has
// t <= x^T w <= |x|_1 |w|_inf (z >= 0). So t > R |w|_inf proves that no feasible point lies
// within |x|_1 <= R; R is taken 1e8 times as large as the current iterate.
bool InteriorPoint::provablyInfeasible(const Iterate& v, const Products& p) const {
    const double t = (qp_.b.size() > 0 ? qp_.b.dot(v.y) : 0.0) + (mIn_ > 0 ? qp_.d.dot(v.z) : 0.0);
    if (!(t > 0.0)) return false;
    const double w = maxNorm(p.Aty + p.Ctz);
    return t > 1e8 * std::max(1.0, v.x.lpNorm<1>()) * w;
}

QuadraticProgramResult InteriorPoint::run() {
    QuadraticProgramResult result;
    Iterate v;
    if (!startingPoint(v)) {  // the data are not finite, or the matrix cannot be factored
        result.x = VecX::Zero(n_);
        result.equalityMultipliers = VecX::Zero(qp_.A.rows());
        result.inequalityMultipliers = VecX::Zero(mIn_);
        const Measures measures =
            measure(qp_, result.x, result.inequalityMultipliers,
                    multiplyOut(qp_, result.x, result.equalityMultipliers, result.inequalityMultipliers));
        auto notNan = [](double r) { return std::isnan(r) ? std::numeric_limits<double>::infinity() : r; };
        result.primalResidual = notNan(measures.primal);
        result.dualResidual = notNan(measures.dual);
        result.complementarity = notNan(measures.complementarity);
        return result;
    }
    // Round-off can make the residuals grow again once they are near the limit of the
    // arithmetic: the result is the best iterate, by its largest relative residual.
    Iterate best = v;
    Products products = multiplyOut(qp_, v.x, v.y, v.z);
    Measures bestMeasures = measure(qp_, v.x, v.z, products);
    auto worst = [](const Measures& m) { return std::max({m.primal, m.dual, m.complementarity}); };
    const double m = static_cast<double>(mIn_);
    for (int iteration = 1; worst(bestMeasures) > settings_.tolerance && iteration <= settings_.maxIterations;
         ++iteration) {
        if (provablyInfeasible(v, products) || !kkt_.factorize(v.z.cwiseQuotient(v.s))) break;
        const Residuals r = residuals(v, products);
        const VecX sz = v.s.cwiseProduct(v.z);
        const double mu = mIn_ > 0 ? sz.sum() / m : 0.0;

        // Predictor: the affine-scaling direction, and how far it gets (N&W 16.4, steps 1-2).
        // It only sets the centering and the second-order term: no refinement.
        const Direction affine = direction(v, r, -sz, false);
        const double alphaAffine = std::min({1.0, stepToBoundary(v.s, affine.ds), stepToBoundary(v.z, affine.dz)});
        double sigma = 0.0;
        if (mIn_ > 0 && mu > 0.0) {
            const double muAffine = (v.s + alphaAffine * affine.ds).dot(v.z + alphaAffine * affine.dz) / m;
            sigma = std::pow(std::clamp(muAffine / mu, 0.0, 1.0), 3);  // Mehrotra's heuristic, N&W 16.5
        }
        // Corrector: centering to sigma mu and the second-order term dS_aff dZ_aff (N&W 16.67).
        const VecX target = (-sz - affine.ds.cwiseProduct(affine.dz)).array() + sigma * mu;
        const Direction d = direction(v, r, target, true);
        // One step length for primal and dual variables, as N&W 16.6 do for QPs; the
        // fraction to the boundary tends to 1 as the iterates converge (N&W's eta_k).
        const double eta = std::clamp(1.0 - mu, 0.9, 0.999);
        const double alpha = std::min(1.0, eta * std::min(stepToBoundary(v.s, d.ds), stepToBoundary(v.z, d.dz)));
        // A corrected step far shorter than the predicted one is a sign of a direction spoilt
        // by round-off (W spanning 20 orders of magnitude): a stronger regularization, which
        // the refinement corrects, keeps the factorization stable.
        if (alpha < 1e-2 * alphaAffine) kkt_.strengthenRegularization();
        Iterate next{v.x + alpha * d.dx, v.y + alpha * d.dy, v.s + alpha * d.ds, v.z + alpha * d.dz};
        if (!(alpha > 0.0) || !next.x.allFinite() || !next.y.allFinite() || !next.s.allFinite() ||
            !next.z.allFinite() || (mIn_ > 0 && (next.s.minCoeff() <= 0.0 || next.z.minCoeff() <= 0.0)))
            break;
        v = std::move(next);
        result.iterations = iteration;
        products = multiplyOut(qp_, v.x, v.y, v.z);
        const Measures measures = measure(qp_, v.x, v.z, products);
        if (worst(measures) < worst(bestMeasures)) {
            best = v;
            bestMeasures = measures;
        }
    }
    result.primalResidual = bestMeasures.primal;
    result.dualResidual = bestMeasures.dual;
    result.complementarity = bestMeasures.complementarity;
    result.converged = worst(bestMeasures) <= settings_.tolerance;
    result.x = std::move(best.x);
    result.equalityMultipliers = std::move(best.y);
    result.inequalityMultipliers = std::move(best.z);
    return result;
}

}  // namespace

QuadraticProgramResult solveQuadraticProgram(const QuadraticProgram& qp, const QuadraticProgramSettings& settings) {
    checkSizes(qp);
    return InteriorPoint(qp, settings).run();
}

}  // namespace tinkerbox
