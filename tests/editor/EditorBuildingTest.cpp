// Building by hand with synthetic input in world coordinates: rubber-band selection, copy
// and paste with what joins the copied items, snapping to the grid, the chain, cloth and
// hair tools, each undoable.
#include <gtest/gtest.h>

#include <cmath>

#include "core/constraints/RodConstraint.h"
#include "editor/Clipboard.h"
#include "editor/ClothTool.h"
#include "editor/Editor.h"
#include "editor/HairTool.h"
#include "editor/PointerInput.h"
#include "scene/ExampleScenes.h"

namespace tinkerbox {
namespace {

using test::at;
using test::click;
using test::drag;
using test::kTolerance;

// Without gravity: particles 0, 1, 2 at (0, 0), (1, 0), (2, 0) and 3 far off at (5, 0); a
// box with its centre at (1, 1); a wire around (1, -1). Springs 0-1, 1-2, 2-3 and from
// particle 0 to a point of the box; a rod 0-2, a nail on 0, a slider on 1, a rod 2-3.
Scene workbench() {
    Scene s;
    s.settings.gravity = Vec3::Zero();
    for (const Vec3& x : {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0), Vec3(5, 0, 0)})
        s.particles.push_back({x, Vec3::Zero(), 1.0, false});
    s.particles[2].mass = 2.5;
    RigidBodySpec box;
    box.shape = BoxShape{Vec3(0.5, 0.5, 0.5)};
    box.position = Vec3(1, 1, 0);
    box.friction = 0.3;
    s.bodies.push_back(box);
    s.wires.push_back({Vec3(1, -1, 0), 0.5, Vec3::UnitZ()});
    s.springs.push_back({0, 1, 50.0, 0.5, 1.0});
    s.springs.push_back({1, 2, 70.0, 0.2, 1.1});
    s.springs.push_back({2, 3, 90.0, 0.1, 3.0});
    s.springs.push_back({0, Anchor::onBody(0, Vec3(0.2, 0, 0)), 30.0, 0.3, 1.2});
    s.constraints.push_back(RodSpec{0, 2, 2.0});
    s.constraints.push_back(NailSpec{0, Vec3(0, 0, 0)});
    s.constraints.push_back(SliderSpec{1, Vec3(1, 0, 0), Vec3::UnitX()});
    s.constraints.push_back(RodSpec{2, 3, 3.0});
    return s;
}

TEST(EditorBuilding, RubberBandSelectsExactlyWhatIsInside) {
    Editor e(workbench());
    e.setTool(Tool::Select);
    drag(e, {-0.5, -1.6, 0}, {2.5, 1.6, 0});
    EXPECT_EQ(e.gesture().kind, Gesture::Kind::None);
    const Selection& s = e.selection();
    EXPECT_EQ(s.particles, (std::set<Index>{0, 1, 2}));
    EXPECT_EQ(s.bodies, std::set<Index>{0});
    EXPECT_EQ(s.wires, std::set<Index>{0});
    EXPECT_EQ(s.springs, (std::set<Index>{0, 1, 3}));  // 2-3 has an end outside
    EXPECT_EQ(s.constraints, (std::set<Index>{0, 1, 2}));

    // Drawn the other way round, smaller: only particle 1 and the slider on it. The band is
    // what the view draws while the drag goes on.
    e.pointerDown(at(1.3, 0.4), kTolerance, PointerButton::Left);
    e.pointerMove(at(0.7, -0.4), kTolerance);
    ASSERT_TRUE(e.rubberBand());
    EXPECT_TRUE(e.rubberBand()->contains(Vec3(1, 0, 0)));
    EXPECT_FALSE(e.rubberBand()->contains(Vec3(1.4, 0, 0)));
    e.pointerUp(at(0.7, -0.4), kTolerance);
    EXPECT_EQ(e.selection(), (Selection{{1}, {}, {2}, {}, {}}));

    // Shift adds a second band's items; a click on empty space clears.
    e.pointerDown(at(4.5, -0.5), kTolerance, PointerButton::Left, true);
    e.pointerMove(at(5.5, 0.5), kTolerance);
    e.pointerUp(at(5.5, 0.5), kTolerance);
    EXPECT_EQ(e.selection().particles, (std::set<Index>{1, 3}));
    EXPECT_EQ(e.selection().constraints, std::set<Index>{2});
    click(e, 3.5, 3.0);
    EXPECT_TRUE(e.selection().empty());
}

TEST(EditorBuilding, ARubberBandSelectionMovesAsOne) {
    Editor e(workbench());
    e.setTool(Tool::Select);
    drag(e, {-0.5, -0.5, 0}, {1.5, 1.6, 0});  // particles 0 and 1, and the box
    ASSERT_EQ(e.selection().particles, (std::set<Index>{0, 1}));
    ASSERT_EQ(e.selection().bodies, std::set<Index>{0});
    drag(e, {1, 0, 0}, {1.5, 2, 0});
    EXPECT_EQ(e.scene().particles[0].position, Vec3(0.5, 2, 0));
    EXPECT_EQ(e.scene().particles[1].position, Vec3(1.5, 2, 0));
    EXPECT_EQ(e.scene().particles[2].position, Vec3(2, 0, 0));
    EXPECT_NEAR((e.scene().bodies[0].position - Vec3(1.5, 3, 0)).norm(), 0.0, 1e-12);
    EXPECT_EQ(std::get<NailSpec>(e.scene().constraints[1]).point, Vec3(0.5, 2, 0));  // the nail follows
    e.undo();
    EXPECT_EQ(e.scene(), workbench());
}

TEST(EditorBuilding, CopyAndPasteKeepEverySpringAndConstraint) {
    const Scene original = workbench();
    Editor e(original);
    e.setTool(Tool::Select);
    drag(e, {-0.5, -1.6, 0}, {2.5, 1.6, 0});
    e.copySelection();
    ASSERT_TRUE(e.canPaste());
    e.paste();

    const Scene& s = e.scene();
    ASSERT_EQ(s.particles.size(), 7u);
    ASSERT_EQ(s.bodies.size(), 2u);
    ASSERT_EQ(s.wires.size(), 2u);
    ASSERT_EQ(s.springs.size(), 7u);      // 0-1, 1-2 and 0-box come along; 2-3 does not
    ASSERT_EQ(s.constraints.size(), 7u);  // the rod 0-2, the nail and the slider; not the rod 2-3
    const Vec3 offset = s.particles[4].position - original.particles[0].position;
    EXPECT_GT(offset.norm(), 0.1);
    EXPECT_EQ(offset.z(), 0.0);
    // The copies of particles 0, 1, 2 are 4, 5, 6; of the box, body 1.
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(s.particles[4 + i].position, original.particles[i].position + offset);
        EXPECT_EQ(s.particles[4 + i].mass, original.particles[i].mass);
    }
    RigidBodySpec box = original.bodies[0];
    box.position += offset;
    EXPECT_EQ(s.bodies[1], box);
    EXPECT_EQ(s.wires[1], (Wire{original.wires[0].center + offset, 0.5, Vec3::UnitZ()}));
    const auto expectSpring = [&](std::size_t k, const DampedSpring& from, Anchor a, Anchor b) {
        EXPECT_EQ(s.springs[k].a, a) << k;
        EXPECT_EQ(s.springs[k].b, b) << k;
        EXPECT_EQ(s.springs[k].stiffness, from.stiffness) << k;
        EXPECT_EQ(s.springs[k].damping, from.damping) << k;
        EXPECT_EQ(s.springs[k].restLength, from.restLength) << k;
    };
    expectSpring(4, original.springs[0], 4, 5);
    expectSpring(5, original.springs[1], 5, 6);
    expectSpring(6, original.springs[3], 4, Anchor::onBody(1, Vec3(0.2, 0, 0)));
    EXPECT_EQ(std::get<RodSpec>(s.constraints[4]), (RodSpec{4, 6, 2.0}));
    EXPECT_EQ(std::get<NailSpec>(s.constraints[5]), (NailSpec{4, offset}));
    EXPECT_EQ(std::get<SliderSpec>(s.constraints[6]), (SliderSpec{5, Vec3(1, 0, 0) + offset, Vec3::UnitX()}));
    // The original is untouched, the copy is selected and built, and one undo takes it away.
    for (std::size_t k = 0; k < original.springs.size(); ++k) EXPECT_EQ(s.springs[k], original.springs[k]);
    EXPECT_EQ(e.selection(), (Selection{{4, 5, 6}, {4, 5, 6}, {4, 5, 6}, {1}, {1}}));
    EXPECT_EQ(e.simulation().world().particleCount(), 7);
    EXPECT_EQ(e.simulation().world().constraints().size(), 7u);
    e.undo();
    EXPECT_EQ(e.scene(), original);

