#pragma once
// The narrow phase: the contact manifold of two convex shapes placed in the world (Baraff,
// Rigid Body Simulation II: Nonpenetration Constraints, SIGGRAPH 2001 notes, section 8).
// Polyhedra (boxes and convex hulls) are tested for a separating axis among their face
// normals and the cross products of their edges; the axis found separating is kept and
// tried first at the next step (the notes' cached separating plane: bodies that were apart
// are usually still apart along the same witness). Touching ones get a manifold of
// vertex-face points clipped from the incident face against the reference face (up to
// four), or one edge-edge point.
#include <utility>
#include <vector>

#include "core/bodies/ConvexHull.h"
#include "core/collision/Contact.h"

namespace tinkerbox {

// A convex polyhedron in its shape frame: every face a planar convex polygon with its
// vertices counter-clockwise seen from outside and its outward unit normal, n . x = offset
// on it; coplanar triangles of a hull are merged into one face. Each edge is listed once,
// running first -> second as in the loop of edgeFaces[e].first (the other face has it the
// other way round).
struct Polyhedron {
    struct Face {
        Vec3 normal = Vec3::UnitY();
        double offset = 0.0;
        std::vector<int> vertices;
    };
    std::vector<Vec3> vertices;
    std::vector<Face> faces;
    std::vector<std::pair<int, int>> edges;
    std::vector<std::pair<int, int>> edgeFaces;  // the two faces each edge borders
    Vec3 center = Vec3::Zero();                  // the mean of the vertices: a point inside
    double radius = 0.0;                         // the largest distance of a vertex from center
    // Made by boxPolyhedron (and left as made): vertex i at +-size / 2 by the bits of i
    // (x, y, z), faces -x, +x, -y, +y, -z, +z. Two boxes are tested in closed form.
    bool isBox = false;
};

Polyhedron boxPolyhedron(const Vec3& size);  // centred on the origin
// The hull of the points (at least 4, not coplanar: throws std::invalid_argument otherwise).
Polyhedron hullPolyhedron(const std::vector<Vec3>& points);
// The same from a hull already built (RigidBodies::hull).
Polyhedron hullPolyhedron(const ConvexHull& hull);

// Where a shape is: world = rotation * local + translation.
struct Pose {
    Mat3 rotation = Mat3::Identity();
    Vec3 translation = Vec3::Zero();
    Vec3 apply(const Vec3& local) const { return rotation * local + translation; }
};

// What a pair remembers between steps: the last separating (or least-overlap) axis and
// which kind of feature pair gave it.
struct SeparatingAxisCache {
    enum class Kind : std::uint8_t { None, FaceA, FaceB, Edges } kind = Kind::None;
    int first = -1, second = -1;  // the face index, or the two edge indices
};

// Each fills `out` (its normal pointing from the first shape to the second, and its points
// with separation below margin) and returns whether it found a point; out.a and out.b are
// left to the caller.
bool collidePolyhedra(const Polyhedron& a, const Pose& poseA, const Polyhedron& b, const Pose& poseB, double margin,
                      SeparatingAxisCache& cache, ContactManifold& out);
// A point (a particle) against a polyhedron is radius 0 of this one.
bool collideSpherePolyhedron(const Vec3& center, double radius, const Polyhedron& b, const Pose& poseB, double margin,
                             ContactManifold& out);
bool collideSpheres(const Vec3& centerA, double radiusA, const Vec3& centerB, double radiusB, double margin,
                    ContactManifold& out);

}  // namespace tinkerbox
