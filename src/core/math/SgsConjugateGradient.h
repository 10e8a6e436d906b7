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
#include <vector>

#include "core/math/BlockSparseMatrix.h"
#include "core/math/ConjugateGradient.h"

namespace tinkerbox {

class SgsConjugateGradient {
public:
    // Solves (J + M) x = rhs, starting from x (warm start); fixed blocks of x end at zero.
    // J has Upper storage (so each row starts with its diagonal block); M has one
    // symmetric block per block row. J is consumed: it holds the scaled upper triangle afterwards.
    CgResult solve(BlockSparseMatrix& J, const std::vector<Mat3>& mass, const std::vector<char>& fixed, const VecX& rhs, VecX& x,
                   const CgSettings& settings);

private:
    void scale(BlockSparseMatrix& J, const std::vector<Mat3>& mass, const std::vector<char>& fixed);
    void solveUpper(VecX& v) const;  // v <- (I + U)^-1 v
    void solveLower(VecX& v) const;  // v <- (I + L)^-1 v
    void applyPreconditioned(const VecX& v, VecX& out);  // out = A^ v

    const BlockSparseMatrix* scaled_ = nullptr;
    std::vector<Mat3> factor_;         // G_i
    std::vector<Mat3> factorInverse_;  // G_i^-1
    VecX bHat_, xHat_, t_;
    CgWorkspace work_;
};

}  // namespace tinkerbox
