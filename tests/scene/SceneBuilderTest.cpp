#include "scene/SceneBuilder.h"

#include <gtest/gtest.h>

#include "scene/ExampleScenes.h"

namespace tinkerbox {
namespace {

TEST(SceneBuilder, BuildsWhatTheSceneDescribes) {
    const Scene scene = findExampleScene("bouncing-particles")->make();
    const auto sim = buildSimulation(scene);
    EXPECT_EQ(sim->world().particleCount(), static_cast<Index>(scene.particles.size()));
    EXPECT_EQ(sim->world().planes().size(), scene.planes.size());
    EXPECT_EQ(sim->integrator().name(), scene.settings.integrator);
    EXPECT_EQ(sim->settings(), scene.settings);
}

TEST(SceneBuilder, CaptureAfterBuildIsTheSameScene) {
    for (const ExampleScene& example : exampleScenes()) {
        const Scene scene = example.make();
        EXPECT_EQ(captureScene(*buildSimulation(scene), scene), scene) << example.name;
    }
}

TEST(SceneBuilder, CaptureTakesTheRunningState) {
    const Scene scene = findExampleScene("hanging-chain")->make();
    const auto sim = buildSimulation(scene);
    for (int i = 0; i < 30; ++i) sim->step();
    const Scene captured = captureScene(*sim, scene);
    EXPECT_EQ(captured.particles.front().position, scene.particles.front().position);  // nailed
    EXPECT_NE(captured.particles.back().position, scene.particles.back().position);    // swinging
    EXPECT_EQ(captured.particles.back().velocity, sim->world().velocity(sim->world().particleCount() - 1));
}

}  // namespace
}  // namespace tinkerbox
