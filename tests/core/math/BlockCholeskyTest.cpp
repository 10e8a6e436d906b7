#include "core/math/BlockCholesky.h"

#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include <Eigen/Cholesky>

namespace tinkerbox {
namespace {

// A symmetric positive definite matrix of B x B blocks on the given lower pattern: random
// off-diagonal blocks, and diagonal blocks that dominate them (as a mass matrix plus
// J^T E^-1 J does), with its dense copy.
template <int B>
struct CholeskySystem {
    using Block = typename BlockCholesky<B>::Block;
    Index blocks = 0;
    std::vector<std::pair<Index, Index>> lower;
    std::vector<Block> values;  // by BlockCholesky::slot
    Eigen::MatrixXd dense;
};

template <int B>
CholeskySystem<B> randomCholeskySystem(Index blocks, const std::vector<std::pair<Index, Index>>& lower,
                                       const BlockCholesky<B>& analysed, std::mt19937& random) {
    using Block = typename BlockCholesky<B>::Block;
    std::uniform_real_distribution<double> entry(-1.0, 1.0);
    CholeskySystem<B> s;
    s.blocks = blocks;
    s.lower = lower;
    s.dense = Eigen::MatrixXd::Zero(B * blocks, B * blocks);
    s.values.assign(static_cast<std::size_t>(analysed.slots()), Block::Zero());
    for (const auto& [i, j] : lower) {
        const Block block = Block::NullaryExpr([&](Index, Index) { return entry(random); });
        const Index slot = i > j ? analysed.slot(i, j) : analysed.slot(j, i);
        s.values[static_cast<std::size_t>(slot)] += i > j ? block : Block(block.transpose());
        s.dense.template block<B, B>(B * i, B * j) += block;
        s.dense.template block<B, B>(B * j, B * i) += block.transpose();
    }
    for (Index i = 0; i < B * blocks; ++i) s.dense(i, i) = s.dense.row(i).cwiseAbs().sum() + 0.5;
    for (Index b = 0; b < blocks; ++b) {
        Block diagonal = s.dense.template block<B, B>(B * b, B * b);
        const Block coupling = Block::NullaryExpr([&](Index, Index) { return 0.1 * entry(random); });
        diagonal += coupling + coupling.transpose();  // a full symmetric diagonal block, still dominant
        s.dense.template block<B, B>(B * b, B * b) = diagonal;
        s.values[static_cast<std::size_t>(analysed.slot(b, b))] = diagonal;
    }
    return s;
}

// The pattern of a grid of nx x ny nodes, each coupled to its right, upper and diagonal
// neighbours (a pile's boxes touch so), numbered in a shuffled order.
std::vector<std::pair<Index, Index>> shuffledGridPattern(Index nx, Index ny, std::mt19937& random) {
    std::vector<Index> number(static_cast<std::size_t>(nx * ny));
    for (std::size_t k = 0; k < number.size(); ++k) number[k] = static_cast<Index>(k);
    std::shuffle(number.begin(), number.end(), random);
    const auto at = [&](Index x, Index y) { return number[static_cast<std::size_t>(y * nx + x)]; };
    std::vector<std::pair<Index, Index>> pairs;
    for (Index y = 0; y < ny; ++y)
        for (Index x = 0; x < nx; ++x) {
            if (x + 1 < nx) pairs.emplace_back(at(x, y), at(x + 1, y));
            if (y + 1 < ny) pairs.emplace_back(at(x, y + 1), at(x, y));
            if (x + 1 < nx && y + 1 < ny) pairs.emplace_back(at(x + 1, y + 1), at(x, y));
        }
    return pairs;
}

template <int B>
void expectSolvesLikeADenseCholesky() {
    std::mt19937 random(7);
    for (const auto& [nx, ny] : {std::pair<Index, Index>{1, 1}, {5, 1}, {6, 7}, {20, 11}}) {
        const std::vector<std::pair<Index, Index>> pattern = shuffledGridPattern(nx, ny, random);
        BlockCholesky<B> cholesky;
        cholesky.analyze(nx * ny, pattern);
        for (int trial = 0; trial < 3; ++trial) {  // one analysis, several factorizations
            const CholeskySystem<B> s = randomCholeskySystem(nx * ny, pattern, cholesky, random);
            ASSERT_TRUE(cholesky.factorize(s.values));
            const VecX b = VecX::NullaryExpr(
                B * nx * ny, [&](Index) { return std::uniform_real_distribution<double>(-1.0, 1.0)(random); });
            VecX x = b;
            cholesky.solve(x);
            const VecX expected = s.dense.llt().solve(b);
            EXPECT_LT((x - expected).norm(), 1e-12 * expected.norm())
                << B << ": " << nx << " x " << ny << ", trial " << trial;
            EXPECT_LT((s.dense * x - b).norm(), 1e-12 * b.norm());
        }
    }
}

TEST(BlockCholesky, SolvesLikeADenseCholeskyOnRandomGrids) {
    expectSolvesLikeADenseCholesky<3>();  // velocity blocks
    expectSolvesLikeADenseCholesky<6>();  // bodies
}

TEST(BlockCholesky, SlotsAreThoseOfThePatternAndItsDiagonal) {
    BlockCholesky<3> cholesky;
    cholesky.analyze(4, {{1, 0}, {0, 1}, {3, 1}, {1, 3}, {2, 2}});  // repeats, either order, a diagonal
    EXPECT_EQ(cholesky.slots(), 6);                                 // four diagonal blocks, (1, 0) and (3, 1)
    EXPECT_GE(cholesky.slot(1, 0), 0);
    EXPECT_GE(cholesky.slot(3, 1), 0);
    EXPECT_GE(cholesky.slot(2, 2), 0);
    EXPECT_EQ(cholesky.slot(2, 0), -1);
    EXPECT_EQ(cholesky.slot(0, 1), -1);  // the lower triangle's pairs only
}

TEST(BlockCholesky, RefusesAMatrixThatIsNotPositiveDefinite) {
    BlockCholesky<3> cholesky;
    cholesky.analyze(2, {{1, 0}});
    std::vector<Mat3> values(static_cast<std::size_t>(cholesky.slots()), Mat3::Identity());
    values[static_cast<std::size_t>(cholesky.slot(1, 0))] = 2.0 * Mat3::Identity();  // [I 2I; 2I I] is indefinite
    EXPECT_FALSE(cholesky.factorize(values));
    values[static_cast<std::size_t>(cholesky.slot(1, 0))] = 0.5 * Mat3::Identity();
    EXPECT_TRUE(cholesky.factorize(values));
    VecX x = VecX::Ones(6);
    cholesky.solve(x);
    EXPECT_LT((x - VecX::Constant(6, 1.0 / 1.5)).norm(), 1e-15);
}

}  // namespace
}  // namespace tinkerbox
