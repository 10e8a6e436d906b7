#pragma once
// Everything the renderer draws in one frame, as plain data in world coordinates. The app
// fills it from the editor and the simulation; the renderer only draws it. Sizes marked
// "pixels" stay the same on screen whatever the zoom.
#include <array>
#include <memory>
#include <vector>

#include "core/math/Types.h"

namespace tinkerbox {

struct Color {
    float r = 1.0f, g = 1.0f, b = 1.0f, a = 1.0f;
};

// a at t = 0, b at t = 1, channel by channel.
inline Color mix(const Color& a, const Color& b, float t) {
    return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t, a.a + (b.a - a.a) * t};
}

struct DiscInstance {  // a particle
    Vec3 center = Vec3::Zero();
    float radius = 5.0f;  // pixels
    Color fill;
    Color outline;
    float outlineWidth = 1.0f;  // pixels
};

struct SegmentInstance {  // a spring, a rod, a rubber band
    Vec3 a = Vec3::Zero();
    Vec3 b = Vec3::Zero();
    float width = 2.0f;  // pixels
    Color color;
    bool dashed = false;
};

struct CircleInstance {  // a wire
    Vec3 center = Vec3::Zero();
    Vec3 normal = Vec3::UnitZ();
    double radius = 1.0;  // world
    float width = 2.0f;   // pixels
    Color color;
};

struct PlaneInstance {  // ground and walls
    Vec3 point = Vec3::Zero();
    Vec3 normal = Vec3::UnitY();
    Color color;
};

// A convex polyhedron in its body's frame (a convex hull). Made once by makeBodyMesh, which
// checks the indices and derives the normals and edges, and shared by every frame that
// draws the body.
struct BodyMesh {
    std::vector<Vec3> vertices;
    std::vector<std::array<int, 3>> triangles;  // indices into vertices, either winding
    // Derived by makeBodyMesh: each triangle's outward unit normal (from the centroid, so the
    // winding does not matter), and the feature edges, those between faces that are not
    // coplanar: the outline of a box has 12 edges, not the 18 of its triangles.
    std::vector<Vec3> normals;
    std::vector<std::array<int, 2>> edges;
};

// Throws std::invalid_argument for an index out of range.
std::shared_ptr<const BodyMesh> makeBodyMesh(std::vector<Vec3> vertices, std::vector<std::array<int, 3>> triangles);

// A rigid body, lit and outlined. Its shape is given in the body frame, placed in the world
// by position (of the body frame's origin) and orientation (body to world).
struct BodyInstance {
    enum class Shape { Box, Sphere, Mesh };
    Shape shape = Shape::Box;
    Vec3 position = Vec3::Zero();
    Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();
    Vec3 size = Vec3::Ones();              // Box: edge lengths along the body axes, centred on position
    double radius = 0.5;                   // Sphere, centred on position
    std::shared_ptr<const BodyMesh> mesh;  // Mesh
    Color fill{0.55f, 0.65f, 0.80f, 1.0f};
    Color outline{0.05f, 0.05f, 0.06f, 1.0f};
    float outlineWidth = 1.5f;  // pixels
    bool selected = false;      // outlined in the selection colour, a little brighter
    bool fixed = false;         // darker and hatched
};

// A cloth drawn as a surface: triangles between its particles in the world, shaded from
// both sides with smooth normals, the front (the side a triangle's normal (b - a) x (c - a)
// faces) and the back in their own colours. Opaque and depth tested; in 2D over the bodies
// and under the springs.
struct SurfaceInstance {
    std::vector<Vec3> vertices;
    std::vector<std::array<int, 3>> triangles;  // indices into vertices
    std::vector<Vec3> normals;                  // per vertex (vertexNormals)
    // World: its depth is taken this much nearer the viewer, on the same pixels. The flat
    // triangles of a cloth lying on a curved body cut into it between the particles (by
    // l^2 / 8R for edges l on a radius R), and would show the body through the cloth.
    // Particles are drawn that much nearer too, so that they stay over the surface.
    double lift = 0.0;
    Color front{0.86f, 0.47f, 0.33f, 1.0f};
    Color back{0.80f, 0.70f, 0.52f, 1.0f};
};

// A hair strand: a polyline through its particles, root first, drawn as a band of a pixel
// width lit as a thin fibre by its tangent t (Kajiya & Kay, Rendering Fur with Three
// Dimensional Textures, SIGGRAPH 1989: diffuse in proportion to sin(t, light), a highlight
// where t is normal to the half vector). Its colour goes from root to tip along its points.
// Depth tested in 3D; in 2D over the bodies, with the springs.
struct StrandInstance {
    std::vector<Vec3> points;
    float width = 2.0f;  // pixels
    Color root{0.50f, 0.33f, 0.20f, 1.0f};
    Color tip{0.85f, 0.68f, 0.45f, 1.0f};
};

// Each vertex's unit normal: the sum of its triangles' (b - a) x (c - a), which weighs each
// by its area, normalized. A vertex of no triangle, or where the sum vanishes, gets zero and
// is lit by the ambient light alone. Throws std::invalid_argument for an index out of range.
std::vector<Vec3> vertexNormals(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles);

struct RenderFrame {
    Color background{0.09f, 0.10f, 0.12f, 1.0f};
    bool grid = true;  // the z = 0 plane in 2D, a horizontal ground at groundLevel in 3D
    double groundLevel = 0.0;
    double snapSpacing = 0.0;  // world; when positive, the 2D view also draws the grid things snap to
    std::vector<PlaneInstance> planes;
    std::vector<CircleInstance> circles;
    std::vector<SegmentInstance> segments;
    std::vector<BodyInstance> bodies;  // opaque, depth tested in both views
    std::vector<SurfaceInstance> surfaces;
    std::vector<StrandInstance> strands;
    std::vector<DiscInstance> discs;  // over the bodies in 2D, depth tested in 3D
    // Markers seen through the bodies in both views, drawn last: centres of mass, body
    // axes, angular velocities (BodyOverlays.h makes them).
    std::vector<SegmentInstance> overlaySegments;
    std::vector<DiscInstance> overlayDiscs;

    void clear() {
        planes.clear();
        circles.clear();
        segments.clear();
        bodies.clear();
        surfaces.clear();
        strands.clear();
        discs.clear();
        overlaySegments.clear();
        overlayDiscs.clear();
    }
};

}  // namespace tinkerbox
