// Connected components over springs and constraints.
#include "core/dynamics/Connectivity.h"

#include <gtest/gtest.h>

#include "core/constraints/ConstraintSpec.h"
#include "core/constraints/NailConstraint.h"

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

TEST(Connectivity, NoParticlesNoLabels) { EXPECT_TRUE(componentLabels(World{}).empty()); }

}  // namespace
}  // namespace tinkerbox