    // A second paste of the same copy goes one step further; pasting at the pointer centres
    // the copy there (the middle of the box around (0, -1) .. (2, 1) is (1, 0)).
    e.paste();
    e.paste();
    EXPECT_EQ(e.scene().particles[7].position - e.scene().particles[4].position, offset);
    e.pasteAt(at(10, 10));
    EXPECT_EQ(e.scene().particles[10].position, Vec3(9, 10, 0));
    EXPECT_EQ(e.scene().springs.size(), 4u + 3u * 3u);
}

TEST(EditorBuilding, CutTakesTheSelectionAndWhatHangsOnIt) {
    Editor e(workbench());
    e.setTool(Tool::Select);
    drag(e, {-0.5, -0.5, 0}, {2.5, 0.5, 0});  // particles 0, 1, 2
    e.cutSelection();
    EXPECT_EQ(e.scene().particles.size(), 1u);
    EXPECT_TRUE(e.scene().springs.empty());  // 2-3 and the spring to the box hang on cut particles
    EXPECT_TRUE(e.scene().constraints.empty());
    e.pasteAt(at(1, 0));  // back where they were
    EXPECT_EQ(e.scene().particles[1].position, Vec3(0, 0, 0));
    EXPECT_EQ(e.scene().particles[3].position, Vec3(2, 0, 0));
    EXPECT_EQ(e.scene().springs.size(), 2u);
    EXPECT_EQ(e.scene().constraints.size(), 3u);
    // Everything selected, copied into a new scene, is the whole scene again.
    e.undo();
    e.undo();
    e.selectAll();
    e.copySelection();
    e.open(Scene{});
    e.pasteAt(at(2.5, 0));  // the middle of the box around (0, -1) .. (5, 1)
    const Scene pasted = e.scene();
    Scene expected = workbench();
    expected.settings = pasted.settings;
    EXPECT_EQ(pasted.particles, expected.particles);
    EXPECT_EQ(pasted.springs, expected.springs);
    EXPECT_EQ(pasted.constraints, expected.constraints);
    EXPECT_EQ(pasted.bodies, expected.bodies);
    EXPECT_EQ(pasted.wires, expected.wires);
}

