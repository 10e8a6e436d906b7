#include "scene/ExampleScenes.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "scene/SceneBuilder.h"
#include "scene/SceneJson.h"

namespace tinkerbox {
namespace {

const std::filesystem::path kAssets = std::filesystem::path(TINKERBOX_SOURCE_DIR) / "assets" / "scenes";

TEST(ExampleScenes, NamesAreUniqueAndFindable) {
    std::set<std::string_view> names;
    for (const ExampleScene& e : exampleScenes()) {
        EXPECT_TRUE(names.insert(e.name).second) << e.name;
        EXPECT_EQ(findExampleScene(e.name), &e);
        EXPECT_FALSE(e.make().name.empty());
        EXPECT_FALSE(e.make().description.empty());
    }
    EXPECT_EQ(findExampleScene("nope"), nullptr);
}

// assets/scenes/NAME.json is the example written by `tinkerbox-sim example NAME -o ...`.
TEST(ExampleScenes, AssetFilesMatchTheBuiltIns) {
    for (const ExampleScene& e : exampleScenes()) {
        const auto file = kAssets / (std::string(e.name) + ".json");
        ASSERT_TRUE(std::filesystem::exists(file)) << file;
        EXPECT_EQ(loadScene(file), e.make()) << file << " is stale: regenerate it with tinkerbox-sim example";
    }
}

TEST(ExampleScenes, EveryAssetLoads) {
    for (const auto& entry : std::filesystem::directory_iterator(kAssets))
        if (entry.path().extension() == ".json") {
            EXPECT_NO_THROW(loadScene(entry.path())) << entry.path();
        }
}

TEST(ExampleScenes, ClothHasTheAdvertisedShape) {
    const Scene cloth = findExampleScene("cloth")->make();
    ASSERT_EQ(cloth.particles.size(), 400u);
    int nailed = 0;
    for (const ParticleInit& p : cloth.particles) nailed += p.nailed;
    EXPECT_EQ(nailed, 2);  // pinned at two corners
    // structural 2*20*19 + shear 2*19*19 + bend 2*20*18
    EXPECT_EQ(cloth.springs.size(), 760u + 722u + 720u);
}

TEST(ExampleScenes, StiffSpringBlowsUpEulerButNotImplicitEuler) {
    Scene scene = findExampleScene("stiff-spring")->make();
    const auto runs = [&](const std::string& integrator) {
        scene.settings.integrator = integrator;
        const auto sim = buildSimulation(scene);
        for (int f = 0; f < 120; ++f)
            if (sim->step().diverged) return false;
        return true;
    };
    EXPECT_FALSE(runs("euler"));
    EXPECT_TRUE(runs("implicit-euler"));
}

TEST(ExampleScenes, EveryExampleRunsTwoSecondsWithItsOwnSettings) {
    for (const ExampleScene& e : exampleScenes()) {
        const auto sim = buildSimulation(e.make());
        for (int f = 0; f < 120; ++f) ASSERT_FALSE(sim->step().diverged) << e.name;
    }
}

}  // namespace
}  // namespace tinkerbox
