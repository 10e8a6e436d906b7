// The editor driven by synthetic input in world coordinates: every tool, undo and redo of
// every edit, play, rewind and the divergence pause.
#include "editor/Editor.h"

#include <gtest/gtest.h>

#include <numbers>
#include <stdexcept>

#include "core/constraints/RodConstraint.h"
#include "editor/Picking.h"
#include "editor/PointerInput.h"
#include "scene/ExampleScenes.h"
#include "scene/SceneBuilder.h"
#include "scene/SceneJson.h"

namespace tinkerbox {
namespace {

using test::at;
using test::click;
using test::drag;
using test::kTolerance;

Scene zeroGravity() {
    Scene s;
    s.settings.gravity = Vec3::Zero();
    return s;
}

// An editor with particles at (0, 0), (1, 0) and (0, 1), no gravity.
Editor threeParticles() {
    Editor e(zeroGravity());
    e.setTool(Tool::Particle);
    click(e, 0, 0);
    click(e, 1, 0);
    click(e, 0, 1);
    return e;
}

TEST(Editor, ParticleToolAddsOnEmptySpaceOnly) {
    Editor e;
    e.setTool(Tool::Particle);
    click(e, 1.5, -2.0);
    ASSERT_EQ(e.scene().particles.size(), 1u);
    EXPECT_EQ(e.scene().particles[0].position, Vec3(1.5, -2.0, 0.0));
    EXPECT_EQ(e.simulation().world().particleCount(), 1);
    click(e, 1.55, -2.0);  // on the particle: nothing new
    EXPECT_EQ(e.scene().particles.size(), 1u);
    EXPECT_TRUE(e.modified());
}

TEST(Editor, SpringToolConnectsTwoParticlesAtTheirDistance) {
    Editor e = threeParticles();
    e.setTool(Tool::Spring);
    e.pointerDown(at(0, 0), kTolerance, PointerButton::Left);
    e.pointerMove(at(0.5, 0.1), kTolerance);
    EXPECT_EQ(e.gesture().kind, Gesture::Kind::Connect);  // the rubber band is drawn
    EXPECT_EQ(e.gesture().current, Vec3(0.5, 0.1, 0.0));
    e.pointerUp(at(1.02, 0), kTolerance);
    ASSERT_EQ(e.scene().springs.size(), 1u);
    const DampedSpring& s = e.scene().springs[0];
    EXPECT_EQ(s.a, 0);
    EXPECT_EQ(s.b, 1);
    EXPECT_DOUBLE_EQ(s.restLength, 1.0);
    EXPECT_EQ(s.stiffness, e.newElements().springStiffness);
    EXPECT_EQ(e.gesture().kind, Gesture::Kind::None);
}

TEST(Editor, SpringReleasedOnEmptySpaceCreatesTheOtherEnd) {
    Editor e = threeParticles();
    e.setTool(Tool::Spring);
    drag(e, {0, 1, 0}, {-2, 1, 0});
    ASSERT_EQ(e.scene().particles.size(), 4u);
    EXPECT_EQ(e.scene().particles[3].position, Vec3(-2, 1, 0));
    ASSERT_EQ(e.scene().springs.size(), 1u);
    EXPECT_EQ(e.scene().springs[0].a, 2);
    EXPECT_EQ(e.scene().springs[0].b, 3);
    EXPECT_DOUBLE_EQ(e.scene().springs[0].restLength, 2.0);
    // One gesture, one undo step.
    e.undo();
    EXPECT_EQ(e.scene().particles.size(), 3u);
    EXPECT_TRUE(e.scene().springs.empty());
}

TEST(Editor, ReleasingOnTheStartParticleMakesNothing) {
    Editor e = threeParticles();
    e.setTool(Tool::Spring);
    drag(e, {0, 0, 0}, {0.03, 0, 0});
    EXPECT_TRUE(e.scene().springs.empty());
    EXPECT_EQ(e.scene().particles.size(), 3u);
}

TEST(Editor, RodToolMakesARodThatHoldsItsLength) {
    Editor e = threeParticles();
    e.setTool(Tool::Rod);
    drag(e, {0, 0, 0}, {1, 0, 0});
    ASSERT_EQ(e.scene().constraints.size(), 1u);
    const RodSpec rod = std::get<RodSpec>(e.scene().constraints[0]);
    EXPECT_EQ(rod.a, 0);
    EXPECT_EQ(rod.b, 1);
    EXPECT_DOUBLE_EQ(rod.length, 1.0);
    // Pull one end: the rod keeps the distance.
    e.simulation().world().setVelocity(1, Vec3(0, 3, 0));
    e.setPlaying(true);
    for (int f = 0; f < 60; ++f) e.advance();
    const World& s = e.simulation().world();
    EXPECT_NEAR((s.position(0) - s.position(1)).norm(), 1.0, 1e-4);
}

TEST(Editor, WireToolDrawsAWireAndThreadsBeads) {
    Editor e(zeroGravity());
    e.setTool(Tool::Particle);
    click(e, 3, 0.5);
    e.setTool(Tool::Wire);
    click(e, 3, 0.45);  // no wire yet: nothing, and a hint
    EXPECT_TRUE(e.scene().constraints.empty());
    EXPECT_FALSE(e.status().empty());
    drag(e, {0, 0, 0}, {2, 0, 0});
    ASSERT_EQ(e.scene().wires.size(), 1u);
    EXPECT_EQ(e.scene().wires[0].center, Vec3::Zero());
    EXPECT_DOUBLE_EQ(e.scene().wires[0].radius, 2.0);
    click(e, 3, 0.5);  // thread the particle: it moves onto the wire
    ASSERT_EQ(e.scene().constraints.size(), 1u);
    const WireSpec wire = std::get<WireSpec>(e.scene().constraints[0]);
    EXPECT_EQ(wire.anchor, Anchor(0));
    EXPECT_DOUBLE_EQ(wire.radius, 2.0);
    EXPECT_NEAR(e.scene().particles[0].position.norm(), 2.0, 1e-12);
    EXPECT_NEAR(e.simulation().constraintError(), 0.0, 1e-12);
}

TEST(Editor, NailToolTogglesAndANailedParticleStays) {
    Editor e;  // with gravity
    e.setTool(Tool::Particle);
    click(e, 0, 0);
    e.setTool(Tool::Nail);
    click(e, 0, 0);
    EXPECT_TRUE(e.scene().particles[0].nailed);
    e.setPlaying(true);
    for (int f = 0; f < 30; ++f) e.advance();
    EXPECT_EQ(e.simulation().world().position(0), Vec3::Zero());
    e.setPlaying(false);
    e.setTool(Tool::Nail);
    click(e, 0, 0);
    EXPECT_FALSE(e.scene().particles[0].nailed);
}

TEST(Editor, PlayMakesGrabTheToolUntilThePause) {
    Editor e;
    e.setTool(Tool::Spring);
    e.setPlaying(true);
    EXPECT_EQ(e.tool(), Tool::Grab);
    e.setPlaying(false);
    EXPECT_EQ(e.tool(), Tool::Spring);
    e.setPlaying(true);
    e.setTool(Tool::Select);  // a choice made while running stays
    e.setPlaying(false);
    EXPECT_EQ(e.tool(), Tool::Select);
}

TEST(Editor, GrabPullsWithAMouseSpringWhileRunning) {
    Editor e = threeParticles();
    e.setPlaying(true);
    const std::size_t forces = e.simulation().world().forces().size();
    e.pointerDown(at(1, 0), kTolerance, PointerButton::Left);
    EXPECT_EQ(e.gesture().kind, Gesture::Kind::Grab);
    EXPECT_EQ(e.simulation().world().forces().size(), forces + 1);  // the mouse spring
    e.pointerMove(at(1, 2), kTolerance);
    for (int f = 0; f < 60; ++f) e.advance();
    EXPECT_GT(e.simulation().world().position(1).y(), 1.0);       // pulled toward the pointer
    EXPECT_EQ(e.simulation().world().position(0), Vec3::Zero());  // the others did not move
    e.pointerUp(at(1, 2), kTolerance);
    EXPECT_EQ(e.simulation().world().forces().size(), forces);
    EXPECT_FALSE(e.canUndo() && e.scene().particles[1].position.y() > 1.0);  // a grab is not an edit
}

// What is hovered at the ray with a fixed 0.4 m box added to the scene at `box`.
std::optional<Index> hoveredPastABox(Scene scene, const Vec3& box, const Ray& ray) {
    RigidBodySpec spec;
    spec.shape = BoxShape{Vec3(0.4, 0.4, 0.4)};
    spec.position = box;
    spec.fixed = true;
    scene.bodies.push_back(spec);
    Editor e(scene);
    e.pointerMove(ray, kTolerance);
    return e.hovered();
}

// A cloth is grabbed where it is seen: a press on its surface beyond the pick tolerance
// of every particle grabs the corner of the triangle there nearest the press, and
// pointing there hovers that particle; a body in front of the cloth hides it, one behind
// does not.
TEST(Editor, AClothIsGrabbedAnywhereOnItsSurfaceUnlessABodyHidesIt) {
    Scene scene = zeroGravity();
    TriangleClothOptions cloth;
    cloth.columns = cloth.rows = 3;
    cloth.corner = Vec3::Zero();
    cloth.u = Vec3(2, 0, 0);
    cloth.v = Vec3(0, 2, 0);
    const Index first = addTriangleCloth(scene, cloth);
    // (0.7, 0.35) is in the triangle (0, 0), (1, 0), (1, 1), 0.46 m from (1, 0), the cloth's second particle.
    const Index nearest = first + 1;
    {
        Editor e(scene);
        e.setTool(Tool::Grab);
        e.pointerMove(at(0.7, 0.35), kTolerance);
        EXPECT_EQ(e.hovered(), nearest);
        e.pointerMove(at(2.5, 0.5), kTolerance);  // off the cloth
        EXPECT_EQ(e.hovered(), std::nullopt);
        e.setPlaying(true);
        e.pointerDown(at(0.7, 0.35), kTolerance, PointerButton::Left);
        EXPECT_EQ(e.gesture().kind, Gesture::Kind::Grab);
        EXPECT_EQ(e.gesture().anchor, Anchor(nearest));
        e.pointerUp(at(0.7, 0.35), kTolerance);
    }
    for (double z : {1.0, -1.0})  // the rays come down from z = 10
        EXPECT_EQ(hoveredPastABox(scene, Vec3(0.7, 0.35, z), at(0.7, 0.35)),
                  z > 0.0 ? std::nullopt : std::optional<Index>(nearest))
            << z;
}

// A hair strand is grabbed where it is seen too: a press within the pick tolerance of a
// piece of it, though beyond that of its particles, grabs the end of the piece nearer the
// press; a body in front hides it, one behind does not.
TEST(Editor, AHairStrandIsGrabbedAnywhereAlongItUnlessABodyHidesIt) {
    Scene scene = zeroGravity();
    const Index first = static_cast<Index>(scene.particles.size());
    for (int k = 0; k < 3; ++k) scene.particles.push_back({Vec3(k, 0, 0), Vec3::Zero(), 1e-3, k == 0});
    scene.hair.push_back({first, 1, 3, HairMaterial{}, {}, {}});
    const Ray onStrand = at(1.7, 0.05), offStrand = at(1.7, 0.3);  // tolerance 0.1; (2, 0) is 0.3 away
    {
        Editor e(scene);
        e.setTool(Tool::Grab);
        e.pointerMove(onStrand, kTolerance);
        EXPECT_EQ(e.hovered(), first + 2);
        e.pointerMove(offStrand, kTolerance);
        EXPECT_EQ(e.hovered(), std::nullopt);
        e.pointerMove(at(0.4, -0.05), kTolerance);  // the first piece, nearer its root
        EXPECT_EQ(e.hovered(), first);
        e.setPlaying(true);
        e.pointerDown(onStrand, kTolerance, PointerButton::Left);
        EXPECT_EQ(e.gesture().kind, Gesture::Kind::Grab);
        EXPECT_EQ(e.gesture().anchor, Anchor(first + 2));
        e.pointerUp(onStrand, kTolerance);
    }
    for (double z : {1.0, -1.0})  // the rays come down from z = 10
        EXPECT_EQ(hoveredPastABox(scene, Vec3(1.7, 0.0, z), onStrand),
                  z > 0.0 ? std::nullopt : std::optional<Index>(first + 2))
            << z;
}

TEST(Editor, RightDragGrabsWithAnyTool) {
    Editor e = threeParticles();
    e.setPlaying(true);
    e.setTool(Tool::Spring);
    e.pointerDown(at(0, 1), kTolerance, PointerButton::Right);
    EXPECT_EQ(e.gesture().kind, Gesture::Kind::Grab);
    e.pointerMove(at(2, 1), kTolerance);
    for (int f = 0; f < 30; ++f) e.advance();
    e.pointerUp(at(2, 1), kTolerance);
    EXPECT_GT(e.simulation().world().position(2).x(), 0.5);
    EXPECT_TRUE(e.scene().springs.empty());
}

TEST(Editor, GrabbingANailedParticleMovesIt) {
    Editor e = threeParticles();
    e.setTool(Tool::Nail);
    click(e, 0, 0);
    e.setPlaying(true);
    e.pointerDown(at(0, 0), kTolerance, PointerButton::Left);
    e.pointerMove(at(0.5, 0.5), kTolerance);
    e.advance();
    EXPECT_TRUE((e.simulation().world().position(0) - Vec3(0.5, 0.5, 0)).norm() < 1e-12);
    e.pointerUp(at(0.5, 0.5), kTolerance);
    EXPECT_EQ(e.simulation().world().velocity(0), Vec3::Zero());
}

TEST(Editor, SelectToolSelectsAndMovesWhilePausedInOneUndoStep) {
    Editor e = threeParticles();
    e.setTool(Tool::Select);
    click(e, 1, 0);
    EXPECT_EQ(e.selection().particles, std::set<Index>{1});
    click(e, 0, 1, PointerButton::Left, true);  // shift adds
    EXPECT_EQ(e.selection().particles, (std::set<Index>{1, 2}));
    const std::size_t depth = e.canUndo();
    drag(e, {1, 0, 0}, {1.5, 0.5, 0});  // moves both selected particles
    EXPECT_EQ(e.scene().particles[1].position, Vec3(1.5, 0.5, 0));
    EXPECT_EQ(e.scene().particles[2].position, Vec3(0.5, 1.5, 0));
    EXPECT_EQ(e.scene().particles[0].position, Vec3::Zero());
    e.undo();
    EXPECT_EQ(e.scene().particles[1].position, Vec3(1, 0, 0));
    EXPECT_EQ(e.scene().particles[2].position, Vec3(0, 1, 0));
    EXPECT_TRUE(e.canUndo() == static_cast<bool>(depth));
    click(e, 5, 5);  // empty space clears
    EXPECT_TRUE(e.selection().empty());
}

TEST(Editor, SelectsSpringsRodsAndWires) {
    Editor e = threeParticles();
    e.setTool(Tool::Spring);
    drag(e, {0, 0, 0}, {1, 0, 0});
    e.setTool(Tool::Rod);
    drag(e, {0, 0, 0}, {0, 1, 0});
    e.setTool(Tool::Select);
    click(e, 0.5, 0.02);
    EXPECT_EQ(e.selection().springs, std::set<Index>{0});
    click(e, 0.02, 0.5);
    EXPECT_EQ(e.selection().constraints, std::set<Index>{0});
}

// A particle deleted before a cloth renumbers the cloth's grid; one deleted from a grid of
// 3 x 2 leaves no triangle, which takes the cloth (its energies) away and leaves its other
// particles free.
TEST(Editor, DeletingAParticleRenumbersOrRemovesTheCloth) {
    Scene scene = zeroGravity();
    scene.particles.push_back({Vec3(-3, 0, 0), Vec3::Zero(), 1.0, false});
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 3; ++i) scene.particles.push_back({Vec3(i, j, 0), Vec3::Zero(), 1.0, false});
    scene.cloths.push_back({1, 3, 2, 2.0, 1.0, ClothMaterial{}, {}});
    Editor e(scene);
    e.setTool(Tool::Select);
    click(e, -3, 0);
    e.deleteSelection();
    ASSERT_EQ(e.scene().cloths.size(), 1u);
    EXPECT_EQ(e.scene().cloths[0].firstParticle, 0);
    click(e, 1, 1);
    e.deleteSelection();
    EXPECT_TRUE(e.scene().cloths.empty());
    EXPECT_EQ(e.scene().particles.size(), 5u);
}

// A particle deleted from inside a 4 x 4 cloth cuts a hole: the cloth keeps its other 15
// particles and the 10 of its 18 triangles that do not touch the hole (all 8 of the
// alternating diagonals' triangles around place 5 go). A ray through the hole meets no cloth,
// one beside it does. Undo gives the whole cloth back; a corner deleted next is a second hole,
// the cloth starting at its second place.
TEST(Editor, DeletingAParticleFromAClothCutsAHoleInIt) {
    Scene scene = zeroGravity();
    scene.particles.push_back({Vec3(-3, 0, 0), Vec3::Zero(), 1.0, false});
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i) scene.particles.push_back({Vec3(i, j, 0), Vec3::Zero(), 1.0, false});
    scene.cloths.push_back({1, 4, 4, 3.0, 3.0, ClothMaterial{}, {}});
    Editor e(scene);
    e.setTool(Tool::Select);
    click(e, 1, 1);
    e.deleteSelection();
    ASSERT_EQ(e.scene().cloths.size(), 1u);
    const ClothSpec& cloth = e.scene().cloths[0];
    EXPECT_EQ(cloth.missing, std::vector<int>{5});
    EXPECT_EQ(cloth.firstParticle, 1);
    EXPECT_EQ(cloth.particleCount(), 15);
    EXPECT_EQ(e.scene().particles.size(), 16u);
    EXPECT_EQ(cloth.triangles().size(), 10u);
    const auto sim = buildSimulation(e.scene());
    const auto through = [&](double x, double y) {
        return pickCloth(e.scene(), *sim, Ray{Vec3(x, y, 5.0), -Vec3::UnitZ()}).has_value();
    };
    EXPECT_FALSE(through(0.9, 1.2));
    EXPECT_TRUE(through(2.5, 2.4));
    EXPECT_EQ(e.clothOf(15), std::optional<Index>(0));