TEST(EditorBuilding, ACopiedClothKeepsItsGrid) {
    Scene scene;
    scene.settings.gravity = Vec3::Zero();
    scene.particles.push_back({Vec3(-3, 0, 0), Vec3::Zero(), 1.0, false});
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 3; ++i) scene.particles.push_back({Vec3(i, j, 0), Vec3::Zero(), 1.0, false});
    scene.cloths.push_back({1, 3, 2, 2.0, 1.0, ClothMaterial{}, {}});
    Editor e(scene);
    e.setTool(Tool::Select);
    drag(e, {-0.5, -0.5, 0}, {2.5, 1.5, 0});
    e.copySelection();
    e.pasteAt(at(1, 5));
    ASSERT_EQ(e.scene().cloths.size(), 2u);
    ClothSpec copy = scene.cloths[0];
    copy.firstParticle = 7;
    EXPECT_EQ(e.scene().cloths[1], copy);
    EXPECT_EQ(e.scene().particles[7].position, Vec3(0, 4.5, 0));
    // A part of the cloth comes as a cloth of its own, over the grid around it.
    drag(e, {-0.5, -0.5, 0}, {1.5, 1.5, 0});
    e.copySelection();
    e.paste();
    ASSERT_EQ(e.scene().cloths.size(), 3u);
    EXPECT_EQ(e.scene().particles.size(), 13u + 4u);
    const ClothSpec& square = e.scene().cloths[2];
    EXPECT_EQ(square.firstParticle, 13);
    EXPECT_EQ(square.columns, 2);
    EXPECT_EQ(square.rows, 2);
    EXPECT_EQ(square.width, 1.0);
    EXPECT_EQ(square.height, 1.0);
    EXPECT_TRUE(square.missing.empty());
}

Selection ofParticles(std::set<Index> particles) {
    Selection selection;
    selection.particles = std::move(particles);
    return selection;
}

// Of a cloth, the selected places less the top right corner of a 3 x 2 grid are a cloth over
// that grid missing the corner (3 triangles); two places side by side have no triangle and
// come as particles. Of hair, the strands with a selected particle, the unselected places
// missing, the rest shape of the selected particles.
TEST(EditorBuilding, APartOfAClothOrAHairIsCopiedAsOne) {
    Scene scene;
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 3; ++i) scene.particles.push_back({Vec3(i, j, 0), Vec3::Zero(), 1.0, false});
    scene.cloths.push_back({0, 3, 2, 2.0, 1.0, ClothMaterial{}, {}});
    const SceneFragment piece = copyItems(scene, ofParticles({0, 1, 2, 3, 4}));
    ASSERT_EQ(piece.cloths.size(), 1u);
    EXPECT_EQ(piece.cloths[0].columns, 3);
    EXPECT_EQ(piece.cloths[0].rows, 2);
    EXPECT_EQ(piece.cloths[0].width, 2.0);
    EXPECT_EQ(piece.cloths[0].missing, std::vector<int>{5});
    EXPECT_EQ(piece.cloths[0].triangles().size(), 3u);
    EXPECT_TRUE(copyItems(scene, ofParticles({1, 2})).cloths.empty());

    Scene hairy;
    std::vector<Vec3> rest;
    for (int strand = 0; strand < 3; ++strand)
        for (int k = 0; k < 5; ++k) {
            hairy.particles.push_back({Vec3(k, strand, 0), Vec3::Zero(), 1e-3, false});
            rest.push_back(Vec3(k, strand, 1));
        }
    hairy.hair.push_back({0, 3, 5, HairMaterial{}, rest, {}});
    const SceneFragment tufts = copyItems(hairy, ofParticles({0, 1, 2, 11, 12, 13, 14}));
    ASSERT_EQ(tufts.hair.size(), 1u);
    const HairSpec& h = tufts.hair[0];
    EXPECT_EQ(h.firstParticle, 0);
    EXPECT_EQ(h.strands, 2);  // the first and the last
    EXPECT_EQ(h.length, 5);
    EXPECT_EQ(h.missing, (std::vector<int>{3, 4, 5}));
    ASSERT_EQ(h.restShape.size(), 7u);
    EXPECT_EQ(h.restShape[3], Vec3(1, 2, 1));
    ASSERT_EQ(h.runs().size(), 2u);
    EXPECT_EQ(h.runs()[1].first, 3);
    EXPECT_EQ(h.runs()[1].length, 4);
    EXPECT_TRUE(copyItems(hairy, ofParticles({0, 2, 4})).hair.empty());
}

TEST(EditorBuilding, SnappingPutsWhatIsMadeAndMovedOnGridPoints) {
    Scene scene;
    scene.settings.gravity = Vec3::Zero();
    Editor e(scene);
    e.grid().enabled = true;
    e.grid().spacing = 0.5;
    e.setTool(Tool::Particle);
    click(e, 0.7, 1.3);
    click(e, 0.74, -0.26);
    ASSERT_EQ(e.scene().particles.size(), 2u);
    EXPECT_EQ(e.scene().particles[0].position, Vec3(0.5, 1.5, 0));
    EXPECT_EQ(e.scene().particles[1].position, Vec3(0.5, -0.5, 0));
    // A spring released on empty space: its new end too.
    e.setTool(Tool::Spring);
    drag(e, {0.5, 1.5, 0}, {2.1, 1.4, 0});
    EXPECT_EQ(e.scene().particles[2].position, Vec3(2, 1.5, 0));
    EXPECT_DOUBLE_EQ(e.scene().springs[0].restLength, 1.5);
    // A move takes the pressed particle from grid point to grid point.
    e.setTool(Tool::Select);
    drag(e, {0.5, -0.5, 0}, {0.8, -0.4, 0});
    EXPECT_EQ(e.scene().particles[1].position, Vec3(1, -0.5, 0));
    // A box's centre and a wire's centre.
    e.setTool(Tool::Box);
    click(e, 3.1, -1.9);
    EXPECT_EQ(e.scene().bodies[0].position, Vec3(3, -2, 0));
    e.setTool(Tool::Select);
    drag(e, {3, -2, 0}, {3.3, -2.6, 0});
    EXPECT_NEAR((e.scene().bodies[0].position - Vec3(3.5, -2.5, 0)).norm(), 0.0, 1e-12);
    e.setTool(Tool::Wire);
    drag(e, {-2.1, 2.1, 0}, {-1.1, 2.1, 0});
    EXPECT_EQ(e.scene().wires[0].center, Vec3(-2, 2, 0));
    EXPECT_EQ(e.scene().wires[0].radius, 1.0);
    // Off, nothing snaps.
    e.grid().enabled = false;
    e.setTool(Tool::Particle);
    click(e, -0.7, 1.3);
    EXPECT_EQ(e.scene().particles.back().position, Vec3(-0.7, 1.3, 0));
}

