// Elements split for two threads: two parts that share no particle, and the band between them.
#include "core/forces/ElementPartition.h"

#include <gtest/gtest.h>

#include <random>

#include "core/forces/Cloth.h"

namespace tinkerbox {
namespace {

// Every element once; no particle in an element of each part.
void expectDisjointParts(const ElementPartition& partition, const std::vector<std::array<Index, 3>>& elements,
                         Index particles) {
    std::vector<int> seen(elements.size(), 0), part(particles, -1);
    for (int k = 0; k < 3; ++k) {
        const std::vector<Index>& list = k == 0 ? partition.first() : k == 1 ? partition.second() : partition.band();
        for (std::size_t n = 0; n < list.size(); ++n) {
            ++seen[list[n]];
            if (n > 0) {
                EXPECT_LT(list[n - 1], list[n]);  // in the elements' order
            }
            if (k == 2) continue;
            for (const Index i : elements[list[n]]) {
                EXPECT_NE(part[i], 1 - k) << "particle " << i << " in both parts";
                part[i] = k;
            }
        }
    }
    for (const int count : seen) EXPECT_EQ(count, 1);
}

// A 64 x 64 grid's 7938 triangles (126 to a row of squares): the band is the triangles touching
// the particles both halves reach, within three rows of squares; random triangles have most
// of them in the band; a few triangles are one part.
TEST(ElementPartition, GridTrianglesSplitAlongARowRandomOnesAsMuchAsTheyMust) {
    const int n = 64;
    std::vector<std::array<Index, 3>> grid;
    for (const ClothTriangle& t : gridTriangles(0, n, n, 1.0, 1.0)) grid.push_back(t.particles);
    ElementPartition partition;
    partition.assign<3>(static_cast<Index>(grid.size()), n * n, [&](Index e) { return grid[e]; });
    expectDisjointParts(partition, grid, n * n);
    EXPECT_GE(partition.band().size(), 126u);
    EXPECT_LE(partition.band().size(), 378u);
    EXPECT_NEAR(static_cast<double>(partition.first().size()), static_cast<double>(partition.second().size()), 126.0);

    std::mt19937 rng(3);
    std::uniform_int_distribution<Index> pick(0, 999);
    std::vector<std::array<Index, 3>> random(3000);
    for (auto& e : random) e = {pick(rng), pick(rng), pick(rng)};
    partition.assign<3>(static_cast<Index>(random.size()), 1000, [&](Index e) { return random[e]; });
    expectDisjointParts(partition, random, 1000);
    EXPECT_GT(partition.band().size(), 2000u);  // nearly every particle is in both halves

    partition.assign<3>(100, n * n, [&](Index e) { return grid[e]; });
    EXPECT_EQ(partition.first().size(), 100u);
    EXPECT_TRUE(partition.second().empty() && partition.band().empty());
}

// forEach visits every element once, with a helper thread or without.
TEST(ElementPartition, ForEachVisitsEveryElementOnce) {
    const int n = 64;
    std::vector<std::array<Index, 3>> grid;
    for (const ClothTriangle& t : gridTriangles(0, n, n, 1.0, 1.0)) grid.push_back(t.particles);
    ElementPartition partition;
    partition.assign<3>(static_cast<Index>(grid.size()), n * n, [&](Index e) { return grid[e]; });
    TwoWayParallel parallel;
    for (TwoWayParallel* helper : {static_cast<TwoWayParallel*>(nullptr), &parallel}) {
        std::vector<int> visits(grid.size(), 0);
        partition.forEach(helper, [&](Index e) { ++visits[e]; });  // each element in one part: no race
        for (const int count : visits) EXPECT_EQ(count, 1);
    }
}

}  // namespace
}  // namespace tinkerbox
