// Connected components over springs, constraints and force elements.
#include "core/dynamics/Connectivity.h"

#include <gtest/gtest.h>

#include "core/constraints/ConstraintSpec.h"
#include "core/constraints/NailConstraint.h"
#include "core/forces/Cloth.h"

namespace tinkerbox {
namespace {

// 0-1 spring, 1-3 rod, 4 nailed alone, 2-5 pin, 6 free: components {0,1,3}, {2,5}, {4}, {6}.
TEST(Connectivity, SpringsAndConstraintsJoinParticlesTransitively) {
    World ps;
    for (int i = 0; i < 7; ++i) ps.addParticle(Vec3(i, 0, 0), Vec3::Zero(), 1.0);
    ps.addSpring(DampedSpring{0, 1, 10.0, 0.0, 1.0});
    ps.addConstraint(makeConstraint(RodSpec{3, 1, 2.0}));
    ps.addConstraint(makeConstraint(NailSpec{4, Vec3(4, 0, 0)}));
    ps.addConstraint(makeConstraint(PinSpec{5, 2}));
    EXPECT_EQ(componentLabels(ps), (std::vector<Index>{0, 0, 1, 0, 2, 1, 3}));
}

// A 3 x 3 triangle cloth (particles 0-8), without springs, is one piece through its
// triangles; so is a strand of hair (9-12) through its joints; 13 is free.
TEST(Connectivity, ClothTrianglesAndHairJointsJoinTheirParticles) {
    World ps;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) ps.addParticle(Vec3(0.5 * j, 0.0, 0.5 * i), Vec3::Zero(), 0.01);
    for (int k = 0; k < 4; ++k) ps.addParticle(Vec3(2.0 + 0.05 * k * k, -0.1 * k, 0.0), Vec3::Zero(), 0.001);
    ps.addParticle(Vec3(5, 0, 0), Vec3::Zero(), 1.0);
    ps.addForce(makeStretchShear(gridTriangles(0, 3, 3, 1.0, 1.0), ClothMaterial{}));
    std::vector<Vec3> positions;
    for (Index i = 0; i < ps.particleCount(); ++i) positions.push_back(ps.position(i));
    HairForces hair = makeHair(positions, 9, 1, 4, HairMaterial{});
    ps.addForce(std::move(hair.joints));  // its bending joints alone, not its segments' springs
    EXPECT_EQ(componentLabels(ps), (std::vector<Index>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2}));
}

TEST(Connectivity, NoParticlesNoLabels) { EXPECT_TRUE(componentLabels(World{}).empty()); }

}  // namespace
}  // namespace tinkerbox
