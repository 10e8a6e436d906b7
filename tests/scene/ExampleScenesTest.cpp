#include "scene/ExampleScenes.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/TestSystems.h"
#include "scene/BenchmarkScenes.h"
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

// Where two JSON trees differ ("" when they agree). Numbers agree to 1e-6 (relative above 1):
// some examples are computed (the rope bridge's start velocity is a constraint solve),
// and a build for the default x86-64 level (no FMA in Eigen's kernels) rounds them differently.
std::string firstDifference(const nlohmann::json& a, const nlohmann::json& b, const std::string& path) {
    if (a.is_number() && b.is_number()) {
        const double x = a.get<double>(), y = b.get<double>();
        const bool close = std::abs(x - y) <= 1e-6 * std::max({1.0, std::abs(x), std::abs(y)});
        return close ? "" : path + ": " + a.dump() + " vs " + b.dump();
    }
    if (a.type() != b.type() || a.size() != b.size()) return path + ": " + a.dump() + " vs " + b.dump();
    if (a.is_object()) {
        for (const auto& [key, value] : a.items()) {
            if (!b.contains(key)) return path + "." + key + ": missing";
            if (auto d = firstDifference(value, b.at(key), path + "." + key); !d.empty()) return d;
        }
        return "";
    }
    if (a.is_array()) {
        for (std::size_t i = 0; i < a.size(); ++i)
            if (auto d = firstDifference(a[i], b[i], path + "[" + std::to_string(i) + "]"); !d.empty()) return d;
        return "";
    }
    return a == b ? "" : path + ": " + a.dump() + " vs " + b.dump();
}

