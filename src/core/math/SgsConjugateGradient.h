#pragma once
// The implicit integrator's linear solver: conjugate gradient preconditioned by
// symmetric Gauss-Seidel (SGS), for (J + M) x = b, where J is a symmetric block matrix
// (the combined definite Jacobians -h dF/dv - h^2 dF/dx) and M the block-diagonal mass
// (a particle's m I, a rigid body's m I and world inertia).
//
// On a cloth, block Jacobi needs about three times as many iterations as SGS. Two
// rewrites make an SGS iteration cheap:
// - the system is scaled by the Cholesky factors of its diagonal blocks, D_i = G_i G_i^T:
//   A~ = G^-1 A G^-T has identity diagonal blocks, A~ = I + L + U with L = U^T;
// - Eisenstat's trick (Eisenstat 1981): CG runs on A^ = (I + L)^-1 A~ (I + U)^-1, whose
//   product is A^ v = t + (I + L)^-1 (v - t) with t = (I + U)^-1 v: two triangular sweeps
//   and no separate multiply by A.
// The scaling is done in place, in J's own storage, so that a big cloth streams one
// matrix per sweep and nothing else.
// The tolerance applies to the preconditioned residual |(I + L)^-1 G^-1 r| relative to
// that of the right-hand side, the kind of norm Baraff & Witkin 1998 use.
// Fixed blocks (nailed particles) are filtered out: their rows and columns are dropped
// and their solution is zero (Baraff & Witkin's filter S).
// From kSplitRows block rows up, the rows are split into two halves that the two cores sweep
// at once: the preconditioner is then SGS within each half (block Jacobi across them, Saad,
// Iterative Methods for Sparse Linear Systems, 2003, section 12.4), U = U_in + U_c with U_c the
// blocks that couple the halves, and A^ v = t + (I + L_in)^-1 (v - t + (L_c + U_c) t) with
// t = (I + U_in)^-1 v. The split is fixed by the row count alone, so the result is the same
// with one core or two; on a cloth the halves touch along one row of particles only, and CG
// needs about as many iterations as with the whole sweep.
#include <vector>

#include "core/math/BlockSparseMatrix.h"
#include "core/math/ConjugateGradient.h"
#include "core/math/TwoWayParallel.h"

namespace tinkerbox {

class SgsConjugateGradient {
public:
    static constexpr Index kSplitRows = 4096;

    // Solves (J + M) x = rhs, starting from x (warm start); fixed blocks of x end at zero.
    // J has Upper storage (so each row starts with its diagonal block); M has one
    // symmetric block per block row. J is consumed: it holds the scaled upper triangle afterwards.
    CgResult solve(BlockSparseMatrix& J, const std::vector<Mat3>& mass, const std::vector<char>& fixed, const VecX& rhs, VecX& x,
                   const CgSettings& settings);

    // CG's matrix-vector product on its own, for benchmarks: scale() prepares J as solve()
    // does (consuming it), then applyPreconditioned(v, out) is one product, out = A^ v; it
    // streams about bytesPerProduct() bytes (the off-diagonal blocks and their columns twice,
    // five vectors once).
    void scale(BlockSparseMatrix& J, const std::vector<Mat3>& mass, const std::vector<char>& fixed);
    void applyPreconditioned(const VecX& v, VecX& out);
    double bytesPerProduct() const;

private:
    void solveUpper(VecX& v);  // v <- (I + U_in)^-1 v
    void solveLower(VecX& v);  // v <- (I + L_in)^-1 v
    // Runs a task for the rows [0, split) and one for [split, n): at once when split.
    void forHalves(const std::function<void(Index, Index)>& task);

    const BlockSparseMatrix* scaled_ = nullptr;
    Index split_ = 0;                  // the first row of the second half (n when not split)
    std::vector<Index> halfEnd_;       // per row: the end of its blocks within its half
    std::vector<Index> seamRows_;      // the rows of the first half with blocks in the second
    TwoWayParallel parallel_;
    std::vector<Mat3> factor_;         // G_i
    std::vector<Mat3> factorInverse_;  // G_i^-1
    VecX bHat_, xHat_, t_;
    CgWorkspace work_;
};

}  // namespace tinkerbox
