// The conjugate gradient loop itself: where it stops does not depend on where it starts.
#include "core/math/ConjugateGradient.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>

namespace tinkerbox {
namespace {

// A symmetric positive definite 40 x 40 matrix with eigenvalues from 1e-3 to 1: CG needs
// many iterations on it.
Eigen::MatrixXd spreadMatrix() {
    const Index n = 40;
    const Eigen::MatrixXd q = Eigen::HouseholderQR<Eigen::MatrixXd>(Eigen::MatrixXd::Random(n, n)).householderQ();
    VecX eigenvalues(n);
    for (Index i = 0; i < n; ++i) eigenvalues[i] = std::pow(1e-3, static_cast<double>(i) / (n - 1));
    return q * eigenvalues.asDiagonal() * q.transpose();
}

CgResult solve(const Eigen::MatrixXd& A, const VecX& b, VecX& x, double tolerance) {
    CgWorkspace work;
    return conjugateGradient([&](const VecX& v, VecX& out) { out = A * v; }, [](const VecX& r, VecX& z) { z = r; }, b,
                             x, CgSettings{tolerance, 1000}, work);
}

// A start worse than zero (here -10 times the solution, |b - A x0| = 11 |b|) is dropped:
// the solve is the cold one, bit for bit, instead of having to reduce a residual eleven
// times as large.
TEST(ConjugateGradient, AStartWorseThanZeroIsDropped) {
    const Eigen::MatrixXd A = spreadMatrix();
    const VecX b = VecX::LinSpaced(A.rows(), -1.0, 2.0);
    const VecX exact = A.ldlt().solve(b);
    VecX cold = VecX::Zero(b.size()), flipped = -10.0 * exact;
    const CgResult coldResult = solve(A, b, cold, 1e-10);
    const CgResult flippedResult = solve(A, b, flipped, 1e-10);
    EXPECT_TRUE(coldResult.converged);
    EXPECT_EQ(flippedResult.iterations, coldResult.iterations);
    EXPECT_EQ(flipped, cold);
}

// A good start saves iterations, and the answer still meets |b - A x| <= tol |b|.
TEST(ConjugateGradient, AGoodStartSavesIterationsNotAccuracy) {
    const Eigen::MatrixXd A = spreadMatrix();
    const VecX b = VecX::LinSpaced(A.rows(), -1.0, 2.0);
    const VecX exact = A.ldlt().solve(b);
    VecX cold = VecX::Zero(b.size()), warm = exact + 1e-4 * VecX::Ones(b.size());
    const CgResult coldResult = solve(A, b, cold, 1e-10);
    const CgResult warmResult = solve(A, b, warm, 1e-10);
    EXPECT_LT(warmResult.iterations, coldResult.iterations);
    EXPECT_LE((b - A * warm).norm(), 1e-10 * b.norm());
    EXPECT_LE((b - A * cold).norm(), 1e-10 * b.norm());
}

}  // namespace
}  // namespace tinkerbox
