#include "core/math/LdltSubstitution.h"

#include <algorithm>

namespace tinkerbox {

namespace {

constexpr int kTop = 2;

// Which part each unknown belongs to: 0 or 1 (the two sets of subtrees) or kTop.
std::vector<int> splitTree(Index n, const std::vector<Index>& start, const std::vector<std::int32_t>& row) {
    std::vector<int> part(static_cast<std::size_t>(n), kTop);
    if (n < LdltSubstitution::kSplitUnknowns) return part;
    std::vector<Index> parent(static_cast<std::size_t>(n), -1);
    std::vector<double> work(static_cast<std::size_t>(n));  // of each subtree: its entries and diagonals
    std::vector<std::vector<Index>> children(static_cast<std::size_t>(n));
    std::vector<Index> frontier;  // roots of the subtrees not yet put in the top
    for (Index j = 0; j < n; ++j) {
        const auto u = static_cast<std::size_t>(j);
        work[u] += 1.0 + static_cast<double>(start[u + 1] - start[u]);
        if (start[u] < start[u + 1]) {
            parent[u] = row[static_cast<std::size_t>(start[u])];
            work[static_cast<std::size_t>(parent[u])] += work[u];  // the parent comes later
            children[static_cast<std::size_t>(parent[u])].push_back(j);
        } else {
            frontier.push_back(j);
        }
    }
    // While one subtree holds more than half of the work, its root goes to the top and its
    // children take its place: then two sets can be balanced.
    std::vector<int> isTop(static_cast<std::size_t>(n), 0);
    for (;;) {
        double total = 0.0;
        std::size_t heaviest = 0;
        for (std::size_t k = 0; k < frontier.size(); ++k) {
            total += work[static_cast<std::size_t>(frontier[k])];
            if (work[static_cast<std::size_t>(frontier[k])] > work[static_cast<std::size_t>(frontier[heaviest])]) heaviest = k;
        }
        const Index root = frontier[heaviest];
        if (2.0 * work[static_cast<std::size_t>(root)] <= total || children[static_cast<std::size_t>(root)].empty()) break;
        isTop[static_cast<std::size_t>(root)] = 1;
        frontier.erase(frontier.begin() + static_cast<std::ptrdiff_t>(heaviest));
        frontier.insert(frontier.end(), children[static_cast<std::size_t>(root)].begin(),
                        children[static_cast<std::size_t>(root)].end());
    }
    // Heaviest first, each to the lighter set (ties by index: the split is deterministic).
    std::sort(frontier.begin(), frontier.end(), [&](Index a, Index b) {
        const double wa = work[static_cast<std::size_t>(a)], wb = work[static_cast<std::size_t>(b)];
        return wa != wb ? wa > wb : a < b;
    });
    std::vector<int> assigned(static_cast<std::size_t>(n), -1);
    double load[2] = {0.0, 0.0};
    for (const Index root : frontier) {
        const int set = load[1] < load[0] ? 1 : 0;
        assigned[static_cast<std::size_t>(root)] = set;
        load[set] += work[static_cast<std::size_t>(root)];
    }
    // Every other unknown is in its parent's part (parents come later).
    for (Index j = n - 1; j >= 0; --j) {
        const auto u = static_cast<std::size_t>(j);
        if (isTop[u]) part[u] = kTop;
        else if (assigned[u] >= 0) part[u] = assigned[u];
        else part[u] = part[static_cast<std::size_t>(parent[u])];
    }
    return part;
}

}  // namespace

void LdltSubstitution::set(Index unknowns, const std::vector<Index>& start, const std::vector<std::int32_t>& row,
                           const std::vector<double>& value, const VecX& inverseD) {
    unknowns_ = unknowns;
    inverseD_ = inverseD;
    const std::vector<int> part = splitTree(unknowns, start, row);
    for (Part& p : parts_) p = Part{};
    for (Index j = 0; j < unknowns; ++j) {
        Part& p = parts_[static_cast<std::size_t>(part[static_cast<std::size_t>(j)])];
        p.columns.push_back(static_cast<std::int32_t>(j));
        for (Index k = start[static_cast<std::size_t>(j)]; k < start[static_cast<std::size_t>(j) + 1]; ++k) {
            const std::int32_t r = row[static_cast<std::size_t>(k)];
            // A row is an ancestor: in the column's own set or in the top.
            Entries& entries = part[static_cast<std::size_t>(r)] == part[static_cast<std::size_t>(j)] ? p.own : p.top;
            entries.row.push_back(r);
            entries.value.push_back(value[static_cast<std::size_t>(k)]);
        }
        p.own.start.push_back(static_cast<Index>(p.own.row.size()));
        p.top.start.push_back(static_cast<Index>(p.top.row.size()));
    }
    for (VecX& updates : topUpdates_) updates = VecX::Zero(3 * unknowns);
}

std::array<Index, 3> LdltSubstitution::partSizes() const {
    return {static_cast<Index>(parts_[0].columns.size()), static_cast<Index>(parts_[1].columns.size()),
            static_cast<Index>(parts_[2].columns.size())};
}

void LdltSubstitution::subtractColumn(const Entries& entries, std::size_t c, const double z[3], double* __restrict out) {
    for (Index k = entries.start[c]; k < entries.start[c + 1]; ++k) {
        double* o = out + 3 * static_cast<Index>(entries.row[static_cast<std::size_t>(k)]);
        const double l = entries.value[static_cast<std::size_t>(k)];
        o[0] -= l * z[0];
        o[1] -= l * z[1];
        o[2] -= l * z[2];
    }
}

void LdltSubstitution::addColumnProduct(const Entries& entries, std::size_t c, const double* __restrict x, double sum[3]) {
    for (Index k = entries.start[c]; k < entries.start[c + 1]; ++k) {
        const double* xr = x + 3 * static_cast<Index>(entries.row[static_cast<std::size_t>(k)]);
        const double l = entries.value[static_cast<std::size_t>(k)];
        sum[0] += l * xr[0];
        sum[1] += l * xr[1];
        sum[2] += l * xr[2];
    }
}

// L z = b over a part's columns: once z_j is final, its part is taken out of the rows below
// (the part's own in v, the top's in `top`).
void LdltSubstitution::forward(const Part& part, double* v, double* top) {
    for (std::size_t c = 0; c < part.columns.size(); ++c) {
        const Index j = part.columns[c];
        const double z[3] = {v[3 * j], v[3 * j + 1], v[3 * j + 2]};
        subtractColumn(part.own, c, z, v);
        subtractColumn(part.top, c, z, top);
    }
}

// L^T x = z over a part's columns, last first: column j of L is row j of L^T.
void LdltSubstitution::backward(const Part& part, double* v) {
    for (std::size_t c = part.columns.size(); c-- > 0;) {
        const Index j = part.columns[c];
        double sum[3] = {0.0, 0.0, 0.0};
        addColumnProduct(part.own, c, v, sum);
        addColumnProduct(part.top, c, v, sum);
        v[3 * j] -= sum[0];
        v[3 * j + 1] -= sum[1];
        v[3 * j + 2] -= sum[2];
    }
}

void LdltSubstitution::solve(VecX& b, TwoWayParallel& parallel) {
    double* v = b.data();
    const Part& top = parts_[kTop];
    if (parts_[0].columns.empty() && parts_[1].columns.empty()) {
        forward(top, v, nullptr);
    } else {
        for (VecX& updates : topUpdates_)
            for (const std::int32_t j : top.columns) updates.segment<3>(3 * static_cast<Index>(j)).setZero();
        parallel.run([&] { forward(parts_[0], v, topUpdates_[0].data()); },
                     [&] { forward(parts_[1], v, topUpdates_[1].data()); });
        for (const VecX& updates : topUpdates_)
            for (const std::int32_t j : top.columns) b.segment<3>(3 * static_cast<Index>(j)) += updates.segment<3>(3 * static_cast<Index>(j));
        forward(top, v, nullptr);
    }
    for (Index j = 0; j < unknowns_; ++j)
        for (int c = 0; c < 3; ++c) v[3 * j + c] *= inverseD_[j];
    backward(top, v);
    if (!parts_[0].columns.empty() || !parts_[1].columns.empty())
        parallel.run([&] { backward(parts_[0], v); }, [&] { backward(parts_[1], v); });
}

}  // namespace tinkerbox
