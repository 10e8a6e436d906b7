// The stepping loop: live integrator changes, divergence handling, determinism.
#include "core/pipeline/Simulation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/TestSystems.h"
#include "core/forces/MouseSpring.h"

namespace tinkerbox {
namespace {

// A damped cloth falling onto the ground 0.1 m below (it lands after about 0.15 s), one
// corner dragged by a mouse spring.
void buildScene(Simulation& sim) {
    World& ps = sim.world();
    test::addCloth(ps, 4, 0.2, 1.0, 300.0, 0.5, 0.1);
    for (Index i = 0; i < ps.particleCount(); ++i) ps.setPosition(i, ps.position(i) + Vec3(0.0, 0.3, 0.0));
    ps.setNailed(3, false);
    auto& mouse = static_cast<MouseSpring&>(ps.addForce(std::make_unique<MouseSpring>(3, 50.0, 2.0, 20.0)));
    mouse.setTarget(Vec3(1.0, 1.0, 0.0), Vec3(0.5, 0.0, 0.0));
    Plane floor;
    floor.point = Vec3(0.0, 0.2, 0.0);
    ps.addPlane(floor);
}

// Eight substeps keep explicit Euler stable on this cloth (w about 110 rad/s).
SimulationSettings sceneSettings(std::string_view integrator) {
    SimulationSettings settings = test::simulationSettings(integrator, 1.0 / 120.0);
    settings.substeps = 8;
    settings.drag = 0.05;
    return settings;
}

class SimulationEveryIntegrator : public ::testing::TestWithParam<std::string_view> {};

// After a switch the state is untouched, and the next frame is exactly what the new
// integrator does from that state in a fresh simulation.
TEST_P(SimulationEveryIntegrator, SwitchingIntegratorKeepsTheStateAndContinuesFromIt) {
    Simulation sim(sceneSettings("rk4"));
    buildScene(sim);
    for (int k = 0; k < 30; ++k) ASSERT_FALSE(sim.step().diverged);
    const VecX before = test::stateOf(sim.world());
    const double t = sim.time();
    EXPECT_NEAR(t, 30.0 / 120.0, 1e-14);

    sim.setIntegrator(std::string(GetParam()));
    EXPECT_EQ(sim.integrator().name(), GetParam());
    EXPECT_TRUE(test::stateOf(sim.world()) == before);
    EXPECT_EQ(sim.time(), t);

    Simulation fresh(sceneSettings(GetParam()));
    buildScene(fresh);
    fresh.world().setState(before, t);
    ASSERT_FALSE(sim.step().diverged);
    ASSERT_FALSE(fresh.step().diverged);
    EXPECT_TRUE(test::stateOf(sim.world()) == test::stateOf(fresh.world()));
    EXPECT_FALSE(test::stateOf(sim.world()) == before);
}

TEST_P(SimulationEveryIntegrator, IdenticalRunsAreBitwiseIdentical) {
    Simulation a(sceneSettings(GetParam())), b(sceneSettings(GetParam()));
    buildScene(a);
    buildScene(b);
    const VecX start = test::stateOf(a.world());
    int contacts = 0;
    for (int k = 0; k < 30; ++k) {
        const FrameReport report = a.step();
        ASSERT_FALSE(report.diverged) << report.message;
        ASSERT_FALSE(b.step().diverged);
        contacts += report.contact.contacts;
    }
    EXPECT_GT(contacts, 0) << "the run should include plane contacts";
    EXPECT_TRUE(test::stateOf(a.world()) == test::stateOf(b.world()));
    EXPECT_EQ(a.time(), b.time());
    EXPECT_GT((test::stateOf(a.world()) - start).norm(), 0.1);
}

// A frame run a few substeps at a time (as the app does on a time budget) ends in
// bitwise the state, time and report of the whole frame in one call; the calls before
// its last substep report it unfinished.
TEST_P(SimulationEveryIntegrator, AFrameSplitOverCallsIsBitwiseTheWholeFrame) {
    Simulation whole(sceneSettings(GetParam())), split(sceneSettings(GetParam()));
    buildScene(whole);
    buildScene(split);
    int contacts = 0;
    for (int k = 0; k < 30; ++k) {
        const FrameReport expected = whole.step();
        ASSERT_FALSE(expected.diverged) << expected.message;
        FrameReport report = split.advance(3);  // 3 + 3 + 2 of the 8 substeps
        for (int calls = 1; !report.finished; ++calls) {
            ASSERT_LT(calls, 3);
            EXPECT_EQ(split.substepsDone(), 3 * calls);
            report = split.advance(3);
        }
        EXPECT_EQ(split.substepsDone(), 0);
        EXPECT_FALSE(report.diverged);
        EXPECT_EQ(report.contact.contacts, expected.contact.contacts);
        EXPECT_EQ(report.integrator.derivativeEvaluations, expected.integrator.derivativeEvaluations);
        EXPECT_EQ(report.integrator.stepSizes, expected.integrator.stepSizes);
        EXPECT_EQ(report.integrator.linearSolve.iterations, expected.integrator.linearSolve.iterations);
        ASSERT_TRUE(test::stateOf(split.world()) == test::stateOf(whole.world())) << "frame " << k;
        ASSERT_EQ(split.time(), whole.time());
        contacts += report.contact.contacts;
    }
    EXPECT_GT(contacts, 0) << "the run should include plane contacts";
    EXPECT_EQ(split.time(), 30.0 * (1.0 / 120.0));  // t0 + n dt, not a sum
}

INSTANTIATE_TEST_SUITE_P(AllIntegrators, SimulationEveryIntegrator, test::allIntegrators(),
                         test::IntegratorParamName{});

// A particle on a stiff spring (w = 100) to a nail, no gravity: explicit Euler at
// h = 0.05 (wh = 5) multiplies the energy by 26 per step.
void buildStiffSpring(Simulation& sim) {
    sim.world().addParticle(Vec3::Zero(), Vec3::Zero(), 1.0, true);
    sim.world().addParticle(Vec3(1.1, 0.2, 0.0), Vec3::Zero(), 1.0);
    sim.world().addSpring({0, 1, 1e4, 0.0, 1.0});
}

SimulationSettings stiffSettings(std::string_view integrator) {
    SimulationSettings settings = test::simulationSettings(integrator, 0.05);
    settings.gravity = Vec3::Zero();
    return settings;
}

// A frame whose state overflows is undone back to its own start: here the frames
// before it were fine (implicit Euler), then one Euler frame of 1000 substeps overflows.
TEST(Simulation, NonFiniteFrameIsReportedAndRolledBackToItsStart) {
    Simulation sim(stiffSettings("implicit-euler"));
    buildStiffSpring(sim);
    for (int k = 0; k < 5; ++k) ASSERT_FALSE(sim.step().diverged);
    const VecX frameStart = test::stateOf(sim.world());
    const double frameTime = sim.time();

    sim.setIntegrator("euler");
    sim.setTimeStep(50.0, 1000);  // h = 0.05: 26x energy per substep overflows within the frame
    const FrameReport report = sim.step();
    ASSERT_TRUE(report.diverged) << "euler should have overflowed";
    EXPECT_NE(report.message.find("euler"), std::string::npos) << report.message;
    EXPECT_NE(report.message.find("dt = 50"), std::string::npos) << report.message;
    EXPECT_NE(report.message.find("1000 substeps"), std::string::npos) << report.message;
    EXPECT_TRUE(test::stateOf(sim.world()) == frameStart);
    EXPECT_EQ(sim.time(), frameTime);

    // The suggested remedy works from the restored state.
    sim.setIntegrator("implicit-euler");
    EXPECT_FALSE(sim.step().diverged);
    EXPECT_TRUE(test::stateOf(sim.world()).allFinite());
}

// A run that explodes while staying finite is caught by the energy guard and taken
// back to one of the frame starts from before the explosion (Simulation.h).
TEST(Simulation, EnergyExplosionIsReportedAndRolledBackToAnEarlierFrame) {
    Simulation sim(stiffSettings("euler"));
    buildStiffSpring(sim);
    std::vector<VecX> starts;
    std::vector<double> times;
    FrameReport report;
    do {
        starts.push_back(test::stateOf(sim.world()));
        times.push_back(sim.time());
        report = sim.step();
        ASSERT_TRUE(test::stateOf(sim.world()).allFinite());
    } while (!report.diverged && starts.size() < 100);
    ASSERT_TRUE(report.diverged) << "euler should have exploded";
    EXPECT_NE(report.message.find("euler"), std::string::npos) << report.message;
    EXPECT_NE(report.message.find("dt = 0.05"), std::string::npos) << report.message;

    const VecX restored = test::stateOf(sim.world());
    std::size_t k = 0;
    while (k < starts.size() && !(starts[k] == restored)) ++k;
    ASSERT_LT(k, starts.size()) << "the restored state is not one the run passed through";
    EXPECT_EQ(sim.time(), times[k]);
    // Back before the explosion: the energy is that of the start, not the grown one.
    Simulation initial(stiffSettings("euler"));
    buildStiffSpring(initial);
    EXPECT_LE(sim.world().totalEnergy(), 26.0 * initial.world().totalEnergy());
}

// Slow, steady growth is divergence too: explicit Euler on an undamped spring
// (w = 141 rad/s, h w = 0.14) gains 2 % of the energy per step, so the energy never
// grows 1000-fold within a few frames; left alone it reaches 1e39 J by t = 5 s. The
// energy budget catches it long before, and the run goes back to a frame from before.
TEST(Simulation, SteadyEnergyGrowthIsCaughtByTheBudget) {
    SimulationSettings settings = test::simulationSettings("euler", 1e-3);
    Simulation sim(settings);
    sim.world().addParticle(Vec3::Zero(), Vec3::Zero(), 1.0, true);
    sim.world().addParticle(Vec3(0.5, 0.0, 0.0), Vec3(1.0, 0.0, 0.0), 0.5);
    sim.world().addSpring({0, 1, 1e4, 0.0, 0.5});
    const EnergyReading start = sim.energyReading();
    FrameReport report;
    while (!report.diverged && sim.time() < 5.0) report = sim.step();
    ASSERT_TRUE(report.diverged) << "energy " << sim.totalEnergy() << " J at t = " << sim.time();
    EXPECT_NE(report.message.find("energy grew"), std::string::npos) << report.message;
    EXPECT_NE(report.message.find("dt = 0.001"), std::string::npos) << report.message;
    EXPECT_LT(sim.time(), 1.0);
    // Rolled back to a state within the budget.
    EXPECT_LE(sim.totalEnergy(), start.total + DivergenceGuard::kBudget * start.scale);
}

// The work an input does is not divergence: a mouse spring whirls a particle around
// (no gravity, so the model's own energy scale is 1 J) until its kinetic energy is far
// above the budget of the first frame, and the run goes on.
TEST(Simulation, WorkDoneByTheMouseIsNotDivergence) {
    SimulationSettings settings = test::simulationSettings("rk4", 1.0 / 60.0);
    settings.gravity = Vec3::Zero();
    Simulation sim(settings);
    sim.world().addParticle(Vec3(1.0, 0.0, 0.0), Vec3::Zero(), 1.0);
    auto& mouse = static_cast<MouseSpring&>(sim.world().addForce(std::make_unique<MouseSpring>(0, 400.0, 40.0, 1e3)));
    mouse.setTarget(Vec3(1.0, 0.0, 0.0));
    const EnergyReading start = sim.energyReading();
    double peak = 0.0;
    for (int f = 0; f < 600; ++f) {
        const double w = 8.0, t = sim.time();
        mouse.setTarget(Vec3(std::cos(w * t), std::sin(w * t), 0.0), w * Vec3(-std::sin(w * t), std::cos(w * t), 0.0));
        sim.drivenByInput();
        const FrameReport report = sim.step();
        ASSERT_FALSE(report.diverged) << report.message;
        peak = std::max(peak, sim.kineticEnergy());
    }
    EXPECT_GT(peak, start.total + DivergenceGuard::kBudget * start.scale) << "the test should exceed the budget";
}

// A frame starts from the reading the last one ended with only while nothing changed: raising
// gravity 10^6-fold between frames (a resting particle 100 m up gains 1e5 J of potential
// energy) rebases the guard's budget on a reading with the new gravity, not on the last
// frame's 0.1 J. (Two frames: in a third the particle's kinetic energy passes 1000 times the
// energy scale of the frames before the change, which the guard takes for divergence.)
TEST(Simulation, AChangeOfGravityBetweenFramesIsReadAfresh) {
    SimulationSettings settings = test::simulationSettings("implicit-euler", 1.0 / 60.0);
    settings.gravity = Vec3(0.0, -1e-3, 0.0);
    Simulation sim(settings);
    sim.world().addParticle(Vec3(0.0, 100.0, 0.0), Vec3::Zero(), 1.0);
    for (int f = 0; f < 3; ++f) ASSERT_FALSE(sim.step().diverged);
    sim.setGravity(Vec3(0.0, -1e3, 0.0));
    for (int f = 0; f < 2; ++f) {
        const FrameReport report = sim.step();
        ASSERT_FALSE(report.diverged) << report.message;
    }
    EXPECT_LT(sim.world().position(0).y(), 100.0);
}

// The advice fits the integrator: implicit Euler that overflows is not told to try itself.
TEST(Simulation, DivergenceAdviceFitsTheIntegrator) {
    SimulationSettings settings = test::simulationSettings("implicit-euler", 10.0);
    Simulation sim(settings);
    sim.world().addParticle(Vec3::Zero(), Vec3(1e308, 0.0, 0.0), 1.0);
    const FrameReport report = sim.step();
    ASSERT_TRUE(report.diverged);
    EXPECT_NE(report.message.find("implicit-euler diverged"), std::string::npos) << report.message;
    EXPECT_EQ(report.message.find("or implicit-euler"), std::string::npos) << report.message;
}

// A box sliding on the ground under a drag of 1e50 N s/m (a scene's mistake): an explicit
// step takes its velocity to about 1e48 m/s, finite, whose square in the contact step's
// impulses is not. Under both contact models the frame is reported as the integrator's
// divergence in the contact step (or by its energy), rolled back to its start, and nothing
// non-finite stays in the state.
TEST(Simulation, AContactStepAtSpeedsThatOverflowIsRolledBackToTheFrameStart) {
    for (const ContactModelKind* kind : contactModelKinds()) {
        const std::string model(kind->name);
        SimulationSettings settings = test::simulationSettings("symplectic-euler", 1.0 / 60.0);
        settings.substeps = 4;
        settings.drag = 1e50;
        settings.contactModel = model;
        Simulation sim(settings);
        RigidBodySpec box;
        box.position = Vec3(0.0, 0.5, 0.0);
        box.velocity = Vec3(1.0, 0.0, 0.0);
        sim.world().addRigidBody(box);
        sim.world().addPlane(Plane{});
        const VecX start = test::stateOf(sim.world());
        const FrameReport report = sim.step();
        ASSERT_TRUE(report.diverged) << model;
        EXPECT_NE(report.message.find("symplectic-euler diverged"), std::string::npos) << report.message;
        EXPECT_NE(report.message.find("dt = 0.0166667 (4 substeps)"), std::string::npos) << report.message;
        EXPECT_TRUE(test::stateOf(sim.world()) == start) << model;
        EXPECT_EQ(sim.time(), 0.0);
        EXPECT_TRUE(std::isfinite(sim.totalEnergy())) << model;
    }
}

// Boxes piled on one spot (a scene's mistake) overlap in n (n - 1) / 2 pairs of four points:
// past the contact model's bound the frame stops, says why and where, and goes back to its
// start, instead of taking gigabytes (ObaContact::kMaxContactPoints: 200 boxes make 79,600
// points, over oba's bound).
TEST(Simulation, ContactPointsPastTheBoundStopTheFrameAndSaySo) {
    SimulationSettings settings = test::simulationSettings("rk4", 1.0 / 60.0);
    settings.contactModel = "oba";
    Simulation sim(settings);
    RigidBodySpec box;
    box.position = Vec3(0.0, 0.5, 0.0);
    for (int k = 0; k < 200; ++k) sim.world().addRigidBody(box);
    sim.world().addPlane(Plane{});
    const VecX start = test::stateOf(sim.world());
    const FrameReport report = sim.step();
    ASSERT_TRUE(report.diverged);
    EXPECT_TRUE(report.contactBound);
    EXPECT_NE(report.message.find("the contact step (oba) stopped under rk4 at t = "), std::string::npos)
        << report.message;
    EXPECT_NE(report.message.find("more than 65536 contact points"), std::string::npos) << report.message;
    EXPECT_TRUE(test::stateOf(sim.world()) == start);
    EXPECT_EQ(sim.time(), 0.0);
}

// An integrator that gives up (adaptive cannot meet an impossible tolerance) is
// reported the same way, with its own reason.
TEST(Simulation, IntegratorFailureIsReportedAndTheFrameRolledBack) {
    SimulationSettings settings = test::simulationSettings("adaptive", 1.0 / 60.0);
    settings.solver.adaptiveTolerance = 1e-30;
    Simulation sim(settings);
    sim.world().addParticle(Vec3(0.0, 1.0, 0.0), Vec3(1.0, 0.0, 0.0), 1.0);
    sim.world().addParticle(Vec3(1.0, 1.0, 0.0), Vec3::Zero(), 1.0);
    sim.world().addSpring({0, 1, 10.0, 0.0, 0.5});
    const VecX start = test::stateOf(sim.world());
    const FrameReport report = sim.step();
    ASSERT_TRUE(report.diverged);
    EXPECT_NE(report.message.find("adaptive"), std::string::npos) << report.message;
    EXPECT_NE(report.message.find("underflow"), std::string::npos) << report.message;
    EXPECT_TRUE(test::stateOf(sim.world()) == start);
    EXPECT_EQ(sim.time(), 0.0);
}

// A frame that overflows (after some 400 of its 1000 substeps) in one of its calls of 50
// substeps is rolled back to its start, with the message of the whole frame in one call.
TEST(Simulation, ANonFiniteSplitFrameIsRolledBackToItsStart) {
    Simulation whole(stiffSettings("implicit-euler")), split(stiffSettings("implicit-euler"));
    for (Simulation* sim : {&whole, &split}) {
        buildStiffSpring(*sim);
        for (int k = 0; k < 5; ++k) ASSERT_FALSE(sim->step().diverged);
        sim->setIntegrator("euler");
        sim->setTimeStep(50.0, 1000);
    }
    const VecX frameStart = test::stateOf(split.world());
    const double frameTime = split.time();
    const FrameReport expected = whole.step();
    ASSERT_TRUE(expected.diverged);
    FrameReport report = split.advance(50);
    int calls = 1;
    for (; !report.finished; ++calls) {
        EXPECT_FALSE(report.diverged);
        report = split.advance(50);
    }
    EXPECT_GT(calls, 1) << "the overflow should come in a later call, as the test assumes";
    EXPECT_LT(calls, 20) << "the frame should not have finished";
    ASSERT_TRUE(report.diverged);
    EXPECT_EQ(report.message, expected.message);
    EXPECT_EQ(split.substepsDone(), 0);
    EXPECT_TRUE(test::stateOf(split.world()) == frameStart);
    EXPECT_EQ(split.time(), frameTime);
}

// The energy guard's checks come at the ends of frames, however the frames are split:
// the explosion is caught at the same frame, rolled back to the same state.
TEST(Simulation, AnEnergyExplosionInSplitFramesIsRolledBackAsInWholeOnes) {
    SimulationSettings settings = stiffSettings("euler");
    settings.dt = 0.015;  // h w = 0.3: the energy grows 9 % a substep, over several frames
    settings.substeps = 5;
    Simulation whole(settings), split(settings);
    buildStiffSpring(whole);
    buildStiffSpring(split);
    FrameReport expected, report;
    int frames = 0;
    while (!expected.diverged && frames < 100) {
        expected = whole.step();
        do report = split.advance(2);
        while (!report.finished);
        ++frames;
        ASSERT_EQ(report.diverged, expected.diverged) << "frame " << frames;
        ASSERT_TRUE(test::stateOf(split.world()) == test::stateOf(whole.world())) << "frame " << frames;
        ASSERT_EQ(split.time(), whole.time());
    }
    ASSERT_TRUE(report.diverged) << "euler should have exploded";
    EXPECT_GT(frames, 1);
    EXPECT_EQ(report.message, expected.message);
}

// An edit, a new integrator or a new time step in the middle of a frame ends that frame
// where it is: the state and time stay, and the next frame is a whole frame of the new
// settings from there, as in a fresh simulation started from that state.
TEST(Simulation, AChangeInTheMiddleOfAFrameEndsItWhereItIs) {
    const auto change = [](const char* what, const std::function<void(Simulation&)>& apply) {
        SCOPED_TRACE(what);
        Simulation sim(sceneSettings("rk4"));
        buildScene(sim);
        for (int k = 0; k < 10; ++k) ASSERT_FALSE(sim.step().diverged);
        ASSERT_FALSE(sim.advance(3).finished);
        const VecX middle = test::stateOf(sim.world());
        const double t = sim.time();
        EXPECT_NEAR(t, 10.0 / 120.0 + 3.0 / 960.0, 1e-15);
        apply(sim);
        EXPECT_EQ(sim.substepsDone(), 0);
        EXPECT_TRUE(test::stateOf(sim.world()) == middle);
        EXPECT_EQ(sim.time(), t);

        Simulation fresh(sim.settings());
        buildScene(fresh);
        fresh.world().setState(middle, t);
        for (int k = 0; k < 2; ++k) {
            const FrameReport report = sim.step(), expected = fresh.step();
            ASSERT_TRUE(report.finished);
            ASSERT_FALSE(report.diverged);
            EXPECT_EQ(report.contact.contacts, expected.contact.contacts);
            EXPECT_EQ(report.integrator.derivativeEvaluations, expected.integrator.derivativeEvaluations);
        }
        EXPECT_TRUE(test::stateOf(sim.world()) == test::stateOf(fresh.world()));
        EXPECT_EQ(sim.time(), fresh.time());
        EXPECT_EQ(sim.time(), t + 2.0 * sim.settings().dt);
    };
    change("state edited", [](Simulation& sim) { sim.stateEdited(); });
    change("integrator", [](Simulation& sim) { sim.setIntegrator("midpoint"); });
    change("time step", [](Simulation& sim) { sim.setTimeStep(1.0 / 60.0, 4); });
    change("solver settings", [](Simulation& sim) { sim.setSolverSettings(sim.settings().solver); });
}

// Input work is that of the frame it was marked for, even when a change ends the frame
// early: a mouse spring's pull (its damping towards a fast target, capped at 1000 N)
// puts 35 J into a model whose first frame allows 10, then a new time step ends the frame
// and the spring is let go. The next frames are not divergence.
TEST(Simulation, InputWorkInAFrameEndedEarlyIsNotDivergence) {
    SimulationSettings settings = test::simulationSettings("rk4", 1.0 / 60.0);
    settings.gravity = Vec3::Zero();
    settings.substeps = 4;
    Simulation sim(settings);
    sim.world().addParticle(Vec3::Zero(), Vec3::Zero(), 1.0);
    auto& mouse = static_cast<MouseSpring&>(sim.world().addForce(std::make_unique<MouseSpring>(0, 400.0, 20.0, 1e3)));
    mouse.setTarget(Vec3::Zero(), Vec3(100.0, 0.0, 0.0));
    const EnergyReading start = sim.energyReading();
    sim.drivenByInput();
    ASSERT_FALSE(sim.advance(2).finished);
    sim.setTimeStep(settings.dt, 8);
    sim.world().removeForce(&mouse);
    ASSERT_GT(sim.totalEnergy(), start.total + DivergenceGuard::kBudget * start.scale)
        << "the pull should exceed the budget";
    for (int k = 0; k < 3; ++k) {
        const FrameReport report = sim.step();
        ASSERT_FALSE(report.diverged) << report.message;
    }
}

// Substeps split the frame: 8 substeps of a 1/128 s frame are 8 frames of 1/1024 s
// (powers of two, so both runs use bitwise the same step).
TEST(Simulation, SubstepsEqualShorterFrames) {
    SimulationSettings coarse = sceneSettings("verlet"), fine = sceneSettings("verlet");
    coarse.dt = 1.0 / 128.0;
    coarse.substeps = 8;
    fine.dt = 1.0 / 1024.0;
    fine.substeps = 1;
    Simulation a(coarse), b(fine);
    buildScene(a);
    buildScene(b);
    int contacts = 0;
    for (int k = 0; k < 40; ++k) {  // 0.31 s: the cloth lands on the floor on the way
        const FrameReport report = a.step();
        ASSERT_FALSE(report.diverged);
        contacts += report.contact.contacts;
        for (int s = 0; s < 8; ++s) ASSERT_FALSE(b.step().diverged);
    }
    EXPECT_GT(contacts, 0);
    EXPECT_TRUE(test::stateOf(a.world()) == test::stateOf(b.world()));
    EXPECT_EQ(a.time(), 40.0 / 128.0);
}

TEST(Simulation, UnknownIntegratorIsRejectedAndTheCurrentOneKept) {
    Simulation sim(sceneSettings("verlet"));
    buildScene(sim);
    const VecX start = test::stateOf(sim.world());
    try {
        sim.setIntegrator("leapfrog");
        FAIL() << "expected std::invalid_argument";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("symplectic-euler"), std::string::npos) << "should list the choices";
    }
    EXPECT_EQ(sim.integrator().name(), "verlet");
    EXPECT_EQ(sim.settings().integrator, "verlet");
    EXPECT_TRUE(test::stateOf(sim.world()) == start);
    EXPECT_EQ(findIntegratorKind("leapfrog"), nullptr);
}

// A model rebuilt after an edit keeps its clock: the whole world, beads included, moves to
// the new time, and stepping continues from it.
TEST(Simulation, SetTimeMovesTheClock) {
    Simulation sim(sceneSettings("rk4"));
    buildScene(sim);
    sim.world().addBead(ParametricBead{Vec3::Zero(), 1.0, Vec3::UnitZ(), 1.0, 0.0, 0.0});
    sim.setTime(2.5);
    EXPECT_EQ(sim.time(), 2.5);
    ASSERT_FALSE(sim.step().diverged);
    EXPECT_DOUBLE_EQ(sim.time(), 2.5 + 1.0 / 120.0);
}

// A force that exerts nothing and counts how often its energy is read.
class EnergyCounter final : public Force {
public:
    explicit EnergyCounter(int& reads) : reads_(reads) {}
    void accumulate(const ModelState&, VecX&, TwoWayParallel*) const override {}
    double potentialEnergy(const ModelState&) const override {
        ++reads_;
        return 0.0;
    }

private:
    int& reads_;
};

// The guard reads the energy at a frame's end, and the next frame starts from that reading
// unless the model was moved, driven or edited in between.
TEST(Simulation, AFrameStartsFromTheLastFramesEndReadingUnlessTheModelMoved) {
    Simulation sim(sceneSettings("verlet"));
    buildScene(sim);
    int reads = 0;
    sim.world().addForce(std::make_unique<EnergyCounter>(reads));
    ASSERT_FALSE(sim.step().diverged);
    EXPECT_EQ(reads, 2);  // the first frame's start and end
    for (int k = 0; k < 5; ++k) ASSERT_FALSE(sim.step().diverged);
    EXPECT_EQ(reads, 7);  // one per frame
    sim.world().setPosition(0, sim.world().position(0) + Vec3(0.0, 0.01, 0.0));
    ASSERT_FALSE(sim.step().diverged);
    EXPECT_EQ(reads, 9);
    sim.drivenByInput();
    ASSERT_FALSE(sim.step().diverged);
    EXPECT_EQ(reads, 11);
    sim.stateEdited();
    ASSERT_FALSE(sim.step().diverged);
    EXPECT_EQ(reads, 13);
    sim.setGravity(Vec3(0.0, -5.0, 0.0));
    ASSERT_FALSE(sim.step().diverged);
    EXPECT_EQ(reads, 15);
    ASSERT_FALSE(sim.step().diverged);
    EXPECT_EQ(reads, 16);
    sim.world().addParticle(Vec3(0.0, 2.0, 0.0), Vec3::Zero(), 1.0);  // another state's size
    ASSERT_FALSE(sim.step().diverged);
    EXPECT_EQ(reads, 18);
}

}  // namespace
}  // namespace tinkerbox
