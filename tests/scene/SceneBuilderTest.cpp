#include "scene/SceneBuilder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

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

bool near(const Vec3& a, const Vec3& b) { return (a - b).norm() <= 1e-14 * std::max(1.0, b.norm()); }

// Particles, springs, constraints and settings come back exactly. A rigid body is kept by
// its centre of mass and momenta (P = m v, L = I omega), so its position and velocities
// come back through a product and its inverse: to rounding.
TEST(SceneBuilder, CaptureAfterBuildIsTheSameScene) {
    for (const ExampleScene& example : exampleScenes()) {
        const Scene scene = example.make();
        Scene captured = captureScene(*buildSimulation(scene), scene);
        ASSERT_EQ(captured.bodies.size(), scene.bodies.size()) << example.name;
        for (std::size_t k = 0; k < scene.bodies.size(); ++k) {
            RigidBodySpec& c = captured.bodies[k];
            const RigidBodySpec& b = scene.bodies[k];
            EXPECT_TRUE(near(c.position, b.position)) << example.name << " body " << k;
            EXPECT_TRUE(near(c.velocity, b.velocity)) << example.name << " body " << k;
            EXPECT_TRUE(near(c.angularVelocity, b.angularVelocity)) << example.name << " body " << k;
            EXPECT_EQ(c.orientation.coeffs(), b.orientation.coeffs()) << example.name << " body " << k;
            c.position = b.position;
            c.velocity = b.velocity;
            c.angularVelocity = b.angularVelocity;
        }
        // Strands come back with their rest shape spelled out: where their particles started.
        ASSERT_EQ(captured.hair.size(), scene.hair.size()) << example.name;
        for (std::size_t k = 0; k < scene.hair.size(); ++k) {
            const HairSpec& h = scene.hair[k];
            std::vector<Vec3> start;
            for (Index i = 0; i < static_cast<Index>(h.strands) * h.length; ++i)
                start.push_back(scene.particles[h.firstParticle + i].position);
            EXPECT_EQ(captured.hair[k].restShape, start) << example.name;
            captured.hair[k].restShape.clear();
        }
        EXPECT_EQ(captured, scene) << example.name;
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

// A curly strand bent by gravity and read back keeps the curl it was built with: a model
// rebuilt from the captured scene holds the same rest angles.
TEST(SceneBuilder, CapturedHairKeepsItsRestShape) {
    const Scene scene = findExampleScene("curly-hair")->make();
    const auto sim = buildSimulation(scene);
    for (int i = 0; i < 30; ++i) sim->step();
    const Scene captured = captureScene(*sim, scene);
    EXPECT_NE(captured.particles.back().position, scene.particles.back().position);  // it hangs
    const auto rebuilt = buildSimulation(captured);
    const auto joints = [](const Simulation& s) {
        for (const auto& force : s.world().forces())
            if (const auto* j = dynamic_cast<const AngularSpringSet*>(force.get())) return j;
        return static_cast<const AngularSpringSet*>(nullptr);
    };
    const AngularSpringSet *before = joints(*sim), *after = joints(*rebuilt);
    ASSERT_TRUE(before && after);
    ASSERT_EQ(before->elementCount(), after->elementCount());
    for (Index e = 0; e < before->elementCount(); ++e) EXPECT_EQ(after->spring(e), before->spring(e)) << "joint " << e;
}

}  // namespace
}  // namespace tinkerbox
