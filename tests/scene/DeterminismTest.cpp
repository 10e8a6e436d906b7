// Determinism, as Box2D's determinism test pins it: 1000 frames of a constrained example
// under each integrator end in a state whose hash is written down here. A change that
// moves any bit of a run fails this test; when the change is meant to (a new solver, a
// reordered sum), run the test, check the new values are what the change explains, and
// copy them in. The build compiles with -ffp-contract=off, so the optimization level
// does not matter (the -O1 sanitizer build gives the Release values); Eigen's explicit FMA
// kernels do, hence one table per instruction set (-DTINKERBOX_HOST_ARCH=OFF for the other).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <iomanip>
#include <map>
#include <sstream>
#include <string>

#include "core/TestSystems.h"
#include "scene/ExampleScenes.h"
#include "scene/SceneBuilder.h"

namespace tinkerbox {
namespace {

// FNV-1a over the bytes of the doubles.
class StateHash {
public:
    void add(double value) {
        unsigned char bytes[sizeof value];
        std::memcpy(bytes, &value, sizeof value);
        for (unsigned char b : bytes) hash_ = (hash_ ^ b) * 0x100000001b3ull;
    }
    void add(const VecX& values) {
        for (Index i = 0; i < values.size(); ++i) add(values[i]);
    }
    std::uint64_t value() const { return hash_; }

private:
    std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

std::string hex(std::uint64_t value) {
    std::ostringstream out;
    out << "0x" << std::hex << std::setw(16) << std::setfill('0') << value;
    return out.str();
}

std::uint64_t hashAfter1000Frames(const std::string& example, std::string_view integrator) {
    Scene scene = findExampleScene(example)->make();
    scene.settings.integrator = std::string(integrator);
    const auto sim = buildSimulation(scene);
    for (int f = 0; f < 1000; ++f) EXPECT_FALSE(sim->step().diverged) << example << " frame " << f;
    StateHash hash;
    hash.add(sim->time());
    const World& world = sim->world();
    hash.add(world.positions());
    hash.add(VecX(world.velocities().head(3 * world.particleCount())));
    for (Index i = 0; i < world.beadCount(); ++i) {
        const Vec3 x = world.beads().position(i);
        hash.add(x.x());
        hash.add(x.y());
        hash.add(x.z());
    }
    hash.add(world.beads().angularVelocities());
    return hash.value();
}

using Golden = std::map<std::string, std::uint64_t>;  // "example/integrator" -> hash

#if defined(__FMA__)
const Golden kGolden = {
    {"triple-pendulum/euler", 0x15a81e395fa7a448ull},
    {"bead-on-wire/euler", 0xa0cdc9c0f9df78f3ull},
    {"triple-pendulum/midpoint", 0x22417aa5218e396dull},
    {"bead-on-wire/midpoint", 0x42abd171bb845d7dull},
    {"triple-pendulum/rk4", 0x3a940fb52d538d2full},
    {"bead-on-wire/rk4", 0xbb06e806920516a1ull},
    {"triple-pendulum/implicit-euler", 0xcc6388e5a376ba87ull},
    {"bead-on-wire/implicit-euler", 0x13816f8e26910607ull},
    {"triple-pendulum/adaptive", 0x2013549e1bc359aeull},
    {"bead-on-wire/adaptive", 0xb9a542fb02c16206ull},
    {"triple-pendulum/symplectic-euler", 0x695489d5cf0e3bccull},
    {"bead-on-wire/symplectic-euler", 0x9b620112ce55f307ull},
    {"triple-pendulum/verlet", 0x6c5d4fabfba9a5d9ull},
    {"bead-on-wire/verlet", 0xc7f464cd7fcd571eull},
    {"triple-pendulum/projective", 0x0c28cd5d0cbac754ull},
    {"bead-on-wire/projective", 0x0f3341f3dc7954edull},
};
#else
const Golden kGolden = {
    {"triple-pendulum/euler", 0xc4379f6acc56cb3full},
    {"bead-on-wire/euler", 0xa0cdc9c0f9df78f3ull},
    {"triple-pendulum/midpoint", 0x3439aabc09e69e11ull},
    {"bead-on-wire/midpoint", 0x42abd171bb845d7dull},
    {"triple-pendulum/rk4", 0xa3f1c117462ae0b7ull},
    {"bead-on-wire/rk4", 0xbb06e806920516a1ull},
    {"triple-pendulum/implicit-euler", 0xe5d8515fa753e6d0ull},
    {"bead-on-wire/implicit-euler", 0xac0ea7f70c6843f5ull},
    {"triple-pendulum/adaptive", 0x1fe374f8c4b745a3ull},
    {"bead-on-wire/adaptive", 0xb9a542fb02c16206ull},
    {"triple-pendulum/symplectic-euler", 0xd0676ea4665b9c72ull},
    {"bead-on-wire/symplectic-euler", 0x9b620112ce55f307ull},
    {"triple-pendulum/verlet", 0x3f2f8b211ba263d1ull},
    {"bead-on-wire/verlet", 0xc7f464cd7fcd571eull},
    {"triple-pendulum/projective", 0x3fc533fa7370e994ull},
    {"bead-on-wire/projective", 0x280c2cbe8dce0d34ull},
};
#endif

class DeterminismEveryIntegrator : public ::testing::TestWithParam<std::string_view> {};

TEST_P(DeterminismEveryIntegrator, StateHashAfter1000FramesIsPinned) {
    for (const std::string example : {"triple-pendulum", "bead-on-wire"}) {
        const std::string key = example + "/" + std::string(GetParam());
        const auto golden = kGolden.find(key);
        const std::uint64_t actual = hashAfter1000Frames(example, GetParam());
        if (golden == kGolden.end())
            ADD_FAILURE() << "no golden hash for " << key << ": {\"" << key << "\", " << hex(actual) << "ull},";
        else EXPECT_EQ(hex(actual), hex(golden->second)) << "{\"" << key << "\", " << hex(actual) << "ull},";
    }
}

INSTANTIATE_TEST_SUITE_P(AllIntegrators, DeterminismEveryIntegrator, test::allIntegrators(),
                         test::IntegratorParamName{});

}  // namespace
}  // namespace tinkerbox