// The common catenary y = c cosh(x / c) of parameter c = 1, whose arc from its vertex to x
// is sinh(x) long.
TEST(EditorBuilding, ARopeHangsAsACatenary) {
    const Vec3 down(0, -9.81, 0);
    // Symmetric ends at x = -1 and 1: the middle joint is the vertex, cosh(1) - 1 below them.
    const std::vector<Vec3> middle =
        hangingRope(Vec3(-1, 0, 0), Vec3(1, 0, 0), 1, 2.0 * std::sinh(1.0), down, Vec3::UnitZ());
    ASSERT_EQ(middle.size(), 1u);
    EXPECT_NEAR((middle[0] - Vec3(0, 1.0 - std::cosh(1.0), 0)).norm(), 0.0, 1e-12);
    // From the vertex to x = 1 (one end higher): the joints at arc lengths s lie at
    // x = asinh(s), y = cosh(x) - 1.
    const double length = std::sinh(1.0);
    const std::vector<Vec3> joints =
        hangingRope(Vec3(0, 0, 0), Vec3(1, std::cosh(1.0) - 1.0, 0), 3, length, down, Vec3::UnitZ());
    ASSERT_EQ(joints.size(), 3u);
    for (int k = 1; k <= 3; ++k) {
        const double s = k * length / 4.0, x = std::asinh(s);
        EXPECT_NEAR((joints[k - 1] - Vec3(x, std::cosh(x) - 1.0, 0)).norm(), 0.0, 1e-12) << k;
    }
    // No slack: a straight segment. No gravity: it sags sideways in the work plane, as long as asked.
    const std::vector<Vec3> straight = hangingRope(Vec3(0, 0, 0), Vec3(4, 0, 0), 3, 4.0, down, Vec3::UnitZ());
    EXPECT_EQ(straight, (std::vector<Vec3>{Vec3(1, 0, 0), Vec3(2, 0, 0), Vec3(3, 0, 0)}));
    const std::vector<Vec3> floating = hangingRope(Vec3(0, 0, 0), Vec3(0, 2, 0), 99, 3.0, Vec3::Zero(), Vec3::UnitZ());
    double polyline = 0.0;
    Vec3 previous = Vec3::Zero();
    for (const Vec3& x : floating) {
        EXPECT_EQ(x.z(), 0.0);
        polyline += (x - previous).norm();
        previous = x;
    }
    polyline += (Vec3(0, 2, 0) - previous).norm();
    EXPECT_NEAR(polyline, 3.0, 1e-3);  // chords of a smooth curve: a little shorter than its arc
    EXPECT_LT(polyline, 3.0);
}

// Two nailed particles 4 m apart, a chain of 9 rods' joints between them with 20 % slack:
// 9 particles, 10 rods of 4.8 / 10 m, the first and last on the nailed particles. It
// starts as the rope hangs and stays there, the rods keeping their lengths.
TEST(EditorBuilding, TheChainToolDropsARopeThatHangs) {
    Scene scene;
    scene.settings.drag = 0.5;
    scene.particles.push_back({Vec3(-2, 0, 0), Vec3::Zero(), 1.0, true});
    scene.particles.push_back({Vec3(2, 0, 0), Vec3::Zero(), 1.0, true});
    Editor e(scene);
    e.chain().particles = 9;
    e.chain().rods = true;
    e.chain().slack = 1.2;
    e.setTool(Tool::Chain);
    drag(e, {-2, 0, 0}, {2.02, 0, 0});
    ASSERT_EQ(e.scene().particles.size(), 11u);
    ASSERT_EQ(e.scene().constraints.size(), 10u);
    EXPECT_TRUE(e.scene().springs.empty());
    std::vector<Index> order = {0};
    for (Index i = 2; i < 11; ++i) order.push_back(i);
    order.push_back(1);
    for (std::size_t k = 0; k < 10; ++k) {
        const RodSpec rod = std::get<RodSpec>(e.scene().constraints[k]);
        EXPECT_EQ(rod.a, order[k]);
        EXPECT_EQ(rod.b, order[k + 1]);
        EXPECT_DOUBLE_EQ(rod.length, 0.48);
    }
    const std::vector<Vec3> start = [&] {
        std::vector<Vec3> x;
        for (const ParticleInit& p : e.scene().particles) x.push_back(p.position);
        return x;
    }();
    EXPECT_LT(start[6].y(), -0.9);  // the middle joint hangs well below the ends
    EXPECT_NEAR(start[6].x(), 0.0, 1e-12);
    e.setPlaying(true);
    for (int f = 0; f < 180; ++f) e.advance();
    const World& w = e.simulation().world();
    double worst = 0.0;
    for (const auto& c : w.constraints()) {
        const RodSpec rod = std::get<RodSpec>(c->spec());
        worst = std::max(worst, std::abs((w.anchorPosition(rod.a) - w.anchorPosition(rod.b)).norm() - rod.length));
    }
    EXPECT_LT(worst, 1e-3 * 0.48);
    for (Index i = 2; i < 11; ++i) EXPECT_LT((w.position(i) - start[i]).norm(), 0.05) << i;
    e.setPlaying(false);
    e.undo();
    EXPECT_EQ(e.scene().particles, scene.particles);
    EXPECT_TRUE(e.scene().constraints.empty());
}

