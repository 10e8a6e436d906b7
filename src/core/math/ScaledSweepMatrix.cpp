#include "core/math/ScaledSweepMatrix.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tinkerbox {

namespace {

// The rows of the first half (below split) with a block in the second half.
std::vector<Index> rowsCoupledAcross(const BlockSparseMatrix& J, Index split) {
    std::vector<Index> coupled;
    const auto& rowStart = J.rowStarts();
    const auto& column = J.columns();
    for (Index i = 0; i < split; ++i)
        if (rowStart[i + 1] > rowStart[i] && column[rowStart[i + 1] - 1] >= split)
            coupled.push_back(i);  // columns are sorted
    return coupled;
}

// The lower triangular G with G G^T = D for a symmetric positive definite 3x3 D (Cholesky),
// and G^-1 (lower triangular too), written out.
void choleskyFactor(const Mat3& D, Mat3& G, Mat3& inverse) {
    const double g00 = std::sqrt(D(0, 0));
    const double g10 = D(1, 0) / g00, g20 = D(2, 0) / g00;
    const double g11 = std::sqrt(D(1, 1) - g10 * g10);
    const double g21 = (D(2, 1) - g20 * g10) / g11;
    const double g22 = std::sqrt(D(2, 2) - g20 * g20 - g21 * g21);
    G << g00, 0.0, 0.0, g10, g11, 0.0, g20, g21, g22;
    // Forward substitution on G X = I, column by column.
    const double i00 = 1.0 / g00, i11 = 1.0 / g11, i22 = 1.0 / g22;
    const double i10 = -g10 * i00 * i11;
    const double i21 = -g21 * i11 * i22;
    const double i20 = -(g20 * i00 + g21 * i10) * i22;
    inverse << i00, 0.0, 0.0, i10, i11, 0.0, i20, i21, i22;
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
    blocks_.assign(9 * column_.size() + 1, 0.0f);  // the last block's last row is read as 4 floats
    patternId_ = J.patternId();
}

void ScaledSweepMatrix::fillRows(const BlockSparseMatrix& J, const std::vector<char>& fixed, Rows rows) {
    for (Index r = rows.first; r < rows.last; ++r)
        for (Index k = rowStart_[r]; k < rowStart_[r + 1]; ++k) {
            // J's block (i, j), i <= j, scaled: S = G_i^-1 B G_j^-T (the factors' inverses are lower
            // triangular); stored row by row as block (r, column) of the reordered matrix, which is
            // S or its transpose. Written entry by entry where computed (a 3x3 temporary copied out
            // stalled on its loads).
            const Index a = order_[r], b = order_[column_[k]];
            const bool transposed = transposed_[k];
            const Index i = transposed ? b : a, j = transposed ? a : b;
            float* out = blocks_.data() + 9 * k;
            if (fixed[i] || fixed[j]) {
                std::fill(out, out + 9, 0.0f);
                continue;
            }
            const Mat3& Li = factorInverse_[i];
            const Mat3& Lj = factorInverse_[j];
            const Mat3& B = J.value(source_[k]);
            double P[3][3];  // G_i^-1 B
            for (int row = 0; row < 3; ++row)
                for (int c = 0; c < 3; ++c) {
                    double sum = 0.0;
                    for (int q = 0; q <= row; ++q) sum += Li(row, q) * B(q, c);
                    P[row][c] = sum;
                }
            for (int row = 0; row < 3; ++row)
                for (int c = 0; c < 3; ++c) {
                    double sum = 0.0;
                    for (int q = 0; q <= c; ++q) sum += P[row][q] * Lj(c, q);
                    out[transposed ? 3 * c + row : 3 * row + c] = static_cast<float>(sum);
                }
        }
}

void ScaledSweepMatrix::assign(const BlockSparseMatrix& J, const std::vector<Mat3>& mass,
                               const std::vector<char>& fixed, TwoWayParallel& parallel) {
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
            choleskyFactor(J.diagonal(i) + mass[i], factor_[i], factorInverse_[i]);
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
