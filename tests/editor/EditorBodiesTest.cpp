// Building with rigid bodies by hand, with synthetic input in world coordinates: the box and
// sphere tools, springs, rods and nails on the clicked point of a body, grabbing a body,
// the inspector's edits and deletion, each undoable.
#include <gtest/gtest.h>

#include <cmath>

#include "editor/Editor.h"
#include "editor/PointerInput.h"
#include "scene/SceneJson.h"

namespace tinkerbox {
namespace {

using test::at;
using test::click;
using test::drag;
using test::kTolerance;

// Zero gravity; a 1 m box at (0, 0) and a sphere of radius 0.5 at (3, 0).
Editor boxAndSphere() {
    Scene scene;
    scene.settings.gravity = Vec3::Zero();
    Editor e(scene);
    e.setTool(Tool::Box);
    click(e, 0, 0);
    e.setTool(Tool::Sphere);
    click(e, 3, 0);
    return e;
}

TEST(EditorBodies, BoxAndSphereToolsAddBodiesOnEmptySpace) {
    Editor e = boxAndSphere();
    ASSERT_EQ(e.scene().bodies.size(), 2u);
    EXPECT_EQ(std::get<BoxShape>(e.scene().bodies[0].shape).size, Vec3::Ones());
    EXPECT_EQ(std::get<SphereShape>(e.scene().bodies[1].shape).radius, 0.5);
    EXPECT_EQ(e.scene().bodies[1].position, Vec3(3, 0, 0));
    EXPECT_EQ(e.simulation().world().rigidBodyCount(), 2);
    click(e, 3.2, 0.1);  // on the sphere: nothing new
    EXPECT_EQ(e.scene().bodies.size(), 2u);
    e.undo();
    EXPECT_EQ(e.scene().bodies.size(), 1u);
    e.redo();
    EXPECT_EQ(e.scene().bodies.size(), 2u);
}

TEST(EditorBodies, DraggingSizesTheBody) {
    Scene scene;
    Editor e(scene);
    e.setTool(Tool::Box);
    drag(e, Vec3(0, 0, 0), Vec3(2, -1, 0));  // corner to corner
    ASSERT_EQ(e.scene().bodies.size(), 1u);
    EXPECT_EQ(std::get<BoxShape>(e.scene().bodies[0].shape).size, Vec3(2, 1, 1));
    EXPECT_EQ(e.scene().bodies[0].position, Vec3(1, -0.5, 0));
    e.setTool(Tool::Sphere);
    drag(e, Vec3(5, 0, 0), Vec3(5, 0.75, 0));  // centre to surface
    ASSERT_EQ(e.scene().bodies.size(), 2u);
    EXPECT_EQ(std::get<SphereShape>(e.scene().bodies[1].shape).radius, 0.75);
    EXPECT_EQ(e.scene().bodies[1].position, Vec3(5, 0, 0));
    e.setTool(Tool::Box);
    drag(e, Vec3(8, 0, 0), Vec3(10, 0, 0));  // along one axis: still a box with a volume
    EXPECT_EQ(std::get<BoxShape>(e.scene().bodies[2].shape).size, Vec3(2, 0.05, 1));
}

TEST(EditorBodies, SpringFromAParticleHoldsTheClickedPointOfABody) {
    Editor e = boxAndSphere();
    e.setTool(Tool::Particle);
    click(e, 0, 3);
    e.setTool(Tool::Spring);
    drag(e, Vec3(0, 3, 0), Vec3(0.4, 0.3, 0));  // onto the box, off its centre
    ASSERT_EQ(e.scene().springs.size(), 1u);
    const DampedSpring& s = e.scene().springs[0];
    EXPECT_EQ(s.a, Anchor(0));
    ASSERT_TRUE(s.b.isRigid());
    EXPECT_EQ(s.b.index(), 0);
    // The ray meets the box's top face (z = 0.5) at (0.4, 0.3): that point, in the box's frame.
    EXPECT_TRUE(s.b.point.isApprox(Vec3(0.4, 0.3, 0.5), 1e-12)) << s.b.point.transpose();
    EXPECT_NEAR(s.restLength, (Vec3(0.4, 0.3, 0.5) - Vec3(0, 3, 0)).norm(), 1e-12);
}

TEST(EditorBodies, RodJoinsTwoBodiesAndNailHoldsABodyPoint) {
    Editor e = boxAndSphere();
    e.setTool(Tool::Rod);
    drag(e, Vec3(0.3, 0, 0), Vec3(2.8, 0, 0));
    ASSERT_EQ(e.scene().constraints.size(), 1u);
    const RodSpec rod = std::get<RodSpec>(e.scene().constraints[0]);
    EXPECT_EQ(rod.a.body, (BodyRef{BodyKind::Rigid, 0}));
    EXPECT_EQ(rod.b.body, (BodyRef{BodyKind::Rigid, 1}));
    e.setTool(Tool::Nail);
    click(e, -0.4, 0.4);
    ASSERT_EQ(e.scene().constraints.size(), 2u);
    const NailSpec nail = std::get<NailSpec>(e.scene().constraints[1]);
    EXPECT_TRUE(nail.point.isApprox(Vec3(-0.4, 0.4, 0.5), 1e-12));
    EXPECT_TRUE(e.simulation().world().anchorPosition(nail.anchor).isApprox(nail.point, 1e-12));
    click(e, -0.4, 0.4);  // the same point again: the nail comes out
    EXPECT_EQ(e.scene().constraints.size(), 1u);
}

// Pulled up at its right edge in zero gravity, a box moves up and turns counter-clockwise.
TEST(EditorBodies, GrabbingABodyOffCentreTurnsIt) {
    Editor e = boxAndSphere();
    e.setTool(Tool::Grab);
    e.setPlaying(true);
    e.pointerDown(at(0.45, 0.0), kTolerance, PointerButton::Left);
    e.pointerMove(at(0.45, 1.0), kTolerance);
    for (int f = 0; f < 10; ++f) e.advance();
    const RigidBodies& bodies = e.simulation().world().rigidBodies();
    EXPECT_GT(bodies.position(0).y(), 0.01);
    EXPECT_GT(bodies.angularVelocity(0).z(), 0.1);
    e.pointerUp(at(0.45, 1.0), kTolerance);
    EXPECT_TRUE(e.simulation().world().forces().size() == 2u) << "the mouse spring is gone";
}

TEST(EditorBodies, DeletingABodyTakesWhatHangsOnItAndRenumbersTheRest) {
    Editor e = boxAndSphere();
    e.setTool(Tool::Particle);
    click(e, 3, 3);
    e.setTool(Tool::Spring);
    drag(e, Vec3(3, 3, 0), Vec3(3, 0.2, 0));  // particle to the sphere (body 1)
    drag(e, Vec3(3, 3, 0), Vec3(0, 0, 0));    // particle to the box (body 0)
    ASSERT_EQ(e.scene().springs.size(), 2u);
    e.setTool(Tool::Select);
    click(e, 0.3, -0.3);  // on the box, away from the spring
    ASSERT_EQ(e.selection().bodies.size(), 1u);
    e.deleteSelection();
    ASSERT_EQ(e.scene().bodies.size(), 1u);
    ASSERT_EQ(e.scene().springs.size(), 1u);
    EXPECT_EQ(e.scene().springs[0].b.body, (BodyRef{BodyKind::Rigid, 0})) << "the sphere is body 0 now";
    e.undo();
    EXPECT_EQ(e.scene().bodies.size(), 2u);
    EXPECT_EQ(e.scene().springs.size(), 2u);
}

// Paused, a body is dragged with the select tool, and its nails come with it.
TEST(EditorBodies, SelectDragMovesABodyAndItsNails) {
    Editor e = boxAndSphere();
    e.setTool(Tool::Nail);
    click(e, 0.4, 0.4);
    e.setTool(Tool::Select);
    drag(e, Vec3(-0.2, -0.2, 0), Vec3(0.8, 1.8, 0));
    EXPECT_EQ(e.selection().bodies, (std::set<Index>{0}));
    EXPECT_TRUE(e.scene().bodies[0].position.isApprox(Vec3(1, 2, 0), 1e-12));
    const NailSpec nail = std::get<NailSpec>(e.scene().constraints[0]);
    EXPECT_TRUE(nail.point.isApprox(Vec3(1.4, 2.4, 0.5), 1e-12));
    EXPECT_EQ(e.scene().bodies[1].position, Vec3(3, 0, 0));
    e.undo();
    EXPECT_EQ(e.scene().bodies[0].position, Vec3::Zero());
}

TEST(EditorBodies, InspectorEditsAreUndoable) {
    Editor e = boxAndSphere();
    e.setBodyMass(0, 3.0);
    EXPECT_EQ(e.simulation().world().rigidBodies().mass(0), 3.0);
    EXPECT_EQ(e.setBodyShape(0, BoxShape{Vec3(1, 2, 3)}), "");
    EXPECT_EQ(std::get<BoxShape>(e.scene().bodies[0].shape).size, Vec3(1, 2, 3));
    // No volume, or not a number: refused with the reason.
    EXPECT_EQ(e.setBodyShape(0, BoxShape{Vec3(1, 0, 3)}), "edge y (m) must be between 1e-50 and 1e+50 (got 0)");
    EXPECT_EQ(e.setBodyShape(1, SphereShape{std::nan("")}), "radius (m) must be between 1e-50 and 1e+50 (got nan)");
    EXPECT_EQ(e.setBodyShape(0, ConvexShape{{Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY(), Vec3(1, 1, 0)}}),
              "all points lie in one plane");
    EXPECT_EQ(std::get<BoxShape>(e.scene().bodies[0].shape).size, Vec3(1, 2, 3));
    e.setBodyFixed(1, true);
    EXPECT_TRUE(e.simulation().world().rigidBodies().isFixed(1));
    e.setBodySurface(0, 0.9, 1.0);
    EXPECT_EQ(e.simulation().world().rigidBodies().spec(0).friction, 0.9);
    EXPECT_EQ(e.simulation().world().rigidBodies().spec(0).restitution, 1.0);
    e.setBodySurface(0, -0.1, 0.5);  // what a scene file may not hold: ignored
    e.setBodySurface(0, 0.5, 1.5);
    EXPECT_EQ(e.scene().bodies[0].friction, 0.9);
    EXPECT_EQ(e.scene().bodies[0].restitution, 1.0);
    e.undo();
    EXPECT_EQ(e.scene().bodies[0].friction, 0.5);
    EXPECT_EQ(e.scene().bodies[0].restitution, 0.2);
    e.undo();
    e.undo();
    e.undo();
    EXPECT_EQ(e.simulation().world().rigidBodies().mass(0), 1.0);
    EXPECT_FALSE(e.simulation().world().rigidBodies().isFixed(1));
}

// What is saved is what runs: a moved, turned body comes back from the file as it was.
TEST(EditorBodies, SavedBodiesLoadAsTheyWere) {
    Editor e = boxAndSphere();
    e.setTool(Tool::Rod);
    drag(e, Vec3(0.3, 0.3, 0), Vec3(2.8, 0.1, 0));
    e.setTool(Tool::Grab);
    e.setPlaying(true);
    e.pointerDown(at(3.4, 0.0), kTolerance, PointerButton::Left);
    e.pointerMove(at(3.4, 2.0), kTolerance);
    for (int f = 0; f < 20; ++f) e.advance();
    e.pointerUp(at(3.4, 2.0), kTolerance);
    e.setPlaying(false);
    const Scene saved = e.currentScene();
    const Scene loaded = parseScene(serializeScene(saved), "saved.json");
    EXPECT_EQ(loaded, saved);
    Editor reopened(loaded);
    const RigidBodies& a = e.simulation().world().rigidBodies();
    const RigidBodies& b = reopened.simulation().world().rigidBodies();
    for (Index k = 0; k < 2; ++k) {
        EXPECT_TRUE(b.position(k).isApprox(a.position(k), 1e-12));
        EXPECT_TRUE(b.angularVelocity(k).isApprox(a.angularVelocity(k), 1e-9));
    }
}

}  // namespace
}  // namespace tinkerbox