// Two clicks on empty space, springs: the ends are new particles, the links springs with the
// new springs' constants. Undo takes the whole chain at once.
TEST(EditorBuilding, TheChainToolTakesTwoClicksAndMakesSprings) {
    Scene scene;
    Editor e(scene);
    e.chain().particles = 4;
    e.chain().slack = 1.0;
    e.setTool(Tool::Chain);
    click(e, 0, 0);
    EXPECT_EQ(e.gesture().kind, Gesture::Kind::Chain);  // waiting for the second click
    e.pointerMove(at(2.5, 0), kTolerance);
    EXPECT_EQ(e.chainBeingLaid().size(), 6u);
    click(e, 5, 0);
    EXPECT_EQ(e.gesture().kind, Gesture::Kind::None);
    ASSERT_EQ(e.scene().particles.size(), 6u);
    ASSERT_EQ(e.scene().springs.size(), 5u);
    for (const DampedSpring& s : e.scene().springs) {
        EXPECT_DOUBLE_EQ(s.restLength, 1.0);
        EXPECT_EQ(s.stiffness, e.newElements().springStiffness);
        EXPECT_EQ(s.damping, e.newElements().springDamping);
        EXPECT_DOUBLE_EQ((e.scene().particles[s.a.index()].position - e.scene().particles[s.b.index()].position).norm(),
                         1.0);
    }
    EXPECT_EQ(e.scene().particles[0].position, Vec3(0, 0, 0));
    EXPECT_EQ(e.scene().particles[5].position, Vec3(5, 0, 0));
    e.undo();
    EXPECT_TRUE(e.scene().particles.empty());
    EXPECT_TRUE(e.scene().springs.empty());
    // A chain waiting for its second click is dropped by a right click or another tool.
    click(e, 0, 0);
    click(e, 1, 1, PointerButton::Right);
    EXPECT_EQ(e.gesture().kind, Gesture::Kind::None);
    click(e, 0, 0);
    e.setTool(Tool::Particle);
    EXPECT_EQ(e.tool(), Tool::Particle);
    EXPECT_EQ(e.gesture().kind, Gesture::Kind::None);
    EXPECT_TRUE(e.scene().particles.empty());
}

// A chain from a point of a box to a particle attaches to both, as a spring would.
TEST(EditorBuilding, AChainHangsFromWhatItsEndsWereClickedOn) {
    Scene scene;
    scene.settings.gravity = Vec3::Zero();
    RigidBodySpec box;
    box.position = Vec3(0, 0, 0);
    scene.bodies.push_back(box);
    scene.particles.push_back({Vec3(3, 0, 0), Vec3::Zero(), 1.0, false});
    Editor e(scene);
    e.chain().particles = 2;
    e.setTool(Tool::Chain);
    drag(e, {0.2, 0.3, 0}, {3, 0, 0});
    ASSERT_EQ(e.scene().particles.size(), 3u);
    ASSERT_EQ(e.scene().springs.size(), 3u);
    EXPECT_TRUE(e.scene().springs[0].a.isRigid());
    EXPECT_EQ(e.scene().springs[0].a.index(), 0);
    EXPECT_EQ(e.scene().springs[2].b, 0);
}

// The cloth tool's grid: settings.particles along the longer side, the other side's count
// rounded to keep the cells square, at least 2 each way, the front toward the normal; a
// clicked cloth is a square centred where it was clicked.
TEST(EditorBuilding, AClothOverARectangleHasSquareCells) {
    ClothSettings settings;
    settings.particles = 16;
    const TriangleClothOptions wide = clothOver({Vec3(0, 0, 0), Vec3(2, 1, 0), Vec3::UnitZ()}, settings);
    EXPECT_EQ(wide.columns, 16);
    EXPECT_EQ(wide.rows, 9);  // 15 cells x 1/2 = 7.5, rounded to 8
    EXPECT_EQ(wide.corner, Vec3::Zero());
    EXPECT_EQ(wide.u, Vec3(2, 0, 0));
    EXPECT_EQ(wide.v, Vec3(0, 1, 0));
    const TriangleClothOptions sliver = clothOver({Vec3(0, 0, 0), Vec3(-0.01, -3, 0), Vec3::UnitZ()}, settings);
    EXPECT_EQ(sliver.columns, 2);
    EXPECT_EQ(sliver.rows, 16);
    // Dragged down to the right, the first edge and the normal would make the back face the
    // viewer: the edges trade places.
    const TriangleClothOptions down = clothOver({Vec3(0, 0, 0), Vec3(2, -1, 0), Vec3::UnitZ()}, settings);
    EXPECT_EQ(down.u, Vec3(0, -1, 0));
    EXPECT_EQ(down.v, Vec3(2, 0, 0));
    EXPECT_EQ(down.columns, 9);
    EXPECT_EQ(down.rows, 16);
    EXPECT_GT(down.u.cross(down.v).z(), 0.0);
    const PlaneRectangle square = squareAround(Vec3(5, 5, 0), Vec3::UnitZ(), 1.0);
    EXPECT_TRUE(square.from.isApprox(Vec3(4.5, 4.5, 0)));
    EXPECT_TRUE(square.to.isApprox(Vec3(5.5, 5.5, 0)));
}