    e.undo();
    EXPECT_TRUE(e.scene().cloths[0].missing.empty());
    EXPECT_EQ(e.scene().particles.size(), 17u);
    e.redo();
    click(e, 0, 0);
    e.deleteSelection();
    ASSERT_EQ(e.scene().cloths.size(), 1u);
    EXPECT_EQ(e.scene().cloths[0].missing, (std::vector<int>{0, 5}));
    EXPECT_EQ(e.scene().cloths[0].firstParticle, 1);
    EXPECT_EQ(e.scene().cloths[0].particleAt(1), 1);
    EXPECT_EQ(e.scene().particles[1].position, Vec3(1, 0, 0));
}

// A particle deleted from a strand cuts it: the hair keeps its other particles, and the two
// pieces are strands of their own (segments and joints within each; none across the cut), the
// rest shape losing the deleted particle's point. A hair left with no segment goes, its
// particles staying, free.
TEST(Editor, DeletingAParticleFromAStrandCutsIt) {
    Scene scene = zeroGravity();
    for (int strand = 0; strand < 2; ++strand)
        for (int k = 0; k < 5; ++k) scene.particles.push_back({Vec3(k, strand, 0), Vec3::Zero(), 1e-3, false});
    std::vector<Vec3> rest;
    for (const ParticleInit& p : scene.particles) rest.push_back(p.position + Vec3(0, 0, 1));
    scene.hair.push_back({0, 2, 5, HairMaterial{}, rest, {}});
    // The built model's segments and joints.
    const auto forceCount = [](const Scene& s, const std::string& label) {
        const auto sim = buildSimulation(s);
        for (const auto& force : sim->world().forces()) {
            if (force->label() != label) continue;
            if (const auto* segments = dynamic_cast<const DampedSpringSet*>(force.get())) return segments->size();
            if (const auto* joints = dynamic_cast<const AngularSpringSet*>(force.get())) return joints->elementCount();
        }
        return Index{0};
    };
    ASSERT_EQ(forceCount(scene, "hair stretch"), 8);
    ASSERT_EQ(forceCount(scene, "hair bending"), 6);
    Editor e(scene);
    e.setTool(Tool::Select);
    click(e, 2, 0);
    e.deleteSelection();
    ASSERT_EQ(e.scene().hair.size(), 1u);
    const HairSpec& cut = e.scene().hair[0];
    EXPECT_EQ(cut.missing, std::vector<int>{2});
    EXPECT_EQ(cut.particleCount(), 9);
    ASSERT_EQ(cut.restShape.size(), 9u);
    EXPECT_EQ(cut.restShape[2], Vec3(3, 0, 1));  // place 3's point, now the third particle's
    const std::vector<StrandRun> runs = cut.runs();
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[0].first, 0);
    EXPECT_EQ(runs[0].length, 2);
    EXPECT_EQ(runs[1].first, 2);
    EXPECT_EQ(runs[1].length, 2);
    EXPECT_EQ(runs[2].first, 4);
    EXPECT_EQ(runs[2].length, 5);
    EXPECT_EQ(forceCount(e.scene(), "hair stretch"), 1 + 1 + 4);
    EXPECT_EQ(forceCount(e.scene(), "hair bending"), 0 + 0 + 3);
    EXPECT_EQ(e.hairOf(8), std::optional<Index>(0));

    // The second strand whole and the first strand's pieces, one particle at a time down to
    // single particles: the hair goes when no two particles of a strand are left side by side.
    for (const Vec3& at : {Vec3(0, 1, 0), Vec3(1, 1, 0), Vec3(2, 1, 0), Vec3(3, 1, 0), Vec3(4, 1, 0), Vec3(1, 0, 0)}) {
        ASSERT_EQ(e.scene().hair.size(), 1u) << at.transpose();
        click(e, at.x(), at.y());
        e.deleteSelection();
    }
    ASSERT_EQ(e.scene().hair.size(), 1u);  // places 3 and 4 are still a piece
    click(e, 4, 0);
    e.deleteSelection();
    EXPECT_TRUE(e.scene().hair.empty());
    EXPECT_EQ(e.scene().particles.size(), 2u);
}

