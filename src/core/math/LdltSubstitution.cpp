#include "core/math/LdltSubstitution.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/math/Lanes.h"

namespace tinkerbox {

namespace {

constexpr int kTop = 2;

using Row4 = Lanes;  // one unknown's x, y, z and a zero
inline Eigen::Map<Row4> row4(double* v, Index unknown) { return Eigen::Map<Row4>(v + 4 * unknown); }

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
            if (work[static_cast<std::size_t>(frontier[k])] > work[static_cast<std::size_t>(frontier[heaviest])])
                heaviest = k;
        }
        const Index root = frontier[heaviest];
        if (2.0 * work[static_cast<std::size_t>(root)] <= total || children[static_cast<std::size_t>(root)].empty())
            break;
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

// The offset of column j's entries in a packed strictly lower triangle of width w.
constexpr int packedColumn(int w, int j) { return j * (w - 1) - j * (j - 1) / 2; }

// L z = b over one panel of width W: z of its columns from the triangle, stored as D^-1 z
// (what L^T x = D^-1 z starts from), then taken out of its rows: those of its own part in x,
// the others in `top` (numbered from topStart).
template <int W>
void forwardPanel(Index first, Index rows, Index ownRows, const std::int32_t* row, const double* values,
                  const double* inverseD, double* x, double* top, Index topStart) {
    Row4 z[W];
    for (int k = 0; k < W; ++k) z[k] = row4(x, first + k);
    for (int j = 0; j < W; ++j)
        for (int i = j + 1; i < W; ++i) z[i] = multiplyAdd(-values[packedColumn(W, j) + i - j - 1], z[j], z[i]);
    for (int k = 0; k < W; ++k) row4(x, first + k) = z[k] * inverseD[first + k];
    const double* l = values + W * (W - 1) / 2;
    const auto product = [&](const double* lr) {
        Row4 sum = lr[0] * z[0];
        for (int j = 1; j < W; ++j) sum = multiplyAdd(lr[j], z[j], sum);
        return sum;
    };
    Index i = 0;
    for (; i < ownRows; ++i, l += W) row4(x, row[i]) -= product(l);
    for (; i < rows; ++i, l += W) row4(top, row[i] - topStart) -= product(l);
}

// L^T x = y over one panel of width W: its columns' rows of L^T are dot products with the
// panel's rows (already final), then the triangle, last column first. Narrow panels keep two
// partial sums per column (even and odd rows) for more independent additions.
template <int W>
void backwardPanel(Index first, Index rows, const std::int32_t* row, const double* values, double* x) {
    constexpr int kSums = W <= 4 ? 2 : 1;
    Row4 sum[kSums][W];
    for (auto& s : sum)
        for (Row4& column : s) column.setZero();
    const double* l = values + W * (W - 1) / 2;
    Index i = 0;
    for (; i + kSums <= rows; i += kSums)
        for (int s = 0; s < kSums; ++s) {
            const Row4 xr = row4(x, row[i + s]);
            const double* lr = l + (i + s) * W;
            for (int j = 0; j < W; ++j) sum[s][j] = multiplyAdd(lr[j], xr, sum[s][j]);
        }
    for (; i < rows; ++i) {
        const Row4 xr = row4(x, row[i]);
        const double* lr = l + i * W;
        for (int j = 0; j < W; ++j) sum[0][j] = multiplyAdd(lr[j], xr, sum[0][j]);
    }
    Row4 solved[W];
    for (int k = W - 1; k >= 0; --k) {
        Row4 xk = row4(x, first + k) - sum[0][k];
        if constexpr (kSums == 2) xk -= sum[1][k];
        for (int i2 = k + 1; i2 < W; ++i2) xk = multiplyAdd(-values[packedColumn(W, k) + i2 - k - 1], solved[i2], xk);
        solved[k] = xk;
        row4(x, first + k) = xk;
    }
}

template <int... Widths>
void forwardDispatch(std::integer_sequence<int, Widths...>, int width, Index first, Index rows, Index ownRows,
                     const std::int32_t* row, const double* values, const double* inverseD, double* x, double* top,
                     Index topStart) {
    ((width == Widths + 1 ? forwardPanel<Widths + 1>(first, rows, ownRows, row, values, inverseD, x, top, topStart)
                          : void()),
     ...);
}

template <int... Widths>
void backwardDispatch(std::integer_sequence<int, Widths...>, int width, Index first, Index rows,
                      const std::int32_t* row, const double* values, double* x) {
    ((width == Widths + 1 ? backwardPanel<Widths + 1>(first, rows, row, values, x) : void()), ...);
}

constexpr auto kWidths = std::make_integer_sequence<int, LdltSubstitution::kPanelWidth>();

}  // namespace

