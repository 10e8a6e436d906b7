// The sort-and-sweep broad phase against brute force over every pair, and its coherence:
// the insertion sort's moves are exactly the pairs whose order along the axis changed.
#include "core/collision/SortAndSweep.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace tinkerbox {
namespace {

using Pairs = std::vector<SortAndSweep::Pair>;

Pairs bruteForcePairs(const std::vector<Aabb>& boxes) {
    Pairs pairs;
    for (Index i = 0; i < static_cast<Index>(boxes.size()); ++i)
        for (Index j = i + 1; j < static_cast<Index>(boxes.size()); ++j)
            if (boxes[i].overlaps(boxes[j])) pairs.emplace_back(i, j);
    return pairs;
}

Pairs bruteForcePointsInBoxes(const std::vector<Vec3>& points, const std::vector<Aabb>& boxes) {
    Pairs pairs;
    for (Index p = 0; p < static_cast<Index>(points.size()); ++p)
        for (Index i = 0; i < static_cast<Index>(boxes.size()); ++i)
            if (boxes[i].contains(points[p])) pairs.emplace_back(p, i);
    return pairs;
}

Aabb box(const Vec3& center, const Vec3& half) { return {center - half, center + half}; }

// Boxes of sizes 0.2 to 2 in a cube of side `extent`, scaled along each axis by `stretch`.
std::vector<Aabb> randomBoxes(int n, double extent, const Vec3& stretch, std::mt19937& rng) {
    std::uniform_real_distribution<double> where(0.0, extent), size(0.1, 1.0);
    std::vector<Aabb> boxes;
    for (int i = 0; i < n; ++i)
        boxes.push_back(
            box(Vec3(where(rng), where(rng), where(rng)).cwiseProduct(stretch), Vec3(size(rng), size(rng), size(rng))));
    return boxes;
}

void moveAll(std::vector<Aabb>& boxes, double step, std::mt19937& rng) {
    std::uniform_real_distribution<double> d(-step, step);
    for (Aabb& b : boxes) {
        const Vec3 move(d(rng), d(rng), d(rng));
        b.min += move;
        b.max += move;
    }
}

// The pairs (i, j) whose order by lower endpoint along the axis differs between two
// placements: what an insertion sort from one order to the other moves.
long inversions(const std::vector<Aabb>& before, const std::vector<Aabb>& after, int axis) {
    long count = 0;
    for (std::size_t i = 0; i < before.size(); ++i)
        for (std::size_t j = 0; j < before.size(); ++j)
            if (before[i].min[axis] < before[j].min[axis] && after[i].min[axis] > after[j].min[axis]) ++count;
    return count;
}

TEST(SortAndSweep, FindsThePairsBruteForceFindsAsTheBoxesMove) {
    std::mt19937 rng(7);
    std::vector<Aabb> boxes = randomBoxes(400, 20.0, Vec3::Ones(), rng);
    SortAndSweep broadPhase;
    Pairs pairs;
    for (int step = 0; step < 20; ++step) {
        broadPhase.update(boxes, pairs);
        const Pairs expected = bruteForcePairs(boxes);
        ASSERT_FALSE(expected.empty());
        EXPECT_EQ(pairs, expected) << "step " << step;
        EXPECT_EQ(broadPhase.rebuilt(), step == 0);
        moveAll(boxes, step < 10 ? 0.05 : 1.0, rng);
    }
}

TEST(SortAndSweep, TouchingBoxesOverlapAndRowsOfEqualBoxesAreFound) {
    // A planar pyramid of unit boxes, rows offset by half a box, each box touching its
    // neighbours: many equal endpoints.
    std::vector<Aabb> boxes;
    for (int row = 0; row < 30; ++row)
        for (int i = 0; i < 30 - row; ++i)
            boxes.push_back(box(Vec3(i + 0.5 * row, 0.5 + row, 0.0), Vec3(0.5, 0.5, 0.5)));
    SortAndSweep broadPhase;
    Pairs pairs;
    broadPhase.update(boxes, pairs);
    EXPECT_NE(broadPhase.axis(), 2);  // no spread along z
    const Pairs expected = bruteForcePairs(boxes);
    EXPECT_EQ(pairs, expected);
    // Rows of 30, 29, ..., 1: w - 1 touching neighbours within a row of w, and each box
    // above the bottom row touches the two below it: 435 + 2 x 435.
    EXPECT_EQ(pairs.size(), 1305u);
    broadPhase.update(boxes, pairs);
    EXPECT_EQ(pairs, expected);
    EXPECT_EQ(broadPhase.swaps(), 0);
}

TEST(SortAndSweep, SwapsAreThePairsWhoseOrderChanged) {
    std::mt19937 rng(11);
    std::vector<Aabb> boxes = randomBoxes(300, 30.0, Vec3::Ones(), rng);
    SortAndSweep broadPhase;
    Pairs pairs;
    broadPhase.update(boxes, pairs);
    for (const double step : {0.0, 0.001, 0.01, 0.1, 1.0}) {
        const std::vector<Aabb> before = boxes;
        moveAll(boxes, step, rng);
        broadPhase.update(boxes, pairs);
        ASSERT_FALSE(broadPhase.rebuilt());
        EXPECT_EQ(broadPhase.swaps(), inversions(before, boxes, broadPhase.axis())) << "step " << step;
        EXPECT_EQ(pairs, bruteForcePairs(boxes));
    }
    // Small moves cost a few swaps among 300 boxes (n^2 / 4 = 22,500 for a random order).
    const std::vector<Aabb> before = boxes;
    moveAll(boxes, 0.001, rng);
    broadPhase.update(boxes, pairs);
    EXPECT_LT(broadPhase.swaps(), 10);
    EXPECT_EQ(broadPhase.swaps(), inversions(before, boxes, broadPhase.axis()));
}

TEST(SortAndSweep, ChangesAxisOnlyWhenAnotherIsClearlyMoreSpread) {
    std::mt19937 rng(3);
    std::vector<Aabb> boxes = randomBoxes(200, 10.0, Vec3(4.0, 1.0, 1.0), rng);
    SortAndSweep broadPhase;
    Pairs pairs;
    broadPhase.update(boxes, pairs);
    EXPECT_EQ(broadPhase.axis(), 0);
    // Stretched along y to a little more than x's spread (variance 1.2^2 = 1.44 times): kept.
    std::vector<Aabb> stretched = boxes;
    for (Aabb& b : stretched) {
        const Vec3 shift(0.0, 3.8 * 0.5 * (b.min + b.max).y(), 0.0);
        b.min += shift;
        b.max += shift;
    }
    broadPhase.update(stretched, pairs);
    EXPECT_FALSE(broadPhase.rebuilt());
    EXPECT_EQ(broadPhase.axis(), 0);
    EXPECT_EQ(pairs, bruteForcePairs(stretched));
    // x and y exchanged: y is four times as spread, and the list is sorted again along it.
    for (Aabb& b : boxes) {
        std::swap(b.min.x(), b.min.y());
        std::swap(b.max.x(), b.max.y());
    }
    broadPhase.update(boxes, pairs);
    EXPECT_TRUE(broadPhase.rebuilt());
    EXPECT_EQ(broadPhase.axis(), 1);
    EXPECT_EQ(pairs, bruteForcePairs(boxes));
}

TEST(SortAndSweep, BoxesAddedAndRemovedBetweenCalls) {
    std::mt19937 rng(5);
    std::vector<Aabb> boxes = randomBoxes(100, 10.0, Vec3::Ones(), rng);
    SortAndSweep broadPhase;
    Pairs pairs;
    broadPhase.update(boxes, pairs);
    const std::vector<Aabb> more = randomBoxes(50, 10.0, Vec3::Ones(), rng);
    boxes.insert(boxes.end(), more.begin(), more.end());
    broadPhase.update(boxes, pairs);
    EXPECT_TRUE(broadPhase.rebuilt());
    EXPECT_EQ(pairs, bruteForcePairs(boxes));
    boxes.erase(boxes.begin() + 10, boxes.begin() + 80);
    broadPhase.update(boxes, pairs);
    EXPECT_EQ(pairs, bruteForcePairs(boxes));
    boxes.clear();
    broadPhase.update(boxes, pairs);
    EXPECT_TRUE(pairs.empty());
}

TEST(SortAndSweep, PointsInBoxesMatchBruteForce) {
    std::mt19937 rng(13);
    std::vector<Aabb> boxes = randomBoxes(60, 10.0, Vec3::Ones(), rng);
    std::uniform_real_distribution<double> where(-1.0, 11.0);
    std::vector<Vec3> points;
    for (int i = 0; i < 500; ++i) points.emplace_back(where(rng), where(rng), where(rng));
    points.push_back(boxes[3].min);  // on a corner: inside
    SortAndSweep broadPhase;
    Pairs pairs, inside;
    for (int step = 0; step < 10; ++step) {
        broadPhase.update(boxes, pairs);
        broadPhase.pointsInBoxes(points, inside);
        const Pairs expected = bruteForcePointsInBoxes(points, boxes);
        ASSERT_FALSE(expected.empty());
        EXPECT_EQ(inside, expected) << "step " << step;
        moveAll(boxes, 0.3, rng);
        std::uniform_real_distribution<double> d(-0.3, 0.3);
        for (Vec3& x : points) x += Vec3(d(rng), d(rng), d(rng));
    }
    points.resize(100);
    broadPhase.update(boxes, pairs);
    broadPhase.pointsInBoxes(points, inside);
    EXPECT_EQ(inside, bruteForcePointsInBoxes(points, boxes));
}

// Boxes piled on one spot overlap in n (n - 1) / 2 pairs: up to kMaxPairs they are all found,
// past it the call stops there and says so, and the pairs it gives are real and sorted. So do
// points in such a pile.
TEST(SortAndSweep, PilesStopAtThePairBound) {
    const auto onOneSpot = [](std::size_t n) { return std::vector<Aabb>(n, box(Vec3::Zero(), Vec3::Ones())); };
    SortAndSweep broadPhase;
    Pairs pairs;
    EXPECT_TRUE(broadPhase.update(onOneSpot(2048), pairs));
    EXPECT_EQ(pairs.size(), 2048u * 2047u / 2u);

    const std::size_t pile = 3000;  // 4,498,500 pairs
    ASSERT_GT(pile * (pile - 1) / 2, SortAndSweep::kMaxPairs);
    EXPECT_FALSE(broadPhase.update(onOneSpot(pile), pairs));
    EXPECT_EQ(pairs.size(), SortAndSweep::kMaxPairs);
    EXPECT_TRUE(std::is_sorted(pairs.begin(), pairs.end()));
    EXPECT_TRUE(std::all_of(pairs.begin(), pairs.end(), [&](const SortAndSweep::Pair& p) {
        return p.first < p.second && p.second < static_cast<Index>(pile);
    }));

    const std::vector<Vec3> points(1500, Vec3::Zero());  // 4,500,000 pairs with the 3000 boxes
    Pairs inside;
    EXPECT_FALSE(broadPhase.pointsInBoxes(points, inside));
    EXPECT_EQ(inside.size(), SortAndSweep::kMaxPairs);
    EXPECT_TRUE(broadPhase.pointsInBoxes(std::vector<Vec3>(1000, Vec3::Zero()), inside));
    EXPECT_EQ(inside.size(), 1000u * pile);
}

}  // namespace
}  // namespace tinkerbox