TEST(Editor, DeleteRemovesTheSelectionAndWhatHangsOnIt) {
    Editor e = threeParticles();
    e.setTool(Tool::Spring);
    drag(e, {0, 0, 0}, {1, 0, 0});  // spring 0-1
    drag(e, {1, 0, 0}, {0, 1, 0});  // spring 1-2
    e.setTool(Tool::Rod);
    drag(e, {0, 0, 0}, {0, 1, 0});  // rod 0-2
    e.setTool(Tool::Select);
    click(e, 0, 0);
    e.deleteSelection();
    // Particle 0 goes with the spring and the rod on it; the rest is renumbered.
    ASSERT_EQ(e.scene().particles.size(), 2u);
    EXPECT_EQ(e.scene().particles[0].position, Vec3(1, 0, 0));
    ASSERT_EQ(e.scene().springs.size(), 1u);
    EXPECT_EQ(e.scene().springs[0].a, 0);
    EXPECT_EQ(e.scene().springs[0].b, 1);
    EXPECT_TRUE(e.scene().constraints.empty());
    EXPECT_TRUE(e.selection().empty());
    e.undo();
    EXPECT_EQ(e.scene().particles.size(), 3u);
    EXPECT_EQ(e.scene().springs.size(), 2u);
    EXPECT_EQ(e.scene().constraints.size(), 1u);
    e.redo();
    EXPECT_EQ(e.scene().particles.size(), 2u);
}

