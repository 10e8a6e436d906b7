// The implicit solver's matrix in sweep order: two parts that do not couple with a separator
// after them, holding G^-1 (J + M) G^-T.
#include "core/math/ScaledSweepMatrix.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/math/ScaledSystems.h"

namespace tinkerbox {
namespace {

// 0: first part, 1: second part, 2: separator.
int partOf(const ScaledSweepMatrix& m, Index r) {
    if (r < m.secondPart().first) return 0;
    return r < m.separator().first ? 1 : 2;
}

// A 32 x 32 cloth is one part; a 64 x 64 cloth (springs to the next row of particles) is split
// by a separator of about one row of 64 particles into parts of equal size; random springs
// need a separator of more than half the rows. In each, every row's blocks go to later rows of
// its own part or of the separator, the separator's only to the separator.
TEST(ScaledSweepMatrix, PartsDoNotCoupleAndTheSeparatorComesLast) {
    struct Case {
        test::ImplicitSystem system;
        bool split;
    };
    std::vector<Case> cases;
    cases.push_back({test::clothSystem(32), false});
    cases.push_back({test::clothSystem(64), true});
    cases.push_back({test::randomSystem(4200, 7), true});
    TwoWayParallel parallel;
    for (const Case& c : cases) {
        ScaledSweepMatrix m;
        m.assign(c.system.J, c.system.mass, c.system.fixed, parallel);
        const Index n = m.rows();
        ASSERT_EQ(n, c.system.J.blockRows());
        EXPECT_EQ(m.split(), c.split);
        std::vector<Index> original(n);
        for (Index r = 0; r < n; ++r) original[r] = m.originalRow(r);
        std::sort(original.begin(), original.end());
        for (Index r = 0; r < n; ++r) ASSERT_EQ(original[r], r);

        Index blocks = 0;
        for (Index r = 0; r < n; ++r) {
            for (Index k = m.rowStart()[r]; k < m.rowStart()[r + 1]; ++k) {
                const Index column = m.column()[k];
                EXPECT_GT(column, k > m.rowStart()[r] ? Index(m.column()[k - 1]) : r);
                const bool toSeparator = partOf(m, column) == 2;
                EXPECT_TRUE(partOf(m, column) == partOf(m, r) || toSeparator) << r << " " << column;
                EXPECT_EQ(k >= m.separatorStart()[r], toSeparator && partOf(m, r) != 2) << r << " " << column;
            }
            blocks += m.rowStart()[r + 1] - m.rowStart()[r];
        }
        EXPECT_EQ(blocks, c.system.J.storedBlocks() - n);  // every off-diagonal block of J, once
    }
    const ScaledSweepMatrix::Rows separator = [&] {
        ScaledSweepMatrix m;
        m.assign(cases[1].system.J, cases[1].system.mass, cases[1].system.fixed, parallel);
        EXPECT_LE(std::abs((m.firstPart().last - m.firstPart().first) - (m.secondPart().last - m.secondPart().first)),
                  1);
        return m.separator();
    }();
    EXPECT_GE(separator.last - separator.first, 64);
    EXPECT_LE(separator.last - separator.first, 66);
}

// (I + U + U^T) v from the stored blocks is G^-1 (J + M) G^-T v (fixed rows and columns
// dropped) to single precision's round-off (the blocks are floats), and the factors are the
// diagonal blocks' Cholesky factors to double precision's.
TEST(ScaledSweepMatrix, StoresTheScaledMatrixInSweepOrder) {
    std::vector<test::ImplicitSystem> systems;
    systems.push_back(test::clothSystem(32));
    systems.push_back(test::clothSystem(64));
    systems.push_back(test::randomSystem(4200, 7));
    TwoWayParallel parallel;
    for (const test::ImplicitSystem& s : systems) {
        ScaledSweepMatrix m;
        m.assign(s.J, s.mass, s.fixed, parallel);
        const test::ScaledReference reference(s, m);
        const Index n = m.rows();
        VecX v = VecX::Random(3 * n), expected;
        for (Index i = 0; i < n; ++i)
            if (s.fixed[i]) block3(v, i).setZero();
        reference.scaled.multiply(v, expected);

        VecX product = v;  // the identity diagonal
        for (Index r = 0; r < n; ++r) {
            const Index i = m.originalRow(r);
            for (Index k = m.rowStart()[r]; k < m.rowStart()[r + 1]; ++k) {
                const Index j = m.originalRow(m.column()[k]);
                const Mat3 block =
                    Eigen::Map<const Eigen::Matrix<float, 3, 3, Eigen::RowMajor>>(m.blocks() + 9 * k).cast<double>();
                // Each entry is the double one rounded to the nearest float.
                const Mat3 exact = reference.scaled.at(i, j);
                const auto error = (block - exact).array().abs();
                EXPECT_TRUE((error <= 0x1p-24 * exact.array().abs() + 1e-15 * exact.norm()).all()) << r << " " << k;
                block3(product, i) += block * block3(v, j);
                block3(product, j) += block.transpose() * block3(v, i);
            }
        }
        EXPECT_LT((product - expected).norm(), 1e-7 * expected.norm());

        for (Index i = 0; i < n; ++i) {
            const Mat3 diagonal = s.fixed[i] ? Mat3::Identity() : Mat3(s.J.diagonal(i) + s.mass[i]);
            EXPECT_LT((m.factor(i) * m.factor(i).transpose() - diagonal).norm(), 1e-14 * diagonal.norm());
            EXPECT_LT((m.factor(i) * m.factorInverse(i) - Mat3::Identity()).norm(), 1e-14);
        }
    }
}

}  // namespace
}  // namespace tinkerbox
