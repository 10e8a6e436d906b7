// Joints on rigid bodies: ball joints (a pin between two body points), rods between a body
// point and a particle, hinges, nails and sliders of body points. Their rows' derivatives
// against finite differences at spinning states; chains of each kept together for
// half a minute by every integrator; a body pendulum converging at each method's order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "core/TestSystems.h"

namespace tinkerbox {
namespace {

// A plank 0.3 x 1.0 x 0.2 of mass 2, long along its y axis: its ends are (0, +-0.5, 0).
const Vec3 kPlank(0.3, 1.0, 0.2);
const Vec3 kTop(0.1, 0.5, -0.1), kBottom(-0.15, -0.5, 0.1);

RigidBodySpec plank(const Quat& orientation) {
    RigidBodySpec spec;
    spec.shape = BoxShape{kPlank};
    spec.mass = 2.0;
    spec.orientation = orientation;
    return spec;
}

Quat randomOrientation(std::mt19937& rng) {
    std::normal_distribution<double> normal;
    return Quat(normal(rng), normal(rng), normal(rng), normal(rng)).normalized();
}

Vec3 randomVector(std::mt19937& rng, double scale) {
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    return scale * Vec3(unit(rng), unit(rng), unit(rng));
}

// ---- Derivatives ----

// Two spinning, moving planks and a particle, at a random state.
World randomSpinningWorld(std::mt19937& rng) {
    World world;
    for (int k = 0; k < 2; ++k) {
        RigidBodySpec spec = plank(randomOrientation(rng));
        spec.position = randomVector(rng, 1.0);
        spec.velocity = randomVector(rng, 1.0);
        spec.angularVelocity = randomVector(rng, 2.0);
        world.addRigidBody(spec);
    }
    world.addParticle(randomVector(rng, 1.0) + Vec3(1.5, 0.0, 0.0), randomVector(rng, 1.0), 0.5);
    return world;
}

// Every joint on body points, each away from its C = 0 so that C's derivatives are not
// those of a special point.
std::vector<ConstraintSpec> jointsOnBodies(std::mt19937& rng) {
    const Anchor a = Anchor::onBody(0, kTop), b = Anchor::onBody(1, kBottom);
    return {PinSpec{a, b},
            RodSpec{a, Anchor(0), 1.3},
            RodSpec{Anchor(0), b, 0.7},
            HingeSpec{a, b, randomVector(rng, 1.0).normalized(), randomVector(rng, 1.0).normalized()},
            NailSpec{a, randomVector(rng, 1.0)},
            SliderSpec{b, randomVector(rng, 1.0), randomVector(rng, 1.0).normalized()}};
}

TEST(Joint, RowsMatchFiniteDifferencesAtSpinningStates) {
    std::mt19937 rng(20261124);
    for (int trial = 0; trial < 5; ++trial) {
        World world = randomSpinningWorld(rng);
        for (const ConstraintSpec& spec : jointsOnBodies(rng)) {
            SCOPED_TRACE(std::string(constraintName(spec)) + " trial " + std::to_string(trial));
            const std::unique_ptr<Constraint> joint = makeConstraint(spec);
            test::expectConsistentDerivatives(*joint, world, 1e-7);
        }
    }
}

// ---- Chains ----

enum class JointKind { Ball, Rod, Hinge, Nail, Slider };

const char* jointName(JointKind kind) {
    switch (kind) {
        case JointKind::Ball: return "ball";
        case JointKind::Rod: return "rod";
        case JointKind::Hinge: return "hinge";
        case JointKind::Nail: return "nail";
        case JointKind::Slider: return "slider";
    }
    return "";
}

// Adds a plank whose point `local` is at `joint` (moving with jointVelocity), turned by
// `orientation` and spinning at omega: the velocity of its centre is what makes the joint
// point move with the joint, so that every constraint starts with C = 0 and Cdot = 0.
Index addPlankAt(World& world, const Vec3& joint, const Vec3& jointVelocity, const Vec3& local, const Quat& orientation,
                 const Vec3& omega) {
    RigidBodySpec spec = plank(orientation);
    spec.position = joint - orientation * local;
    spec.velocity = jointVelocity + omega.cross(spec.position - joint);
    spec.angularVelocity = omega;
    return world.addRigidBody(spec);
}

// A fixed post with the joint at its foot, the origin.
Index addPost(World& world) {
    RigidBodySpec post = plank(Quat::Identity());
    post.position = Vec3(0.0, 0.5, 0.0);
    post.fixed = true;
    return world.addRigidBody(post);
}

const Vec3 kPostFoot(0.0, -0.5, 0.0);
const Quat kSwungOut = Quat(Eigen::AngleAxisd(0.9, Vec3(1.0, 0.0, 0.6).normalized()));
const Quat kTwisted = Quat(Eigen::AngleAxisd(-0.5, Vec3(0.3, 1.0, -0.8).normalized()));

// The hinges of the hinge chain: post to plank 1 about world z, plank 1 to plank 2 about
// plank 1's x axis.
struct HingeChain {
    Index post, first, second;
};

HingeChain addHingeChain(World& world) {
    HingeChain chain;
    chain.post = addPost(world);
    const Quat q1(Eigen::AngleAxisd(1.0, Vec3::UnitZ()));
    const Vec3 w1 = 1.5 * Vec3::UnitZ();
    chain.first = addPlankAt(world, Vec3::Zero(), Vec3::Zero(), kTop, q1, w1);
    const Vec3 joint = world.anchorPosition(Anchor::onBody(chain.first, kBottom));
    const Vec3 jointVelocity = world.anchorVelocity(Anchor::onBody(chain.first, kBottom));
    const Quat q2 = q1 * Quat(Eigen::AngleAxisd(-0.7, Vec3::UnitX()));
    chain.second = addPlankAt(world, joint, jointVelocity, kTop, q2, w1 + 2.0 * (q1 * Vec3::UnitX()));
    world.addConstraint(makeConstraint(HingeSpec{Anchor::onBody(chain.post, kPostFoot),
                                                 Anchor::onBody(chain.first, kTop), Vec3::UnitZ(), Vec3::UnitZ()}));
    world.addConstraint(makeConstraint(HingeSpec{Anchor::onBody(chain.first, kBottom),
                                                 Anchor::onBody(chain.second, kTop), Vec3::UnitX(), Vec3::UnitX()}));
    return chain;
}

void addChain(World& world, JointKind kind) {
    switch (kind) {
        case JointKind::Ball: {
            // Post - ball - plank - ball - plank, swung out and spinning.
            const Index post = addPost(world);
            const Index first = addPlankAt(world, Vec3::Zero(), Vec3::Zero(), kTop, kSwungOut, Vec3(0.5, 2.0, -0.3));
            const Anchor bottom = Anchor::onBody(first, kBottom);
            const Index second = addPlankAt(world, world.anchorPosition(bottom), world.anchorVelocity(bottom), kTop,
                                            kTwisted, Vec3(-1.0, 0.4, 1.2));
            world.addConstraint(makeConstraint(PinSpec{Anchor::onBody(post, kPostFoot), Anchor::onBody(first, kTop)}));
            world.addConstraint(makeConstraint(PinSpec{bottom, Anchor::onBody(second, kTop)}));
            return;
        }
        case JointKind::Rod: {
            // Nailed particle - rod - plank - rod - particle.
            const Index pivot = world.addParticle(Vec3::Zero(), Vec3::Zero(), 1.0, true);
            const Vec3 top(0.3, -0.4, 0.2);
            const Index body = addPlankAt(world, top, Vec3::Zero(), kTop, kSwungOut, Vec3(0.5, 2.0, -0.3));
            const Anchor bottom = Anchor::onBody(body, kBottom);
            const Vec3 bob = world.anchorPosition(bottom) + Vec3(0.2, -0.3, -0.1);
            const Index particle = world.addParticle(bob, world.anchorVelocity(bottom), 0.5);
            world.addConstraint(makeConstraint(RodSpec{pivot, Anchor::onBody(body, kTop), top.norm()}));
            world.addConstraint(makeConstraint(RodSpec{bottom, particle, (bob - world.anchorPosition(bottom)).norm()}));
            return;
        }
        case JointKind::Hinge: addHingeChain(world); return;
        case JointKind::Nail: {
            // A plank nailed at a corner: a heavy asymmetric top.
            const Vec3 corner(0.15, 0.5, 0.1);
            const Index body = addPlankAt(world, Vec3::Zero(), Vec3::Zero(), corner, kSwungOut, Vec3(0.5, 3.0, -0.3));
            world.addConstraint(makeConstraint(NailSpec{Anchor::onBody(body, corner), Vec3::Zero()}));
            return;
        }
        case JointKind::Slider: {
            // A plank whose top slides on a tilted line while it swings and spins.
            const Vec3 direction = Vec3(1.0, 0.2, 0.3).normalized();
            const Index body = addPlankAt(world, Vec3::Zero(), 0.8 * direction, kTop, kSwungOut, Vec3(0.5, 2.0, -0.3));
            world.addConstraint(makeConstraint(SliderSpec{Anchor::onBody(body, kTop), Vec3::Zero(), direction}));
            return;
        }
    }
}

// The chains run at dt = 1/60 in 10 substeps. The steps that keep constraints by projection
// (symplectic Euler, Verlet, implicit Euler) hold them to the projection's tolerance, rk4 and
// adaptive rk by the feedback C'' = -ks C - kd C' to far below 1e-6. Explicit Euler and
// midpoint hold them by the feedback alone against their truncation error, which leaves
// each step off C = 0 by O(h^(p+1)): |C| settles at O(h^p) (kd / ks times the drift rate).
// Midpoint meets 1e-6 with 160 substeps; explicit Euler would need some 3e5 per frame, so
// it runs 200 and is held to its O(h) level (measured up to 1.5e-3 at h = 1/12000), and
// JointChain.ExplicitEulerDriftIsFirstOrder checks that this level is the method's.
SimulationSettings chainSettings(std::string_view integrator) {
    SimulationSettings settings = test::simulationSettings(integrator, 1.0 / 60.0);
    settings.substeps = 10;
    settings.integratorSubsteps["midpoint"] = 160;
    settings.integratorSubsteps["euler"] = 200;
    return settings;
}

double chainTolerance(std::string_view integrator) { return integrator == "euler" ? 2e-3 : 1e-6; }

// A hinge lets the bodies turn about its axis only: the axis, fixed in each body, stays
// one line in the world, and the relative angular velocity stays along it. Watches the
// hinge chain's two hinges (post - first plank about world z, first - second about x).
class HingeWatch {
public:
    HingeWatch(const RigidBodies& bodies, const HingeChain& chain)
        : bodies_(bodies),
          chain_(chain),
          relativeStart_(bodies.orientation(chain.first).conjugate() * bodies.orientation(chain.second)) {}