TEST(Editor, InspectorEditsAreUndoable) {
    Editor e = threeParticles();
    e.setTool(Tool::Spring);
    drag(e, {0, 0, 0}, {1, 0, 0});
    e.setTool(Tool::Rod);
    drag(e, {0, 0, 0}, {0, 1, 0});
    e.setParticleMass(2, 3.5);
    e.setSpring(0, 250.0, 2.0, 1.5);
    const ConstraintParameter& length = RodSpec::kind.parameters[0];
    EXPECT_EQ(e.setConstraintParameter(0, length, 0.8), "");
    EXPECT_EQ(e.scene().particles[2].mass, 3.5);
    EXPECT_EQ(e.simulation().world().mass(2), 3.5);
    EXPECT_EQ(e.scene().springs[0].stiffness, 250.0);
    EXPECT_EQ(e.scene().springs[0].restLength, 1.5);
    EXPECT_EQ(std::get<RodSpec>(e.scene().constraints[0]).length, 0.8);
    e.undo();
    EXPECT_EQ(std::get<RodSpec>(e.scene().constraints[0]).length, 1.0);
    e.undo();
    EXPECT_EQ(e.scene().springs[0].stiffness, e.newElements().springStiffness);
    e.undo();
    EXPECT_EQ(e.scene().particles[2].mass, e.newElements().particleMass);
    e.redo();
    e.redo();
    e.redo();
    EXPECT_EQ(std::get<RodSpec>(e.scene().constraints[0]).length, 0.8);
}

