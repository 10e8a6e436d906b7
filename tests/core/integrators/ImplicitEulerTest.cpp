// Linearized backward Euler: stable where explicit Euler is not, and dissipative.
#include "core/integrators/ImplicitEuler.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/TestSystems.h"
#include "core/forces/Gravity.h"
#include "core/forces/ViscousDrag.h"

namespace tinkerbox {
namespace {

// A particle on a stiff spring (w = 100 rad/s) to a nail, moving along the spring axis so
// the force is linear in the stretch u: an undamped oscillator z = v + i w u. Euler maps
// z -> (1 + i w h) z and backward Euler z -> z / (1 - i w h), so each step multiplies the
// energy by exactly 1 + (wh)^2 or 1 / (1 + (wh)^2).
World makeStiffSpring(double stiffness, double stretch) {
    World ps;
    ps.addParticle(Vec3::Zero(), Vec3::Zero(), 1.0, true);
    ps.addParticle(Vec3(1.0 + stretch, 0.0, 0.0), Vec3::Zero(), 1.0);
    ps.addSpring({0, 1, stiffness, 0.0, 1.0});
    return ps;
}

TEST(ImplicitEuler, StableOnStiffSpringWhereEulerDiverges) {
    const double stiffness = 1e4, h = 0.02;  // wh = 2: far beyond any explicit method's stability
    const double factor = 1.0 + stiffness * h * h;

    World explicitPs = makeStiffSpring(stiffness, 0.01);
    const double e0 = explicitPs.totalEnergy();
    const auto euler = makeIntegrator("euler");
    // Five steps keep |u| below the rest length, where the spring is exactly linear.
    test::stepMany(*euler, explicitPs, h, 5);
    EXPECT_NEAR(explicitPs.totalEnergy() / e0, std::pow(factor, 5), 1e-9 * std::pow(factor, 5));
    test::stepMany(*euler, explicitPs, h, 40);
    const double exploded = explicitPs.totalEnergy();
    EXPECT_TRUE(!std::isfinite(exploded) || exploded > 1e12 * e0) << exploded;

    World ps = makeStiffSpring(stiffness, 0.01);
    const auto implicit = makeIntegrator("implicit-euler", test::tightSolver());
    StepReport report;
    for (int k = 1; k <= 200; ++k) {
        implicit->step(ps, h, report);
        EXPECT_TRUE(report.linearSolve.converged);
        ASSERT_LE(std::abs(ps.position(1).x() - 1.0), 0.01) << "amplitude grew at step " << k;
        const double expected = std::pow(factor, -k);
        // Absolute floor: the stretch is x - 1, so it carries round-off of about 1e-16.
        ASSERT_NEAR(ps.totalEnergy() / e0, expected, 1e-9 * expected + 1e-15) << "step " << k;
    }
}

// The test equation x' = -kx of Witkin & Baraff, Differential Equation Basics, as a particle in viscous drag: v' =
// -(kd/m) v. Euler is unstable for h > 2m/kd; backward Euler gives v_n = v0 / (1 + h kd/m)^n.
TEST(ImplicitEuler, DragDecayMatchesBackwardEulerWhereEulerOscillatesAndGrows) {
    const double kd = 200.0, mass = 2.0, h = 0.03;  // h kd / m = 3 > 2
    const Vec3 v0(1.0, 2.0, -1.0);
    const auto run = [&](std::string_view name, int steps) {
        World ps;
        ps.addParticle(Vec3::Zero(), v0, mass);
        ps.addForce(std::make_unique<ViscousDrag>(kd));
        const auto integrator = makeIntegrator(name, test::tightSolver());
        test::stepMany(*integrator, ps, h, steps);
        return ps.velocity(0);
    };
    const int n = 20;
    EXPECT_LT((run("euler", n) - std::pow(1.0 - h * kd / mass, n) * v0).norm(), 1e-9 * std::pow(2.0, n));
    EXPECT_GT(run("euler", n).norm(), 1e5 * v0.norm());
    const Vec3 expected = v0 / std::pow(1.0 + h * kd / mass, n);
    EXPECT_LT((run("implicit-euler", n) - expected).norm(), 1e-12 * expected.norm());
}

// Energy may only decrease, step by step. The tolerance covers the CG residual.
void expectNoEnergyGain(World& ps, double h, int steps) {
    const auto implicit = makeIntegrator("implicit-euler", test::tightSolver());
    const double e0 = ps.totalEnergy();
    const double slack = 1e-9 * std::max(1.0, std::abs(e0));
    double previous = e0;
    for (int k = 1; k <= steps; ++k) {
        StepReport report;
        implicit->step(ps, h, report);
        ASSERT_TRUE(report.linearSolve.converged) << "step " << k;
        const double e = ps.totalEnergy();
        ASSERT_LE(e, previous + slack) << "energy grew at step " << k << " with h = " << h;
        previous = e;
    }
    EXPECT_LT(previous, e0) << "undamped motion under implicit Euler should lose energy";
}

// Zero-rest-length springs and gravity are linear forces: the linearized step is exact
// backward Euler, which dissipates energy at every step size.
TEST(ImplicitEuler, NeverGainsEnergyWithLinearSpringsAtAnyStep) {
    for (double h : {1.0 / 240.0, 1.0 / 30.0, 0.2}) {
        World ps;
        test::addChain(ps, 10, Vec3::Zero(), Vec3::UnitX(), 0.0, 1.0, 200.0, 0.0, 0.05);
        for (Index i = 1; i < ps.particleCount(); ++i) ps.setPosition(i, Vec3(0.15 * i, 0.0, 0.05 * i));
        ps.addForce(std::make_unique<Gravity>(Vec3(0.0, -9.81, 0.0)));
        expectNoEnergyGain(ps, h, static_cast<int>(3.0 / h));
    }
}

// Springs with a rest length are geometrically nonlinear, so one Newton step is only an
// approximation of backward Euler; at frame-sized steps it must still never gain energy.
TEST(ImplicitEuler, NeverGainsEnergyOnUndampedClothAndChainAtFrameSteps) {
    for (double h : {1.0 / 120.0, 1.0 / 60.0, 1.0 / 30.0}) {
        for (double stretch : {0.7, 1.5}) {  // released compressed and stretched
            World cloth;
            test::addCloth(cloth, 5, 0.1, stretch, 200.0, 0.0, 0.05);
            cloth.addForce(std::make_unique<Gravity>(Vec3(0.0, -9.81, 0.0)));
            expectNoEnergyGain(cloth, h, static_cast<int>(1.0 / h));

            World chain;
            test::addChain(chain, 10, Vec3::Zero(), Vec3::UnitX(), 0.1, stretch, 200.0, 0.0, 0.05);
            chain.addForce(std::make_unique<Gravity>(Vec3(0.0, -9.81, 0.0)));
            expectNoEnergyGain(chain, h, static_cast<int>(1.0 / h));
        }
    }
}

}  // namespace
}  // namespace tinkerbox
