#pragma once
// Built-in example scenes, a registry like Box2D's samples: category, name, factory.
// assets/scenes/NAME.json holds each one as a file (tinkerbox-sim example NAME).
#include <span>
#include <string_view>

#include "scene/Scene.h"

namespace tinkerbox {

struct ExampleScene {
    std::string_view category;
    std::string_view name;  // also the file name in assets/scenes
    Scene (*make)();
};

std::span<const ExampleScene> exampleScenes();
const ExampleScene* findExampleScene(std::string_view name);

// A square cloth of n x n particles in the horizontal plane, pinned at the two
// corners of its back edge, with structural, shear and bend springs.
struct ClothOptions {
    int n = 20;
    double size = 2.0;       // edge length (m)
    double height = 2.0;     // y of the cloth
    double totalMass = 1.0;  // kg, spread evenly
    double structuralStiffness = 60.0;
    double shearStiffness = 20.0;
    double bendStiffness = 5.0;
    double damping = 0.02;  // on every spring
};
Scene makeCloth(const ClothOptions& options);

// Cotton, the examples' cloth and the cloth tool's: stiff in stretch, soft in shear and
// bending (per unit area, ClothMaterial).
ClothMaterial cotton();

// A rectangular cloth of triangle energies (Cloth.h): columns x rows particles from
// `corner` along the sides `u` (the columns) and `v` (the rows), which should be
// perpendicular, with lumped masses from the density (a third of each triangle's mass on
// each corner) and a ClothSpec over them. Returns the first particle's index; the
// particle in column i, row j is first + j columns + i.
struct TriangleClothOptions {
    int columns = 32, rows = 32;
    Vec3 corner{-1.0, 2.0, -1.0};
    Vec3 u{2.0, 0.0, 0.0}, v{0.0, 0.0, 2.0};  // m
    ClothMaterial material;
    double density = 0.2;  // kg/m^2
};
Index addTriangleCloth(Scene& scene, const TriangleClothOptions& options);

// Strands of hair rooted on a sphere: `strands` roots spread evenly over the sphere's
// upper part (a Fibonacci spiral), each strand of `length` particles `segment` apart
// growing along the outward normal, straight or (curl > 0) as a helix of radius `curl`
// about the normal, `turn` particles a turn. The first `rootParticles` of each strand
// are nailed, which holds its direction at the root.
struct HairOptions {
    int strands = 100, length = 12;
    Vec3 center{0.0, 1.0, 0.0};
    double radius = 0.3;
    double segment = 0.02;  // m
    double curl = 0.0;      // helix radius, m
    int turn = 8;           // particles per turn of the helix
    int rootParticles = 2;
    double particleMass = 1e-4;  // kg
    HairMaterial material;
};
Index addHair(Scene& scene, const HairOptions& options);

// Where a strand grows from: its particle p at origin + direction (start + segment p), plus
// its curl (direction unit).
struct StrandRoot {
    Vec3 origin = Vec3::Zero();
    Vec3 direction = Vec3::UnitY();
    double start = 0.0;  // m
};
// One hair of strands, one from each root (as addHair's, without its center, radius and
// strands). Returns the first particle.
Index addStrands(Scene& scene, const std::vector<StrandRoot>& roots, const HairOptions& options);

// A chain of springs hanging from a nail, released from the horizontal.
struct ChainOptions {
    int links = 10;
    double length = 2.0;  // total (m)
    double totalMass = 1.0;
    double stiffness = 500.0;
    double damping = 0.1;
};
Scene makeHangingChain(const ChainOptions& options);

// A chain of boxes joined end to end by ball joints, its top end nailed at `pivot`. The
// chain starts straight, `angle` from hanging straight down (rotated about z), turning
// rigidly about the nail at `spin` rad/s about z, which satisfies every joint.
struct BoxChainOptions {
    int links = 8;
    double linkLength = 0.3;  // m, along each box's y axis
    double width = 0.06;      // m, the box's other two edges
    double linkMass = 0.25;   // kg
    Vec3 pivot{0.0, 1.5, 0.0};
    double angle = 0.0;  // rad
    double spin = 0.0;   // rad/s
};
Scene makeBoxChain(const BoxChainOptions& options);

// A column of `count` unit cubes of 1 kg, each resting on the one below, the lowest on a
// ground plane at y = 0.
Scene makeBoxStack(int count);

// The scenes of Schmidl's thesis (Optimization-Based Animation, Univ. of Miami 2002,
// chapter 7) under the contact model "oba", one step of 1/30 s per frame: count unit cubes
// stacked 1 cm apart; count cubes of 0.4 m poured into a box of five fixed boxes; a
// pendulum of links boxes pinned end to end, let go from the horizontal above a ground.
Scene makeCubeStack(int count);
Scene makeCubeJam(int count);
Scene makePendulum(int links);

// A pyramid of unit cubes of 1 kg standing in the z = 0 plane on a ground plane at y = 0:
// rows of base, base - 1, ..., 1 boxes (base (base + 1) / 2 in all), neighbours in a row
// `gap` apart, each row resting on the one below and offset by half a box.
struct PyramidOptions {
    int base = 20;
    double gap = 0.05;    // m, between neighbours in a row
    bool planar = false;  // a flat world (settings.planar)
};
Scene makePyramid(const PyramidOptions& options);

}  // namespace tinkerbox
