#include "app/SceneView.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/forces/Cloth.h"
#include "scene/ExampleScenes.h"

namespace tinkerbox {
namespace {

// Discs drawn at a particle of the cloth.
int clothDiscs(const RenderFrame& frame, const World& world, const ClothSpec& cloth) {
    int count = 0;
    for (const DiscInstance& d : frame.discs)
        for (Index p = cloth.firstParticle; p < cloth.firstParticle + cloth.particleCount(); ++p)
            if (d.center == world.position(p)) {
                ++count;
                break;
            }
    return count;
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
    EXPECT_DOUBLE_EQ(surface.lift,
                     0.25 * std::min(cloth.width / (cloth.columns - 1), cloth.height / (cloth.rows - 1)));
    EXPECT_EQ(clothDiscs(frame, world, cloth), nailed);

    const Index inner = cloth.firstParticle + cloth.columns + 1;
    ASSERT_FALSE(world.isNailed(inner));
    editor.selectParticle(inner);
    buildRenderFrame(editor, frame);
    EXPECT_EQ(clothDiscs(frame, world, cloth), nailed + 1);

    const std::size_t segmentsWithSurface = frame.segments.size();
    buildRenderFrame(editor, frame, SceneViewOptions{.clothSurfaces = false});
    EXPECT_TRUE(frame.surfaces.empty());
    EXPECT_EQ(clothDiscs(frame, world, cloth), count);
    // The grid's lines: every row's and every column's.
    EXPECT_EQ(frame.segments.size() - segmentsWithSurface,
              static_cast<std::size_t>(cloth.rows * (cloth.columns - 1) + cloth.columns * (cloth.rows - 1)));
}

}  // namespace
}  // namespace tinkerbox