void LdltSubstitution::set(Index unknowns, const std::vector<Index>& start, const std::vector<std::int32_t>& row,
                           const std::vector<double>& value, const VecX& inverseD) {
    assign(unknowns, start, row, value, inverseD, splitTree(unknowns, start, row));
}

void LdltSubstitution::set(Index unknowns, const std::vector<Index>& start, const std::vector<std::int32_t>& row,
                           const std::vector<double>& value, const VecX& inverseD, const std::array<Index, 2>& sets) {
    if (sets[0] < 0 || sets[1] < 0 || sets[0] + sets[1] > unknowns)
        throw std::invalid_argument("LdltSubstitution: the sets hold more unknowns than there are");
    std::vector<int> part(static_cast<std::size_t>(unknowns), kTop);
    std::fill(part.begin(), part.begin() + sets[0], 0);
    std::fill(part.begin() + sets[0], part.begin() + sets[0] + sets[1], 1);
    for (Index j = 0; j < sets[0] + sets[1]; ++j)
        for (Index k = start[static_cast<std::size_t>(j)]; k < start[static_cast<std::size_t>(j) + 1]; ++k) {
            const int other = part[static_cast<std::size_t>(row[static_cast<std::size_t>(k)])];
            if (other != kTop && other != part[static_cast<std::size_t>(j)])
                throw std::invalid_argument("LdltSubstitution: the two sets are coupled");
        }
    assign(unknowns, start, row, value, inverseD, part);
}