TEST(Editor, EveryGestureEditUndoesAndRedoesExactly) {
    Editor e(zeroGravity());
    std::vector<Scene> states{e.currentScene()};
    const auto record = [&] { states.push_back(e.currentScene()); };
    e.setTool(Tool::Particle);
    click(e, 0, 0);
    record();
    click(e, 1, 0);
    record();
    e.setTool(Tool::Spring);
    drag(e, {0, 0, 0}, {1, 0, 0});
    record();
    e.setTool(Tool::Rod);
    drag(e, {1, 0, 0}, {1, 1, 0});
    record();
    e.setTool(Tool::Nail);
    click(e, 0, 0);
    record();
    e.setTool(Tool::Wire);
    drag(e, {3, 0, 0}, {4, 0, 0});
    record();
    click(e, 1, 1);
    record();
    for (std::size_t k = states.size() - 1; k > 0; --k) {
        ASSERT_TRUE(e.canUndo());
        e.undo();
        EXPECT_EQ(e.currentScene(), states[k - 1]) << "undo to state " << k - 1;
    }
    EXPECT_FALSE(e.canUndo());
    for (std::size_t k = 1; k < states.size(); ++k) {
        e.redo();
        EXPECT_EQ(e.currentScene(), states[k]) << "redo to state " << k;
    }
    EXPECT_FALSE(e.canRedo());
}