// A drag lays a cloth over the rectangle, its mass density x area, in one undoable edit; a
// click lays the default square around the click; a press on a particle lays nothing.
TEST(EditorBuilding, TheClothToolLaysAClothOfTriangleEnergies) {
    Editor e;
    e.setTool(Tool::Cloth);
    e.cloth().particles = 16;
    drag(e, Vec3(0, 0, 0), Vec3(2, 1, 0));
    ASSERT_EQ(e.scene().cloths.size(), 1u);
    const ClothSpec cloth = e.scene().cloths[0];
    EXPECT_EQ(cloth.columns, 16);
    EXPECT_EQ(cloth.rows, 9);
    EXPECT_DOUBLE_EQ(cloth.width, 2.0);
    EXPECT_DOUBLE_EQ(cloth.height, 1.0);
    EXPECT_EQ(cloth.material, e.cloth().material);
    ASSERT_EQ(e.scene().particles.size(), 16u * 9u);
    double mass = 0.0;
    for (const ParticleInit& p : e.scene().particles) mass += p.mass;
    EXPECT_NEAR(mass, e.cloth().density * 2.0, 1e-12);
    EXPECT_EQ(e.scene().particles[cloth.firstParticle + 15].position, Vec3(2, 0, 0));
    EXPECT_EQ(e.scene().particles[cloth.firstParticle + 16 * 9 - 1].position, Vec3(2, 1, 0));
    EXPECT_EQ(e.status().rfind("Cloth: 16 x 9 particles.", 0), 0u) << e.status();
    EXPECT_NE(e.status().find("stiff"), std::string::npos) << "the default integrator, rk4, is told about";
    e.undo();
    EXPECT_TRUE(e.scene().cloths.empty());
    EXPECT_TRUE(e.scene().particles.empty());
    e.redo();
    ASSERT_EQ(e.scene().cloths.size(), 1u);

    click(e, 5, 5);
    ASSERT_EQ(e.scene().cloths.size(), 2u);
    const ClothSpec clicked = e.scene().cloths[1];
    EXPECT_EQ(clicked.columns, 16);
    EXPECT_EQ(clicked.rows, 16);
    EXPECT_TRUE(e.scene().particles[clicked.firstParticle].position.isApprox(Vec3(4.5, 4.5, 0)));

    const std::size_t particles = e.scene().particles.size();
    drag(e, Vec3(0, 0, 0), Vec3(-1, -1, 0));  // from the first cloth's corner particle
    EXPECT_EQ(e.scene().particles.size(), particles);
}

// Selecting what is joined to the selection: one particle of a triangle cloth (no springs)
// brings the whole cloth, and nothing else; a spring brings its chain and the body it hangs
// from, with the chain's nail. Deleted, the cloth goes whole, and the rest stays.
TEST(EditorBuilding, SelectConnectedTakesTheWholePiece) {
    Scene scene = workbench();  // 0-1-2-3 joined by springs and rods, 0 to the box; particle 3 too
    const Index free = static_cast<Index>(scene.particles.size());
    scene.particles.push_back({Vec3(8, 0, 0), Vec3::Zero(), 1.0, false});
    TriangleClothOptions options;
    options.columns = options.rows = 3;
    options.corner = Vec3(10, 0, 0);
    const Index cloth = addTriangleCloth(scene, options);
    Editor e(scene);
    e.selectParticle(cloth + 4);
    e.selectConnected();
    std::set<Index> clothParticles;
    for (Index i = cloth; i < cloth + 9; ++i) clothParticles.insert(i);
    EXPECT_EQ(e.selection().particles, clothParticles);
    EXPECT_TRUE(e.selection().bodies.empty());
    EXPECT_TRUE(e.selection().springs.empty());
    e.deleteSelection();
    EXPECT_TRUE(e.scene().cloths.empty());
    EXPECT_EQ(static_cast<Index>(e.scene().particles.size()), free + 1);

    e.setTool(Tool::Select);
    click(e, 0.5, 0.0);  // on the spring 0-1
    ASSERT_EQ(e.selection().springs, (std::set<Index>{0}));
    e.selectConnected();
    EXPECT_EQ(e.selection().particles, (std::set<Index>{0, 1, 2, 3}));
    EXPECT_EQ(e.selection().bodies, (std::set<Index>{0}));
    EXPECT_EQ(e.selection().springs, (std::set<Index>{0, 1, 2, 3}));
    EXPECT_EQ(e.selection().constraints, (std::set<Index>{0, 1, 2, 3}));
}

// A ball of radius 0.5 at the origin (fixed or not) in gravity, under implicit Euler; the
// clicks come down from z = 10.
Scene ballToGrowHairOn(bool fixed) {
    Scene s;
    s.settings.integrator = "implicit-euler";
    RigidBodySpec ball{.shape = SphereShape{0.5}};
    ball.fixed = fixed;
    s.bodies.push_back(ball);
    return s;
}

