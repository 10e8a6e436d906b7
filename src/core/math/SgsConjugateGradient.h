#pragma once
// The implicit integrator's linear solver: conjugate gradient preconditioned by
// symmetric Gauss-Seidel (SGS), for (J + M) x = b, where J is a symmetric block matrix
// (the combined definite Jacobians -h dF/dv - h^2 dF/dx) and M the block-diagonal mass
// (a particle's m I, a rigid body's m I and world inertia).
//
// On a cloth, block Jacobi needs about three times as many iterations as SGS. Three
// rewrites make an SGS iteration cheap:
// - the system is scaled by the Cholesky factors of its diagonal blocks (ScaledSweepMatrix):
//   A~ = I + L + U with L = U^T, in an order whose two parts the two cores sweep at once;
// - Eisenstat's trick (Eisenstat, Efficient Implementation of a Class of Preconditioned
//   Conjugate Gradient Methods, SIAM J. Sci. Stat. Comput. 2(1), 1981), for symmetric SOR with
//   E = I/omega + L: CG runs on A^ = E^-1 A~ E^-T, whose product is
//   A^ v = t + E^-1 (v - (2/omega - 1) t) with t = E^-T v (A~ = E + E^T - (2/omega - 1) I): two
//   triangular sweeps and no separate multiply by A;
// - CG in Chronopoulos and Gear's form (s-Step Iterative Methods for Symmetric Linear
//   Systems, J. Comput. Appl. Math. 25, 1989, the s = 1 method): the iteration's two inner
//   products come from one pass, r and A^ r, so that its vector updates run inside the
//   backward sweep and its inner products inside the two sweeps, and an iteration makes one
//   pass over the vectors and hands the second core work once. It takes one product more
//   per solve than the textbook form (the product of the last residual).
// The relaxation omega = kRelaxation (SSOR; Saad, Iterative Methods for Sparse Linear Systems,
// 2003, section 10.2): 1.1, the largest of 1.1, 1.2, 1.3 and 1.5 with which no example (cloths,
// hair, chains, the drape) needs more iterations than with 1 (plain SGS): the 64 x 64 cloths
// need 8 to 10 % fewer; stiffer over-relaxation helps cloth more and hair less (1.2: 14 to 18 %
// fewer on the cloths, 8 % more on the curly hair). The answer is as accurate (the error at the
// tolerance the same within a few percent).
// The tolerance applies to the preconditioned residual |E^-1 G^-1 r| relative to that of the
// right-hand side, the kind of norm Baraff & Witkin 1998 use.
// The scaled matrix's blocks are stored in single precision (ScaledSweepMatrix), the vectors
// and all arithmetic in double: CG solves the system whose matrix entries are rounded to the
// nearest float (relative change 2^-24 each), exactly symmetric still, with half the bytes to
// stream per sweep. That moves the answer by a few 1e-6 of its energy norm on the cloths,
// within what a tolerance from kRefinedTolerance up allows. Tighter tolerances are met on the
// system in double precision by iterative refinement (Wilkinson, Rounding Errors in Algebraic
// Processes, 1963; Moler, Iterative Refinement in Floating Point, J. ACM 14(2), 1967): the
// residual of the answer is computed from J and M in double, CG solves for its correction on
// the single-precision matrix, and that repeats until the double residual meets the tolerance.
// Fixed blocks (nailed particles) are filtered out: their rows and columns are dropped
// and their solution is zero (Baraff & Witkin's filter S).
// Each part of the matrix is swept by the same code whichever thread takes it, and the
// parts' inner products are added in a fixed order, so the result is the same bits with
// one core or two.
#include "core/math/ConjugateGradient.h"
#include "core/math/ScaledSweepMatrix.h"
#include "core/math/TwoWayParallel.h"

namespace tinkerbox {

class SgsConjugateGradient {
public:
    static constexpr double kRelaxation = 1.1;  // omega
    // Below this tolerance the answer is refined against the system in double precision, in
    // at most kMaxRefinements passes (each leaves about the single-precision matrix's share of
    // the error it starts from).
    static constexpr double kRefinedTolerance = 2e-5;
    static constexpr int kMaxRefinements = 8;

    // Solves (J + M) x = rhs, starting from x (warm start); fixed blocks of x end at zero.
    // J has Upper storage.
    CgResult solve(const BlockSparseMatrix& J, const std::vector<Mat3>& mass, const std::vector<char>& fixed,
                   const VecX& rhs, VecX& x, const CgSettings& settings);

    // CG's matrix-vector product on its own, for tests and benchmarks: prepare() scales
    // J + M as solve() does, then applyPreconditioned(v, out) is one product, out = A^ v (v
    // and out in J's row order); it streams about
    // bytesPerProduct() bytes (the stored blocks and their columns twice, five vectors once).
    void prepare(const BlockSparseMatrix& J, const std::vector<Mat3>& mass, const std::vector<char>& fixed);
    void applyPreconditioned(const VecX& v, VecX& out);
    double bytesPerProduct() const;
    // The scaled matrix of the last solve or prepare, in its sweep order.
    const ScaledSweepMatrix& matrix() const { return matrix_; }
    // The helper thread the sweeps run on, for the other work of a step (one helper spinning
    // for work is enough on two cores).
    TwoWayParallel& parallel() { return parallel_; }

private:
    // The Eisenstat product out = A^ v, v_r = input(r) in sweep order (the input may update
    // the CG vectors of row r first: see solve()); returns v . v and out . v.
    template <class Input>
    std::pair<double, double> product(Input&& input, const VecX& v, VecX& out);
    // Adds the parts' separatorSums_ to out's separator rows, before the separator's forward sweep.
    void addSeparatorSums(VecX& out) const;
    void solveUpper(VecX& v);  // v <- E^-T v
    void solveLower(VecX& v);  // v <- E^-1 v
    // hat <- E^-1 G^-1 v in sweep order (zero at fixed rows).
    void scaleIn(const VecX& v, const std::vector<char>& fixed, VecX& hat);
    // x <- G^-T E^-T hat (add: x +=), zero at fixed rows; hat is overwritten.
    void scaleOut(VecX& hat, const std::vector<char>& fixed, VecX& x, bool add);
    // r_ <- E^-1 G^-1 (rhs - (J + M) x), the product with J and M in double precision.
    void residualOf(const BlockSparseMatrix& J, const std::vector<Mat3>& mass, const std::vector<char>& fixed,
                    const VecX& rhs, const VecX& x);
    // CG from xHat_ with residual r_ until |r_| <= target or result.iterations reaches
    // maxIterations (counted on in result, which also takes a breakdown); returns |r_|.
    double iterate(double target, int maxIterations, CgResult& result);
    // Runs task(rows, part) for the two parts, at once when the matrix is split.
    template <class Task>
    void forParts(Task&& task);
    // Runs task(rows) for the two parts (forParts), then for the separator: for work row by
    // row, or whose rows read only later rows of their own part and the separator's.
    template <class Task>
    void forRows(Task&& task);

    ScaledSweepMatrix matrix_;
    TwoWayParallel parallel_;
    // In sweep order, four doubles per row: the scaled system's right-hand side, unknowns and
    // CG's vectors (r, p, w = A^ r, s = A^ p), the backward sweep's t, a product's result.
    VecX bHat_, xHat_, r_, p_, w_, s_, t_, product_;
    VecX residual_;          // rhs - (J + M) x, in J's row order
    VecX separatorSums_[2];  // what each part's forward sweep subtracts from the separator rows
};

}  // namespace tinkerbox