TEST(Editor, UndoKeepsTheLiveSettings) {
    Editor e = threeParticles();
    e.setIntegrator("verlet");
    e.setContactModel("baraff");
    EXPECT_THROW(e.setContactModel("springs"), std::invalid_argument);
    EXPECT_EQ(e.scene().settings.contactModel, "baraff");
    e.setTimeStep(0.01, 3);
    e.undo();
    EXPECT_EQ(e.scene().particles.size(), 2u);
    EXPECT_EQ(e.simulation().settings().integrator, "verlet");
    EXPECT_EQ(e.simulation().substeps(), 3);
}

// Self collision toggled on takes 0.8 of a cloth's spacing (its particles' nearest joined
// neighbours), goes into the scene the editor saves, and toggles off again; loose particles
// get 2 cm.
TEST(Editor, SelfCollisionTogglesAtTheClothsSuggestedThickness) {
    Editor cloth(findExampleScene("cloth-heap")->make());
    const double spacing = 1.2 / 31.0;
    ContactModelSettings off = cloth.simulation().settings().contact;
    off.selfCollisionThickness = 0.0;
    cloth.setContactModelSettings(off);
    // (The heap's waves lengthen some rows' edges by less than 1 %.)
    const double thickness = cloth.toggleSelfCollision();
    EXPECT_NEAR(thickness, 0.8 * spacing, 0.01 * spacing);
    EXPECT_EQ(cloth.scene().settings.contact.selfCollisionThickness, thickness);
    EXPECT_EQ(parseScene(serializeScene(cloth.currentScene())).settings.contact.selfCollisionThickness, thickness);
    EXPECT_EQ(cloth.toggleSelfCollision(), 0.0);
    EXPECT_EQ(cloth.simulation().settings().contact.selfCollisionThickness, 0.0);

    Editor loose = threeParticles();
    EXPECT_EQ(loose.toggleSelfCollision(), Editor::kLooseParticleThickness);
}

// "Double the substeps" pressed once too often, or a huge number typed: the editor keeps to
// the most a scene file may hold, so what it saves opens again.
TEST(Editor, SubstepsStayWithinWhatASceneFileMayHold) {
    Editor e = threeParticles();
    e.setTimeStep(0.01, 3 * SimulationSettings::kMaxSubsteps);
    EXPECT_EQ(e.simulation().substeps(), SimulationSettings::kMaxSubsteps);
    EXPECT_EQ(parseScene(serializeScene(e.currentScene())).settings.substeps, SimulationSettings::kMaxSubsteps);
    e.setTimeStep(0.01, 0);
    EXPECT_EQ(e.simulation().substeps(), 1);
}

TEST(Editor, EditsWhileRunningKeepTheClockAndTheMotion) {
    Editor e(findExampleScene("hanging-chain")->make());
    e.setPlaying(true);
    for (int f = 0; f < 30; ++f) e.advance();
    const double t = e.simulation().time();
    const Vec3 tip = e.simulation().world().position(e.simulation().world().particleCount() - 1);
    e.setTool(Tool::Particle);
    click(e, 5, 5);
    EXPECT_DOUBLE_EQ(e.simulation().time(), t);
    EXPECT_EQ(e.simulation().world().position(10), tip);
    EXPECT_NE(e.simulation().world().velocity(10), Vec3::Zero());
}

TEST(Editor, RewindGoesBackToBeforePlayAndIsUndoable) {
    Editor e(findExampleScene("hanging-chain")->make());
    const Scene start = e.currentScene();
    e.setPlaying(true);
    for (int f = 0; f < 30; ++f) e.advance();
    const Scene moved = e.currentScene();
    ASSERT_TRUE(e.canRewind());
    e.rewind();
    EXPECT_FALSE(e.playing());
    EXPECT_EQ(e.currentScene(), start);
    EXPECT_DOUBLE_EQ(e.simulation().time(), 0.0);
    e.undo();
    EXPECT_EQ(e.currentScene().particles, moved.particles);
}

TEST(Editor, StepAdvancesOneFrameWhilePaused) {
    Editor e(findExampleScene("hanging-chain")->make());
    e.stepOnce();
    EXPECT_DOUBLE_EQ(e.simulation().time(), e.simulation().settings().dt);
    EXPECT_FALSE(e.playing());
}

TEST(Editor, DivergencePausesRollsBackAndSaysWhy) {
    Scene stiff = findExampleScene("stiff-spring")->make();
    stiff.settings.integrator = "euler";
    Editor e(stiff);
    e.setPlaying(true);
    for (int f = 0; f < 60 && e.playing(); ++f) e.advance();
    EXPECT_FALSE(e.playing());
    EXPECT_NE(e.divergence().find("euler diverged"), std::string::npos);
    EXPECT_TRUE(e.simulation().world().positions().allFinite());
    EXPECT_LT(e.simulation().kineticEnergy(), 1e3);
    e.dismissDivergence();
    EXPECT_TRUE(e.divergence().empty());
}

// A scene that fails to build (here a slider without a direction, which the core refuses)
// leaves the open document exactly as it was: its scene, model, history and unsaved flag.
TEST(Editor, OpeningASceneThatFailsToBuildChangesNothing) {
    Scene original = findExampleScene("bead-on-wire")->make();
    ASSERT_FALSE(original.wires.empty());
    Editor e(original);
    e.setTool(Tool::Particle);
    click(e, 3.0, 3.0);
    const Scene edited = e.scene();
    const Index particles = e.simulation().world().particleCount();

    Scene broken;
    broken.name = "broken";
    broken.wires.push_back(Wire{});
    broken.particles.push_back({Vec3::Zero(), Vec3::Zero(), 1.0, false});
    broken.constraints.push_back(SliderSpec{0, Vec3::Zero(), Vec3::Zero()});
    EXPECT_THROW(e.open(broken), std::invalid_argument);

    EXPECT_EQ(e.scene(), edited);
    EXPECT_EQ(e.simulation().world().particleCount(), particles);
    EXPECT_TRUE(e.modified());
    ASSERT_TRUE(e.canUndo());
    e.undo();
    EXPECT_EQ(e.scene().particles, original.particles);
    EXPECT_EQ(e.scene().wires, original.wires);
}

