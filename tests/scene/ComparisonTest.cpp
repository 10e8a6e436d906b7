// Compare mode's runner: every run is bitwise the run of its integrator alone, a diverged
// run freezes alone, and the pull is the same on every run.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/dynamics/GrabSpring.h"
#include "scene/Comparison.h"
#include "scene/ExampleScenes.h"
#include "scene/Examples.h"
#include "scene/SceneBuilder.h"

namespace tinkerbox {
namespace {

VecX stateOf(const Simulation& simulation) {
    VecX x;
    simulation.world().getState(x);
    return x;
}

// Bitwise: every double of the state, and the clock.
void expectSameBits(const Simulation& a, const Simulation& b, const std::string& what) {
    EXPECT_EQ(a.time(), b.time()) << what;
    const VecX xa = stateOf(a), xb = stateOf(b);
    ASSERT_EQ(xa.size(), xb.size()) << what;
    for (Index i = 0; i < xa.size(); ++i) ASSERT_EQ(xa[i], xb[i]) << what << ", state entry " << i;
}

using test::example;

TEST(Comparison, EachRunIsBitwiseItsIntegratorAlone) {
    const Scene scene = example("triple-pendulum");
    const std::vector<std::string> integrators = {"euler", "rk4", "implicit-euler", "verlet"};
    std::vector<ComparisonChoice> choices;
    for (const std::string& name : integrators) choices.push_back({name, ""});
    Comparison comparison(scene, choices);
    constexpr int kFrames = 60;
    for (int f = 0; f < kFrames; ++f) comparison.step();

    for (std::size_t r = 0; r < integrators.size(); ++r) {
        Scene own = scene;
        own.settings.integrator = integrators[r];
        const auto alone = buildSimulation(own);
        const Comparison::Run& run = comparison.run(r);
        ASSERT_EQ(run.samples.size(), kFrames + 1u);
        EXPECT_EQ(run.samples[0].energy, alone->totalEnergy());
        for (int f = 1; f <= kFrames; ++f) {
            ASSERT_FALSE(alone->step().diverged);
            ASSERT_EQ(run.samples[f].energy, alone->totalEnergy()) << integrators[r] << " frame " << f;
            ASSERT_EQ(run.samples[f].constraintError, alone->constraintError()) << integrators[r] << " frame " << f;
            ASSERT_EQ(run.samples[f].time, alone->time());
            EXPECT_GT(run.samples[f].msPerStep, 0.0);
        }
        EXPECT_FALSE(run.diverged);
        EXPECT_EQ(run.choice.integrator, integrators[r]);
        EXPECT_EQ(run.integratorSteps, kFrames * alone->substeps());
        expectSameBits(*run.simulation, *alone, integrators[r]);
    }
}

TEST(Comparison, FramesRunAFewSubstepsAtATimeEndAsWholeFrames) {
    // The app's time budget: each frame in calls of 3 substeps (euler takes 2048 a frame,
    // rk4 8), the frame ending only once every run has ended it, bitwise as step() ends it.
    const Scene scene = example("triple-pendulum");
    const std::vector<ComparisonChoice> choices = {{"euler", ""}, {"rk4", ""}};
    Comparison chunked(scene, choices), whole(scene, choices);
    for (int f = 0; f < 5; ++f) {
        int calls = 1;
        while (!chunked.advance(3)) ++calls;
        whole.step();
        EXPECT_EQ(calls, (chunked.run(0).simulation->substeps() + 2) / 3) << "frame " << f;
        for (std::size_t r = 0; r < choices.size(); ++r) {
            ASSERT_EQ(chunked.run(r).samples.size(), f + 2u);
            EXPECT_EQ(chunked.run(r).samples.back().energy, whole.run(r).samples.back().energy);
            expectSameBits(*chunked.run(r).simulation, *whole.run(r).simulation, choices[r].integrator);
        }
    }
}

TEST(Comparison, EachContactModelRunIsBitwiseItsModelAlone) {
    const Scene scene = example("sliding-box");
    Comparison comparison(scene, {{"symplectic-euler", "baraff"}, {"symplectic-euler", "oba"}});
    for (int f = 0; f < 60; ++f) comparison.step();
    for (std::size_t r = 0; r < 2; ++r) {
        Scene own = scene;
        own.settings.integrator = "symplectic-euler";
        own.settings.contactModel = comparison.run(r).choice.contactModel;
        const auto alone = buildSimulation(own);
        for (int f = 0; f < 60; ++f) ASSERT_FALSE(alone->step().diverged);
        expectSameBits(*comparison.run(r).simulation, *alone, own.settings.contactModel);
    }
    EXPECT_EQ(comparison.run(0).choice.contactModel, "baraff");
    EXPECT_EQ(comparison.run(1).choice.contactModel, "oba");
    EXPECT_NE(stateOf(*comparison.run(0).simulation), stateOf(*comparison.run(1).simulation))
        << "the two models slide the box differently";
}

// The stiff spring (2000 N/m on 50 g, period 31 ms) at dt = 1/60: explicit Euler grows it by
// |1 + i omega h| = sqrt(1 + (omega h)^2) = 3.8 a step and diverges; implicit Euler does not.
TEST(Comparison, ADivergedRunIsFrozenWhileTheOthersGoOn) {
    const Scene scene = example("stiff-spring");
    Comparison comparison(scene, {{"euler", ""}, {"implicit-euler", ""}});
    int frame = 0;
    while (!comparison.run(0).diverged && frame < 600) {
        comparison.step();
        ++frame;
    }
    ASSERT_TRUE(comparison.run(0).diverged) << "euler did not diverge in 10 s";
    EXPECT_FALSE(comparison.run(0).divergence.empty());
    const VecX frozen = stateOf(*comparison.run(0).simulation);
    const double frozenTime = comparison.run(0).simulation->time();
    const std::size_t frozenSamples = comparison.run(0).samples.size();
    for (int f = 0; f < 60; ++f) comparison.step();
    EXPECT_TRUE(comparison.anyRunning());
    EXPECT_EQ(comparison.run(0).simulation->time(), frozenTime);
    EXPECT_EQ(comparison.run(0).samples.size(), frozenSamples);
    const VecX after = stateOf(*comparison.run(0).simulation);
    for (Index i = 0; i < after.size(); ++i) ASSERT_EQ(after[i], frozen[i]);

    // The other run went on, exactly as it would alone.
    EXPECT_FALSE(comparison.run(1).diverged);
    Scene own = scene;
    own.settings.integrator = "implicit-euler";
    const auto alone = buildSimulation(own);
    for (int f = 0; f < frame + 60; ++f) ASSERT_FALSE(alone->step().diverged);
    expectSameBits(*comparison.run(1).simulation, *alone, "implicit-euler");
}

// Witkin's mouse spring on a lone particle in zero gravity, grabbed at rest a distance d from
// the target: stiffness m w^2 and damping 2 m w (w = 20 rad/s) damp it critically, so
// x(t) - y = -d (1 + w t) exp(-w t) along the pull, the same in every run.
TEST(Comparison, APullIsTheSameCriticallyDampedSpringOnEveryRun) {
    Scene scene;
    scene.settings.gravity = Vec3::Zero();
    scene.settings.dt = 1.0 / 60.0;
    scene.settings.substeps = 10;
    scene.particles.push_back({Vec3::Zero(), Vec3::Zero(), 0.5, false});
    Comparison comparison(scene, {{"rk4", ""}, {"midpoint", ""}});
    constexpr double d = 0.05, w = 20.0;  // d: under the cap, k d = 20 m < 3 g m
    const Vec3 target(d, 0.0, 0.0);
    ASSERT_TRUE(comparison.beginPull(Anchor(0), target));
    EXPECT_TRUE(comparison.pulling());
    for (int f = 0; f < 30; ++f) {
        comparison.movePull(target, scene.settings.dt);
        comparison.step();
    }
    const double t = comparison.run(0).simulation->time();
    const double expected = d - d * (1.0 + w * t) * std::exp(-w * t);
    // Global errors: rk4's O((w h)^4) d, midpoint's O((w h)^2) d, w h = 1/30.
    EXPECT_NEAR(comparison.run(0).simulation->world().position(0).x(), expected, 1e-7);
    EXPECT_NEAR(comparison.run(1).simulation->world().position(0).x(), expected, 1e-4);
    comparison.endPull();
    EXPECT_FALSE(comparison.pulling());
    EXPECT_EQ(comparison.run(0).pull, nullptr);
}

// A moving pull on a body point: each run is bitwise the run alone with the same mouse
// spring, its target moved the same way before each frame.
TEST(Comparison, AMovingPullOnABodyIsBitwiseThePullAlone) {
    const Scene scene = example("tumbling-box");
    const Anchor anchor = Anchor::onBody(0, Vec3(0.2, 0.1, 0.0));
    const auto targetAt = [](int f) { return Vec3(0.5 + 0.01 * f, 1.0 + 0.02 * f, 0.0); };
    Comparison comparison(scene, {{"rk4", ""}, {"symplectic-euler", ""}});
    ASSERT_TRUE(comparison.beginPull(anchor, targetAt(0)));
    for (int f = 1; f <= 40; ++f) {
        comparison.movePull(targetAt(f), scene.settings.dt);
        comparison.step();
    }
    for (std::size_t r = 0; r < 2; ++r) {
        Scene own = scene;
        own.settings.integrator = comparison.run(r).choice.integrator;
        const auto alone = buildSimulation(own);
        World& world = alone->world();
        // Sized on the first run's model at the start, which is every run's.
        const GrabSpringParameters p = grabSpringParameters(world, anchor, own.settings.gravity.norm());
        auto spring = std::make_unique<MouseSpring>(anchor, p.stiffness, p.damping, p.maxForce);
        spring->setTarget(targetAt(0));
        auto& pull = static_cast<MouseSpring&>(world.addForce(std::move(spring)));
        alone->drivenByInput();
        for (int f = 1; f <= 40; ++f) {
            pull.setTarget(targetAt(f), (targetAt(f) - targetAt(f - 1)) / own.settings.dt);
            alone->drivenByInput();
            ASSERT_FALSE(alone->step().diverged);
        }
        expectSameBits(*comparison.run(r).simulation, *alone, own.settings.integrator);
    }
}

TEST(Comparison, NoPullOnAFixedBodyOrANailedParticle) {
    Scene scene = example("seesaw");
    Index fixedBody = -1;
    for (std::size_t k = 0; k < scene.bodies.size(); ++k)
        if (scene.bodies[k].fixed) fixedBody = static_cast<Index>(k);
    ASSERT_GE(fixedBody, 0);
    scene.particles.push_back({Vec3(0.0, 3.0, 0.0), Vec3::Zero(), 1.0, true});
    Comparison comparison(scene, {{"rk4", ""}, {"verlet", ""}});
    EXPECT_FALSE(comparison.beginPull(Anchor::onBody(fixedBody, Vec3::Zero()), Vec3::Zero()));
    EXPECT_FALSE(comparison.beginPull(Anchor(static_cast<Index>(scene.particles.size()) - 1), Vec3::Zero()));
    EXPECT_FALSE(comparison.pulling());
}

TEST(Comparison, TrackedPointsAreParticlesBeadsAndBodyCentres) {
    for (const std::string name : {"wrecking-ball", "bead-on-wire", "triple-pendulum"}) {
        const auto simulation = buildSimulation(example(name));
        const World& world = simulation->world();
        EXPECT_EQ(trackedPoints(world).size(),
                  static_cast<std::size_t>(world.particleCount() + world.beadCount() + world.rigidBodyCount()))
            << name;
    }
    const Scene scene = example("triple-pendulum");
    const auto a = buildSimulation(scene), b = buildSimulation(scene);
    EXPECT_EQ(maxPointDistance(a->world(), b->world()), 0.0);
    b->world().setPosition(1, b->world().position(1) + Vec3(0.0, 0.3, 0.4));  // a 3-4-5 triangle
    EXPECT_DOUBLE_EQ(maxPointDistance(a->world(), b->world()), 0.5);
}

}  // namespace
}  // namespace tinkerbox