// A click on a fixed ball grows a tuft about it, one edit: every strand of the settings' count
// and length, its first two particles nailed 2 mm off the surface, straight along the
// surface's normal at its root, the roots within the tuft's radius of the click seen from
// the view. A click on empty space grows nothing and says why.
TEST(EditorBuilding, TheHairToolGrowsATuftOnABody) {
    Editor e(ballToGrowHairOn(true));
    e.setTool(Tool::Hair);
    click(e, 2.0, 2.0);
    EXPECT_TRUE(e.scene().hair.empty());
    EXPECT_NE(e.status().find("Hair grows on bodies"), std::string::npos) << e.status();

    const HairSettings& settings = e.hair();
    click(e, 0.1, 0.05);
    ASSERT_EQ(e.scene().hair.size(), 1u);
    const HairSpec hair = e.scene().hair[0];
    EXPECT_EQ(hair.strands, settings.strands);
    EXPECT_EQ(hair.length, settings.particles);
    EXPECT_EQ(hair.material, settings.material);
    ASSERT_EQ(static_cast<Index>(e.scene().particles.size()), hair.particleCount());
    for (int strand = 0; strand < hair.strands; ++strand) {
        const auto x = [&](int k) {
            return e.scene().particles[hair.firstParticle + strand * hair.length + k].position;
        };
        const Vec3 normal = x(0).normalized();
        EXPECT_NEAR(x(0).norm(), 0.502, 1e-12) << strand;
        EXPECT_LE(std::hypot(x(0).x() - 0.1, x(0).y() - 0.05), settings.radius + 1e-12) << strand;
        for (int k = 0; k < hair.length; ++k) {
            EXPECT_TRUE(x(k).isApprox((0.502 + settings.segment * k) * normal, 1e-12)) << strand << ' ' << k;
            EXPECT_EQ(e.scene().particles[hair.firstParticle + strand * hair.length + k].nailed, k < 2)
                << strand << ' ' << k;
        }
    }
    EXPECT_EQ(e.status().rfind("Hair: 24 strands of 12 particles.", 0), 0u) << e.status();
    e.undo();
    EXPECT_TRUE(e.scene().hair.empty());
    EXPECT_TRUE(e.scene().particles.empty());

    // At the ball's edge, as seen: only the strands whose roots land on it.
    click(e, 0.45, 0.0);
    ASSERT_EQ(e.scene().hair.size(), 1u);
    EXPECT_GT(e.scene().hair[0].strands, 0);
    EXPECT_LT(e.scene().hair[0].strands, settings.strands);
}

// In a planar model, a click on a slope of the seesaw's fixed triangular fulcrum, under the
// beam that rests on its apex, grows the whole tuft on that slope, every strand along the
// slope's normal; a click beside the slope, inside the sphere about the fulcrum, grows none.
TEST(EditorBuilding, TheHairToolGrowsOnAConvexHullsFaceUnderANeighbour) {
    Scene s;
    s.settings.planar = true;
    // The seesaw example's wedge, fixed at the origin: a prism on the triangle (-0.4, -0.8),
    // (0.4, -0.8), (0, 0), z from -0.2 to 0.2.
    const RigidBodySpec fulcrum = findExampleScene("seesaw")->make().bodies[0];
    ASSERT_TRUE(fulcrum.fixed);
    s.bodies.push_back(fulcrum);
    RigidBodySpec beam{.shape = BoxShape{Vec3(4.0, 0.1, 0.4)}};
    beam.position = Vec3(0, 0.05, 0);
    beam.fixed = true;
    s.bodies.push_back(beam);
    Editor e(s);
    e.setTool(Tool::Hair);
    click(e, 0.3, -0.4);
    EXPECT_TRUE(e.scene().hair.empty());
    click(e, 0.15, -0.35);
    ASSERT_EQ(e.scene().hair.size(), 1u);
    const HairSpec hair = e.scene().hair[0];
    EXPECT_EQ(hair.strands, e.hair().strands);
    const Vec3 slope = Vec3(2, 1, 0).normalized();  // the right-hand face's outward normal
    for (int strand = 0; strand < hair.strands; ++strand) {
        const auto x = [&](int k) {
            return e.scene().particles[hair.firstParticle + strand * hair.length + k].position;
        };
        EXPECT_NEAR(slope.dot(x(0)), 0.002, 1e-12) << strand;
        EXPECT_TRUE((x(1) - x(0)).normalized().isApprox(slope, 1e-12)) << strand;
    }
}

// On a ball that moves, the roots are pinned to the ball's points instead of nailed: the
// ball, thrown spinning without gravity, carries its hair for half a second, the roots where
// they were on it.
TEST(EditorBuilding, HairOnAMovingBodyGoesWithIt) {
    Scene scene = ballToGrowHairOn(false);
    scene.settings.gravity = Vec3::Zero();
    scene.bodies[0].velocity = Vec3(1, 0, 0);
    scene.bodies[0].angularVelocity = Vec3(0, 0, 3);
    Editor e(scene);
    e.setTool(Tool::Hair);
    e.hair().strands = 8;
    click(e, 0.0, 0.1);
    ASSERT_EQ(e.scene().hair.size(), 1u);
    const HairSpec hair = e.scene().hair[0];
    for (const ParticleInit& p : e.scene().particles) EXPECT_FALSE(p.nailed);
    ASSERT_EQ(static_cast<int>(e.scene().constraints.size()), 2 * hair.strands);
    std::vector<Vec3> rootsOnBall;  // in the ball's frame, which starts as the world's
    for (int strand = 0; strand < hair.strands; ++strand)
        for (int k = 0; k < 2; ++k)
            rootsOnBall.push_back(e.scene().particles[hair.firstParticle + strand * hair.length + k].position);
    e.setPlaying(true);
    for (int f = 0; f < 30; ++f) e.advance();
    EXPECT_TRUE(e.divergence().empty()) << e.divergence();
    const World& world = e.simulation().world();
    EXPECT_NEAR(world.rigidBodies().position(0).x(), 0.5, 0.01);
    EXPECT_NEAR(Eigen::AngleAxisd(world.rigidBodies().orientation(0)).angle(), 1.5, 0.02);
    const Quat turn = world.rigidBodies().orientation(0);
    std::size_t k = 0;
    for (int strand = 0; strand < hair.strands; ++strand)
        for (int j = 0; j < 2; ++j, ++k) {
            const Vec3 expected = world.rigidBodies().position(0) + turn * rootsOnBall[k];
            EXPECT_LT((world.position(hair.firstParticle + strand * hair.length + j) - expected).norm(), 1e-3)
                << strand << ' ' << j;
        }
}