// assets/scenes/NAME.json is the example written by `tinkerbox-sim example NAME -o ...`.
TEST(ExampleScenes, AssetFilesMatchTheBuiltIns) {
    for (const ExampleScene& e : exampleScenes()) {
        const auto file = kAssets / (std::string(e.name) + ".json");
        ASSERT_TRUE(std::filesystem::exists(file)) << file;
        const auto saved = nlohmann::json::parse(serializeScene(loadScene(file)));
        const auto built = nlohmann::json::parse(serializeScene(e.make()));
        EXPECT_EQ(firstDifference(saved, built, "scene"), "")
            << file << " is stale: regenerate it with tinkerbox-sim example";
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

TEST(ExampleScenes, ClothAndHairScenesHaveTheAdvertisedShape) {
    const Scene drape = findExampleScene("cloth-drape")->make();
    ASSERT_EQ(drape.cloths.size(), 1u);
    EXPECT_EQ(drape.cloths[0].columns, 64);
    EXPECT_EQ(drape.cloths[0].rows, 64);
    EXPECT_EQ(drape.particles.size(), 64u * 64u);
    EXPECT_EQ(drape.bodies.size(), 1u);  // the ball
    EXPECT_EQ(drape.planes.size(), 1u);  // the ground
    EXPECT_NE(findExampleScene("flag")->make().field(WindSettings::kind), nullptr);
    for (const char* name : {"hair", "curly-hair"}) {
        const Scene hair = findExampleScene(name)->make();
        ASSERT_EQ(hair.hair.size(), 1u) << name;
        EXPECT_EQ(hair.hair[0].strands, 100) << name;
        EXPECT_EQ(findExampleScene(name)->category, "Cloth & hair");
    }
}

// The drape settles over the ball: from 1.5 s to 2 s the cloth is at rest (its kinetic
// energy below 1 % of the energy it lost falling), none of it inside the ball or below the
// ground (within the contact model's tolerance), and its top rests on the ball's top.
TEST(ExampleScenes, ClothDrapeSettlesOverTheBall) {
    const Scene scene = findExampleScene("cloth-drape")->make();
    const auto sim = buildSimulation(scene);
    const double start = sim->totalEnergy();
    for (int f = 0; f < 90; ++f) ASSERT_FALSE(sim->step().diverged);
    double kinetic = 0.0;
    for (int f = 0; f < 30; ++f) {
        ASSERT_FALSE(sim->step().diverged);
        kinetic = std::max(kinetic, sim->kineticEnergy());
    }
    EXPECT_LT(kinetic, 0.01 * (start - sim->totalEnergy()));
    const World& world = sim->world();
    const Vec3 centre = scene.bodies[0].position;
    const double radius = std::get<SphereShape>(scene.bodies[0].shape).radius;
    double top = -1.0, deepest = 0.0;
    for (Index i = 0; i < world.particleCount(); ++i) {
        const Vec3 x = world.position(i);
        top = std::max(top, x.y());
        deepest = std::max({deepest, radius - (x - centre).norm(), -x.y()});
    }
    EXPECT_NEAR(top, centre.y() + radius, 0.01);
    EXPECT_LT(deepest, 0.005);
}

// The heap's layers stay apart: at the end of each of its first 45 frames (0.75 s, as it
// folds onto the ground), no two particles that no element joins are closer than 0.8 of the
// thickness (the contact step leaves some overlap where folds press on folds). Without self
// collision the layers pass through each other: some such pairs come within a fifth of it.
TEST(ExampleScenes, ClothHeapKeepsItsLayersApart) {
    Scene scene = findExampleScene("cloth-heap")->make();
    const double thickness = scene.settings.contact.selfCollisionThickness;
    ASSERT_GT(thickness, 0.0);
    const auto closestUnjoined = [](const Scene& heap) {
        const auto sim = buildSimulation(heap);
        const World& world = sim->world();
        std::vector<std::pair<Index, Index>> couplings;
        world.couplings(couplings);
        std::set<std::pair<Index, Index>> joined;
        for (const auto& [a, b] : couplings) joined.emplace(std::min(a, b), std::max(a, b));
        double closest = std::numeric_limits<double>::infinity();
        for (int f = 0; f < 45; ++f) {
            EXPECT_FALSE(sim->step().diverged);
            for (Index a = 0; a < world.particleCount(); ++a)
                for (Index b = a + 1; b < world.particleCount(); ++b)
                    if (!joined.contains({a, b}))
                        closest = std::min(closest, (world.position(a) - world.position(b)).norm());
        }
        return closest;
    };
    EXPECT_GT(closestUnjoined(scene), 0.8 * thickness);
    scene.settings.contact.selfCollisionThickness = 0.0;
    EXPECT_LT(closestUnjoined(scene), 0.2 * thickness);
}

// tinkerbox-sim bench's cloth-heap is the example as it is, self collision on, at its own 4
// substeps of a frame.
TEST(ExampleScenes, ClothHeapBenchmarkIsTheExample) {
    const Scene example = findExampleScene("cloth-heap")->make();
    Scene bench = makeBenchmarkScene("cloth-heap");
    const auto scenes = benchmarkScenes();
    const auto row = std::ranges::find(scenes, std::string_view("cloth-heap"), &BenchmarkScene::name);
    ASSERT_NE(row, scenes.end());
    EXPECT_EQ(row->substeps, example.settings.substeps);
    bench.settings.substeps = row->substeps;  // makeBenchmarkScene leaves the step to the bench
    EXPECT_EQ(bench, example);
    EXPECT_GT(bench.settings.contact.selfCollisionThickness, 0.0);
}

// The triangle cloths of the benchmark are the spring cloths' particles with triangle
// energies instead of springs, and implicit Euler takes them a frame per step.
TEST(ExampleScenes, TriangleClothBenchmarksAreTheSpringClothsWithEnergies) {
    const Scene springs = makeBenchmarkScene("cloth-32"), triangles = makeBenchmarkScene("cloth-tri-32");
    EXPECT_EQ(triangles.particles, springs.particles);
    EXPECT_TRUE(triangles.springs.empty());
    ASSERT_EQ(triangles.cloths.size(), 1u);
    EXPECT_EQ(triangles.cloths[0].columns, 32);
    EXPECT_EQ(triangles.cloths[0].rows, 32);
    EXPECT_EQ(triangles.settings.integrator, "implicit-euler");
    const auto sim = buildSimulation(triangles);
    for (int f = 0; f < 30; ++f) ASSERT_FALSE(sim->step().diverged);
    EXPECT_LT(sim->world().position(32 * 32 - 1).y(), triangles.particles.back().position.y() - 0.01);  // it falls
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

// The contact solve of a pile of hundreds of boxes (the 210-box pyramid) costs about a tenth of
// a second per frame: such a model runs its first half second here, and is left out of the
// sweeps below; its standing is measured by `tinkerbox-sim bench --scene pyramid-20`.
constexpr std::size_t kLargePile = 100;

TEST(ExampleScenes, EveryExampleRunsTwoSecondsWithItsOwnSettings) {
    for (const ExampleScene& e : exampleScenes()) {
        const Scene scene = e.make();
        const auto sim = buildSimulation(scene);
        const int frames = scene.bodies.size() > kLargePile ? 30 : 120;
        for (int f = 0; f < frames; ++f) ASSERT_FALSE(sim->step().diverged) << e.name;
    }
}

// No false alarms from the divergence guard: every example runs 10 s with its own settings
// under every integrator, and whenever the guard stops a run, a copy of the run left
// unguarded (stateEdited() before each frame forgets the guard's reference) really does
// blow up: its energy becomes non-finite or 1000 times the guard's budget within
// another 20 s. Many alarms are expected (explicit integrators on the stiff cloth, euler on
// undamped springs); each of them must be real.
// The cloth and hair scenes (energies over thousands of elements) are left out too: the
// explicit methods blow up on their stiffness in the first frame, and adaptive RK4 crawls
// through it (0.5 s of the flag takes it about 10 s of wall time). Implicit Euler, their
// integrator, runs them in the tests above.
bool isClothOrHair(const Scene& scene) { return !scene.cloths.empty() || !scene.hair.empty(); }

class ExampleScenesEveryIntegrator : public ::testing::TestWithParam<std::string_view> {};

TEST_P(ExampleScenesEveryIntegrator, DivergenceAlarmsAreReal) {
    constexpr int kFrames = 600, kBlowUpFrames = 1200;
    for (const ExampleScene& e : exampleScenes()) {
        Scene scene = e.make();
        if (scene.bodies.size() > kLargePile || isClothOrHair(scene)) continue;
        scene.settings.integrator = std::string(GetParam());
        const auto guarded = buildSimulation(scene);
        const EnergyReading start = guarded->energyReading();
        int alarm = -1;
        for (int f = 0; f < kFrames && alarm < 0; ++f)
            if (guarded->step().diverged) alarm = f;
        if (alarm < 0) continue;

        const double budget = start.total + DivergenceGuard::kBudget * start.scale;
        const auto unguarded = buildSimulation(scene);
        bool blewUp = false;
        for (int f = 0; f < alarm + kBlowUpFrames && !blewUp; ++f) {
            unguarded->stateEdited();
            const bool diverged = unguarded->step().diverged;  // only a non-finite state is left to report
            const double energy = unguarded->totalEnergy();
            blewUp = diverged || !std::isfinite(energy) || energy - start.total > 1000.0 * (budget - start.total);
        }
        EXPECT_TRUE(blewUp) << e.name << ": alarm at frame " << alarm << " (t = " << guarded->time()
                            << " s), but unguarded the energy is " << unguarded->totalEnergy()
                            << " J at t = " << unguarded->time() << " s (budget " << budget << " J)";
    }
}

INSTANTIATE_TEST_SUITE_P(AllIntegrators, ExampleScenesEveryIntegrator, test::allIntegrators(),
                         test::IntegratorParamName{});

}  // namespace
}  // namespace tinkerbox
