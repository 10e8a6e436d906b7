#include "core/math/ScaledSweepMatrix.h"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <algorithm>
#include <stdexcept>

namespace tinkerbox {

namespace {

// The rows of the first half (below split) with a block in the second half.
std::vector<Index> rowsCoupledAcross(const BlockSparseMatrix& J, Index split) {
    std::vector<Index> coupled;
    const auto& rowStart = J.rowStarts();
    const auto& column = J.columns();
    for (Index i = 0; i < split; ++i)
        if (rowStart[i + 1] > rowStart[i] && column[rowStart[i + 1] - 1] >= split) coupled.push_back(i);  // columns are sorted
    return coupled;
}

}  // namespace

void ScaledSweepMatrix::setOrder(const BlockSparseMatrix& J) {
    const Index n = J.blockRows();
    order_.resize(n);
    std::vector<Index> separatorRows;
    Index split = n;
    if (n >= kSplitRows) {
        // Split so that the two parts, not the two halves, have about as many rows.
        split = n / 2;
        split += static_cast<Index>(rowsCoupledAcross(J, split).size()) / 2;
        separatorRows = rowsCoupledAcross(J, split);
    }
    std::vector<char> inSeparator(n, 0);
    for (const Index i : separatorRows) inSeparator[i] = 1;
    Index r = 0;
    for (Index i = 0; i < split; ++i)
        if (!inSeparator[i]) order_[r++] = i;
    secondBegin_ = r;
    for (Index i = split; i < n; ++i) order_[r++] = i;
    separatorBegin_ = r;
    for (const Index i : separatorRows) order_[r++] = i;

    std::vector<Index> position(n);
    for (Index s = 0; s < n; ++s) position[order_[s]] = s;
    // Each off-diagonal block of J goes to the row of its end that comes first in sweep order.
    struct Entry {
        Index column, source;
        bool transposed;
    };
    std::vector<std::vector<Entry>> entries(n);
    const auto& rowStart = J.rowStarts();
    const auto& column = J.columns();
    for (Index i = 0; i < n; ++i)
        for (Index k = rowStart[i]; k < rowStart[i + 1]; ++k) {
            const Index j = column[k];
            if (j == i) continue;
            if (position[i] < position[j]) entries[position[i]].push_back({position[j], k, false});
            else entries[position[j]].push_back({position[i], k, true});
        }
    rowStart_.assign(n + 1, 0);
    separatorStart_.assign(n, 0);
    column_.clear();
    source_.clear();
    transposed_.clear();
    for (Index s = 0; s < n; ++s) {
        auto& row = entries[s];
        std::sort(row.begin(), row.end(), [](const Entry& a, const Entry& b) { return a.column < b.column; });
        rowStart_[s] = static_cast<Index>(column_.size());
        separatorStart_[s] = rowStart_[s];
        for (const Entry& e : row) {
            if (s >= separatorBegin_ || e.column < separatorBegin_) ++separatorStart_[s];
            column_.push_back(static_cast<std::int32_t>(e.column));
            source_.push_back(e.source);
            transposed_.push_back(e.transposed ? 1 : 0);
        }
    }
    rowStart_[n] = static_cast<Index>(column_.size());
    blocks_.assign(9 * column_.size() + 1, 0.0);  // the last block's last row is read as 4 doubles
    patternId_ = J.patternId();
}

void ScaledSweepMatrix::fillRows(const BlockSparseMatrix& J, const std::vector<char>& fixed, Rows rows) {
    for (Index r = rows.first; r < rows.last; ++r)
        for (Index k = rowStart_[r]; k < rowStart_[r + 1]; ++k) {
            // J's block (i, j), i <= j, scaled: G_i^-1 B G_j^-T; stored row by row as block (r, column)
            // of the reordered matrix, which is that or its transpose.
            const Index a = order_[r], b = order_[column_[k]];
            const Index i = transposed_[k] ? b : a, j = transposed_[k] ? a : b;
            Mat3 scaled = Mat3::Zero();
            if (!fixed[i] && !fixed[j]) scaled = factorInverse_[i] * J.value(source_[k]) * factorInverse_[j].transpose();
            // Eigen stores column by column: a matrix's rows are its transpose's columns.
            const Mat3 stored = transposed_[k] ? scaled : Mat3(scaled.transpose());
            std::copy(stored.data(), stored.data() + 9, blocks_.data() + 9 * k);
        }
}

void ScaledSweepMatrix::assign(const BlockSparseMatrix& J, const std::vector<Mat3>& mass, const std::vector<char>& fixed,
                               TwoWayParallel& parallel) {
    if (J.storage() != BlockSparseMatrix::Storage::Upper)
        throw std::invalid_argument("ScaledSweepMatrix: the matrix must have Upper storage");
    const Index n = J.blockRows();
    if (patternId_ == 0 || patternId_ != J.patternId() || rows() != n) setOrder(J);
    factor_.resize(n);
    factorInverse_.resize(n);
    const auto factorRows = [&](Rows rows) {
        for (Index r = rows.first; r < rows.last; ++r) {
            const Index i = order_[r];
            if (fixed[i]) {
                factor_[i].setIdentity();
                factorInverse_[i].setIdentity();
                continue;
            }
            const Mat3 diagonal = J.diagonal(i) + mass[i];
            factor_[i] = diagonal.llt().matrixL();
            factorInverse_[i] = factor_[i].inverse();
        }
    };
    // The first part and the separator on this thread, the second part on the other.
    const Rows first{0, secondBegin_}, second = secondPart(), last = separator();
    if (!split()) {
        factorRows({0, n});
        fillRows(J, fixed, {0, n});
        return;
    }
    parallel.run(
        [&] {
            factorRows(first);
            factorRows(last);
        },
        [&] { factorRows(second); });
    parallel.run(
        [&] {
            fillRows(J, fixed, first);
            fillRows(J, fixed, last);
        },
        [&] { fillRows(J, fixed, second); });
}

}  // namespace tinkerbox
