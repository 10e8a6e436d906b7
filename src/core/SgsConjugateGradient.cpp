#include "core/SgsConjugateGradient.h"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <cassert>

namespace tinkerbox {

void SgsConjugateGradient::setMatrix(double a, const BlockSparseMatrix& X, double b, const BlockSparseMatrix& Y,
                                     const VecX& mass, const std::vector<char>& fixed) {
    assert(X.samePattern(Y));
    const Index n = X.blockRows();
    if (X.patternId() != pattern_ || rows() != n) {
        pattern_ = X.patternId();
        rowStart_.assign(1, 0);
        column_.clear();
        for (Index i = 0; i < n; ++i) {
            for (Index k = X.diagonalIndex(i) + 1; k < X.rowStart(i + 1); ++k)
                column_.push_back(static_cast<std::int32_t>(X.column(k)));
            rowStart_.push_back(static_cast<Index>(column_.size()));
        }
        upper_.resize(column_.size());
        factor_.resize(n);
        factorInverse_.resize(n);
    }
    fixed_ = fixed;
    for (Index i = 0; i < n; ++i) {
        if (fixed_[i]) {
            factor_[i].setIdentity();
            factorInverse_[i].setIdentity();
            continue;
        }
        const Index d = X.diagonalIndex(i);
        Mat3 diagonal = a * X.value(d) + b * Y.value(d);
        diagonal.diagonal().array() += mass[i];
        factor_[i] = diagonal.llt().matrixL();
        factorInverse_[i] = factor_[i].inverse();
    }
    Index out = 0;
    for (Index i = 0; i < n; ++i)
        for (Index k = X.diagonalIndex(i) + 1; k < X.rowStart(i + 1); ++k, ++out) {
            const Index j = X.column(k);
            if (fixed_[i] || fixed_[j]) upper_[out].setZero();
            else upper_[out].noalias() = factorInverse_[i] * (a * X.value(k) + b * Y.value(k)) * factorInverse_[j].transpose();
        }
}

void SgsConjugateGradient::solveUpper(VecX& v) const {
    for (Index i = rows() - 1; i >= 0; --i) {
        Vec3 sum = Vec3::Zero();
        for (Index k = rowStart_[i]; k < rowStart_[i + 1]; ++k) sum.noalias() += upper_[k] * block3(v, column_[k]);
        block3(v, i) -= sum;
    }
}

void SgsConjugateGradient::solveLower(VecX& v) const {
    // Column i of L is row i of U transposed: once v_i is final, remove its part below.
    for (Index i = 0; i < rows(); ++i) {
        const Vec3 vi = block3(v, i);
        for (Index k = rowStart_[i]; k < rowStart_[i + 1]; ++k)
            block3(v, column_[k]).noalias() -= upper_[k].transpose() * vi;
    }
}

CgResult SgsConjugateGradient::solve(const VecX& rhs, VecX& x, const CgSettings& settings) {
    const Index n = rows();
    // b^ = (I + L)^-1 G^-1 rhs, with fixed rows removed.
    bHat_.resize(3 * n);
    for (Index i = 0; i < n; ++i)
        block3(bHat_, i) = fixed_[i] ? Vec3::Zero() : Vec3(factorInverse_[i] * block3(rhs, i));
    solveLower(bHat_);
    // x^ = (I + U) G^T x
    if (x.size() != 3 * n) x = VecX::Zero(3 * n);
    t_.resize(3 * n);
    for (Index i = 0; i < n; ++i) block3(t_, i) = fixed_[i] ? Vec3::Zero() : Vec3(factor_[i].transpose() * block3(x, i));
    xHat_ = t_;
    for (Index i = 0; i < n; ++i)
        for (Index k = rowStart_[i]; k < rowStart_[i + 1]; ++k) block3(xHat_, i) += upper_[k] * block3(t_, column_[k]);

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

Eigen::MatrixXd SgsConjugateGradient::denseMatrix() const {
    const Index n = rows();
    Eigen::MatrixXd scaled = Eigen::MatrixXd::Identity(3 * n, 3 * n);
    for (Index i = 0; i < n; ++i)
        for (Index k = rowStart_[i]; k < rowStart_[i + 1]; ++k) {
            scaled.block<3, 3>(3 * i, 3 * column_[k]) = upper_[k];
            scaled.block<3, 3>(3 * column_[k], 3 * i) = upper_[k].transpose();
        }
    Eigen::MatrixXd G = Eigen::MatrixXd::Zero(3 * n, 3 * n);
    for (Index i = 0; i < n; ++i) G.block<3, 3>(3 * i, 3 * i) = factor_[i];
    return G * scaled * G.transpose();
}

}  // namespace tinkerbox
