#include <stdexcept>
#include <string>

#include "render/RenderFrame.h"

namespace tinkerbox {

std::vector<Vec3> vertexNormals(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles) {
    const int count = static_cast<int>(vertices.size());
    std::vector<Vec3> normals(vertices.size(), Vec3::Zero());
    for (const auto& t : triangles) {
        for (int i : t)
            if (i < 0 || i >= count)
                throw std::invalid_argument("surface: vertex index " + std::to_string(i) + " of " +
                                            std::to_string(count) + " vertices");
        const Vec3 areaNormal = (vertices[t[1]] - vertices[t[0]]).cross(vertices[t[2]] - vertices[t[0]]);
        for (int i : t) normals[i] += areaNormal;
    }
    for (Vec3& n : normals) n = unitVector(n).value_or(Vec3::Zero());
    return normals;
}

}  // namespace tinkerbox
