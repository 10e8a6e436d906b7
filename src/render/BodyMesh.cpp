#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "render/RenderFrame.h"

namespace tinkerbox {

std::shared_ptr<const BodyMesh> makeBodyMesh(std::vector<Vec3> vertices, std::vector<std::array<int, 3>> triangles) {
    auto mesh = std::make_shared<BodyMesh>();
    const int count = static_cast<int>(vertices.size());
    for (const auto& t : triangles)
        for (int i : t)
            if (i < 0 || i >= count)
                throw std::invalid_argument("body mesh: vertex index " + std::to_string(i) + " of " +
                                            std::to_string(count) + " vertices");
    Vec3 centroid = Vec3::Zero();
    for (const Vec3& v : vertices) centroid += v;
    if (count > 0) centroid /= count;

    // Outward normals: a convex body's centroid is inside, behind every face. A degenerate
    // triangle keeps a zero normal and draws nothing.
    mesh->normals.reserve(triangles.size());
    for (const auto& t : triangles) {
        const Vec3 &a = vertices[t[0]], &b = vertices[t[1]], &c = vertices[t[2]];
        const Vec3 n = unitVector((b - a).cross(c - a)).value_or(Vec3::Zero());
        mesh->normals.push_back((a - centroid).dot(n) < 0.0 ? Vec3(-n) : n);
    }

    // An edge is a feature edge unless every face along it lies in one plane.
    constexpr double kCoplanar = 1.0 - 1e-6;  // cosine of about 0.08 degrees
    std::map<std::pair<int, int>, std::vector<std::size_t>> facesAlong;
    for (std::size_t f = 0; f < triangles.size(); ++f) {
        if (mesh->normals[f].isZero()) continue;
        for (int k = 0; k < 3; ++k) {
            const int i = triangles[f][k], j = triangles[f][(k + 1) % 3];
            facesAlong[{std::min(i, j), std::max(i, j)}].push_back(f);
        }
    }
    for (const auto& [edge, faces] : facesAlong) {
        bool flat = faces.size() >= 2;
        for (std::size_t f : faces) flat = flat && mesh->normals[f].dot(mesh->normals[faces[0]]) > kCoplanar;
        if (!flat) mesh->edges.push_back({edge.first, edge.second});
    }
    mesh->vertices = std::move(vertices);
    mesh->triangles = std::move(triangles);
    return mesh;
}

}  // namespace tinkerbox
