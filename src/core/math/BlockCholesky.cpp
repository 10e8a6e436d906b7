#include "core/math/BlockCholesky.h"

#include <algorithm>

#include <Eigen/Cholesky>
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>

namespace tinkerbox {

namespace {

// The inverse of a lower triangular L with a positive diagonal, column by column by forward
// substitution, written for fixed B (Eigen's triangular solve takes its general path here).
template <int B>
Eigen::Matrix<double, B, B> lowerInverse(const Eigen::Matrix<double, B, B>& L) {
    Eigen::Matrix<double, B, B> inverse = Eigen::Matrix<double, B, B>::Zero();
    for (int c = 0; c < B; ++c) {
        inverse(c, c) = 1.0 / L(c, c);
        for (int r = c + 1; r < B; ++r) {
            double sum = 0.0;
            for (int k = c; k < r; ++k) sum += L(r, k) * inverse(k, c);
            inverse(r, c) = -sum / L(r, r);
        }
    }
    return inverse;
}

// Where row r of column c is in a column's sorted rows (the diagonal first): r must be there.
std::int32_t find(const std::vector<Index>& start, const std::vector<std::int32_t>& row, Index r, Index c) {
    if (r == c) return static_cast<std::int32_t>(start[static_cast<std::size_t>(c)]);
    const auto first = row.begin() + start[static_cast<std::size_t>(c)] + 1;
    const auto last = row.begin() + start[static_cast<std::size_t>(c) + 1];
    return static_cast<std::int32_t>(std::lower_bound(first, last, static_cast<std::int32_t>(r)) - row.begin());
}

}  // namespace

template <int B>
void BlockCholesky<B>::analyze(Index blocks, std::vector<std::pair<Index, Index>> lower) {
    blocks_ = blocks;
    const auto n = static_cast<std::size_t>(blocks);
    for (auto& [i, j] : lower)
        if (i < j) std::swap(i, j);
    std::erase_if(lower, [](const std::pair<Index, Index>& p) { return p.first == p.second; });
    std::sort(lower.begin(), lower.end());
    lower.erase(std::unique(lower.begin(), lower.end()), lower.end());

    // The ordering, from the block graph.
    Eigen::SparseMatrix<double> graph(blocks, blocks);
    std::vector<Eigen::Triplet<double>> entries;
    for (Index i = 0; i < blocks; ++i) entries.emplace_back(i, i, 1.0);
    for (const auto& [i, j] : lower) entries.emplace_back(i, j, 1.0);
    graph.setFromTriplets(entries.begin(), entries.end());
    Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> order;
    Eigen::AMDOrdering<int>()(graph, order);  // order.indices()[new] = old
    original_.assign(n, 0);
    position_.assign(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
        original_[k] = order.indices()[static_cast<Index>(k)];
        position_[static_cast<std::size_t>(original_[k])] = static_cast<Index>(k);
    }

    // A's lower pattern in the new order, by rows and by columns.
    std::vector<std::vector<Index>> rowColumns(n), columnRows(n);
    for (const auto& [i, j] : lower) {
        const Index a = position_[static_cast<std::size_t>(i)], b = position_[static_cast<std::size_t>(j)];
        rowColumns[static_cast<std::size_t>(std::max(a, b))].push_back(std::min(a, b));
        columnRows[static_cast<std::size_t>(std::min(a, b))].push_back(std::max(a, b));
    }
    // The elimination tree (Liu 1990, algorithm 4.2, with path compression).
    std::vector<Index> parent(n, -1), ancestor(n, -1);
    for (std::size_t r = 0; r < n; ++r)
        for (Index k : rowColumns[r]) {
            while (ancestor[static_cast<std::size_t>(k)] >= 0 &&
                   ancestor[static_cast<std::size_t>(k)] != static_cast<Index>(r)) {
                const Index next = ancestor[static_cast<std::size_t>(k)];
                ancestor[static_cast<std::size_t>(k)] = static_cast<Index>(r);
                k = next;
            }
            if (ancestor[static_cast<std::size_t>(k)] < 0) {
                ancestor[static_cast<std::size_t>(k)] = static_cast<Index>(r);
                parent[static_cast<std::size_t>(k)] = static_cast<Index>(r);
            }
        }
    // L's columns: A's column and the children's columns below j.
    std::vector<std::vector<Index>> children(n), pattern(n);
    for (std::size_t j = 0; j < n; ++j)
        if (parent[j] >= 0) children[static_cast<std::size_t>(parent[j])].push_back(static_cast<Index>(j));
    start_.assign(1, 0);
    row_.clear();
    for (std::size_t j = 0; j < n; ++j) {
        std::vector<Index>& rows = pattern[j];
        rows = columnRows[j];
        for (const Index c : children[j])
            for (const Index r : pattern[static_cast<std::size_t>(c)])
                if (r > static_cast<Index>(j)) rows.push_back(r);
        std::sort(rows.begin(), rows.end());
        rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
        row_.push_back(static_cast<std::int32_t>(j));
        for (const Index r : rows) row_.push_back(static_cast<std::int32_t>(r));
        start_.push_back(static_cast<Index>(row_.size()));
    }
    factor_.assign(row_.size(), Block::Zero());
    pivotInverse_.assign(n, Block::Identity());

    // The updates: every pair of rows i >= j below the diagonal of a column k updates block
    // (i, j); listed by the column of their target, k ascending within it.
    std::vector<std::vector<Update>> updatesOf(n);
    for (std::size_t k = 0; k < n; ++k) {
        const Index first = start_[k] + 1, last = start_[k + 1];
        for (Index b = first; b < last; ++b)
            for (Index a = first; a <= b; ++a) {
                const Index i = row_[static_cast<std::size_t>(b)], j = row_[static_cast<std::size_t>(a)];
                updatesOf[static_cast<std::size_t>(j)].push_back(
                    {find(start_, row_, i, j), static_cast<std::int32_t>(b), static_cast<std::int32_t>(a)});
            }
    }
    updates_.clear();
    updateStart_.assign(1, 0);
    for (const std::vector<Update>& column : updatesOf) {
        updates_.insert(updates_.end(), column.begin(), column.end());
        updateStart_.push_back(static_cast<Index>(updates_.size()));
    }

    // A's slots.
    slotPair_.clear();
    for (Index i = 0; i < blocks; ++i) slotPair_.emplace_back(i, i);
    slotPair_.insert(slotPair_.end(), lower.begin(), lower.end());
    std::sort(slotPair_.begin(), slotPair_.end());
    slotTarget_.clear();
    slotTransposed_.clear();
    for (const auto& [i, j] : slotPair_) {
        const Index a = position_[static_cast<std::size_t>(i)], b = position_[static_cast<std::size_t>(j)];
        slotTarget_.push_back(a >= b ? find(start_, row_, a, b) : find(start_, row_, b, a));
        slotTransposed_.push_back(a < b ? 1 : 0);
    }
}

template <int B>
Index BlockCholesky<B>::slot(Index i, Index j) const {
    const auto found = std::lower_bound(slotPair_.begin(), slotPair_.end(), std::pair(i, j));
    return found != slotPair_.end() && *found == std::pair(i, j) ? found - slotPair_.begin() : -1;
}

template <int B>
bool BlockCholesky<B>::factorize(const std::vector<Block>& values) {
    std::fill(factor_.begin(), factor_.end(), Block::Zero());
    for (std::size_t s = 0; s < slotTarget_.size(); ++s) {
        Block& target = factor_[static_cast<std::size_t>(slotTarget_[s])];
        if (slotTransposed_[s]) target += values[s].transpose();
        else target += values[s];
    }
    for (std::size_t j = 0; j + 1 < start_.size(); ++j) {
        for (Index u = updateStart_[j]; u < updateStart_[j + 1]; ++u) {
            const Update& update = updates_[static_cast<std::size_t>(u)];
            factor_[static_cast<std::size_t>(update.target)].noalias() -=
                factor_[static_cast<std::size_t>(update.left)] *
                factor_[static_cast<std::size_t>(update.right)].transpose();
        }
        Block& pivot = factor_[static_cast<std::size_t>(start_[j])];
        const Eigen::LLT<Block> llt(pivot);
        if (llt.info() != Eigen::Success) return false;
        pivot = llt.matrixL();
        pivotInverse_[j] = lowerInverse(pivot);
        const Block right = pivotInverse_[j].transpose();
        for (Index k = start_[j] + 1; k < start_[j + 1]; ++k)
            factor_[static_cast<std::size_t>(k)] = factor_[static_cast<std::size_t>(k)] * right;
    }
    return true;
}

template <int B>
void BlockCholesky<B>::solve(VecX& x) const {
    using Vector = Eigen::Matrix<double, B, 1>;
    const auto part = [](auto& v, Index j) { return v.template segment<B>(B * j); };
    VecX y(x.size());
    for (Index b = 0; b < blocks_; ++b) part(y, position_[static_cast<std::size_t>(b)]) = part(x, b);
    for (Index j = 0; j < blocks_; ++j) {
        const Vector yj = pivotInverse_[static_cast<std::size_t>(j)] * part(y, j);
        part(y, j) = yj;
        for (Index k = start_[static_cast<std::size_t>(j)] + 1; k < start_[static_cast<std::size_t>(j) + 1]; ++k)
            part(y, row_[static_cast<std::size_t>(k)]) -= factor_[static_cast<std::size_t>(k)] * yj;
    }
    for (Index j = blocks_ - 1; j >= 0; --j) {
        Vector yj = part(y, j);
        for (Index k = start_[static_cast<std::size_t>(j)] + 1; k < start_[static_cast<std::size_t>(j) + 1]; ++k)
            yj -= factor_[static_cast<std::size_t>(k)].transpose() * part(y, row_[static_cast<std::size_t>(k)]);
        part(y, j) = pivotInverse_[static_cast<std::size_t>(j)].transpose() * yj;
    }
    for (Index b = 0; b < blocks_; ++b) part(x, b) = part(y, position_[static_cast<std::size_t>(b)]);
}

template class BlockCholesky<3>;
template class BlockCholesky<6>;

}  // namespace tinkerbox