void LdltSubstitution::assign(Index unknowns, const std::vector<Index>& start, const std::vector<std::int32_t>& row,
                              const std::vector<double>& value, const VecX& inverseD, const std::vector<int>& part) {
    unknowns_ = unknowns;

    // Number the unknowns part by part, each part's in L's order.
    for (Part& p : parts_) p = Part{};
    for (Index j = 0; j < unknowns; ++j) ++parts_[static_cast<std::size_t>(part[static_cast<std::size_t>(j)])].count;
    parts_[1].first = parts_[0].count;
    parts_[kTop].first = parts_[1].first + parts_[1].count;
    const Index topStart = parts_[kTop].first;
    position_.assign(static_cast<std::size_t>(unknowns), 0);
    std::array<Index, 3> next{parts_[0].first, parts_[1].first, parts_[kTop].first};
    std::vector<Index> original(static_cast<std::size_t>(unknowns));  // per number here, L's
    for (Index j = 0; j < unknowns; ++j) {
        const Index here = next[static_cast<std::size_t>(part[static_cast<std::size_t>(j)])]++;
        position_[static_cast<std::size_t>(j)] = here;
        original[static_cast<std::size_t>(here)] = j;
    }
    inverseD_.resize(unknowns);
    for (Index j = 0; j < unknowns; ++j) inverseD_[position_[static_cast<std::size_t>(j)]] = inverseD[j];

    // L renumbered, by columns, rows ascending.
    std::vector<Index> columnStart(1, 0);
    std::vector<std::pair<std::int32_t, double>> entries;
    entries.reserve(value.size());
    for (Index c = 0; c < unknowns; ++c) {
        const auto j = static_cast<std::size_t>(original[static_cast<std::size_t>(c)]);
        const auto begin = static_cast<std::ptrdiff_t>(entries.size());
        for (Index k = start[j]; k < start[j + 1]; ++k)
            entries.emplace_back(
                static_cast<std::int32_t>(position_[static_cast<std::size_t>(row[static_cast<std::size_t>(k)])]),
                value[static_cast<std::size_t>(k)]);
        std::sort(entries.begin() + begin, entries.end());
        columnStart.push_back(static_cast<Index>(entries.size()));
    }
    const auto columnSize = [&](Index c) {
        return columnStart[static_cast<std::size_t>(c) + 1] - columnStart[static_cast<std::size_t>(c)];
    };
    const auto firstRow = [&](Index c) {
        return entries[static_cast<std::size_t>(columnStart[static_cast<std::size_t>(c)])].first;
    };

    std::vector<double> dense(static_cast<std::size_t>(unknowns), 0.0);  // one column of L at a time
    for (Part& p : parts_) {
        const Index end = p.first + p.count;
        for (Index c0 = p.first; c0 < end;) {
            // The supernode c0 .. c0 + width - 1 and the rows below it.
            std::vector<std::int32_t> below;
            for (Index k = columnStart[static_cast<std::size_t>(c0)]; k < columnStart[static_cast<std::size_t>(c0) + 1];
                 ++k)
                below.push_back(entries[static_cast<std::size_t>(k)].first);
            Index width = 1, stored = columnSize(c0);
            while (c0 + width < end && columnSize(c0 + width - 1) > 0 && firstRow(c0 + width - 1) == c0 + width) {
                const Index c = c0 + width;
                std::vector<std::int32_t> merged;
                std::vector<std::int32_t> own;
                for (Index k = columnStart[static_cast<std::size_t>(c)];
                     k < columnStart[static_cast<std::size_t>(c) + 1]; ++k)
                    own.push_back(entries[static_cast<std::size_t>(k)].first);
                std::set_union(below.begin() + 1, below.end(), own.begin(), own.end(), std::back_inserter(merged));
                const Index storedWith = (width + 1) * width / 2 + static_cast<Index>(merged.size()) * (width + 1);
                if (storedWith - (stored + columnSize(c)) > kRelaxedZeros) break;
                stored += columnSize(c);
                below = std::move(merged);
                ++width;
            }
            // Its panels.
            for (Index f = c0; f < c0 + width; f += kPanelWidth) {
                const int w = static_cast<int>(std::min<Index>(kPanelWidth, c0 + width - f));
                Panel panel;
                panel.first = static_cast<std::int32_t>(f);
                panel.width = w;
                panel.rowStart = static_cast<Index>(p.rows.size());
                panel.valueStart = static_cast<Index>(p.values.size());
                for (Index r = f + w; r < c0 + width; ++r) p.rows.push_back(static_cast<std::int32_t>(r));
                p.rows.insert(p.rows.end(), below.begin(), below.end());
                panel.rows = static_cast<Index>(p.rows.size()) - panel.rowStart;
                panel.ownRows = &p == &parts_[kTop] ? panel.rows
                                                    : std::count_if(p.rows.begin() + panel.rowStart, p.rows.end(),
                                                                    [&](std::int32_t r) { return r < topStart; });
                const auto column = [&](int j, bool fill) {
                    for (Index k = columnStart[static_cast<std::size_t>(f + j)];
                         k < columnStart[static_cast<std::size_t>(f + j) + 1]; ++k)
                        dense[static_cast<std::size_t>(entries[static_cast<std::size_t>(k)].first)] =
                            fill ? entries[static_cast<std::size_t>(k)].second : 0.0;
                };
                for (int j = 0; j < w; ++j) {
                    column(j, true);
                    for (int i = j + 1; i < w; ++i) p.values.push_back(dense[static_cast<std::size_t>(f + i)]);
                    column(j, false);
                }
                const Index rowValues = static_cast<Index>(p.values.size());
                p.values.resize(static_cast<std::size_t>(rowValues + panel.rows * w));
                for (int j = 0; j < w; ++j) {
                    column(j, true);
                    for (Index i = 0; i < panel.rows; ++i)
                        p.values[static_cast<std::size_t>(rowValues + i * w + j)] =
                            dense[static_cast<std::size_t>(p.rows[static_cast<std::size_t>(panel.rowStart + i)])];
                    column(j, false);
                }
                p.panels.push_back(panel);
            }
            c0 += width;
        }
    }
    for (VecX& updates : topUpdates_) updates = VecX::Zero(4 * parts_[kTop].count);
}

