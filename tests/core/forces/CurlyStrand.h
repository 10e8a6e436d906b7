#pragma once
// A curly hair strand for tests that shake it out of its curl and watch it come back, under
// any integrator (AngularSpringTest, ProjectiveDynamicsTest).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "core/pipeline/Simulation.h"
#include "core/forces/Cloth.h"

namespace tinkerbox::test {

// A helix of particles (radius 2 cm, 1 cm pitch per turn of 8 particles): curly hair.
inline std::vector<Vec3> curlyHelix(int count) {
    std::vector<Vec3> x;
    for (int k = 0; k < count; ++k) {
        const double phi = 2.0 * std::numbers::pi * k / 8.0;
        x.emplace_back(0.02 * std::cos(phi), -0.01 * k / 8.0 - 0.001 * k, 0.02 * std::sin(phi));
    }
    return x;
}

// Adds the strand's particles at rest, the first three nailed (the root held) and the others
// shaken by random velocities of up to 0.3 m/s in each axis, and returns its hair forces
// (stiff segments, soft joints and twist) for the caller to look at and add.
inline HairForces shakenCurlyStrand(World& world, const std::vector<Vec3>& rest) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    const int count = static_cast<int>(rest.size());
    for (int k = 0; k < count; ++k)
        world.addParticle(rest[k], k < 3 ? Vec3(Vec3::Zero()) : Vec3(0.3 * Vec3(unit(rng), unit(rng), unit(rng))), 1e-4,
                          k < 3);
    HairMaterial material;
    material.stretch = 5.0;
    material.bend = 2e-5;
    material.twist = 2e-5;
    material.stretchDamping = 0.002;
    material.bendDamping = 5e-7;
    return makeHair(rest, 0, 1, count, material);
}

// The shake bends the strand by more than a millimetre in its first frame, and 240 frames
// later every particle is back within a millimetre of its rest place.
inline void expectCurlComesBack(Simulation& simulation, const std::vector<Vec3>& rest) {
    const World& world = simulation.world();
    simulation.step();
    double moved = 0.0;
    for (std::size_t k = 0; k < rest.size(); ++k)
        moved = std::max(moved, (world.position(static_cast<Index>(k)) - rest[k]).norm());
    EXPECT_GT(moved, 1e-3);
    for (int frame = 0; frame < 240; ++frame) simulation.step();
    for (std::size_t k = 0; k < rest.size(); ++k)
        EXPECT_LT((world.position(static_cast<Index>(k)) - rest[k]).norm(), 1e-3) << "particle " << k;
}

}  // namespace tinkerbox::test
