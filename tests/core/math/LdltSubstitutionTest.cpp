#include "core/math/LdltSubstitution.h"

#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>
#include <random>

namespace tinkerbox {
namespace {

using SparseMatrix = Eigen::SparseMatrix<double>;

// The system of a square sheet of side x side unknowns, each joined to the neighbours within
// two rows and columns (a cloth's structural, shear and bending springs) with random
// stiffnesses, plus a mass term: symmetric positive definite.
SparseMatrix sheetMatrix(int side, std::mt19937& random) {
    std::uniform_real_distribution<double> stiffness(0.5, 2.0);
    std::vector<Eigen::Triplet<double>> entries;
    const auto id = [side](int i, int j) { return i * side + j; };
    for (int i = 0; i < side; ++i)
        for (int j = 0; j < side; ++j) {
            entries.emplace_back(id(i, j), id(i, j), 0.5);
            for (int di = 0; di <= 2; ++di)
                for (int dj = -2; dj <= 2; ++dj) {
                    const int k = i + di, l = j + dj;
                    if ((di == 0 && dj <= 0) || l < 0 || k >= side || l >= side) continue;
                    const double w = stiffness(random) / (di * di + dj * dj);
                    entries.emplace_back(id(i, j), id(i, j), w);
                    entries.emplace_back(id(k, l), id(k, l), w);
                    entries.emplace_back(id(i, j), id(k, l), -w);
                    entries.emplace_back(id(k, l), id(i, j), -w);
                }
        }
    SparseMatrix A(side * side, side * side);
    A.setFromTriplets(entries.begin(), entries.end());
    return A;
}

// A random symmetric positive definite matrix: `couplings` random off-diagonal pairs per
// unknown, made diagonally dominant.
SparseMatrix randomMatrix(int n, int couplings, std::mt19937& random) {
    std::uniform_int_distribution<int> other(0, n - 1);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<Eigen::Triplet<double>> entries;
    for (int i = 0; i < n; ++i) {
        entries.emplace_back(i, i, 0.1);
        for (int c = 0; c < couplings; ++c) {
            const int k = other(random);
            if (k == i) continue;
            const double w = uniform(random);
            entries.emplace_back(i, i, std::abs(w));
            entries.emplace_back(k, k, std::abs(w));
            entries.emplace_back(i, k, w);
            entries.emplace_back(k, i, w);
        }
    }
    SparseMatrix A(n, n);
    A.setFromTriplets(entries.begin(), entries.end());
    return A;
}

// A dense symmetric positive definite matrix: one supernode wider than a panel.
SparseMatrix denseMatrix(int n, std::mt19937& random) {
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    Eigen::MatrixXd B(n, n);
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < n; ++j) B(i, j) = uniform(random);
    const Eigen::MatrixXd A = B * B.transpose() + Eigen::MatrixXd::Identity(n, n);
    return A.sparseView();
}

// A chain: every column a supernode of its own unless relaxed.
SparseMatrix chainMatrix(int n) {
    std::vector<Eigen::Triplet<double>> entries;
    for (int i = 0; i < n; ++i) {
        entries.emplace_back(i, i, 2.5);
        if (i + 1 < n) {
            entries.emplace_back(i, i + 1, -1.0);
            entries.emplace_back(i + 1, i, -1.0);
        }
    }
    SparseMatrix A(n, n);
    A.setFromTriplets(entries.begin(), entries.end());
    return A;
}

// Loads SimplicialLDLT's factor of A into the substitution, split its own way or as given.
template <class Ldlt>
void loadFactor(const Ldlt& ldlt, Index n, LdltSubstitution& substitution, const std::array<Index, 2>* sets = nullptr) {
    const SparseMatrix& L = ldlt.matrixL().nestedExpression();
    std::vector<Index> start(1, 0);
    std::vector<std::int32_t> row;
    std::vector<double> value;
    for (Index j = 0; j < n; ++j) {
        for (SparseMatrix::InnerIterator it(L, j); it; ++it)
            if (it.row() > j) {
                row.push_back(static_cast<std::int32_t>(it.row()));
                value.push_back(it.value());
            }
        start.push_back(static_cast<Index>(row.size()));
    }
    if (sets) substitution.set(n, start, row, value, ldlt.vectorD().cwiseInverse(), *sets);
    else substitution.set(n, start, row, value, ldlt.vectorD().cwiseInverse());
}

enum class Split { Expected, None, Any };

// Solves A X = B for three right-hand sides with the substitution and checks it against
// Eigen's own solve to 1e-12; a split must balance the two sets and leave a small top.
void expectSolvesLikeEigen(const SparseMatrix& A, Split split) {
    const Index n = A.rows();
    const Eigen::SimplicialLDLT<SparseMatrix> ldlt(A);
    ASSERT_EQ(ldlt.info(), Eigen::Success);
    LdltSubstitution substitution;
    loadFactor(ldlt, n, substitution);
    const auto sizes = substitution.partSizes();
    if (split == Split::Expected) {
        EXPECT_GT(sizes[0], n / 3);
        EXPECT_GT(sizes[1], n / 3);
        EXPECT_LT(sizes[2], n / 10);
    } else if (split == Split::None) {
        EXPECT_EQ(sizes[2], n);
    }
    std::mt19937 random(7);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    Eigen::MatrixXd B(n, 3);
    for (Index i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c) B(i, c) = uniform(random);
    // The substitution works on 4 numbers per unknown (the fourth 0) at its positions, which
    // number the factor's unknowns (P's order) anew.
    const auto& P = ldlt.permutationP();
    const auto row = [&](Index i) { return 4 * substitution.position(P.indices()[i]); };
    VecX b = VecX::Zero(4 * n);
    for (Index i = 0; i < n; ++i) b.segment<3>(row(i)) = B.row(i).transpose();
    TwoWayParallel parallel;
    VecX first = b;
    substitution.solve(first, parallel);
    for (int c = 0; c < 3; ++c) {
        const VecX expected = ldlt.solve(VecX(B.col(c)));
        double worst = 0.0;
        for (Index i = 0; i < n; ++i) worst = std::max(worst, std::abs(first[row(i) + c] - expected[i]));
        EXPECT_LT(worst, 1e-12 * expected.lpNorm<Eigen::Infinity>()) << "column " << c;
    }
    for (Index i = 0; i < n; ++i) EXPECT_EQ(first[row(i) + 3], 0.0);
    // The same bits every time, whichever thread took which set.
    for (int repeat = 0; repeat < 20; ++repeat) {
        VecX again = b;
        substitution.solve(again, parallel);
        ASSERT_EQ(again, first);
    }
}

TEST(LdltSubstitution, SmallSheetIsSolvedWhole) {
    std::mt19937 random(1);
    expectSolvesLikeEigen(sheetMatrix(20, random), Split::None);
}

TEST(LdltSubstitution, BigSheetIsSplitIntoTwoBalancedSubtreesAndATop) {
    std::mt19937 random(2);
    expectSolvesLikeEigen(sheetMatrix(64, random), Split::Expected);
}

TEST(LdltSubstitution, RandomSparseSystems) {
    std::mt19937 random(3);
    for (const int n : {1, 2, 9, 300}) expectSolvesLikeEigen(randomMatrix(n, 2, random), Split::None);
    expectSolvesLikeEigen(randomMatrix(3000, 1, random), Split::Any);
}

TEST(LdltSubstitution, DenseSystemWiderThanAPanel) {
    std::mt19937 random(4);
    for (const int n : {LdltSubstitution::kPanelWidth - 1, 3 * LdltSubstitution::kPanelWidth + 5})
        expectSolvesLikeEigen(denseMatrix(n, random), Split::None);
}

TEST(LdltSubstitution, ChainOfRelaxedSupernodes) { expectSolvesLikeEigen(chainMatrix(100), Split::None); }

// A sheet numbered as one level of nested dissection by hand: the rows of unknowns above a
// band, those below it, then the band. With a band of two rows (the sheet couples rows two
// apart) the split is taken as given and solves as Eigen does, the same bits every time; with
// a band of one row the sets are coupled, and it is refused.
TEST(LdltSubstitution, GivenSplitIsTakenAndACoupledOneRefused) {
    constexpr int kSide = 48;
    std::mt19937 random(5);
    const SparseMatrix A = sheetMatrix(kSide, random);
    const Index n = A.rows();
    for (const int band : {2, 1}) {
        const int above = (kSide - band) / 2;  // rows 0 .. above - 1; the band; the rest
        Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> P(n);
        std::array<Index, 3> next{0, above * kSide, (kSide - band) * kSide};
        for (int i = 0; i < kSide; ++i)
            for (int j = 0; j < kSide; ++j)
                P.indices()[i * kSide + j] = static_cast<int>(next[i < above ? 0 : i >= above + band ? 1 : 2]++);
        SparseMatrix B(n, n);
        B = A.selfadjointView<Eigen::Lower>().twistedBy(P);
        const Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower, Eigen::NaturalOrdering<int>> ldlt(B);
        ASSERT_EQ(ldlt.info(), Eigen::Success);
        const std::array<Index, 2> sets{above * kSide, (kSide - band - above) * kSide};
        LdltSubstitution substitution;
        if (band == 1) {
            EXPECT_THROW(loadFactor(ldlt, n, substitution, &sets), std::invalid_argument);
            continue;
        }
        loadFactor(ldlt, n, substitution, &sets);
        EXPECT_EQ(substitution.partSizes(), (std::array<Index, 3>{sets[0], sets[1], band * kSide}));
        std::uniform_real_distribution<double> uniform(-1.0, 1.0);
        Eigen::MatrixXd rhs(n, 3);
        VecX b = VecX::Zero(4 * n);
        for (Index i = 0; i < n; ++i)
            for (int c = 0; c < 3; ++c) b[4 * substitution.position(i) + c] = rhs(i, c) = uniform(random);
        TwoWayParallel parallel;
        VecX first = b;
        substitution.solve(first, parallel);
        for (int c = 0; c < 3; ++c) {
            const VecX expected = ldlt.solve(VecX(rhs.col(c)));
            for (Index i = 0; i < n; ++i)
                ASSERT_NEAR(first[4 * substitution.position(i) + c], expected[i],
                            1e-12 * expected.lpNorm<Eigen::Infinity>());
        }
        for (int repeat = 0; repeat < 20; ++repeat) {
            VecX again = b;
            substitution.solve(again, parallel);
            ASSERT_EQ(again, first);
        }
    }
}

}  // namespace
}  // namespace tinkerbox
