#include "scene/BenchmarkScenes.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "scene/ExampleScenes.h"

namespace tinkerbox {

namespace {

constexpr double kSpacing = 0.02;        // m
constexpr double kParticleMass = 0.001;  // kg

Scene cloth(int n) {
    ClothOptions o;
    o.n = n;
    o.size = kSpacing * (n - 1);
    o.totalMass = kParticleMass * n * n;
    o.structuralStiffness = 500.0;
    o.shearStiffness = 100.0;
    o.bendStiffness = 20.0;
    o.damping = 0.01;
    Scene s = makeCloth(o);
    s.settings.integrator = "implicit-euler";  // what the scene opens with: one stable step per frame
    return s;
}

// The same cloth as cloth(n) made of triangle energies (Cloth.h): its particles, spacing
// and pins, with stiffness and damping of the springs' order: the structural springs (k
// along each grid edge, one per h x h square and direction) store k/2 S_u^2 per unit
// area at a strain S_u, as the stretch energy does with stretch = k.
Scene triangleCloth(int n) {
    Scene s = cloth(n);
    s.name = "Triangle cloth " + std::to_string(n) + " x " + std::to_string(n);
    s.springs.clear();
    ClothSpec c;
    c.columns = c.rows = n;
    c.width = c.height = kSpacing * (n - 1);
    c.material.stretch = 500.0;
    c.material.shear = 100.0;
    c.material.bend = 20.0 * kSpacing * kSpacing;
    c.material.stretchDamping = 0.01;
    c.material.shearDamping = 0.01;
    c.material.bendDamping = 0.01 * kSpacing * kSpacing;
    s.cloths.push_back(c);
    return s;
}

Scene chain(int links) {
    ChainOptions o;
    o.links = links;
    o.length = kSpacing * links;
    o.totalMass = kParticleMass * links;
    o.stiffness = 500.0;
    o.damping = 0.01;
    Scene s = makeHangingChain(o);
    s.settings.integrator = "implicit-euler";
    return s;
}

// n x n particles joined by rods to their right and lower neighbours (2 n (n - 1) rods),
// spinning rigidly in their plane at 0.5 rad/s without gravity: the rods carry the
// centripetal tension, so every solve has real work, and a rigid rotation satisfies the
// constraints from the start.
Scene rodGrid(int n) {
    Scene s;
    s.name = "Rod grid " + std::to_string(n) + " x " + std::to_string(n);
    s.settings.gravity = Vec3::Zero();
    s.settings.integrator = "midpoint";
    // An interactive tolerance for 19,800 multipliers, like the implicit solver's default;
    // it keeps max relative |C| near 1e-5 here.
    s.settings.constraints.solver.tolerance = 1e-4;
    constexpr double kSpin = 0.5;  // rad/s about z
    const double half = 0.5 * kSpacing * (n - 1);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const Vec3 x(kSpacing * i - half, kSpacing * j - half, 0.0);
            s.particles.push_back({x, kSpin * Vec3(-x.y(), x.x(), 0.0), kParticleMass, false});
        }
    const auto id = [n](int i, int j) { return static_cast<Index>(j * n + i); };
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            if (i + 1 < n) s.constraints.push_back(RodSpec{id(i, j), id(i + 1, j), kSpacing});
            if (j + 1 < n) s.constraints.push_back(RodSpec{id(i, j), id(i, j + 1), kSpacing});
        }
    return s;
}

// A chain of rods spinning about its nailed end at 0.5 rad/s without gravity.
Scene rodChain(int links) {
    Scene s;
    s.name = "Rod chain of " + std::to_string(links);
    s.settings.gravity = Vec3::Zero();
    for (int i = 0; i <= links; ++i)
        s.particles.push_back({{kSpacing * i, 0.0, 0.0}, {0.0, 0.5 * kSpacing * i, 0.0}, kParticleMass, i == 0});
    for (int i = 0; i < links; ++i) s.constraints.push_back(RodSpec{i, i + 1, kSpacing});
    return s;
}

