#pragma once
// Cloth and hair made of energies: a material's constants, and the per-element
// constants computed from them, so that a finer mesh of the same material behaves the
// same (the constants scale with the discretization: stretch and shear per unit rest
// area, bending per hinge as |e|^2/(A1 + A2), springs along a strand as 1/l).
#include <memory>
#include <span>
#include <vector>

#include "core/forces/AngularSpring.h"
#include "core/forces/DampedSpring.h"
#include "core/forces/DihedralBending.h"
#include "core/forces/TriangleStretchShear.h"
#include "core/math/Parameter.h"

namespace tinkerbox {

// The masses are the particles' own (a generator lumps density x area onto them).
struct ClothMaterial {
    double stretch = 1000.0;      // N/m: energy stretch/2 (S_u^2 + S_v^2) per unit area
    double shear = 100.0;         // N/m: energy shear/2 (w_u . w_v)^2 per unit area
    double bend = 1e-4;           // N m: energy bend/2 kappa^2 per unit area
    double stretchDamping = 1.0;  // kg/s per unit area, likewise
    double shearDamping = 0.1;
    double bendDamping = 1e-5;  // kg m^2/s

    bool operator==(const ClothMaterial&) const = default;
};

// Its constants as the scene file, the inspector and the editor's check see them, with their
// ranges (each at least 0).
std::span<const Parameter<ClothMaterial>> clothMaterialParameters();

struct ClothTriangle {
    std::array<Index, 3> particles{};
    std::array<Eigen::Vector2d, 3> restUV{};

    bool operator==(const ClothTriangle&) const = default;
};

// Stretch and shear on every triangle: k = material / a, a the rest area in (u, v)
// (Baraff and Witkin's condition C = a (...) then gives the energy k_material/2 S^2 a).
std::unique_ptr<TriangleStretchShear> makeStretchShear(const std::vector<ClothTriangle>& triangles,
                                                       const ClothMaterial& material);
// A hinge for every edge two triangles share, flat at rest (rest angle 0, since (u, v)
// is flat), with k = bend |e|^2/(A1 + A2) from the rest (u, v) (DihedralBending.h). The
// triangles must be consistently oriented (their corners in the same turning sense in
// (u, v)), as gridTriangles makes them; an edge shared by more than two makes a hinge of
// the first of them with each other one. Each hinge's rest shape is its corners' (u, v).
std::unique_ptr<DihedralBending> makeBending(const std::vector<ClothTriangle>& triangles,
                                             const ClothMaterial& material);

// The triangles of a grid of columns x rows particles laid out row by row from
// firstParticle, each grid square cut along alternating diagonals, with rest (u, v) the
// grid position times the spacing (width / (columns - 1), height / (rows - 1)).
std::vector<ClothTriangle> gridTriangles(Index firstParticle, int columns, int rows, double width, double height);

// The same triangles without their rest shape, for those that only need the mesh (drawing,
// picking): f(a, b, c) for each, in gridTriangles' order, with its corners' places in the
// grid (column i of row j is j columns + i), counter-clockwise in (u, v).
template <class F>
void forEachGridTriangle(int columns, int rows, F&& f) {
    for (int j = 0; j + 1 < rows; ++j)
        for (int i = 0; i + 1 < columns; ++i) {
            const int corner[4] = {j * columns + i, j * columns + i + 1, (j + 1) * columns + i + 1,
                                   (j + 1) * columns + i};
            // Alternating diagonals, so the mesh has no preferred shear direction.
            if ((i + j) % 2 == 0) {
                f(corner[0], corner[1], corner[2]);
                f(corner[0], corner[2], corner[3]);
            } else {
                f(corner[0], corner[1], corner[3]);
                f(corner[1], corner[2], corner[3]);
            }
        }
}

struct HairMaterial {
    double stretch = 10.0;         // N: a segment of rest length l is a spring of stiffness stretch / l
    double bend = 1e-5;            // N m^2: a joint between segments of mean length l has k = bend / l
    double twist = 1e-5;           // N m^2: the dihedral spring of four particles, k = twist / l
    double stretchDamping = 0.01;  // kg m/s: kd = stretchDamping / l
    double bendDamping = 1e-7;     // kd = bendDamping / l, for the joints and the twist

    bool operator==(const HairMaterial&) const = default;
};

// Likewise for hair.
std::span<const Parameter<HairMaterial>> hairMaterialParameters();

// The forces of strands of particles: particles first, first + 1, ... form a strand, in
// strands of `length` particles each, one after another. Their rest shape is the
// particles' current positions: segment lengths, joint angles and the twist of each
// four consecutive particles whose two joints both bend (more than 1e-3 rad), so that
// curly hair keeps its curl (the joints' rest lengths and the twist hinges' rest shapes too).
struct HairForces {
    std::unique_ptr<DampedSpringSet> segments;
    std::unique_ptr<AngularSpringSet> joints;
    std::unique_ptr<DihedralBending> twist;
};
HairForces makeHair(const std::vector<Vec3>& restPositions, Index firstParticle, int strands, int length,
                    const HairMaterial& material);
// A strand (or what is left of one that was cut): particles first .. first + length - 1.
struct StrandRun {
    Index first = 0;
    int length = 0;
};
// The same forces for strands of their own lengths.
HairForces makeHair(const std::vector<Vec3>& restPositions, const std::vector<StrandRun>& strands,
                    const HairMaterial& material);

}  // namespace tinkerbox
