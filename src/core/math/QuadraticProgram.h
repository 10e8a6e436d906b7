#pragma once
// Convex quadratic programs with sparse data:
//   minimize 1/2 x^T H x + g^T x   subject to   A x = b,   C x >= d,
// H symmetric positive semi-definite and positive definite on the null space of A. The
// optimality (KKT) conditions the result satisfies to the tolerance:
//   H x + g = A^T y + C^T z,   A x = b,   C x >= d,   z >= 0,   z_i (C x - d)_i = 0.
#include <Eigen/SparseCore>

#include "core/math/Types.h"

namespace tinkerbox {

using SparseMatrix = Eigen::SparseMatrix<double>;

struct QuadraticProgram {
    SparseMatrix H;  // n x n, both triangles stored
    VecX g;          // n
    SparseMatrix A;  // equality rows (m_eq x n; may have no rows)
    VecX b;
    SparseMatrix C;  // inequality rows (m_in x n; may have no rows)
    VecX d;
};

struct QuadraticProgramSettings {
    double tolerance = 1e-9;  // on the KKT residuals, relative to the scale of the data
    int maxIterations = 100;  // interior-point iterations (each one factorization)
};

// The residuals, in the infinity norm |.|, those of the returned x, y, z (the best iterate):
//   primal          = max(|A x - b|, |max(d - C x, 0)|) / max(1, |A x|, |b|, |C x|, |d|)
//   dual            = |H x + g - A^T y - C^T z| / max(1, |H x|, |g|, |A^T y|, |C^T z|)
//   complementarity = sum_i z_i |C x - d|_i / max(1, |1/2 x^T H x + g^T x|)
// converged: all three <= tolerance. Where a constraint is active with a zero multiplier,
// x and z are only about sqrt(tolerance) accurate there (x z <= tolerance).
struct QuadraticProgramResult {
    VecX x;
    VecX equalityMultipliers;    // y
    VecX inequalityMultipliers;  // z, >= 0
    int iterations = 0;
    bool converged = false;  // false: infeasible, unbounded, non-finite data or out of iterations
    double primalResidual = 0.0, dualResidual = 0.0, complementarity = 0.0;
};

// Never throws on hard data: the result then says converged = false, with finite x, y, z.
// A or C without rows may have n or no columns. Throws std::invalid_argument when the
// sizes do not match, the message naming the matrix or vector.
QuadraticProgramResult solveQuadraticProgram(const QuadraticProgram& qp, const QuadraticProgramSettings& settings = {});

}  // namespace tinkerbox
