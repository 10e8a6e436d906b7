// The polyhedra of the narrow phase (core/collision/NarrowPhase.h): boxes, and convex hulls
// with their coplanar triangles merged into polygon faces.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include "core/bodies/ConvexHull.h"
#include "core/collision/NarrowPhase.h"

namespace tinkerbox {
namespace {

// Two triangles of a hull are one face when their unit normals differ by less than this.
// Quickhull keeps only vertices that stand out of their neighbours' plane (by 1e-10 of the
// hull's extent), so triangles within it are coplanar up to rounding.
constexpr double kCoplanarNormals = 1e-9;

// The edges (each once, with the faces on its two sides), the centre and the radius, from
// the vertices and the faces' loops.
void addEdgesAndBounds(Polyhedron& p) {
    std::map<std::pair<int, int>, int> edgeOf;  // (lower, higher vertex) -> edge
    p.edges.clear();
    p.edgeFaces.clear();
    for (int f = 0; f < static_cast<int>(p.faces.size()); ++f) {
        const std::vector<int>& loop = p.faces[f].vertices;
        for (std::size_t i = 0; i < loop.size(); ++i) {
            const int from = loop[i], to = loop[(i + 1) % loop.size()];
            const auto [it, inserted] = edgeOf.try_emplace(std::minmax(from, to), static_cast<int>(p.edges.size()));
            if (inserted) {
                p.edges.emplace_back(from, to);
                p.edgeFaces.emplace_back(f, -1);
            } else {
                p.edgeFaces[it->second].second = f;
            }
        }
    }
    p.center = Vec3::Zero();
    for (const Vec3& v : p.vertices) p.center += v;
    p.center /= static_cast<double>(p.vertices.size());
    p.radius = 0.0;
    for (const Vec3& v : p.vertices) p.radius = std::max(p.radius, (v - p.center).norm());
}

}  // namespace

Polyhedron boxPolyhedron(const Vec3& size) {
    const Vec3 half = 0.5 * size;
    Polyhedron box;
    // Vertex i has coordinate k at +half[k] when bit k of i is set, at -half[k] otherwise.
    for (int i = 0; i < 8; ++i)
        box.vertices.emplace_back((i & 1) ? half.x() : -half.x(), (i & 2) ? half.y() : -half.y(),
                                  (i & 4) ? half.z() : -half.z());
    // Faces -x, +x, -y, +y, -z, +z. Around axis k, the corners (-,-), (+,-), (+,+), (-,+) of
    // the next two axes (k + 1, k + 2) turn counter-clockwise seen from +k.
    for (int axis = 0; axis < 3; ++axis) {
        const int u = 1 << ((axis + 1) % 3), v = 1 << ((axis + 2) % 3);
        for (const int side : {-1, 1}) {
            Polyhedron::Face face;
            face.normal = Vec3::Zero();
            face.normal[axis] = side;
            face.offset = half[axis];
            const int base = side > 0 ? 1 << axis : 0;
            face.vertices = {base, base + u, base + u + v, base + v};
            if (side < 0) std::reverse(face.vertices.begin(), face.vertices.end());
            box.faces.push_back(std::move(face));
        }
    }
    addEdgesAndBounds(box);
    box.isBox = true;
    return box;
}

Polyhedron hullPolyhedron(const std::vector<Vec3>& points) {
    std::string error;
    const std::optional<ConvexHull> hull = convexHull(points, &error);
    if (!hull) throw std::invalid_argument("hullPolyhedron: " + error);
    return hullPolyhedron(*hull);
}

Polyhedron hullPolyhedron(const ConvexHull& hull) {
    const std::vector<std::array<int, 3>>& triangles = hull.triangles;
    const int count = static_cast<int>(triangles.size());

    std::vector<Vec3> areaNormal(count);            // twice the area times the unit normal
    std::map<std::pair<int, int>, int> triangleOf;  // directed edge -> the triangle that has it
    for (int t = 0; t < count; ++t) {
        const auto& [a, b, c] = triangles[t];
        const std::vector<Vec3>& x = hull.vertices;
        areaNormal[t] = (x[b] - x[a]).cross(x[c] - x[a]);
        for (int i = 0; i < 3; ++i) triangleOf[{triangles[t][i], triangles[t][(i + 1) % 3]}] = t;
    }

    Polyhedron polyhedron;
    polyhedron.vertices = hull.vertices;
    // Each face grows from a seed triangle over the neighbours whose normal is the seed's,
    // compared with the seed's so that a gently curved surface is not merged step by step.
    std::vector<int> faceOf(count, -1);
    for (int seed = 0; seed < count; ++seed) {
        if (faceOf[seed] >= 0) continue;
        const int face = static_cast<int>(polyhedron.faces.size());
        const Vec3 seedNormal = areaNormal[seed].normalized();
        std::vector<int> members{seed}, pending{seed};
        faceOf[seed] = face;
        while (!pending.empty()) {
            const int t = pending.back();
            pending.pop_back();
            for (int i = 0; i < 3; ++i) {
                const int across = triangleOf.at({triangles[t][(i + 1) % 3], triangles[t][i]});
                if (faceOf[across] >= 0 || (areaNormal[across].normalized() - seedNormal).norm() > kCoplanarNormals)
                    continue;
                faceOf[across] = face;
                members.push_back(across);
                pending.push_back(across);
            }
        }
        // The boundary: the directed edges whose reverse is not in the face, chained into
        // one counter-clockwise loop (the triangles are counter-clockwise).
        std::map<int, int> next;
        Vec3 normal = Vec3::Zero();
        for (const int t : members) {
            normal += areaNormal[t];
            for (int i = 0; i < 3; ++i) {
                const int from = triangles[t][i], to = triangles[t][(i + 1) % 3];
                if (faceOf[triangleOf.at({to, from})] != face) next[from] = to;
            }
        }
        Polyhedron::Face polygon;
        polygon.normal = normal.normalized();
        const int start = next.begin()->first;
        for (int v = start;;) {
            polygon.vertices.push_back(v);
            v = next.at(v);
            if (v == start) break;
        }
        polygon.offset = 0.0;
        for (const int v : polygon.vertices) polygon.offset += polygon.normal.dot(polyhedron.vertices[v]);
        polygon.offset /= static_cast<double>(polygon.vertices.size());
        polyhedron.faces.push_back(std::move(polygon));
    }
    addEdgesAndBounds(polyhedron);
    return polyhedron;
}

}  // namespace tinkerbox
