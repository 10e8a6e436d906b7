#include "core/math/LdltSubstitution.h"

#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>
#include <random>

namespace tinkerbox {
namespace {

// The system of a square sheet of side x side unknowns, each joined to the neighbours within
// two rows and columns (a cloth's structural, shear and bending springs), plus a mass term:
// symmetric positive definite.
Eigen::SparseMatrix<double> sheetMatrix(int side) {
    std::vector<Eigen::Triplet<double>> entries;
    const auto id = [side](int i, int j) { return i * side + j; };
    for (int i = 0; i < side; ++i)
        for (int j = 0; j < side; ++j) {
            entries.emplace_back(id(i, j), id(i, j), 0.5);
            for (int di = -2; di <= 2; ++di)
                for (int dj = -2; dj <= 2; ++dj) {
                    const int k = i + di, l = j + dj;
                    if ((di == 0 && dj == 0) || k < 0 || l < 0 || k >= side || l >= side) continue;
                    const double w = 1.0 / (di * di + dj * dj);
                    entries.emplace_back(id(i, j), id(i, j), w);
                    entries.emplace_back(id(i, j), id(k, l), -w);
                }
        }
    Eigen::SparseMatrix<double> A(side * side, side * side);
    A.setFromTriplets(entries.begin(), entries.end());
    return A;
}

// Loads SimplicialLDLT's factor of A into the substitution.
void loadFactor(const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>& ldlt, Index n, LdltSubstitution& substitution) {
    const Eigen::SparseMatrix<double>& L = ldlt.matrixL().nestedExpression();
    std::vector<Index> start(1, 0);
    std::vector<std::int32_t> row;
    std::vector<double> value;
    for (Index j = 0; j < n; ++j) {
        for (Eigen::SparseMatrix<double>::InnerIterator it(L, j); it; ++it)
            if (it.row() > j) {
                row.push_back(static_cast<std::int32_t>(it.row()));
                value.push_back(it.value());
            }
        start.push_back(static_cast<Index>(row.size()));
    }
    substitution.set(n, start, row, value, ldlt.vectorD().cwiseInverse());
}

// Solves A X = B for three right-hand sides with the split substitution and checks it against
// Eigen's own solve; the split must balance the two sets and leave a small top.
void expectSolvesLikeEigen(int side, bool split) {
    const Eigen::SparseMatrix<double> A = sheetMatrix(side);
    const Index n = A.rows();
    const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(A);
    LdltSubstitution substitution;
    loadFactor(ldlt, n, substitution);
    const auto sizes = substitution.partSizes();
    if (split) {
        EXPECT_GT(sizes[0], n / 3);
        EXPECT_GT(sizes[1], n / 3);
        EXPECT_LT(sizes[2], n / 10);
    } else {
        EXPECT_EQ(sizes[2], n);
    }
    std::mt19937 random(7);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    Eigen::MatrixXd B(n, 3);
    for (Index i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c) B(i, c) = uniform(random);
    // The substitution works in the factor's order, 3 numbers per unknown.
    const auto& P = ldlt.permutationP();
    VecX b(3 * n);
    for (Index i = 0; i < n; ++i) b.segment<3>(3 * P.indices()[i]) = B.row(i).transpose();
    TwoWayParallel parallel;
    VecX first = b;
    substitution.solve(first, parallel);
    for (int c = 0; c < 3; ++c) {
        const VecX expected = ldlt.solve(VecX(B.col(c)));
        double worst = 0.0;
        for (Index i = 0; i < n; ++i) worst = std::max(worst, std::abs(first[3 * P.indices()[i] + c] - expected[i]));
        EXPECT_LT(worst, 1e-12 * expected.lpNorm<Eigen::Infinity>()) << "column " << c;
    }
    // The same bits every time, whichever thread took which set.
    for (int repeat = 0; repeat < 20; ++repeat) {
        VecX again = b;
        substitution.solve(again, parallel);
        ASSERT_EQ(again, first);
    }
}

TEST(LdltSubstitution, SmallSystemIsSolvedWhole) { expectSolvesLikeEigen(20, false); }

TEST(LdltSubstitution, BigSystemIsSplitIntoTwoBalancedSubtreesAndATop) { expectSolvesLikeEigen(64, true); }

}  // namespace
}  // namespace tinkerbox