    void observe() {
        const Vec3 z1 = bodies_.rotation(chain_.first) * Vec3::UnitZ();
        const Vec3 w1 = bodies_.angularVelocity(chain_.first);
        const Vec3 xa = bodies_.rotation(chain_.first) * Vec3::UnitX();
        const Vec3 xb = bodies_.rotation(chain_.second) * Vec3::UnitX();
        const Vec3 relative = bodies_.angularVelocity(chain_.second) - w1;
        // The second plank's turn relative to the first, since the start: about x only.
        const Quat turn = relativeStart_.conjugate() * bodies_.orientation(chain_.first).conjugate() *
                          bodies_.orientation(chain_.second);
        misalignment = std::max(
            {misalignment, z1.cross(Vec3::UnitZ()).norm(), xa.cross(xb).norm(), std::hypot(turn.y(), turn.z())});
        offAxisRate = std::max({offAxisRate, w1.cross(Vec3::UnitZ()).norm(), relative.cross(xa).norm()});
        turned = std::max(turned, std::abs(turn.x()));
    }

    double misalignment = 0.0, offAxisRate = 0.0, turned = 0.0;

private:
    const RigidBodies& bodies_;
    HingeChain chain_;
    Quat relativeStart_;
};

using ChainCase = std::tuple<JointKind, std::string_view>;

class JointChain : public ::testing::TestWithParam<ChainCase> {};

// 30 s of a swinging, spinning chain: every joint holds (see chainSettings), and the
// hinges turn about their axes only.
TEST_P(JointChain, HoldsForHalfAMinuteUnderEveryIntegrator) {
    const auto [kind, integrator] = GetParam();
    Simulation sim(chainSettings(integrator));
    World& world = sim.world();
    std::optional<HingeWatch> hinges;
    if (kind == JointKind::Hinge) hinges.emplace(world.rigidBodies(), addHingeChain(world));
    else addChain(world, kind);
    ASSERT_LT(sim.constraintError(), 1e-14);
    double maxError = 0.0;
    for (int frame = 0; frame < 1800; ++frame) {
        const FrameReport report = sim.step();
        ASSERT_FALSE(report.diverged) << report.message;
        maxError = std::max(maxError, sim.constraintError());
        if (hinges) hinges->observe();
    }
    RecordProperty("max_constraint_error", test::scientific(maxError));
    EXPECT_LE(maxError, chainTolerance(integrator));
    if (hinges) {
        RecordProperty("max_axis_misalignment", test::scientific(hinges->misalignment));
        RecordProperty("max_off_axis_rate", test::scientific(hinges->offAxisRate));
        EXPECT_LE(hinges->misalignment, chainTolerance(integrator));
        // The feedback holds Cdot near -(ks / kd) C: 10/s times the misalignment.
        EXPECT_LE(hinges->offAxisRate, 10.0 * chainTolerance(integrator));
        EXPECT_GT(hinges->turned, 0.1);  // the planks did turn on the hinge
    }
    // It moved: no joint held by keeping everything still.
    double speed = 0.0;
    for (Index k = 0; k < world.rigidBodyCount(); ++k) speed = std::max(speed, world.rigidBodies().velocity(k).norm());
    EXPECT_GT(speed, 0.05);
}

INSTANTIATE_TEST_SUITE_P(Joints, JointChain,
                         ::testing::Combine(::testing::Values(JointKind::Ball, JointKind::Rod, JointKind::Hinge,
                                                              JointKind::Nail, JointKind::Slider),
                                            test::allIntegrators()),
                         [](const ::testing::TestParamInfo<ChainCase>& info) {
                             return std::string(jointName(std::get<0>(info.param))) + "_" +
                                    test::IntegratorParamName{}({std::get<1>(info.param), info.index});
                         });

// Explicit Euler's constraint error is first order: halving h halves it. 10 s of each chain
// at 50 and 100 substeps.
TEST(JointChainEuler, ExplicitEulerDriftIsFirstOrder) {
    for (const JointKind kind :
         {JointKind::Ball, JointKind::Rod, JointKind::Hinge, JointKind::Nail, JointKind::Slider}) {
        double error[2] = {0.0, 0.0};
        for (int k = 0; k < 2; ++k) {
            SimulationSettings settings = test::simulationSettings("euler", 1.0 / 60.0);
            settings.substeps = 50 << k;
            Simulation sim(settings);
            addChain(sim.world(), kind);
            for (int frame = 0; frame < 600; ++frame) {
                ASSERT_FALSE(sim.step().diverged);
                error[k] = std::max(error[k], sim.constraintError());
            }
        }
        RecordProperty(std::string(jointName(kind)) + "_error_ratio", std::to_string(error[0] / error[1]));
        EXPECT_NEAR(error[0] / error[1], 2.0, 0.4)
            << jointName(kind) << ": " << error[0] << " at 50 substeps, " << error[1] << " at 100";
    }
}

struct RattleCase {
    std::string_view integrator;
    double energyBound;  // max |E - E0| over the energy scale: O(h) for the Euler steps, O(h^2) for Verlet
};

class RattleNailedTop : public ::testing::TestWithParam<RattleCase> {};

// The integrators that keep constraints by projection (RATTLE) keep the energy of a heavy
// asymmetric top nailed at a corner within a band for a minute, without drift. (Until the
// projection's momentum change used the inertia at the drift's start, and the drift the
// splitting of RigidBodies::drift, the top gained energy step after step: from -3.2 J to
// 241 J in 59 s under symplectic Euler.)
TEST_P(RattleNailedTop, KeepsItsEnergy) {
    const RattleCase c = GetParam();
    SimulationSettings settings = test::simulationSettings(c.integrator, 1.0 / 60.0);
    settings.substeps = 10;
    Simulation sim(settings);
    addChain(sim.world(), JointKind::Nail);
    const double E0 = sim.totalEnergy();
    const double scale = 2.0 * 9.81 * 0.5;  // m g times the plank's length: the swing's energy
    double maxDeviation = 0.0, firstMean = 0.0, lastMean = 0.0;
    for (int frame = 1; frame <= 3600; ++frame) {
        ASSERT_FALSE(sim.step().diverged);
        const double deviation = (sim.totalEnergy() - E0) / scale;
        maxDeviation = std::max(maxDeviation, std::abs(deviation));
        if (frame <= 600) firstMean += deviation / 600;
        if (frame > 3000) lastMean += deviation / 600;
    }
    RecordProperty("max_energy_deviation", test::scientific(maxDeviation));
    RecordProperty("mean_drift", test::scientific(lastMean - firstMean));
    EXPECT_LT(maxDeviation, c.energyBound);
    EXPECT_LT(std::abs(lastMean - firstMean), 5e-4);
}

INSTANTIATE_TEST_SUITE_P(Integrators, RattleNailedTop,
                         ::testing::Values(RattleCase{"symplectic-euler", 5e-3}, RattleCase{"verlet", 5e-4}),
                         [](const ::testing::TestParamInfo<RattleCase>& info) {
                             return test::IntegratorParamName{}({info.param.integrator, info.index});
                         });

// Implicit Euler turns bodies by backward Euler (RigidBodies::driftBackward), which takes
// energy out of a tumbling body and never puts it in: the nailed top's energy only falls
// (to the projection's rounding), as implicit Euler's does for a spring.
TEST(Joint, ImplicitEulerTakesEnergyOutOfANailedTop) {
    SimulationSettings settings = test::simulationSettings("implicit-euler", 1.0 / 60.0);
    settings.substeps = 10;
    Simulation sim(settings);
    addChain(sim.world(), JointKind::Nail);
    const double E0 = sim.totalEnergy();
    const double scale = 2.0 * 9.81 * 0.5;
    double maxGain = -1.0;
    for (int frame = 1; frame <= 3600; ++frame) {
        ASSERT_FALSE(sim.step().diverged);
        maxGain = std::max(maxGain, (sim.totalEnergy() - E0) / scale);
    }
    RecordProperty("max_energy_gain", test::scientific(maxGain));
    RecordProperty("energy_loss", test::scientific((E0 - sim.totalEnergy()) / scale));
    EXPECT_LT(maxGain, 1e-6);
    EXPECT_GT((E0 - sim.totalEnergy()) / scale, 1e-3);
}

// ---- Convergence ----

// A plank on a ball joint at a corner (a body point nailed in place), spinning and swinging
// for T = 1 s: the error against a fine rk4 solution falls as h^p.
constexpr double kEndTime = 1.0;

struct BodyState {
    Vec3 x, v, omega;
    Quat q;
};

BodyState swingBodyPendulum(std::string_view integrator, int steps) {
    SimulationSettings settings = test::simulationSettings(integrator, kEndTime / steps);
    settings.constraints.solver.tolerance = 1e-14;  // the solves far below the truncation error
    Simulation sim(settings);
    addChain(sim.world(), JointKind::Nail);
    for (int k = 0; k < steps; ++k) EXPECT_FALSE(sim.step().diverged);
    EXPECT_NEAR(sim.time(), kEndTime, 1e-12);
    const RigidBodies& bodies = sim.world().rigidBodies();
    return {bodies.position(0), bodies.velocity(0), bodies.angularVelocity(0), bodies.orientation(0)};
}

double stateError(const BodyState& a, const BodyState& b) {
    const double dq = std::min((a.q.coeffs() - b.q.coeffs()).norm(), (a.q.coeffs() + b.q.coeffs()).norm());
    return (a.x - b.x).norm() + (a.v - b.v).norm() + (a.omega - b.omega).norm() + dq;
}

struct OrderCase {
    std::string_view integrator;
    double order;
    int coarsestSteps;  // then three halvings of h
};

class BodyPendulumOrder : public ::testing::TestWithParam<OrderCase> {};

TEST_P(BodyPendulumOrder, ErrorFallsAsPowerOfStepSize) {
    const OrderCase c = GetParam();
    const BodyState reference = swingBodyPendulum("rk4", 6400);
    std::vector<double> h, error;
    for (int n = c.coarsestSteps; n <= 8 * c.coarsestSteps; n *= 2) {
        h.push_back(kEndTime / n);
        error.push_back(stateError(swingBodyPendulum(c.integrator, n), reference));
    }
    const double slope = test::logLogSlope(h, error);
    RecordProperty("measured_order", std::to_string(slope));
    RecordProperty("finest_error", test::scientific(error.back()));
    EXPECT_NEAR(slope, c.order, 0.15) << c.integrator;
    EXPECT_LT(error.back(), 1e-2) << "the finest step must be accurate, not merely converging";
}

INSTANTIATE_TEST_SUITE_P(Integrators, BodyPendulumOrder,
                         ::testing::Values(OrderCase{"euler", 1.0, 1600}, OrderCase{"midpoint", 2.0, 100},
                                           OrderCase{"rk4", 4.0, 50}),
                         [](const auto& info) {
                             return test::IntegratorParamName{}({info.param.integrator, info.index});
                         });

}  // namespace
}  // namespace tinkerbox
