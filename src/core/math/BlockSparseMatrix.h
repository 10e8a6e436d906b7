#pragma once
// Square sparse matrix of 3x3 blocks in compressed-row form (one block row per
// particle). The pattern is fixed when the model's topology changes; values are
// refilled every step. Used for the force Jacobians dF/dx, dF/dv of the implicit
// solver (Baraff, Implicit Methods, SIGGRAPH 2001 notes: "entry ij nonzero iff the force on i depends on j").
#include <cstdint>
#include <utility>
#include <vector>

#include "core/math/Types.h"

namespace tinkerbox {

class TwoWayParallel;

class BlockSparseMatrix {
public:
    // Full: every block is stored. Upper: the matrix is symmetric; only blocks (i, j) with
    // j >= i are stored and block (j, i) is the transpose of block (i, j) (half the memory
    // and half the writes for the definite Jacobians, which are symmetric).
    enum class Storage { Full, Upper };

    BlockSparseMatrix() = default;

    // Diagonal blocks always exist; each coupling (i, j) creates blocks ij and ji
    // (only the upper one of the two with Upper storage).
    void setPattern(Index blockRows, const std::vector<std::pair<Index, Index>>& couplings,
                    Storage storage = Storage::Full);
    Storage storage() const { return storage_; }
    // Same pattern as another matrix, values zero.
    void copyPattern(const BlockSparseMatrix& other);

    Index blockRows() const { return blockRows_; }
    Index storedBlocks() const { return static_cast<Index>(values_.size()); }
    // Patterns made by the same setPattern call (or copies of it) share an id.
    bool samePattern(const BlockSparseMatrix& other) const { return patternId_ == other.patternId_; }
    std::uint64_t patternId() const { return patternId_; }
    // Row structure: the blocks of row i are rowStart(i) .. rowStart(i + 1) - 1, sorted by column.
    Index rowStart(Index i) const { return rowStart_[i]; }
    Index column(Index k) const { return column_[k]; }
    // Index of the first block of each row, and the columns, for kernels that walk the rows.
    const std::vector<Index>& rowStarts() const { return rowStart_; }
    const std::vector<std::int32_t>& columns() const { return column_; }
    Index diagonalIndex(Index i) const { return diagonal_[i]; }

    void setZero();
    // The same in two halves at once from kParallelZeroBlocks blocks up (the cloths'
    // Jacobians, every step: a 128 x 128 cloth's are 8 MB).
    void setZero(TwoWayParallel& parallel);
    static constexpr std::size_t kParallelZeroBlocks = 16384;
    // Position of block (i, j) in the value array, or -1 when it is not stored
    // (with Upper storage, blocks below the diagonal are never stored).
    Index find(Index i, Index j) const;
    // Block (i, j); it must be part of the pattern.
    Mat3& at(Index i, Index j);
    const Mat3& at(Index i, Index j) const;
    Mat3& value(Index k) { return values_[k]; }
    const Mat3& value(Index k) const { return values_[k]; }
    const Mat3& diagonal(Index i) const { return values_[diagonal_[i]]; }
    Mat3& diagonal(Index i) { return values_[diagonal_[i]]; }

    // y = A x
    void multiply(const VecX& x, VecX& y) const;
    // Dense copy, for tests and small problems.
    Eigen::MatrixXd toDense() const;

private:
    Index blockRows_ = 0;
    Storage storage_ = Storage::Full;
    std::uint64_t patternId_ = 0;       // 0: no pattern yet
    std::vector<Index> rowStart_;       // blockRows_ + 1 entries
    std::vector<std::int32_t> column_;  // block column of each stored block (32 bits: less to stream)
    std::vector<Index> diagonal_;       // index of block (i, i)
    std::vector<Mat3> values_;
};

}  // namespace tinkerbox
