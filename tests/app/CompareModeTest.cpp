#include "app/CompareMode.h"

#include <gtest/gtest.h>

#include <cmath>

#include "scene/ExampleScenes.h"
#include "scene/SceneBuilder.h"

namespace tinkerbox {
namespace {

Index nailedParticles(const World& world) {
    Index nailed = 0;
    for (Index i = 0; i < world.particleCount(); ++i) nailed += world.isNailed(i) ? 1 : 0;
    return nailed;
}

bool sameColor(const Color& a, const Color& b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

// A split view draws the flag's cloth as one surface in the run's colour, its particles only
// where nailed; shaded off (and in the ghosts), the cloth is its grid lines in the run's
// colour and every particle.
TEST(CompareMode, AClothIsShadedInTheRunsColourOrDrawnAsLines) {
    const Scene scene = findExampleScene("flag")->make();
    ASSERT_EQ(scene.cloths.size(), 1u);
    const Comparison comparison(scene, {{"implicit-euler", ""}, {"projective", ""}});
    const World& world = comparison.run(1).simulation->world();
    const Index nailed = nailedParticles(world);
    ASSERT_GT(nailed, 0);
    ASSERT_LT(nailed, world.particleCount());
    const Color color = compareRunColor(1);

    RenderFrame shaded;
    addCompareRun(comparison.run(1), scene, {color, true, true, std::nullopt, Vec3::Zero()}, shaded);
    ASSERT_EQ(shaded.surfaces.size(), 1u);
    const SurfaceInstance& surface = shaded.surfaces[0];
    EXPECT_EQ(static_cast<Index>(surface.vertices.size()), scene.cloths[0].particleCount());
    EXPECT_FALSE(surface.triangles.empty());
    EXPECT_TRUE(sameColor(surface.front, color));
    EXPECT_FALSE(sameColor(surface.back, color)) << "the back is told from the front";
    EXPECT_EQ(static_cast<Index>(shaded.discs.size()), nailed) << "only the nailed particles";
    EXPECT_TRUE(shaded.strands.empty());

    RenderFrame lines;
    addCompareRun(comparison.run(1), scene, {color, true, false, std::nullopt, Vec3::Zero()}, lines);
    EXPECT_TRUE(lines.surfaces.empty());
    EXPECT_EQ(static_cast<Index>(lines.discs.size()), world.particleCount());
    Index gridEdges = 0;
    scene.cloths[0].forEachGridEdge([&](Index, Index, double) { ++gridEdges; });
    Index inRunColour = 0;
    for (const SegmentInstance& s : lines.segments) inRunColour += sameColor(s.color, color) ? 1 : 0;
    EXPECT_GE(inRunColour, gridEdges);
}

// Shaded, each strand of the hair example is one lit strand through its particles, dark to
// light in the run's colour, and its root is not drawn as a particle; a run that diverged is
// greyed, not drawn in its colour.
TEST(CompareMode, HairIsStrandsInTheRunsColourGreyedOnceTheRunDiverged) {
    const Scene scene = findExampleScene("hair")->make();
    ASSERT_EQ(scene.hair.size(), 1u);
    const HairSpec& hair = scene.hair[0];
    const Comparison comparison(scene, {{"implicit-euler", ""}, {"verlet", ""}});
    const Color color = compareRunColor(0);
    RenderFrame frame;
    addCompareRun(comparison.run(0), scene, {color, true, true, std::nullopt, Vec3::Zero()}, frame);
    ASSERT_EQ(static_cast<int>(frame.strands.size()), hair.strands);
    const World& world = comparison.run(0).simulation->world();
    for (std::size_t k = 0; k < frame.strands.size(); ++k) {
        const StrandInstance& strand = frame.strands[k];
        ASSERT_EQ(static_cast<Index>(strand.points.size()), hair.length);
        EXPECT_EQ(strand.points.front(), world.position(hair.particleAt(static_cast<int>(k) * hair.length)));
        EXPECT_LT(strand.root.r + strand.root.g + strand.root.b, strand.tip.r + strand.tip.g + strand.tip.b)
            << "the root darker than the tip";
    }
    EXPECT_GT(frame.strands[0].tip.r, frame.strands[0].tip.b) << "orange, the first run's colour";
    Index rootDiscs = 0;
    for (const DiscInstance& d : frame.discs)
        for (int k = 0; k < hair.strands; ++k)
            rootDiscs += d.center == world.position(hair.particleAt(k * hair.length)) ? 1 : 0;
    EXPECT_EQ(rootDiscs, 0) << "a strand's root is its start, not a particle";

    Comparison::Run diverged{};
    diverged.simulation = buildSimulation(scene);
    diverged.diverged = true;
    RenderFrame greyed;
    addCompareRun(diverged, scene, {color, true, true, std::nullopt, Vec3::Zero()}, greyed);
    ASSERT_EQ(greyed.strands.size(), frame.strands.size());
    const Color& tip = greyed.strands[0].tip;
    EXPECT_LT(std::abs(tip.r - tip.b), std::abs(frame.strands[0].tip.r - frame.strands[0].tip.b))
        << "nearer grey than the run's colour";
}

}  // namespace
}  // namespace tinkerbox
