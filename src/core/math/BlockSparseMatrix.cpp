#include "core/math/BlockSparseMatrix.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <limits>
#include <stdexcept>

#include "core/math/TwoWayParallel.h"

namespace tinkerbox {

namespace {
std::atomic<std::uint64_t> nextPatternId{1};
}  // namespace

void BlockSparseMatrix::setPattern(Index blockRows, const std::vector<std::pair<Index, Index>>& couplings,
                                   Storage storage) {
    if (blockRows > std::numeric_limits<std::int32_t>::max())
        throw std::length_error("BlockSparseMatrix: too many block rows for 32-bit columns");
    blockRows_ = blockRows;
    storage_ = storage;
    patternId_ = nextPatternId++;
    std::vector<std::vector<Index>> columns(blockRows);
    for (Index i = 0; i < blockRows; ++i) columns[i].push_back(i);
    for (const auto& [i, j] : couplings) {
        if (i < 0 || j < 0 || i >= blockRows || j >= blockRows)
            throw std::out_of_range("BlockSparseMatrix: coupling outside the matrix");
        if (i == j) continue;
        if (storage == Storage::Upper) {
            columns[std::min(i, j)].push_back(std::max(i, j));
        } else {
            columns[i].push_back(j);
            columns[j].push_back(i);
        }
    }
    rowStart_.assign(blockRows + 1, 0);
    column_.clear();
    diagonal_.assign(blockRows, 0);
    for (Index i = 0; i < blockRows; ++i) {
        auto& c = columns[i];
        std::sort(c.begin(), c.end());
        c.erase(std::unique(c.begin(), c.end()), c.end());
        rowStart_[i] = static_cast<Index>(column_.size());
        for (Index j : c) {
            if (j == i) diagonal_[i] = static_cast<Index>(column_.size());
            column_.push_back(static_cast<std::int32_t>(j));
        }
    }
    rowStart_[blockRows] = static_cast<Index>(column_.size());
    values_.assign(column_.size(), Mat3::Zero());
}

void BlockSparseMatrix::copyPattern(const BlockSparseMatrix& other) {
    blockRows_ = other.blockRows_;
    storage_ = other.storage_;
    patternId_ = other.patternId_;
    rowStart_ = other.rowStart_;
    column_ = other.column_;
    diagonal_ = other.diagonal_;
    values_.assign(column_.size(), Mat3::Zero());
}

void BlockSparseMatrix::setZero() { std::fill(values_.begin(), values_.end(), Mat3::Zero()); }

void BlockSparseMatrix::setZero(TwoWayParallel& parallel) {
    if (values_.size() < kParallelZeroBlocks) {
        setZero();
        return;
    }
    const auto middle = values_.begin() + static_cast<std::ptrdiff_t>(values_.size() / 2);
    parallel.run([&] { std::fill(values_.begin(), middle, Mat3::Zero()); },
                 [&] { std::fill(middle, values_.end(), Mat3::Zero()); });
}

Index BlockSparseMatrix::find(Index i, Index j) const {
    if (i < 0 || i >= blockRows_) return -1;
    const auto first = column_.begin() + rowStart_[i];
    const auto last = column_.begin() + rowStart_[i + 1];
    const auto it = std::lower_bound(first, last, static_cast<std::int32_t>(j));
    if (it == last || *it != j) return -1;
    return static_cast<Index>(it - column_.begin());
}

Mat3& BlockSparseMatrix::at(Index i, Index j) {
    const Index k = find(i, j);
    if (k < 0) throw std::out_of_range("BlockSparseMatrix: block not in pattern");
    return values_[k];
}

const Mat3& BlockSparseMatrix::at(Index i, Index j) const {
    const Index k = find(i, j);
    if (k < 0) throw std::out_of_range("BlockSparseMatrix: block not in pattern");
    return values_[k];
}

void BlockSparseMatrix::multiply(const VecX& x, VecX& y) const {
    assert(x.size() == 3 * blockRows_);
    y.setZero(3 * blockRows_);
    for (Index i = 0; i < blockRows_; ++i) {
        const Vec3 xi = block3(x, i);
        Vec3 sum = Vec3::Zero();
        for (Index k = rowStart_[i]; k < rowStart_[i + 1]; ++k) {
            const Index j = column_[k];
            sum.noalias() += values_[k] * block3(x, j);
            if (storage_ == Storage::Upper && j != i) block3(y, j).noalias() += values_[k].transpose() * xi;
        }
        block3(y, i) += sum;
    }
}

Eigen::MatrixXd BlockSparseMatrix::toDense() const {
    Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(3 * blockRows_, 3 * blockRows_);
    for (Index i = 0; i < blockRows_; ++i)
        for (Index k = rowStart_[i]; k < rowStart_[i + 1]; ++k) {
            const Index j = column_[k];
            dense.block<3, 3>(3 * i, 3 * j) = values_[k];
            if (storage_ == Storage::Upper && j != i) dense.block<3, 3>(3 * j, 3 * i) = values_[k].transpose();
        }
    return dense;
}

}  // namespace tinkerbox
