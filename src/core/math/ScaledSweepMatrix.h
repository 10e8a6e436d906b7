#pragma once
// The matrix SgsConjugateGradient iterates on, stored the way its sweeps read it.
//
// Scaling: J + M (J symmetric with Upper storage, M block-diagonal) is scaled by the Cholesky
// factors of its diagonal blocks, D_i = G_i G_i^T, to A~ = G^-1 (J + M) G^-T, whose diagonal
// blocks are the identity: A~ = I + L + U with L = U^T. Only U's blocks are stored.
//
// Order: from kSplitRows rows up, the rows are reordered into two parts that do not couple,
// followed by a separator (one level of nested dissection: George, Nested Dissection of a
// Regular Finite Element Mesh, SIAM J. Numer. Anal. 10(2), 1973). With the rows split at
// the middle, the separator is the first half's rows that couple to the second half; the first
// part is the rest of the first half, the second part the second half. Gauss-Seidel in this
// order sweeps the two parts at once, each on its own, and the separator after them (forwards)
// or before them (backwards): the same preconditioner as one whole sweep in that order, not an
// approximation of it. On a cloth the separator is a band of one or two rows of particles.
// The order depends on the pattern alone, never on threads or timing.
//
// Layout: the rows in sweep order, each with its blocks to later rows (U of the reordered
// matrix) in ascending columns, a block's 9 entries row by row; the blocks whose columns are
// separator rows come last in a row. The blocks are stored in single precision, each entry
// the nearest float to the scaled one: the sweeps stream about half the bytes, which on a
// 128 x 128 cloth, whose matrix does not fit the second-level caches, is most of their time
// (SgsConjugateGradient: what that does to the answer). Vectors in sweep order take four
// doubles per row, the fourth zero (Double4.h).
#include <cstdint>
#include <vector>

#include "core/math/BlockSparseMatrix.h"
#include "core/math/TwoWayParallel.h"

namespace tinkerbox {

class ScaledSweepMatrix {
public:
    static constexpr Index kSplitRows = 4096;

    // The rows first .. last - 1 in sweep order.
    struct Rows {
        Index first = 0, last = 0;
    };

    // Scales J + M (J with Upper storage); the blocks of fixed rows and columns are dropped
    // (left zero), and a fixed row's factor is the identity. The order is worked out again
    // only when J's pattern changes. The two parts are filled at once through parallel.
    void assign(const BlockSparseMatrix& J, const std::vector<Mat3>& mass, const std::vector<char>& fixed,
                TwoWayParallel& parallel);

    Index rows() const { return static_cast<Index>(order_.size()); }
    Rows firstPart() const { return {0, secondBegin_}; }
    Rows secondPart() const { return {secondBegin_, separatorBegin_}; }
    Rows separator() const { return {separatorBegin_, rows()}; }
    bool split() const { return separatorBegin_ < rows() || secondBegin_ < separatorBegin_; }
    // The original row at sweep row r.
    Index originalRow(Index r) const { return order_[r]; }
    // G_i and G_i^-1 of original row i.
    const Mat3& factor(Index i) const { return factor_[i]; }
    const Mat3& factorInverse(Index i) const { return factorInverse_[i]; }

    // Row r's blocks are rowStart()[r] .. rowStart()[r + 1] - 1; in a part's row, those from
    // separatorStart()[r] on have separator columns (in a separator row, separatorStart()[r] is
    // its end). Block k is blocks() + 9 k (floats), its column column()[k].
    const Index* rowStart() const { return rowStart_.data(); }
    const Index* separatorStart() const { return separatorStart_.data(); }
    const std::int32_t* column() const { return column_.data(); }
    const float* blocks() const { return blocks_.data(); }
    Index blockCount() const { return static_cast<Index>(column_.size()); }

private:
    void setOrder(const BlockSparseMatrix& J);
    void fillRows(const BlockSparseMatrix& J, const std::vector<char>& fixed, Rows rows);

    std::uint64_t patternId_ = 0;  // J's pattern the order was made for (0: none)
    std::vector<Index> order_;     // sweep row -> original row
    Index secondBegin_ = 0, separatorBegin_ = 0;
    std::vector<Index> rowStart_, separatorStart_;
    std::vector<std::int32_t> column_;
    std::vector<Index> source_;     // per block: J's block it is made from
    std::vector<char> transposed_;  // per block: stored as that block's transpose
    std::vector<float> blocks_;     // 9 per block, and a zero after the last
    std::vector<Mat3> factor_, factorInverse_;
};

}  // namespace tinkerbox
