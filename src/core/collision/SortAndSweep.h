#pragma once
// The broad phase of contact detection, "sort and sweep" (Baraff, Rigid Body Simulation II:
// Nonpenetration Constraints, SIGGRAPH 2001 notes, collision detection among bounding
// boxes): the pairs of axis-aligned bounding boxes that overlap. The boxes are kept sorted
// by their lower endpoints along one axis from one call to the next, and re-sorted by
// insertion sort: bodies move little between steps, so the list is nearly sorted and the
// sort costs O(n + swaps) instead of O(n log n) (the notes' coherence). A sweep along the
// sorted list then meets, for each box, only the boxes whose intervals on that axis overlap
// its own, and tests those on the other two axes.
// The axis swept is the one along which the boxes' centres are most spread, so that the
// fewest intervals overlap on it; it changes only when another axis is clearly better,
// since changing it costs a full sort.
#include <utility>
#include <vector>

#include "core/math/Types.h"

namespace tinkerbox {

struct Aabb {
    Vec3 min = Vec3::Zero();
    Vec3 max = Vec3::Zero();

    // Closed intervals: boxes that touch overlap.
    bool overlaps(const Aabb& o) const {
        return (min.array() <= o.max.array()).all() && (o.min.array() <= max.array()).all();
    }
    bool contains(const Vec3& p) const { return (min.array() <= p.array()).all() && (p.array() <= max.array()).all(); }
};

class SortAndSweep {
public:
    using Pair = std::pair<Index, Index>;
    // The most pairs one call returns: n boxes piled on one spot (a scene's mistake) overlap
    // in n (n - 1) / 2 pairs, and memory must not grow with that. 64 MB of pairs.
    static constexpr std::size_t kMaxPairs = std::size_t{1} << 22;

    // The pairs (i, j), i < j, of the boxes that overlap, sorted. When the number of boxes
    // differs from the last call's (boxes added or removed), they are sorted from scratch.
    // False when the pairs reached kMaxPairs: those found up to then, not all of them.
    bool update(const std::vector<Aabb>& boxes, std::vector<Pair>& pairs);
    // The pairs (p, i) of points[p] lying in box i of the last update(), sorted. The points
    // (e.g. particles) are kept sorted along the same axis between calls as well. False
    // when they reached kMaxPairs, as update().
    bool pointsInBoxes(const std::vector<Vec3>& points, std::vector<Pair>& pairs);

    int axis() const { return axis_; }  // 0, 1, 2 for x, y, z
    // What the last update's insertion sort did: how many times it moved a box past
    // another (the number of pairs whose order along the axis changed). A full sort,
    // after the count or the axis changed, counts none and sets rebuilt().
    long swaps() const { return swaps_; }
    bool rebuilt() const { return rebuilt_; }

private:
    // A box's lower endpoint along the axis swept, and its id: what the insertion sort moves.
    struct Key {
        double lo;
        Index id;
    };
    // The boxes in sorted order, one array per bound (the sweep's inner loop reads them in
    // step, a few at a time, without branches): along the axis swept, then the other two.
    struct SortedBounds {
        std::vector<double> lo, hi, lo1, hi1, lo2, hi2;
        std::vector<float> outerLo1, outerHi1, outerLo2, outerHi2;  // rounded outwards
        std::vector<Index> id;
    };
    struct PointKey {
        double x;
        Index id;
    };

    // The axis with the largest variance of the boxes' centres, and that variance per axis.
    static int mostSpreadAxis(const std::vector<Aabb>& boxes, Vec3& variance);

    int axis_ = 0;
    long swaps_ = 0;
    bool rebuilt_ = false;
    std::vector<Key> keys_;  // by lower endpoint along axis_, kept between calls
    SortedBounds sorted_;
    std::vector<PointKey> pointKeys_;  // by coordinate along pointsAxis_, kept between calls
    int pointsAxis_ = -1;
    std::vector<Pair> scratch_;
    std::vector<Index> counts_;
};

}  // namespace tinkerbox