// A group's material (a cloth's, a hair's) set to `changed`, then to one with a negative
// constant, which is refused, then undone back to `original`.
// The refusal says which constant and its range.
template <class Material, class Get, class Set>
void expectMaterialEdit(Editor& e, const Material& original, const Material& changed, const Material& negative, Get get,
                        Set set, const std::string& refusal) {
    EXPECT_EQ(set(changed), "");
    EXPECT_EQ(get(), changed);
    EXPECT_EQ(set(negative), refusal);
    EXPECT_EQ(get(), changed);
    e.undo();
    EXPECT_EQ(get(), original);
}

// The inspector's cloth: the cloth a particle belongs to, and its material set in one
// undoable edit that the simulation takes (its energy changes); a negative constant is
// refused.
TEST(EditorBuilding, AClothsMaterialIsSetInOneEdit) {
    Scene scene;
    TriangleClothOptions cloth;
    cloth.columns = cloth.rows = 4;
    addTriangleCloth(scene, cloth);
    scene.particles.push_back({Vec3(5, 5, 5), Vec3::Zero(), 1.0, false});  // not of the cloth
    scene.particles[5].position += Vec3(0.0, 0.05, 0.0);  // a stretch, so that the energy depends on the material
    Editor e(scene);
    EXPECT_EQ(e.clothOf(0), Index(0));
    EXPECT_EQ(e.clothOf(15), Index(0));
    EXPECT_EQ(e.clothOf(16), std::nullopt);
    const double before = e.simulation().world().potentialEnergy();
    ClothMaterial stiffer = cloth.material;
    stiffer.stretch *= 2.0;
    stiffer.shear *= 2.0;
    stiffer.bend *= 2.0;
    e.setClothMaterial(0, stiffer);
    EXPECT_GT(e.simulation().world().potentialEnergy(), before + 1e-9);
    e.undo();
    EXPECT_DOUBLE_EQ(e.simulation().world().potentialEnergy(), before);
    ClothMaterial negative = stiffer;
    negative.shearDamping = std::nan("");  // as refused as a negative one
    expectMaterialEdit(
        e, cloth.material, stiffer, negative, [&] { return e.scene().cloths[0].material; },
        [&](const ClothMaterial& m) { return e.setClothMaterial(0, m); },
        "shear damp. must be between 0 and 1e+50 (got nan)");
}

// Likewise for hair: the strands a particle belongs to, and their material in one edit.
TEST(EditorBuilding, AHairsMaterialIsSetInOneEdit) {
    Scene scene = findExampleScene("curly-hair")->make();
    ASSERT_EQ(scene.hair.size(), 1u);
    const HairSpec hair = scene.hair[0];
    Editor e(scene);
    EXPECT_EQ(e.hairOf(hair.firstParticle), Index(0));
    EXPECT_EQ(e.hairOf(hair.firstParticle + hair.strands * hair.length - 1), Index(0));
    EXPECT_EQ(e.hairOf(hair.firstParticle + hair.strands * hair.length), std::nullopt);
    EXPECT_EQ(e.clothOf(hair.firstParticle), std::nullopt);
    HairMaterial softer = hair.material;
    softer.bend *= 0.5;
    HairMaterial negative = softer;
    negative.twist = -1.0;
    expectMaterialEdit(
        e, hair.material, softer, negative, [&] { return e.scene().hair[0].material; },
        [&](const HairMaterial& m) { return e.setHairMaterial(0, m); }, "twist must be between 0 and 1e+50 (got -1)");
}

// The wind is set, changed and taken off in undoable edits; a gust scale that is not
// positive, or not a number, is refused with the reason.
TEST(EditorBuilding, TheWindIsAnEdit) {
    Editor e(findExampleScene("flag")->make());
    const auto wind = [&e]() -> std::optional<WindSettings> {
        const ForceFieldSpec* field = e.scene().field(WindSettings::kind);
        return field ? std::optional(std::get<WindSettings>(*field)) : std::nullopt;
    };
    ASSERT_TRUE(wind().has_value());
    const WindSettings before = *wind();
    WindSettings calm = before;
    calm.velocity = Vec3(1.0, 0.0, 0.5);
    EXPECT_EQ(e.setForceField(calm), "");
    EXPECT_EQ(wind(), calm);
    for (double scale : {0.0, std::nan("")}) {
        WindSettings bad = calm;
        bad.scale = scale;
        EXPECT_NE(e.setForceField(bad).find("gust size (m) must be between"), std::string::npos) << scale;
        EXPECT_EQ(wind(), calm) << scale;
    }
    WindSettings still = calm;
    still.velocity.x() = std::numeric_limits<double>::infinity();
    EXPECT_EQ(e.setForceField(still), "velocity (m/s) must be finite and at most 1e+50 in each coordinate");
    e.removeForceField(WindSettings::kind);
    EXPECT_FALSE(wind().has_value());
    const std::size_t forces = e.simulation().world().forces().size();
    e.undo();
    EXPECT_EQ(wind(), calm);
    EXPECT_EQ(e.simulation().world().forces().size(), forces + 1);  // the wind's force is back
    e.undo();
    EXPECT_EQ(wind(), before);
    // Switched on again from nothing: the kind's example, the one field of its kind.
    e.removeForceField(WindSettings::kind);
    EXPECT_EQ(e.setForceField(WindSettings::kind.example()), "");
    EXPECT_EQ(e.scene().fields.size(), 1u);
    EXPECT_EQ(e.scene().fields[0], WindSettings::kind.example());
}

}  // namespace
}  // namespace tinkerbox
