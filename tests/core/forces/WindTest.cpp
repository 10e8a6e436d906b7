// Wind: drag on cloth triangles along their normals, relative to turbulent air.
#include "core/forces/Wind.h"

#include "core/forces/ElementForceChecks.h"

namespace tinkerbox {
namespace {

WindSettings gusty() {
    WindSettings s;
    s.velocity = Vec3(3.0, 0.5, -1.0);
    s.turbulence = 2.0;
    s.drag = 0.8;
    s.tangentialDrag = 0.15;
    s.scale = 0.7;
    s.frequency = 1.5;
    s.seed = 42;
    return s;
}

TEST(Wind, StillTriangleInSteadyWindFeelsTheNormalDrag) {
    WindSettings s;
    s.velocity = Vec3(2.0, 0.0, 4.0);
    s.drag = 0.5;
    World world;
    world.addParticle(Vec3(0, 0, 0), Vec3::Zero(), 1.0);
    world.addParticle(Vec3(2, 0, 0), Vec3::Zero(), 1.0);
    world.addParticle(Vec3(0, 1, 0), Vec3::Zero(), 1.0);
    auto wind = std::make_unique<Wind>(s);
    wind->addTriangle({0, 1, 2});
    world.addForce(std::move(wind));
    VecX f;
    world.appliedForces(f);
    // Area 1, normal z; air velocity along the normal 4: F = c A (n . w) n = (0, 0, 2), a third per corner.
    for (Index i = 0; i < 3; ++i) EXPECT_LT((block3(f, i) - Vec3(0, 0, 2.0 / 3.0)).norm(), 1e-15);
    EXPECT_EQ(world.potentialEnergy(), 0.0);
}

TEST(Wind, SkinFrictionPullsAlongTheFace) {
    WindSettings s;
    s.velocity = Vec3(2.0, 0.0, 4.0);
    s.drag = 0.5;
    s.tangentialDrag = 0.1;
    World world;
    world.addParticle(Vec3(0, 0, 0), Vec3::Zero(), 1.0);
    world.addParticle(Vec3(2, 0, 0), Vec3::Zero(), 1.0);
    world.addParticle(Vec3(0, 1, 0), Vec3::Zero(), 1.0);
    auto wind = std::make_unique<Wind>(s);
    wind->addTriangle({0, 1, 2});
    world.addForce(std::move(wind));
    VecX f;
    world.appliedForces(f);
    // Area 1: along the normal 0.5 x 4, along the face 0.1 x 2; a third per corner.
    for (Index i = 0; i < 3; ++i) EXPECT_LT((block3(f, i) - Vec3(0.2, 0, 2.0) / 3.0).norm(), 1e-15);
}

TEST(Wind, TurbulenceIsDeterministicAndVariesInSpaceAndTime) {
    const Wind a(gusty()), b(gusty());
    WindSettings other = gusty();
    other.seed = 43;
    const Wind c(other);
    const Vec3 x(0.3, -0.2, 1.1);
    EXPECT_EQ(a.airVelocity(x, 0.7), b.airVelocity(x, 0.7));
    EXPECT_GT((a.airVelocity(x, 0.7) - c.airVelocity(x, 0.7)).norm(), 1e-3);
    EXPECT_GT((a.airVelocity(x, 0.7) - a.airVelocity(x, 1.0)).norm(), 1e-3);
    EXPECT_GT((a.airVelocity(x, 0.7) - a.airVelocity(x + Vec3(0.2, 0, 0), 0.7)).norm(), 1e-3);
    // dw/dx by central differences.
    Mat3 gradient;
    a.airVelocity(x, 0.7, &gradient);
    const double eps = 1e-6;
    for (int k = 0; k < 3; ++k) {
        const Vec3 e = Vec3::Unit(k) * eps;
        const Vec3 fd = (a.airVelocity(x + e, 0.7) - a.airVelocity(x - e, 0.7)) / (2.0 * eps);
        EXPECT_LT((gradient.col(k) - fd).norm(), 1e-7);
    }
}

World gustyPatch(unsigned seed) {
    const std::vector<Vec3> rest = {{0, 0, 0}, {1, 0, 0.1}, {0.1, 1, 0}, {1.1, 0.9, 0.3}};
    World world = test::randomlyPerturbed(rest, 0.2, seed);
    world.setTime(0.37);
    auto wind = std::make_unique<Wind>(gusty());
    wind->addTriangle({0, 1, 2});
    wind->addTriangle({1, 3, 2});
    world.addForce(std::move(wind));
    return world;
}

TEST(Wind, ExactJacobiansMatchFiniteDifferences) {
    for (unsigned seed : {1u, 2u, 3u}) {
        World world = gustyPatch(seed);
        test::expectExactJacobiansMatchFiniteDifferences(world);
    }
}

TEST(Wind, DefiniteIsSymmetricNegativeSemiDefinite) {
    World world = gustyPatch(4);
    test::expectDefiniteIsSymmetricNegativeSemiDefinite(world);
}

}  // namespace
}  // namespace tinkerbox
