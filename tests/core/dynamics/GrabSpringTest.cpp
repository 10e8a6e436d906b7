// The mouse spring's stiffness, damping and cap for what it pulls.
#include "core/dynamics/GrabSpring.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/forces/Cloth.h"

namespace tinkerbox {
namespace {

// A particle of a 3 x 3 triangle cloth (no springs) pulls the whole cloth: 20 rad/s for its
// nine particles' mass, damped critically for the one grabbed, capped at three times the
// cloth's weight; a free particle beside it pulls itself alone.
TEST(GrabSpring, AClothParticlePullsTheWholeCloth) {
    World world;
    constexpr double kMass = 0.01;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) world.addParticle(Vec3(0.5 * j, 0.0, 0.5 * i), Vec3::Zero(), kMass);
    world.addParticle(Vec3(3, 0, 0), Vec3::Zero(), kMass);
    world.addForce(makeStretchShear(gridTriangles(0, 3, 3, 1.0, 1.0), ClothMaterial{}));
    const GrabSpringParameters cloth = grabSpringParameters(world, Anchor(4), 9.81);
    EXPECT_DOUBLE_EQ(cloth.stiffness, 9 * kMass * 400.0);
    EXPECT_DOUBLE_EQ(cloth.damping, 2.0 * std::sqrt(cloth.stiffness * kMass));
    EXPECT_DOUBLE_EQ(cloth.maxForce, 3.0 * 9.81 * 9 * kMass);
    const GrabSpringParameters alone = grabSpringParameters(world, Anchor(9), 9.81);
    EXPECT_DOUBLE_EQ(alone.stiffness, kMass * 400.0);
}

}  // namespace
}  // namespace tinkerbox
