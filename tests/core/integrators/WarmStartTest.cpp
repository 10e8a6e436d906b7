// The implicit solve's start extrapolated from the last solutions: exact on polynomial
// motion, back to the last solution after a jump, the same from memory, and on a swinging
// cloth fewer CG iterations for answers as accurate.
#include "core/integrators/WarmStart.h"

#include <gtest/gtest.h>

#include "core/forces/Gravity.h"
#include "core/math/ScaledSystems.h"
#include "core/math/SgsConjugateGradient.h"

namespace tinkerbox {
namespace {

TEST(WarmStart, ExtrapolatesAQuadraticExactlyAndFallsBackAfterAJump) {
    const VecX a = VecX::Random(6), b = VecX::Random(6), c = VecX::Random(6);
    const auto quadratic = [&](double k) { return VecX(a + k * b + (k * k) * c); };
    WarmStart warm;
    VecX start;
    warm.predict(6, start);
    EXPECT_EQ(start, VecX::Zero(6));  // nothing to start from
    for (int k = 0; k < 4; ++k) warm.record(quadratic(k));
    EXPECT_EQ(warm.degree(), 2);
    warm.predict(6, start);
    EXPECT_LT((start - quadratic(4)).norm(), 1e-14 * quadratic(4).norm());

    // The motion stops: the step after the jump is predicted from the last solution alone.
    const VecX rest = VecX::Constant(6, 10.0);
    warm.record(rest);
    warm.record(rest);
    EXPECT_EQ(warm.degree(), 0);
    warm.predict(6, start);
    EXPECT_EQ(start, rest);
    warm.predict(9, start);
    EXPECT_EQ(start, VecX::Zero(9));  // another system
}

TEST(WarmStart, MemoryGivesBackTheSamePredictions) {
    WarmStart warm;
    for (int k = 0; k < 5; ++k) warm.record(VecX::Random(12));
    VecX memory = VecX::Constant(3 + warm.memorySize(), -1.0);
    warm.save(memory, 3);
    WarmStart restored;
    restored.restore(memory, 3);
    const VecX next = VecX::Random(12);
    for (int round = 0; round < 2; ++round) {
        VecX expected, got;
        warm.predict(12, expected);
        restored.predict(12, got);
        EXPECT_EQ(got, expected);
        EXPECT_EQ(restored.degree(), warm.degree());
        warm.record(next);
        restored.record(next);
    }
}

// The iterations of the solves of 60 implicit steps of a cloth hanging from its two nailed
// corners, started from the extrapolation and from the last solution; each start's answer is
// checked against the exact step (a 1e-12 solve): as close as the tolerance 1e-4 makes the other.
struct Iterations {
    int fromLast = 0, fromPrediction = 0;
};

Iterations swingingClothIterations(const Vec3& gravity, const Vec3& push) {
    World world;
    const int n = 24;
    test::addCloth(world, n, 0.02, 1.0, 500.0, 0.01, 0.001);
    world.addForce(std::make_unique<Gravity>(gravity));
    for (Index i = 0; i < world.particleCount(); ++i)
        if (i != 0 && i != n - 1) world.setVelocity(i, push);  // not the nailed corners
    const auto integrator = makeIntegrator("implicit-euler");
    WarmStart warm;
    VecX last, predicted, exact;
    SgsConjugateGradient solver;
    Iterations total;
    for (int frame = 0; frame < 60; ++frame) {
        const test::ImplicitSystem s = test::implicitSystem(world);
        exact = VecX::Zero(s.rhs.size());
        EXPECT_TRUE(solver.solve(s.J, s.mass, s.fixed, s.rhs, exact, CgSettings{1e-12, 2000}).converged);
        VecX x = last.size() == s.rhs.size() ? last : VecX::Zero(s.rhs.size());
        const CgResult a = solver.solve(s.J, s.mass, s.fixed, s.rhs, x, CgSettings{1e-4, 1000});
        warm.predict(s.rhs.size(), predicted);
        const CgResult b = solver.solve(s.J, s.mass, s.fixed, s.rhs, predicted, CgSettings{1e-4, 1000});
        EXPECT_TRUE(a.converged && b.converged);
        total.fromLast += a.iterations;
        total.fromPrediction += b.iterations;
        EXPECT_LT(test::relativeEnergyError(s, predicted, exact),
                  std::max(3.0 * test::relativeEnergyError(s, x, exact), 3e-4))
            << frame;
        last = x;
        warm.record(predicted);
        StepReport report;
        integrator->step(world, 1.0 / 60.0, report);
    }
    return total;
}

// Hanging in its plane and pushed out of it at 0.5 m/s, the cloth swings smoothly: the
// extrapolated starts save at least a tenth of the iterations. Falling flat from its corners
// it whips, its step-to-step motion rough: they cost at most 2 % more.
TEST(WarmStart, SavesIterationsOnASwingingClothForAnswersAsAccurate) {
    const Iterations swinging = swingingClothIterations(Vec3(0.0, 0.0, 9.81), Vec3(0.0, 0.5, 0.0));
    EXPECT_LT(swinging.fromPrediction, 0.9 * swinging.fromLast);
    const Iterations falling = swingingClothIterations(Vec3(0.0, -9.81, 0.0), Vec3::Zero());
    EXPECT_LT(falling.fromPrediction, 1.02 * falling.fromLast);
}

}  // namespace
}  // namespace tinkerbox
