#include "core/math/BlockSparseMatrix.h"

#include <gtest/gtest.h>

#include "core/math/ConjugateGradient.h"
#include "core/math/TwoWayParallel.h"

namespace tinkerbox {
namespace {

TEST(BlockSparseMatrix, PatternHasDiagonalAndSymmetricCouplings) {
    BlockSparseMatrix m;
    m.setPattern(4, {{0, 2}, {2, 0}, {1, 3}});
    EXPECT_EQ(m.storedBlocks(), 4 + 4);  // diagonal + (0,2),(2,0),(1,3),(3,1)
    EXPECT_GE(m.find(0, 2), 0);
    EXPECT_GE(m.find(2, 0), 0);
    EXPECT_GE(m.find(3, 1), 0);
    EXPECT_EQ(m.find(0, 1), -1);
    EXPECT_THROW(m.at(0, 3), std::out_of_range);
}

// Zeroing on two threads clears every block, below and above the size it splits at.
TEST(BlockSparseMatrix, ZeroedOnTwoThreadsEveryBlockIsZero) {
    TwoWayParallel parallel;
    for (const Index rows : {Index{100}, static_cast<Index>(BlockSparseMatrix::kParallelZeroBlocks) + 7}) {
        BlockSparseMatrix m;
        m.setPattern(rows, {{0, rows - 1}, {rows / 2, rows / 2 + 1}});
        for (Index k = 0; k < m.storedBlocks(); ++k) m.value(k) = Mat3::Constant(static_cast<double>(k + 1));
        m.setZero(parallel);
        for (Index k = 0; k < m.storedBlocks(); ++k)
            ASSERT_TRUE(m.value(k).isZero(0.0)) << "block " << k << " of " << rows << " rows";
    }
}

TEST(BlockSparseMatrix, MultiplyMatchesDense) {
    BlockSparseMatrix m;
    m.setPattern(3, {{0, 1}, {1, 2}});
    Eigen::Matrix3d a;
    a << 1, 2, 3, 4, 5, 6, 7, 8, 10;
    m.at(0, 0) = a;
    m.at(0, 1) = 2 * a;
    m.at(1, 0) = -a.transpose();
    m.at(1, 2) = Mat3::Identity();
    m.at(2, 2) = 3 * Mat3::Identity();
    VecX x = VecX::LinSpaced(9, -1.0, 2.0);
    VecX y;
    m.multiply(x, y);
    EXPECT_LT((y - m.toDense() * x).norm(), 1e-12);
}

TEST(ConjugateGradient, SolvesSpdSystemToTolerance) {
    // 1D Laplacian plus identity in 3x3 blocks: SPD and sparse like a spring chain.
    const Index n = 50;
    std::vector<std::pair<Index, Index>> couplings;
    for (Index i = 0; i + 1 < n; ++i) couplings.emplace_back(i, i + 1);
    BlockSparseMatrix A;
    A.setPattern(n, couplings);
    for (Index i = 0; i < n; ++i) A.at(i, i) = 3.0 * Mat3::Identity();
    for (Index i = 0; i + 1 < n; ++i) A.at(i, i + 1) = A.at(i + 1, i) = -Mat3::Identity();
    const VecX b = VecX::Ones(3 * n);
    VecX x;
    CgWorkspace w;
    const CgResult r = conjugateGradient([&](const VecX& p, VecX& q) { A.multiply(p, q); },
                                         [](const VecX& r, VecX& z) { z = r; }, b, x, CgSettings{1e-10, 1000}, w);
    EXPECT_TRUE(r.converged);
    VecX Ax;
    A.multiply(x, Ax);
    EXPECT_LT((Ax - b).norm(), 1e-9 * b.norm());
}

TEST(ConjugateGradient, StopsAtIterationCapAndSaysSo) {
    const Index n = 200;
    std::vector<std::pair<Index, Index>> couplings;
    for (Index i = 0; i + 1 < n; ++i) couplings.emplace_back(i, i + 1);
    BlockSparseMatrix A;
    A.setPattern(n, couplings);
    for (Index i = 0; i < n; ++i) A.at(i, i) = 2.001 * Mat3::Identity();
    for (Index i = 0; i + 1 < n; ++i) A.at(i, i + 1) = A.at(i + 1, i) = -Mat3::Identity();
    VecX x;
    CgWorkspace w;
    const CgResult r =
        conjugateGradient([&](const VecX& p, VecX& q) { A.multiply(p, q); }, [](const VecX& r, VecX& z) { z = r; },
                          VecX::Ones(3 * n), x, CgSettings{1e-12, 5}, w);
    EXPECT_FALSE(r.converged);
    EXPECT_EQ(r.iterations, 5);
    EXPECT_GT(r.relativeResidual, 1e-12);
}

}  // namespace
}  // namespace tinkerbox