// 2 cm cubes of 1 g joined at opposite faces by ball joints, the top one nailed, hanging
// straight down and swinging rigidly about the nail at 0.5 rad/s: under gravity the joints
// carry the weight of everything below them, as a hanging chain's rods do, and the
// bodies' rotations add three degrees of freedom per link.
Scene boxChain(int links) {
    BoxChainOptions o;
    o.links = links;
    o.linkLength = kSpacing;
    o.width = kSpacing;
    o.linkMass = kParticleMass;
    o.pivot = Vec3::Zero();
    o.spin = 0.5;
    Scene s = makeBoxChain(o);
    s.settings.integrator = "midpoint";
    return s;
}

// Resting contact at scale: unit cubes of 1 kg on a ground plane (ExampleScenes.h), with the
// scene's own integrator, symplectic Euler.
Scene pyramid(int base, bool planar) {
    PyramidOptions o;
    o.base = base;
    o.planar = planar;
    return makePyramid(o);
}

Scene byName(const std::string& name) {
    if (name == "cloth-32") return cloth(32);
    if (name == "cloth-64") return cloth(64);
    if (name == "cloth-128") return cloth(128);
    if (name == "cloth-tri-32") return triangleCloth(32);
    if (name == "cloth-tri-64") return triangleCloth(64);
    if (name == "chain-1000") return chain(1000);
    if (name == "rod-chain-1000") return rodChain(1000);
    if (name == "rod-grid-100") return rodGrid(100);
    if (name == "box-chain-1000") return boxChain(1000);
    if (name == "stack-10") return makeBoxStack(10);
    if (name == "pyramid-20") return pyramid(20, false);
    if (name == "large-pyramid-100") return pyramid(100, true);
    if (name == "cube-stack-10") return makeCubeStack(10);
    if (name == "cube-jam-100") return makeCubeJam(100);
    if (name == "pendulum-6") return makePendulum(6);
    if (name == "cloth-heap") return findExampleScene(name)->make();
    throw std::invalid_argument(
        "unknown benchmark scene '" + name +
        "' (choose cloth-32, cloth-64, cloth-128, cloth-tri-32, cloth-tri-64, chain-1000, rod-chain-1000, "
        "rod-grid-100, box-chain-1000, stack-10, pyramid-20, large-pyramid-100, cube-stack-10, "
        "cube-jam-100, pendulum-6, cloth-heap)");
}

}  // namespace

std::span<const BenchmarkScene> benchmarkScenes() {
    static constexpr BenchmarkScene kScenes[] = {
        {"cloth-32", "cloth-32"},
        {"cloth-64", "cloth-32"},
        {"cloth-128", "cloth-32"},
        {"cloth-tri-32", "cloth-tri-32"},
        {"cloth-tri-64", "cloth-tri-32"},
        {"chain-1000", "chain-1000"},
        {"rod-chain-1000", "rod-chain-1000"},
        {"rod-grid-100", ""},
        {"box-chain-1000", "", 64},
        {"stack-10", "", 4},
        {"pyramid-20", "", 1},
        {"large-pyramid-100", "", 4},
        {"cube-stack-10", "", 1},
        {"cube-jam-100", "", 1},
        {"pendulum-6", "", 1},
        {"cloth-heap", "", 4},
    };
    return kScenes;
}

std::vector<std::string> benchmarkSceneNames() {
    std::vector<std::string> names;
    for (const BenchmarkScene& s : benchmarkScenes()) names.emplace_back(s.name);
    return names;
}

Scene makeBenchmarkScene(const std::string& name, const IntegratorSettings& solver) {
    Scene s = byName(name);
    s.settings.dt = 1.0 / 60.0;
    s.settings.substeps = 1;
    s.settings.solver = solver;
    return s;
}

std::optional<Scene> makeBuiltInScene(std::string_view name) {
    if (const ExampleScene* example = findExampleScene(name)) return example->make();
    const auto scenes = benchmarkScenes();
    if (std::ranges::any_of(scenes, [&](const BenchmarkScene& s) { return s.name == name; }))
        return makeBenchmarkScene(std::string(name));
    return std::nullopt;
}

}  // namespace tinkerbox
