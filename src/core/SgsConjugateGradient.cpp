#include "core/SgsConjugateGradient.h"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <stdexcept>

namespace tinkerbox {

void SgsConjugateGradient::scale(BlockSparseMatrix& J, const VecX& mass, const std::vector<char>& fixed) {
    if (J.storage() != BlockSparseMatrix::Storage::Upper)
        throw std::invalid_argument("SgsConjugateGradient: the matrix must have Upper storage");
    const Index n = J.blockRows();
    factor_.resize(n);
    factorInverse_.resize(n);
    for (Index i = 0; i < n; ++i) {
        if (fixed[i]) {
            factor_[i].setIdentity();
            factorInverse_[i].setIdentity();
            continue;
        }
        Mat3 diagonal = J.diagonal(i);
        diagonal.diagonal().array() += mass[i];
        factor_[i] = diagonal.llt().matrixL();
        factorInverse_[i] = factor_[i].inverse();
    }
    const auto& rowStart = J.rowStarts();
    const auto& column = J.columns();
    for (Index i = 0; i < n; ++i)
        for (Index k = J.diagonalIndex(i) + 1; k < rowStart[i + 1]; ++k) {
            const Index j = column[k];
            Mat3& block = J.value(k);
            if (fixed[i] || fixed[j]) block.setZero();
            else block = factorInverse_[i] * block * factorInverse_[j].transpose();
        }
    scaled_ = &J;
}

// The two sweeps are the solver's inner loops: they walk the scaled matrix through
// restrict pointers, so that writing v never makes the compiler reload the matrix.
// Blocks are column-major: B(r, c) = b[r + 3 c].
void SgsConjugateGradient::solveUpper(VecX& v) const {
    const Index* __restrict start = scaled_->rowStarts().data();
    const std::int32_t* __restrict column = scaled_->columns().data();
    const double* __restrict blocks = scaled_->value(0).data();
    double* __restrict vs = v.data();
    for (Index i = scaled_->blockRows() - 1; i >= 0; --i) {
        double s0 = 0.0, s1 = 0.0, s2 = 0.0;
        for (Index k = start[i] + 1; k < start[i + 1]; ++k) {  // start[i] is the diagonal block
            const double* b = blocks + 9 * k;
            const double* x = vs + 3 * static_cast<Index>(column[k]);
            s0 += b[0] * x[0] + b[3] * x[1] + b[6] * x[2];
            s1 += b[1] * x[0] + b[4] * x[1] + b[7] * x[2];
            s2 += b[2] * x[0] + b[5] * x[1] + b[8] * x[2];
        }
        vs[3 * i] -= s0;
        vs[3 * i + 1] -= s1;
        vs[3 * i + 2] -= s2;
    }
}

void SgsConjugateGradient::solveLower(VecX& v) const {
    // Column i of L is row i of U transposed: once v_i is final, remove its part below.
    const Index* __restrict start = scaled_->rowStarts().data();
    const std::int32_t* __restrict column = scaled_->columns().data();
    const double* __restrict blocks = scaled_->value(0).data();
    double* __restrict vs = v.data();
    const Index rows = scaled_->blockRows();
    for (Index i = 0; i < rows; ++i) {
        const double x0 = vs[3 * i], x1 = vs[3 * i + 1], x2 = vs[3 * i + 2];
        for (Index k = start[i] + 1; k < start[i + 1]; ++k) {
            const double* b = blocks + 9 * k;
            double* y = vs + 3 * static_cast<Index>(column[k]);
            y[0] -= b[0] * x0 + b[1] * x1 + b[2] * x2;
            y[1] -= b[3] * x0 + b[4] * x1 + b[5] * x2;
            y[2] -= b[6] * x0 + b[7] * x1 + b[8] * x2;
        }
    }
}

CgResult SgsConjugateGradient::solve(BlockSparseMatrix& J, const VecX& mass, const std::vector<char>& fixed,
                                     const VecX& rhs, VecX& x, const CgSettings& settings) {
    const Index n = J.blockRows();
    if (n == 0) return {};
    scale(J, mass, fixed);
    // b^ = (I + L)^-1 G^-1 rhs, with fixed rows removed.
    bHat_.resize(3 * n);
    for (Index i = 0; i < n; ++i)
        block3(bHat_, i) = fixed[i] ? Vec3::Zero() : Vec3(factorInverse_[i] * block3(rhs, i));
    solveLower(bHat_);
    // x^ = (I + U) G^T x
    if (x.size() != 3 * n) x = VecX::Zero(3 * n);
    t_.resize(3 * n);
    for (Index i = 0; i < n; ++i) block3(t_, i) = fixed[i] ? Vec3::Zero() : Vec3(factor_[i].transpose() * block3(x, i));
    xHat_ = t_;
    const auto& rowStart = J.rowStarts();
    const auto& column = J.columns();
    for (Index i = 0; i < n; ++i)
        for (Index k = J.diagonalIndex(i) + 1; k < rowStart[i + 1]; ++k)
            block3(xHat_, i) += J.value(k) * block3(t_, column[k]);

    const auto applyHat = [&](const VecX& v, VecX& out) {
        t_ = v;
        solveUpper(t_);
        out = v - t_;
        solveLower(out);
        out += t_;
    };
    const auto identity = [](const VecX& r, VecX& z) { z = r; };
    const CgResult result = conjugateGradient(applyHat, identity, bHat_, xHat_, settings, work_);

    // x = G^-T (I + U)^-1 x^
    solveUpper(xHat_);
    for (Index i = 0; i < n; ++i) block3(x, i) = factorInverse_[i].transpose() * block3(xHat_, i);
    return result;
}

}  // namespace tinkerbox
