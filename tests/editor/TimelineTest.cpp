// The timeline: frames shown again are bitwise the frames run, and so are the frames run
// again from them; the memory budget holds; branches, undo and frame stepping.
#include "editor/Timeline.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "editor/Editor.h"
#include "editor/PointerInput.h"
#include "scene/ExampleScenes.h"

namespace tinkerbox {
namespace {

Scene cloth() { return findExampleScene("cloth")->make(); }

// The cloth's springs need substeps under explicit methods: 8 keep every one stable.
void choose(Editor& e, const std::string& integrator) {
    e.setIntegrator(integrator);
    if (integrator != "implicit-euler" && integrator != "projective") e.setTimeStep(1.0 / 60.0, 8);
}

VecX stateOf(const Editor& e) {
    VecX x;
    e.simulation().world().getState(x);
    return x;
}

// Bitwise: the same doubles, not merely close ones.
void expectBitwise(const VecX& a, const VecX& b) {
    ASSERT_EQ(a.size(), b.size());
    for (Index i = 0; i < a.size(); ++i) ASSERT_EQ(a[i], b[i]) << "at " << i;
}

// Plays `frames` frames and returns the state after each (index 0: before the first).
std::vector<VecX> play(Editor& e, int frames) {
    std::vector<VecX> states{stateOf(e)};
    e.setPlaying(true);
    for (int k = 0; k < frames; ++k) {
        e.advance();
        states.push_back(stateOf(e));
    }
    e.setPlaying(false);
    return states;
}

TEST(Timeline, ScrubbingBackAndForthRestoresEveryFrameBitwise) {
    Editor e(cloth());
    const std::vector<VecX> states = play(e, 30);
    ASSERT_EQ(e.timeline().lastNumber(), 30);
    const double endTime = e.simulation().time();
    for (long frame : {10L, 25L, 3L, 0L, 30L, 17L, 30L}) {
        e.seekFrame(frame);
        EXPECT_EQ(e.timeline().cursor(), frame);
        expectBitwise(stateOf(e), states[static_cast<std::size_t>(frame)]);
        EXPECT_EQ(e.simulation().time(), e.timeline().frame(frame).simulation.time);
    }
    EXPECT_EQ(e.simulation().time(), endTime);
    EXPECT_FALSE(e.modified());  // looking is not editing
}

// Running again from a frame shown gives the frames that followed it the first time, bitwise:
// the clock and the integrator's warm start come back with the state.
TEST(Timeline, PlayingOnFromAFrameShownRepeatsTheRunBitwise) {
    for (const char* integrator : {"implicit-euler", "rk4", "adaptive", "verlet", "projective"}) {
        SCOPED_TRACE(integrator);
        Editor e(cloth());
        choose(e, integrator);
        const std::vector<VecX> states = play(e, 24);
        e.seekFrame(12);
        const std::vector<VecX> again = play(e, 12);
        for (std::size_t k = 0; k < again.size(); ++k) expectBitwise(again[k], states[12 + k]);
        EXPECT_EQ(e.timeline().lastNumber(), 24);
    }
}

TEST(Timeline, KeepsWithinItsMemoryBudgetDroppingTheOldestFrames) {
    Editor e(cloth());
    std::vector<VecX> states = play(e, 40);
    const std::size_t perFrame = Timeline::frameBytes(e.timeline().frame(40));
    const std::size_t model = Timeline::modelBytes(*e.timeline().frame(40).model);
    const std::size_t budget = model + 10 * perFrame + perFrame / 2;  // room for 10 frames and a half
    e.setTimelineBudget(budget);
    EXPECT_EQ(e.timeline().size(), 10u);
    EXPECT_EQ(e.timeline().firstNumber(), 31);
    EXPECT_EQ(e.timeline().bytes(), model + 10 * perFrame);
    const std::vector<VecX> more = play(e, 5);
    states.insert(states.end(), more.begin() + 1, more.end());
    EXPECT_LE(e.timeline().bytes(), budget);
    EXPECT_EQ(e.timeline().firstNumber(), 36);
    EXPECT_EQ(e.timeline().lastNumber(), 45);
    e.seekFrame(0);  // clamped to the oldest kept
    EXPECT_EQ(e.timeline().cursor(), 36);
    expectBitwise(stateOf(e), states[36]);
    e.setTimelineBudget(model + 3 * perFrame);
    EXPECT_EQ(e.timeline().size(), 3u);
    EXPECT_EQ(e.timeline().firstNumber(), 43);
    EXPECT_EQ(e.timeline().cursor(), 43);
}

TEST(Timeline, CountsEachModelOnceForTheFramesThatShareIt) {
    Timeline t;
    const auto a = std::make_shared<const Scene>(cloth());
    const auto b = std::make_shared<const Scene>(Scene{});
    TimelineFrame f;
    f.simulation.state = VecX::Zero(600);
    const std::size_t own = Timeline::frameBytes(f);
    for (const auto& model : {a, a, a, b, b}) {
        f.model = model;
        t.push(f);
    }
    EXPECT_EQ(t.bytes(), 5 * own + Timeline::modelBytes(*a) + Timeline::modelBytes(*b));
    t.setBudget(t.bytes() - 1);  // the first frame goes; the second carries model a now
    EXPECT_EQ(t.size(), 4u);
    EXPECT_EQ(t.bytes(), 4 * own + Timeline::modelBytes(*a) + Timeline::modelBytes(*b));
    const TimelineCut cut = t.cutAfter(2);
    EXPECT_EQ(t.bytes(), 2 * own + Timeline::modelBytes(*a));
    EXPECT_EQ(cut.frames.size(), 2u);
    EXPECT_EQ(t.lastNumber(), 2);
}

TEST(Timeline, PlayingFromAnEarlierFrameBranchesAndUndoBringsTheFramesBack) {
    Editor e(cloth());
    const std::vector<VecX> states = play(e, 30);
    e.seekFrame(10);
    const std::vector<VecX> branch = play(e, 5);
    EXPECT_EQ(e.timeline().lastNumber(), 15);
    ASSERT_TRUE(e.canUndo());

    e.undo();
    EXPECT_FALSE(e.playing());
    EXPECT_EQ(e.timeline().lastNumber(), 30);
    EXPECT_EQ(e.timeline().cursor(), 10);
    expectBitwise(stateOf(e), states[10]);
    e.seekFrame(30);
    expectBitwise(stateOf(e), states[30]);

    e.redo();
    EXPECT_EQ(e.timeline().lastNumber(), 15);
    EXPECT_EQ(e.timeline().cursor(), 15);
    expectBitwise(stateOf(e), branch.back());
    EXPECT_FALSE(e.modified());  // a run from an earlier frame edits nothing, nor does its undo
}

TEST(Timeline, StepsOneFrameBackAndForward) {
    Editor e(cloth());
    const std::vector<VecX> states = play(e, 20);
    for (int k = 0; k < 3; ++k) e.stepBack();
    EXPECT_EQ(e.timeline().cursor(), 17);
    expectBitwise(stateOf(e), states[17]);
    EXPECT_TRUE(e.stepForward());
    EXPECT_EQ(e.timeline().cursor(), 18);
    expectBitwise(stateOf(e), states[18]);
    EXPECT_TRUE(e.stepForward());
    EXPECT_TRUE(e.stepForward());
    EXPECT_EQ(e.timeline().cursor(), 20);
    EXPECT_FALSE(e.stepForward());  // at the newest frame: the caller steps the model
    for (int k = 0; k < 25; ++k) e.stepBack();
    EXPECT_EQ(e.timeline().cursor(), 0);  // and no further
    expectBitwise(stateOf(e), states[0]);
    EXPECT_EQ(e.simulation().time(), 0.0);
}

// An edit at an earlier frame is made there, like one at the present: the later frames go
// (one undo brings them back); frames from before an edit show the model they were made with.
TEST(Timeline, EditingAtAnEarlierFrameBranchesAndUndoes) {
    Scene s;
    s.settings.gravity = Vec3(0, -1, 0);
    s.particles.push_back({Vec3::Zero(), Vec3(1, 0, 0), 1.0, false});
    Editor e(s);
    const std::vector<VecX> states = play(e, 10);
    e.seekFrame(4);
    e.setTool(Tool::Particle);
    test::click(e, 3, 3);
    ASSERT_EQ(e.simulation().world().particleCount(), 2);
    EXPECT_EQ(e.timeline().lastNumber(), 4);
    EXPECT_EQ(e.simulation().time(), e.timeline().frame(4).simulation.time);
    const std::vector<VecX> after = play(e, 3);  // the edited model runs on from there
    EXPECT_EQ(e.timeline().lastNumber(), 7);
    EXPECT_EQ(e.simulation().world().particleCount(), 2);

    e.seekFrame(2);  // before the edit: the model as it was
    EXPECT_EQ(e.simulation().world().particleCount(), 1);
    expectBitwise(stateOf(e), states[2]);
    e.seekFrame(6);
    EXPECT_EQ(e.simulation().world().particleCount(), 2);
    expectBitwise(stateOf(e), after[2]);

    e.seekFrame(7);
    e.undo();  // the edit (a play from the end branches nothing)
    EXPECT_EQ(e.simulation().world().particleCount(), 1);
    EXPECT_EQ(e.timeline().lastNumber(), 10);
    EXPECT_EQ(e.timeline().cursor(), 4);
    expectBitwise(stateOf(e), states[4]);
}

// Grabbing at an earlier frame while paused moves what it grabs there, as at the present: an
// edit that branches, and one undo brings the later frames back.
TEST(Timeline, GrabbingAtAnEarlierFrameMovesThereAndUndoes) {
    Scene s;
    s.settings.gravity = Vec3::Zero();
    s.particles.push_back({Vec3::Zero(), Vec3(1, 0, 0), 1.0, false});
    Editor e(s);
    const std::vector<VecX> states = play(e, 10);
    e.seekFrame(4);
    const Vec3 at = e.simulation().world().position(0);
    EXPECT_EQ(at, Vec3(states[4][0], states[4][1], states[4][2]));
    e.setTool(Tool::Grab);
    test::drag(e, at, at + Vec3(0, 1, 0));
    EXPECT_EQ(e.simulation().world().position(0), at + Vec3(0, 1, 0));
    EXPECT_EQ(e.timeline().lastNumber(), 4);
    EXPECT_EQ(e.simulation().time(), e.timeline().frame(4).simulation.time);
    e.undo();
    EXPECT_EQ(e.timeline().lastNumber(), 10);
    EXPECT_EQ(e.timeline().cursor(), 4);
    expectBitwise(stateOf(e), states[4]);

    // Not in the middle of a gesture that builds: the spring being drawn keeps its model.
    e.setTool(Tool::Spring);
    e.pointerDown(test::at(at.x(), at.y()), test::kTolerance, PointerButton::Left);
    e.seekFrame(9);
    EXPECT_EQ(e.timeline().cursor(), 4);
    e.pointerUp(test::at(at.x() + 1.0, at.y()), test::kTolerance);
    EXPECT_EQ(e.simulation().world().springs().size(), 1u);
}

// After an edit at the present, stepping back shows the frame it was made at, and forward
// again the edited model as it was left.
TEST(Timeline, KeepsAnEditedPresentWhenSteppingBack) {
    Scene s;
    s.settings.gravity = Vec3(0, -1, 0);
    s.particles.push_back({Vec3::Zero(), Vec3::Zero(), 1.0, false});
    Editor e(s);
    const std::vector<VecX> states = play(e, 5);
    e.setParticleMass(0, 2.0);
    e.stepBack();
    EXPECT_EQ(e.timeline().cursor(), 5);
    expectBitwise(stateOf(e), states[5]);
    EXPECT_EQ(e.simulation().world().mass(0), 1.0);
    EXPECT_TRUE(e.stepForward());
    EXPECT_EQ(e.timeline().cursor(), 6);
    EXPECT_EQ(e.simulation().world().mass(0), 2.0);
    expectBitwise(stateOf(e), states[5]);
}

// Switching at an earlier frame and playing on is bitwise switching there the first time.
TEST(Timeline, SwitchingIntegratorAtAnEarlierFrameRunsOnWithIt) {
    Editor e(cloth());
    const std::vector<VecX> states = play(e, 20);
    e.seekFrame(5);
    choose(e, "rk4");
    expectBitwise(stateOf(e), states[5]);
    const std::vector<VecX> after = play(e, 3);
    EXPECT_EQ(e.timeline().lastNumber(), 8);
    EXPECT_EQ(e.timeline().frame(6).simulation.integrator, "rk4");

    Editor atThePresent(cloth());
    play(atThePresent, 5);
    choose(atThePresent, "rk4");
    const std::vector<VecX> expected = play(atThePresent, 3);
    for (std::size_t k = 0; k < after.size(); ++k) expectBitwise(after[k], expected[k]);
    EXPECT_GT((after.back() - states[8]).norm(), 0.0);  // another method, another run
}

}  // namespace
}  // namespace tinkerbox