TEST(Editor, InThreeDGesturesWorkOnThePlaneThroughTheParticle) {
    // A camera looking along -x: the work plane faces it, through the pressed particle.
    Scene s = zeroGravity();
    s.particles.push_back({Vec3(0, 0, 2), Vec3::Zero(), 1.0, false});
    Editor e(s);
    e.setWorkPlane(Vec3::Zero(), Vec3::UnitX());
    e.setTool(Tool::Spring);
    const auto along = [](double y, double z) { return Ray{Vec3(10, y, z), -Vec3::UnitX()}; };
    e.pointerDown(along(0, 2), kTolerance, PointerButton::Left);
    e.pointerMove(along(1, 2), kTolerance);
    e.pointerUp(along(1, 3), kTolerance);
    ASSERT_EQ(e.scene().particles.size(), 2u);
    EXPECT_TRUE((e.scene().particles[1].position - Vec3(0, 1, 3)).norm() < 1e-12);
}

TEST(Picking, FindsTheNearestParticleWithinTheTolerance) {
    Scene s = zeroGravity();
    s.particles = {{Vec3(0, 0, 0), Vec3::Zero(), 1.0, false}, {Vec3(0.15, 0, 0), Vec3::Zero(), 1.0, false}};
    Editor e(s);
    EXPECT_EQ(pickParticle(e.simulation(), at(0.1, 0), kTolerance), std::optional<Index>(1));
    EXPECT_EQ(pickParticle(e.simulation(), at(0.02, 0), kTolerance), std::optional<Index>(0));
    EXPECT_FALSE(pickParticle(e.simulation(), at(0.5, 0.5), kTolerance));
}

TEST(Picking, PrefersTheNearerOfTwoInLineAndGrowsWithDistance) {
    Scene s = zeroGravity();
    s.particles = {{Vec3(0, 0, -5), Vec3::Zero(), 1.0, false}, {Vec3(0, 0, 0), Vec3::Zero(), 1.0, false}};
    Editor e(s);
    const Ray ray{Vec3(0, 0, 10), -Vec3::UnitZ()};
    EXPECT_EQ(pickParticle(e.simulation(), ray, kTolerance), std::optional<Index>(1));
    // A perspective tolerance grows with distance: 0.01 + 0.01 t reaches 0.105 off the ray
    // for both particles (t = 10 and 15); the nearer wins.
    const Ray off{Vec3(0.105, 0, 10), -Vec3::UnitZ()};
    EXPECT_FALSE(pickParticle(e.simulation(), off, {0.01, 0.0}));
    EXPECT_EQ(pickParticle(e.simulation(), off, {0.01, 0.01}), std::optional<Index>(1));
    // 0.12 off, only the farther one is within 0.01 + 0.01 t.
    const Ray farther{Vec3(0.12, 0, 10), -Vec3::UnitZ()};
    EXPECT_EQ(pickParticle(e.simulation(), farther, {0.01, 0.01}), std::optional<Index>(0));
}

// A rod is picked along its length with the tolerance at its own distance from the camera:
// two rods in line along the ray, 0.105 off it, are within 0.01 + 0.01 t only at t = 10 and
// 15, not at the camera; of the two, the nearer wins.
TEST(Picking, ARodIsPickedWithTheToleranceAtItsDistance) {
    Scene s = zeroGravity();
    s.particles = {{Vec3(-1, 0, -5), Vec3::Zero(), 1.0, false},
                   {Vec3(1, 0, -5), Vec3::Zero(), 1.0, false},
                   {Vec3(-1, 0, 0), Vec3::Zero(), 1.0, false},
                   {Vec3(1, 0, 0), Vec3::Zero(), 1.0, false}};
    s.constraints = {RodSpec{0, 1, 2.0}, RodSpec{2, 3, 2.0}};
    Editor e(s);
    const Ray off{Vec3(0, 0.105, 10), -Vec3::UnitZ()};
    EXPECT_FALSE(pickRod(e.simulation(), off, {0.01, 0.0}));
    EXPECT_EQ(pickRod(e.simulation(), off, {0.01, 0.01}), std::optional<Index>(1));
    const Ray farther{Vec3(0, 0.12, 10), -Vec3::UnitZ()};
    EXPECT_EQ(pickRod(e.simulation(), farther, {0.01, 0.01}), std::optional<Index>(0));
}

TEST(Picking, SegmentsAndWires) {
    const Ray ray{Vec3(0.5, 0.05, 10), -Vec3::UnitZ()};
    EXPECT_NEAR(segmentDistanceToRay(ray, Vec3(0, 0, 0), Vec3(1, 0, 0)), 0.05, 1e-12);
    EXPECT_NEAR(segmentDistanceToRay(ray, Vec3(2, 0, 0), Vec3(3, 0, 0)), std::hypot(1.5, 0.05), 1e-12);
    const std::vector<Wire> wires{{Vec3::Zero(), 1.0, Vec3::UnitZ()}};
    EXPECT_EQ(pickWire(wires, at(0, 1.05), kTolerance), std::optional<Index>(0));
    EXPECT_FALSE(pickWire(wires, at(0, 0.5), kTolerance));
}

