#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "render/RenderFrame.h"

namespace tinkerbox {
namespace {

// A grid of columns x rows vertices, (u, v) in [0, 1]^2 placed by `place`, two triangles a
// cell, counter-clockwise in (u, v).
template <class Place>
void grid(int columns, int rows, Place&& place, std::vector<Vec3>& vertices,
          std::vector<std::array<int, 3>>& triangles) {
    for (int j = 0; j < rows; ++j)
        for (int i = 0; i < columns; ++i) vertices.push_back(place(double(i) / (columns - 1), double(j) / (rows - 1)));
    for (int j = 0; j + 1 < rows; ++j)
        for (int i = 0; i + 1 < columns; ++i) {
            const int a = j * columns + i, b = a + 1, c = a + columns + 1, d = a + columns;
            triangles.push_back({a, b, c});
            triangles.push_back({a, c, d});
        }
}

TEST(SurfaceNormals, AFlatSheetFacesTheSideItsTrianglesTurnAround) {
    std::vector<Vec3> vertices;
    std::vector<std::array<int, 3>> triangles;
    grid(
        5, 4, [](double u, double v) { return Vec3(2.0 * u, v, 0.3); }, vertices, triangles);
    for (const Vec3& n : vertexNormals(vertices, triangles))
        EXPECT_TRUE(n.isApprox(Vec3::UnitZ(), 1e-12)) << n.transpose();
    for (auto& t : triangles) std::swap(t[1], t[2]);
    for (const Vec3& n : vertexNormals(vertices, triangles))
        EXPECT_TRUE(n.isApprox(-Vec3::UnitZ(), 1e-12)) << n.transpose();
}

// A sheet rolled into a cylinder: every normal is radial, outward for a winding that turns
// counter-clockwise seen from outside. Inside the sheet a vertex's triangles lie
// symmetrically about its radius (three each side, each one's normal radial at the middle
// of its chord) and its normal is radial to rounding; on the sheet's border they do not,
// and it is off by at most half an angle step.
TEST(SurfaceNormals, ARolledSheetHasRadialNormals) {
    constexpr int kColumns = 13, kRows = 5;
    constexpr double kRadius = 0.7, kAngle = 1.5 * std::numbers::pi;
    std::vector<Vec3> vertices;
    std::vector<std::array<int, 3>> triangles;
    // Angle along u, height along v: (u, v) counter-clockwise seen from outside.
    grid(
        kColumns, kRows,
        [](double u, double v) {
            return Vec3(kRadius * std::cos(kAngle * u), 0.4 * v, -kRadius * std::sin(kAngle * u));
        },
        vertices, triangles);
    const std::vector<Vec3> normals = vertexNormals(vertices, triangles);
    const double step = kAngle / (kColumns - 1);
    for (std::size_t k = 0; k < vertices.size(); ++k) {
        const Vec3 radial = Vec3(vertices[k].x(), 0.0, vertices[k].z()).normalized();
        const int column = static_cast<int>(k) % kColumns, row = static_cast<int>(k) / kColumns;
        const bool border = column == 0 || column == kColumns - 1 || row == 0 || row == kRows - 1;
        const double allowed = (border ? 0.5 * step : 0.0) + 1e-9;
        EXPECT_NEAR(std::atan2(normals[k].cross(radial).norm(), normals[k].dot(radial)), 0.0, allowed) << k;
        EXPECT_NEAR(normals[k].norm(), 1.0, 1e-12);
    }
}

TEST(SurfaceNormals, AVertexOfNoTriangleIsZeroAndABadIndexIsRefused) {
    const std::vector<Vec3> vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(5, 5, 5)};
    const std::vector<Vec3> normals = vertexNormals(vertices, {{0, 1, 2}});
    EXPECT_TRUE(normals[0].isApprox(Vec3::UnitZ()));
    EXPECT_EQ(normals[3], Vec3::Zero());
    // Two copies of a triangle, one each way round: their normals cancel.
    EXPECT_EQ(vertexNormals(vertices, {{0, 1, 2}, {0, 2, 1}})[0], Vec3::Zero());
    EXPECT_THROW(vertexNormals(vertices, {{0, 1, 4}}), std::invalid_argument);
    EXPECT_THROW(vertexNormals(vertices, {{-1, 1, 2}}), std::invalid_argument);
}

}  // namespace
}  // namespace tinkerbox
