// Cloth from a material: per-element constants computed so that the same material
// behaves the same at any resolution.
#include "core/forces/Cloth.h"

#include "core/forces/ElementForceChecks.h"

namespace tinkerbox {
namespace {

// A 1 m square of the material held along two opposite edges (a hammock), settled under
// gravity with implicit Euler; returns how far its centre sags. squares: grid squares a side.
double hammockSag(int squares, const ClothMaterial& material, double density) {
    const int n = squares + 1;
    const double size = 1.0, h = size / squares;
    SimulationSettings settings = test::simulationSettings("implicit-euler", 1.0 / 30.0);
    settings.solver.implicitSolver = {1e-8, 2000};
    settings.drag = 0.0;
    Simulation simulation(settings);
    World& world = simulation.world();
    std::vector<ParticleInit> particles;
    // Lumped masses: a quarter square at a corner, a half on an edge, a whole square inside.
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const double share = (i == 0 || i == n - 1 ? 0.5 : 1.0) * (j == 0 || j == n - 1 ? 0.5 : 1.0);
            particles.push_back({Vec3(i * h, 0.0, j * h), Vec3::Zero(), density * h * h * share, i == 0 || i == n - 1});
        }
    world.addParticles(particles);
    const auto triangles = gridTriangles(0, n, n, size, size);
    world.addForce(makeStretchShear(triangles, material));
    world.addForce(makeBending(triangles, material));
    const Index centre = static_cast<Index>(n / 2) * n + n / 2;
    for (int frame = 0; frame < 90; ++frame) simulation.step();
    // Settled: the centre has stopped.
    EXPECT_LT(world.velocity(centre).norm(), 1e-4 * std::abs(world.position(centre).y()) * 30.0);
    return -world.position(centre).y();
}

TEST(Cloth, SameMaterialSagsTheSameAtTwoResolutions) {
    ClothMaterial material;
    material.stretch = 40.0;
    material.shear = 4.0;
    material.bend = 1e-4;
    material.stretchDamping = 4.0;
    material.shearDamping = 0.4;
    material.bendDamping = 1e-5;
    const double density = 0.2;  // kg/m^2
    const double coarse = hammockSag(32, material, density), fine = hammockSag(64, material, density);
    RecordProperty("sag_32", test::scientific(coarse));
    RecordProperty("sag_64", test::scientific(fine));
    EXPECT_GT(fine, 0.02);  // a real sag, several grid spacings
    EXPECT_LT(std::abs(coarse - fine), 0.02 * fine);
}

}  // namespace
}  // namespace tinkerbox
