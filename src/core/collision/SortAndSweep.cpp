#include "core/collision/SortAndSweep.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

namespace tinkerbox {
namespace {

// Another axis replaces the one swept only when its centres' variance is this many times
// that of the current one: near a tie the axes would otherwise trade places, each change a
// full sort.
constexpr double kAxisSwitchRatio = 2.0;

// The sweep tests this many boxes at once (one bit each of a 64-bit mask).
constexpr std::size_t kBlock = 64;

// The order of lower endpoints; a NaN (a body gone bad) sorts last, so that the order is
// a strict weak one whatever the bounds hold.
double sortKey(double lo) { return std::isnan(lo) ? std::numeric_limits<double>::infinity() : lo; }

// The nearest float at or below x, and at or above (NaN stays NaN).
float roundDown(double x) {
    const float f = static_cast<float>(x);
    return f > x ? std::nextafter(f, -std::numeric_limits<float>::infinity()) : f;
}
float roundUp(double x) {
    const float f = static_cast<float>(x);
    return f < x ? std::nextafter(f, std::numeric_limits<float>::infinity()) : f;
}

// Insertion sort by key: O(n + moves), the moves being the pairs out of order (Baraff's
// coherence: between steps only neighbours trade places). Stable, so equal keys keep the
// order they had.
template <class T, class Key>
long insertionSort(std::vector<T>& items, Key key) {
    long moves = 0;
    for (std::size_t i = 1; i < items.size(); ++i) {
        if (!(key(items[i]) < key(items[i - 1]))) continue;
        const T item = items[i];
        std::size_t j = i;
        do {
            items[j] = items[j - 1];
            --j;
            ++moves;
        } while (j > 0 && key(item) < key(items[j - 1]));
        items[j] = item;
    }
    return moves;
}

// A full sort by key, ties by id, for when there is no previous order to start from.
template <class T, class Key>
void fullSort(std::vector<T>& items, Key key) {
    std::sort(items.begin(), items.end(), [&](const T& a, const T& b) {
        const double ka = key(a), kb = key(b);
        return ka < kb || (ka == kb && a.id < b.id);
    });
}

// A stable counting sort of the pairs by one of their indices, each in [0, range).
template <class IndexOf>
void countingSort(std::vector<SortAndSweep::Pair>& pairs, std::vector<SortAndSweep::Pair>& scratch,
                  std::vector<Index>& counts, Index range, IndexOf index) {
    counts.assign(static_cast<std::size_t>(range) + 1, 0);
    for (const SortAndSweep::Pair& p : pairs) ++counts[index(p) + 1];
    std::partial_sum(counts.begin(), counts.end(), counts.begin());
    scratch.resize(pairs.size());
    for (const SortAndSweep::Pair& p : pairs) scratch[counts[index(p)]++] = p;
    pairs.swap(scratch);
}

// Sorts the pairs by (first, second) in O(pairs + ranges), a least-significant-digit radix
// sort: by the second index, then stably by the first. Deterministic output at less than
// the cost of a comparison sort of the thousands of pairs of a large stack.
void sortPairs(std::vector<SortAndSweep::Pair>& pairs, std::vector<SortAndSweep::Pair>& scratch,
               std::vector<Index>& counts, Index firstRange, Index secondRange) {
    countingSort(pairs, scratch, counts, secondRange, [](const SortAndSweep::Pair& p) { return p.second; });
    countingSort(pairs, scratch, counts, firstRange, [](const SortAndSweep::Pair& p) { return p.first; });
}

}  // namespace

int SortAndSweep::mostSpreadAxis(const std::vector<Aabb>& boxes, Vec3& variance) {
    variance.setZero();
    if (boxes.empty()) return 0;
    Vec3 mean = Vec3::Zero();
    for (const Aabb& b : boxes) mean += 0.5 * (b.min + b.max);
    mean /= static_cast<double>(boxes.size());
    for (const Aabb& b : boxes) variance += (0.5 * (b.min + b.max) - mean).cwiseAbs2();
    variance /= static_cast<double>(boxes.size());
    int best = 0;
    for (int a = 1; a < 3; ++a)
        if (variance[a] > variance[best]) best = a;
    return best;
}

bool SortAndSweep::update(const std::vector<Aabb>& boxes, std::vector<Pair>& pairs) {
    pairs.clear();
    swaps_ = 0;
    const std::size_t n = boxes.size();
    Vec3 variance;
    const int best = mostSpreadAxis(boxes, variance);
    rebuilt_ = keys_.size() != n || variance[best] > kAxisSwitchRatio * variance[axis_];
    if (rebuilt_) {
        axis_ = best;
        keys_.resize(n);
        for (std::size_t i = 0; i < n; ++i) keys_[i].id = static_cast<Index>(i);
    }
    for (Key& k : keys_) k.lo = boxes[static_cast<std::size_t>(k.id)].min[axis_];
    const auto key = [](const Key& k) { return sortKey(k.lo); };
    if (rebuilt_) fullSort(keys_, key);
    else swaps_ = insertionSort(keys_, key);

    const int a1 = (axis_ + 1) % 3, a2 = (axis_ + 2) % 3;
    SortedBounds& s = sorted_;
    for (std::vector<double>* bound : {&s.lo, &s.hi, &s.lo1, &s.hi1, &s.lo2, &s.hi2}) bound->resize(n);
    for (std::vector<float>* bound : {&s.outerLo1, &s.outerHi1, &s.outerLo2, &s.outerHi2}) bound->resize(n);
    s.id.resize(n);
    for (std::size_t p = 0; p < n; ++p) {
        const Aabb& b = boxes[static_cast<std::size_t>(keys_[p].id)];
        s.lo[p] = key(keys_[p]);
        s.hi[p] = b.max[axis_];
        s.lo1[p] = b.min[a1];
        s.hi1[p] = b.max[a1];
        s.lo2[p] = b.min[a2];
        s.hi2[p] = b.max[a2];
        s.outerLo1[p] = roundDown(b.min[a1]);
        s.outerHi1[p] = roundUp(b.max[a1]);
        s.outerLo2[p] = roundDown(b.min[a2]);
        s.outerHi2[p] = roundUp(b.max[a2]);
        s.id[p] = keys_[p].id;
    }

    // The sweep: the boxes after p in the list whose lower endpoints are not past p's upper
    // one, up to `end`, overlap p along the axis; those overlapping on the other two axes
    // too are pairs. In a pile most of the former are not pairs (a row of boxes all overlap
    // along y), so they are tested in blocks without a branch: in single precision with the
    // bounds rounded outwards (a test that may pass more, never fewer), which the compiler
    // vectorizes eight at a time, the results gathered into one bit per box; the few that
    // pass are tested again exactly. Boxes of similar sizes have similar ends, so each end is
    // found by walking from the last.
    std::array<unsigned char, kBlock> hits{};
    std::size_t end = 0;
    bool complete = true;
    for (std::size_t p = 0; p < n && complete; ++p) {
        const double hi = s.hi[p];
        end = std::max(end, p + 1);
        while (end < n && s.lo[end] <= hi) ++end;
        while (end > p + 1 && !(s.lo[end - 1] <= hi)) --end;
        const float lo1 = s.outerLo1[p], hi1 = s.outerHi1[p], lo2 = s.outerLo2[p], hi2 = s.outerHi2[p];
        for (std::size_t start = p + 1; start < end && complete; start += kBlock) {
            const std::size_t count = std::min(kBlock, end - start);
            const float* qlo1 = s.outerLo1.data() + start;
            const float* qhi1 = s.outerHi1.data() + start;
            const float* qlo2 = s.outerLo2.data() + start;
            const float* qhi2 = s.outerHi2.data() + start;
            for (std::size_t k = 0; k < count; ++k)
                hits[k] = (qlo1[k] <= hi1) & (lo1 <= qhi1[k]) & (qlo2[k] <= hi2) & (lo2 <= qhi2[k]);
            std::fill(hits.begin() + static_cast<std::ptrdiff_t>(count), hits.end(), 0);
            std::uint64_t mask = 0;
            for (std::size_t group = 0; group < kBlock; group += 8) {
                std::uint64_t eight = 0;  // byte i: 0 or 1
                for (std::size_t i = 0; i < 8; ++i) eight |= std::uint64_t{hits[group + i]} << (8 * i);
                // The multiplication gathers byte i's bit into bit 56 + i (the sums of the other
                // products stay below bit 56).
                mask |= ((eight * 0x0102040810204080ULL) >> 56) << group;
            }
            for (; mask != 0 && complete; mask &= mask - 1) {
                const std::size_t q = start + static_cast<std::size_t>(std::countr_zero(mask));
                if (s.lo1[q] <= s.hi1[p] && s.lo1[p] <= s.hi1[q] && s.lo2[q] <= s.hi2[p] && s.lo2[p] <= s.hi2[q]) {
                    pairs.emplace_back(std::min(s.id[p], s.id[q]), std::max(s.id[p], s.id[q]));
                    complete = pairs.size() < kMaxPairs;
                }
            }
        }
    }
    sortPairs(pairs, scratch_, counts_, static_cast<Index>(n), static_cast<Index>(n));
    return complete;
}

bool SortAndSweep::pointsInBoxes(const std::vector<Vec3>& points, std::vector<Pair>& pairs) {
    pairs.clear();
    const std::size_t n = points.size();
    const bool rebuild = pointsAxis_ != axis_ || pointKeys_.size() != n;
    if (rebuild) {
        pointsAxis_ = axis_;
        pointKeys_.resize(n);
        for (std::size_t i = 0; i < n; ++i) pointKeys_[i].id = static_cast<Index>(i);
    }
    for (PointKey& k : pointKeys_) k.x = points[static_cast<std::size_t>(k.id)][axis_];
    const auto key = [](const PointKey& k) { return sortKey(k.x); };
    if (rebuild) fullSort(pointKeys_, key);
    else insertionSort(pointKeys_, key);

    // Both lists sorted along the axis: the points before a box's lower endpoint are before
    // every later box's too, so the first point to look at only moves forward.
    const int a1 = (axis_ + 1) % 3, a2 = (axis_ + 2) % 3;
    const SortedBounds& s = sorted_;
    std::size_t first = 0;
    bool complete = true;
    for (std::size_t p = 0; p < s.id.size() && complete; ++p) {
        while (first < n && key(pointKeys_[first]) < s.lo[p]) ++first;
        for (std::size_t q = first; q < n && pointKeys_[q].x <= s.hi[p] && complete; ++q) {
            const Vec3& x = points[static_cast<std::size_t>(pointKeys_[q].id)];
            if (s.lo1[p] <= x[a1] && x[a1] <= s.hi1[p] && s.lo2[p] <= x[a2] && x[a2] <= s.hi2[p]) {
                pairs.emplace_back(pointKeys_[q].id, s.id[p]);
                complete = pairs.size() < kMaxPairs;
            }
        }
    }
    sortPairs(pairs, scratch_, counts_, static_cast<Index>(n), static_cast<Index>(s.id.size()));
    return complete;
}

}  // namespace tinkerbox
