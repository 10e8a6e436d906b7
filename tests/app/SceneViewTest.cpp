#include "app/SceneView.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/forces/Cloth.h"
#include "scene/ExampleScenes.h"

namespace tinkerbox {
namespace {

// Discs drawn at one of the particles first .. first + count - 1.
Index discsAt(const RenderFrame& frame, const World& world, Index first, Index count) {
    Index found = 0;
    for (const DiscInstance& d : frame.discs)
        for (Index p = first; p < first + count; ++p)
            if (d.center == world.position(p)) {
                ++found;
                break;
            }
    return found;
}

Index clothDiscs(const RenderFrame& frame, const World& world, const ClothSpec& cloth) {
    return discsAt(frame, world, cloth.firstParticle, cloth.particleCount());
}

// The flag, nailed along one edge: its cloth is one surface of the triangles its energies act
// on, where its particles are, numbered within the cloth; of its particles only the nailed
// ones, and those selected, are drawn. With surfaces off, the cloth is grid lines and every
// particle.
TEST(SceneView, AClothIsASurfaceOfItsTrianglesShowingOnlyItsMarkedParticles) {
    Editor editor(findExampleScene("flag")->make());
    ASSERT_EQ(editor.scene().cloths.size(), 1u);
    const ClothSpec cloth = editor.scene().cloths[0];
    const World& world = editor.simulation().world();
    const Index count = cloth.particleCount();
    Index nailed = 0;
    for (Index p = cloth.firstParticle; p < cloth.firstParticle + count; ++p) nailed += world.isNailed(p) ? 1 : 0;
    ASSERT_GT(nailed, 0);

    RenderFrame frame;
    buildRenderFrame(editor, frame);
    ASSERT_EQ(frame.surfaces.size(), 1u);
    const SurfaceInstance& surface = frame.surfaces[0];
    ASSERT_EQ(static_cast<Index>(surface.vertices.size()), count);
    for (Index k = 0; k < count; ++k) EXPECT_EQ(surface.vertices[k], world.position(cloth.firstParticle + k)) << k;
    const std::vector<ClothTriangle> triangles =
        gridTriangles(cloth.firstParticle, cloth.columns, cloth.rows, cloth.width, cloth.height);
    ASSERT_EQ(surface.triangles.size(), triangles.size());
    for (std::size_t t = 0; t < triangles.size(); ++t)
        for (int k = 0; k < 3; ++k) EXPECT_EQ(surface.triangles[t][k] + cloth.firstParticle, triangles[t].particles[k]);
    EXPECT_EQ(surface.normals, vertexNormals(surface.vertices, surface.triangles));
    EXPECT_DOUBLE_EQ(surface.lift, 0.25 * std::min(cloth.width / (cloth.columns - 1), cloth.height / (cloth.rows - 1)));
    EXPECT_EQ(clothDiscs(frame, world, cloth), nailed);

    const Index inner = cloth.firstParticle + cloth.columns + 1;
    ASSERT_FALSE(world.isNailed(inner));
    editor.selectParticle(inner);
    buildRenderFrame(editor, frame);
    EXPECT_EQ(clothDiscs(frame, world, cloth), nailed + 1);

    const std::size_t segmentsWithSurface = frame.segments.size();
    buildRenderFrame(editor, frame, SceneViewOptions{.shadedClothAndHair = false});
    EXPECT_TRUE(frame.surfaces.empty());
    EXPECT_EQ(clothDiscs(frame, world, cloth), count);
    // The grid's lines: every row's and every column's.
    EXPECT_EQ(frame.segments.size() - segmentsWithSurface,
              static_cast<std::size_t>(cloth.rows * (cloth.columns - 1) + cloth.columns * (cloth.rows - 1)));
}

// A cloth with holes (a 4 x 4 grid missing places 1 and 4): the surface is the triangles
// with three corners, numbered within the cloth; the corner particle the holes cut off from
// every triangle is drawn as a particle. Unshaded, the lines between places that are both there.
TEST(SceneView, AClothWithHolesIsItsWholeTrianglesAndShowsACutOffParticle) {
    Scene scene;
    scene.settings.gravity = Vec3::Zero();
    for (int place = 0; place < 16; ++place)
        if (place != 1 && place != 4)
            scene.particles.push_back({Vec3(place % 4, place / 4, 0), Vec3::Zero(), 1.0, false});
    scene.cloths.push_back({0, 4, 4, 3.0, 3.0, ClothMaterial{}, {1, 4}});
    const Editor editor(scene);
    const World& world = editor.simulation().world();
    const ClothSpec& cloth = editor.scene().cloths[0];

    RenderFrame frame;
    buildRenderFrame(editor, frame);
    ASSERT_EQ(frame.surfaces.size(), 1u);
    const std::vector<ClothTriangle> triangles = cloth.triangles();
    ASSERT_EQ(triangles.size(), 14u);  // of 18: (0, 1, 5), (0, 5, 4), (1, 2, 5) and (4, 5, 8) go
    ASSERT_EQ(frame.surfaces[0].triangles.size(), triangles.size());
    for (std::size_t t = 0; t < triangles.size(); ++t)
        for (int k = 0; k < 3; ++k) EXPECT_EQ(frame.surfaces[0].triangles[t][k], triangles[t].particles[k]);
    EXPECT_EQ(discsAt(frame, world, 0, 1), 1);  // place 0: on no triangle
    EXPECT_EQ(clothDiscs(frame, world, cloth), 1);

    buildRenderFrame(editor, frame, SceneViewOptions{.shadedClothAndHair = false});
    EXPECT_TRUE(frame.surfaces.empty());
    // Of the 24 grid lines, the six with an end at place 1 or 4 (0-1, 1-2, 1-5, 0-4, 4-5, 4-8)
    // are not drawn.
    EXPECT_EQ(frame.segments.size(), 18u);
}

// A strand of five places missing its middle one is two strands of two, their particles
// hidden (unshaded: a line within each piece, none across the cut); missing its second and
// fourth places, it is three particles on their own, drawn as particles, and no strand.
TEST(SceneView, ACutStrandIsDrawnPieceByPiece) {
    Scene scene;
    scene.settings.gravity = Vec3::Zero();
    for (int k = 0; k < 4; ++k) scene.particles.push_back({Vec3(k, 0, 0), Vec3::Zero(), 1e-3, false});
    scene.hair.push_back({0, 1, 5, HairMaterial{}, {}, {2}});
    const Editor editor(scene);
    const World& world = editor.simulation().world();
    RenderFrame frame;
    buildRenderFrame(editor, frame);
    ASSERT_EQ(frame.strands.size(), 2u);
    EXPECT_EQ(frame.strands[0].points, (std::vector<Vec3>{world.position(0), world.position(1)}));
    EXPECT_EQ(frame.strands[1].points, (std::vector<Vec3>{world.position(2), world.position(3)}));
    EXPECT_EQ(discsAt(frame, world, 0, 4), 0);
    // Each piece in the colours it had on the whole strand: places 0 to 1 and 3 to 4 of 0 to 4.
    const StrandInstance whole;
    const auto colourAt = [&](float along) { return mix(whole.root, whole.tip, along); };
    const auto near = [](const Color& a, const Color& b) {
        return std::abs(a.r - b.r) < 1e-6f && std::abs(a.g - b.g) < 1e-6f && std::abs(a.b - b.b) < 1e-6f;
    };
    EXPECT_TRUE(near(frame.strands[0].root, whole.root));
    EXPECT_TRUE(near(frame.strands[0].tip, colourAt(0.25f)));
    EXPECT_TRUE(near(frame.strands[1].root, colourAt(0.75f)));
    EXPECT_TRUE(near(frame.strands[1].tip, whole.tip));
    buildRenderFrame(editor, frame, SceneViewOptions{.shadedClothAndHair = false});
    EXPECT_EQ(frame.segments.size(), 2u);

    Scene pieces = scene;
    pieces.particles.pop_back();
    pieces.hair[0].missing = {1, 3};
    const Editor cut(pieces);
    buildRenderFrame(cut, frame);
    EXPECT_TRUE(frame.strands.empty());
    EXPECT_EQ(discsAt(frame, cut.simulation().world(), 0, 3), 3);
}

// The hair example: each strand is drawn through its particles, root first. Of the hair's
// particles only those selected or nailed past a strand's root are drawn: its root, the
// nailed particles it starts with, is where the strand is drawn from. Unshaded, each strand
// is lines coloured by strain, with every particle.
TEST(SceneView, HairIsStrandsThroughItsParticlesShowingOnlyItsMarkedParticles) {
    Editor editor(findExampleScene("hair")->make());
    ASSERT_EQ(editor.scene().hair.size(), 1u);
    const HairSpec hair = editor.scene().hair[0];
    const World& world = editor.simulation().world();
    Index nailed = 0;
    for (Index p = hair.firstParticle; p < hair.firstParticle + hair.particleCount(); ++p)
        nailed += world.isNailed(p) ? 1 : 0;
    ASSERT_GT(nailed, 0);

    RenderFrame frame;
    buildRenderFrame(editor, frame);
    ASSERT_EQ(static_cast<int>(frame.strands.size()), hair.strands);
    for (int strand = 0; strand < hair.strands; ++strand) {
        const StrandInstance& instance = frame.strands[strand];
        ASSERT_EQ(static_cast<int>(instance.points.size()), hair.length);
        for (int k = 0; k < hair.length; ++k)
            EXPECT_EQ(instance.points[k], world.position(hair.firstParticle + strand * hair.length + k))
                << strand << ' ' << k;
    }
    EXPECT_EQ(discsAt(frame, world, hair.firstParticle, hair.particleCount()), 0);

    const Index tip = hair.firstParticle + hair.length - 1;
    ASSERT_FALSE(world.isNailed(tip));
    editor.selectParticle(tip);
    buildRenderFrame(editor, frame);
    EXPECT_EQ(discsAt(frame, world, hair.firstParticle, hair.particleCount()), 1);
    editor.selectParticle(hair.firstParticle);  // a root, selected
    buildRenderFrame(editor, frame);
    EXPECT_EQ(discsAt(frame, world, hair.firstParticle, hair.particleCount()), 1);
    EXPECT_EQ(discsAt(frame, world, hair.firstParticle, 1), 1);

    // A nail past the root shows.
    Scene tipNailed = editor.scene();
    tipNailed.particles[tip].nailed = true;
    RenderFrame nailedFrame;
    buildRenderFrame(Editor(tipNailed), nailedFrame);
    EXPECT_EQ(discsAt(nailedFrame, world, tip, 1), 1);
    EXPECT_EQ(discsAt(nailedFrame, world, hair.firstParticle, hair.particleCount()), 1);

    const std::size_t segmentsShaded = frame.segments.size();
    buildRenderFrame(editor, frame, SceneViewOptions{.shadedClothAndHair = false});
    EXPECT_TRUE(frame.strands.empty());
    EXPECT_EQ(discsAt(frame, world, hair.firstParticle, hair.particleCount()), hair.particleCount());
    EXPECT_EQ(frame.segments.size() - segmentsShaded, static_cast<std::size_t>(hair.strands * (hair.length - 1)));
}

// With the hair tool, the pointer over a ball shows the tuft a click would grow there: a line
// from each root along its strand; off the ball, nothing.
TEST(SceneView, TheHairToolShowsTheTuftUnderThePointer) {
    Scene scene;
    scene.bodies.push_back(RigidBodySpec{.shape = SphereShape{0.5}});
    Editor editor(scene);
    RenderFrame frame;
    buildRenderFrame(editor, frame);
    const std::size_t without = frame.segments.size();
    editor.setTool(Tool::Hair);
    editor.pointerMove(Ray{Vec3(0.1, 0.1, 10.0), -Vec3::UnitZ()}, PickTolerance{});
    const std::vector<StrandRoot> roots = editor.tuftUnderPointer();
    ASSERT_EQ(static_cast<int>(roots.size()), editor.hair().strands);
    buildRenderFrame(editor, frame);
    ASSERT_EQ(frame.segments.size(), without + roots.size());
    const double length = editor.hair().segment * (editor.hair().particles - 1);
    for (std::size_t k = 0; k < roots.size(); ++k) {
        const SegmentInstance& line = frame.segments[without + k];
        EXPECT_TRUE(line.a.isApprox(roots[k].origin + roots[k].start * roots[k].direction, 1e-12)) << k;
        EXPECT_NEAR((line.b - line.a).norm(), length, 1e-12) << k;
    }
    editor.pointerMove(Ray{Vec3(3.0, 3.0, 10.0), -Vec3::UnitZ()}, PickTolerance{});
    EXPECT_TRUE(editor.tuftUnderPointer().empty());
    buildRenderFrame(editor, frame);
    EXPECT_EQ(frame.segments.size(), without);
    EXPECT_TRUE(editor.scene().hair.empty()) << "pointing grows nothing";
}

// The tuft under a pointer that rests while a ball moves on follows the ball: each root stays
// 2 mm off its surface where it is now (where it was, without looking again).
TEST(SceneView, TheTuftUnderARestingPointerFollowsAMovingBody) {
    Scene scene;
    scene.settings.gravity = Vec3::Zero();
    scene.bodies.push_back(RigidBodySpec{.shape = SphereShape{0.5}, .velocity = Vec3(1.0, 0.0, 0.0)});
    Editor editor(scene);
    editor.setPlaying(true);
    editor.setTool(Tool::Hair);  // H while it plays (playing takes the grab tool)
    const Ray ray{Vec3(0.3, 0.0, 10.0), -Vec3::UnitZ()};
    editor.pointerMove(ray, PickTolerance{});
    const std::vector<StrandRoot> before = editor.tuftUnderPointer();
    ASSERT_FALSE(before.empty());
    for (int frame = 0; frame < 30; ++frame) editor.advance();
    const Vec3 centre = editor.simulation().world().rigidBodies().position(0);
    ASSERT_GT(centre.x(), 0.4) << centre.transpose();
    ASSERT_LT(centre.x(), 0.6) << centre.transpose();
    const auto offSurface = [&](const StrandRoot& root) {
        return (root.origin + root.start * root.direction - centre).norm();
    };
    EXPECT_GT(std::abs(offSurface(before[0]) - 0.502), 1e-3);  // the old tuft: no longer on the ball
    editor.pointerRests(ray, PickTolerance{});
    const std::vector<StrandRoot> after = editor.tuftUnderPointer();
    ASSERT_FALSE(after.empty());
    for (const StrandRoot& root : after) EXPECT_NEAR(offSurface(root), 0.502, 1e-9);
}

// A tuft grown on a ball that moves is held by pins at its roots: shaded, neither the
// pinned roots nor their pins are drawn; unshaded, each pin is drawn, as every particle.
TEST(SceneView, ATuftsPinnedRootsAreItsStart) {
    Scene scene;
    scene.bodies.push_back(RigidBodySpec{.shape = SphereShape{0.5}});
    Editor editor(scene);
    editor.setTool(Tool::Hair);
    editor.pointerDown(Ray{Vec3(0.1, 0.1, 10.0), -Vec3::UnitZ()}, PickTolerance{}, PointerButton::Left);
    ASSERT_EQ(editor.scene().hair.size(), 1u);
    const HairSpec hair = editor.scene().hair[0];
    ASSERT_EQ(static_cast<int>(editor.scene().constraints.size()), 2 * hair.strands);
    const World& world = editor.simulation().world();

    RenderFrame frame;
    buildRenderFrame(editor, frame);
    EXPECT_EQ(static_cast<int>(frame.strands.size()), hair.strands);
    EXPECT_EQ(discsAt(frame, world, hair.firstParticle, hair.particleCount()), 0);
    const std::size_t segmentsShaded = frame.segments.size();
    buildRenderFrame(editor, frame, SceneViewOptions{.shadedClothAndHair = false});
    EXPECT_EQ(discsAt(frame, world, hair.firstParticle, hair.particleCount()), hair.particleCount());
    EXPECT_EQ(frame.segments.size() - segmentsShaded,
              static_cast<std::size_t>(hair.strands * (hair.length - 1) + 2 * hair.strands));
}

}  // namespace
}  // namespace tinkerbox