std::array<Index, 3> LdltSubstitution::partSizes() const {
    return {parts_[0].count, parts_[1].count, parts_[kTop].count};
}

void LdltSubstitution::forward(const Part& part, double* b, double* topUpdates) const {
    for (const Panel& panel : part.panels)
        forwardDispatch(kWidths, panel.width, panel.first, panel.rows, panel.ownRows, part.rows.data() + panel.rowStart,
                        part.values.data() + panel.valueStart, inverseD_.data(), b, topUpdates, parts_[kTop].first);
}

void LdltSubstitution::backward(const Part& part, double* b) const {
    for (auto panel = part.panels.rbegin(); panel != part.panels.rend(); ++panel)
        backwardDispatch(kWidths, panel->width, panel->first, panel->rows, part.rows.data() + panel->rowStart,
                         part.values.data() + panel->valueStart, b);
}

void LdltSubstitution::forwardSet(int s, VecX& b) {
    VecX& updates = topUpdates_[static_cast<std::size_t>(s)];
    updates.setZero();
    forward(parts_[static_cast<std::size_t>(s)], b.data(), updates.data());
}

void LdltSubstitution::solveTop(VecX& b) {
    const Part& top = parts_[kTop];
    if (parts_[0].count > 0 || parts_[1].count > 0)
        for (const VecX& updates : topUpdates_) b.segment(4 * top.first, 4 * top.count) += updates;
    forward(top, b.data(), nullptr);
    backward(top, b.data());
}

void LdltSubstitution::backwardSet(int s, VecX& b) { backward(parts_[static_cast<std::size_t>(s)], b.data()); }

void LdltSubstitution::solve(VecX& b, TwoWayParallel& parallel, const RowRange& fill, const RowRange& done) {
    const Part& top = parts_[kTop];
    const auto call = [](const RowRange& rows, Index first, Index last) {
        if (rows && first < last) rows(first, last);
    };
    if (parts_[0].count == 0 && parts_[1].count == 0) {
        call(fill, 0, unknowns_);
        solveTop(b);
        call(done, 0, unknowns_);
        return;
    }
    // Set s's thread takes the top's rows topRows[s] .. topRows[s + 1] - 1.
    const std::array<Index, 3> topRows{top.first, top.first + top.count / 2, top.first + top.count};
    const auto forwardOn = [&](int s) {
        const auto [first, last] = rows(s);
        call(fill, first, last);
        call(fill, topRows[static_cast<std::size_t>(s)], topRows[static_cast<std::size_t>(s) + 1]);
        forwardSet(s, b);
    };
    parallel.run([&] { forwardOn(0); }, [&] { forwardOn(1); });
    solveTop(b);
    const auto backwardOn = [&](int s) {
        backwardSet(s, b);
        const auto [first, last] = rows(s);
        call(done, first, last);
        call(done, topRows[static_cast<std::size_t>(s)], topRows[static_cast<std::size_t>(s) + 1]);
    };
    parallel.run([&] { backwardOn(0); }, [&] { backwardOn(1); });
}

}  // namespace tinkerbox