// A body is hit where the ray enters it, with the surface's outward normal there: a sphere's
// radial one, a turned box's face normal in the world.
TEST(Picking, ABodyIsHitOnItsSurfaceWithItsOutwardNormal) {
    Scene s = zeroGravity();
    s.bodies.push_back(RigidBodySpec{.shape = SphereShape{0.5}});
    RigidBodySpec box;
    box.shape = BoxShape{Vec3(1.0, 2.0, 0.5)};
    box.position = Vec3(3, 0, 0);
    box.orientation = Eigen::Quaterniond(Eigen::AngleAxisd(0.5 * std::numbers::pi, Vec3::UnitX()));  // its y along z
    s.bodies.push_back(box);
    Editor e(s);
    const auto hit = [&](const Ray& ray) {
        const std::optional<BodyHit> h = pickBody(e.simulation(), ray);
        EXPECT_TRUE(h.has_value());
        return h.value_or(BodyHit{-1, Vec3::Zero(), Vec3::Zero()});
    };
    const BodyHit onBall = hit(at(0.3, 0.0));
    EXPECT_EQ(onBall.body, 0);
    EXPECT_TRUE(onBall.point.isApprox(Vec3(0.3, 0.0, 0.4), 1e-12));
    EXPECT_TRUE(onBall.normal.isApprox(Vec3(0.6, 0.0, 0.8), 1e-12));
    const BodyHit onTop = hit(at(3.1, 0.1));
    EXPECT_EQ(onTop.body, 1);
    EXPECT_NEAR(onTop.point.z(), 1.0, 1e-12);
    EXPECT_TRUE(onTop.normal.isApprox(Vec3::UnitZ(), 1e-12));
    const BodyHit onSide = hit(Ray{Vec3(10, 0.1, 0.3), -Vec3::UnitX()});
    EXPECT_EQ(onSide.body, 1);
    EXPECT_NEAR(onSide.point.x(), 3.5, 1e-12);
    EXPECT_TRUE(onSide.normal.isApprox(Vec3::UnitX(), 1e-12));
}

// A convex hull is hit on its faces, not on its bounding sphere: a ray that passes beside the
// seesaw's triangular fulcrum but through the sphere about it misses; one on a sloping face
// hits it on that face's plane with the face's normal, turned with the body; from inside, the
// nearest face's.
TEST(Picking, AConvexHullIsHitOnItsFaces) {
    Scene s = zeroGravity();
    RigidBodySpec prism;
    // The seesaw example's wedge: a prism on the triangle (-0.4, -0.8), (0.4, -0.8), (0, 0), z from -0.2 to 0.2.
    prism.shape = findExampleScene("seesaw")->make().bodies[0].shape;
    prism.position = Vec3(1, 2, 0);
    s.bodies.push_back(prism);
    Editor e(s);
    // Beside a slope, 0.33 from the centroid, within the bounding sphere about it (radius 0.57).
    EXPECT_FALSE(pickBody(e.simulation(), at(1.3, 1.6)));
    // The right-hand slope, from +x: on the plane through (0.4, -0.8) and (0, 0) in the body's
    // frame, normal (2, 1, 0) / sqrt(5), at x = 0.2 where y = -0.4.
    const Vec3 slope = Vec3(2, 1, 0).normalized();
    const std::optional<BodyHit> side = pickBody(e.simulation(), Ray{Vec3(10, 1.6, 0.1), -Vec3::UnitX()});
    ASSERT_TRUE(side);
    EXPECT_NEAR(slope.dot(side->point - Vec3(1, 2, 0)), 0.0, 1e-12);
    EXPECT_NEAR(side->point.x(), 1.2, 1e-12);
    EXPECT_TRUE(side->normal.isApprox(slope, 1e-12));
    // Front face, turned a quarter turn about y: the body's +z face looks along +x.
    Scene turned = s;
    turned.bodies[0].orientation = Eigen::Quaterniond(Eigen::AngleAxisd(0.5 * std::numbers::pi, Vec3::UnitY()));
    Editor t(turned);
    const std::optional<BodyHit> front = pickBody(t.simulation(), Ray{Vec3(10, 1.5, 0.0), -Vec3::UnitX()});
    ASSERT_TRUE(front);
    EXPECT_NEAR(front->point.x(), 1.2, 1e-12);
    EXPECT_TRUE(front->normal.isApprox(Vec3::UnitX(), 1e-12));
    // From inside, near the bottom face: that face's normal, at the origin.
    const std::optional<BodyHit> within = pickBody(e.simulation(), Ray{Vec3(1, 1.25, 0), Vec3::UnitX()});
    ASSERT_TRUE(within);
    EXPECT_EQ(within->point, Vec3(1, 1.25, 0));
    EXPECT_TRUE(within->normal.isApprox(-Vec3::UnitY(), 1e-12));
}

TEST(UndoHistory, KeepsWithinItsMemoryBudget) {
    Scene big;
    big.particles.resize(1000);
    UndoHistory history(3 * UndoHistory::approximateBytes(big));
    for (int k = 0; k < 10; ++k) history.recordBefore(big);
    EXPECT_LE(history.undoDepth(), 3u);
    EXPECT_GE(history.undoDepth(), 2u);
}

}  // namespace
}  // namespace tinkerbox
