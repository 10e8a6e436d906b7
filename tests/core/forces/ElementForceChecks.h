#pragma once
// Checks every energy made of particle elements must pass: exact Jacobians against
// central differences of the forces, the force against minus the energy's gradient, and
// definite Jacobians symmetric and negative semi-definite.
#include <random>

#include <gtest/gtest.h>

#include "core/DenseAlgebra.h"
#include "core/TestSystems.h"

namespace tinkerbox::test {

// Free particles at `positions` moved by a random offset of size `jitter`, with random
// velocities and masses. Deterministic for a seed.
inline World randomlyPerturbed(const std::vector<Vec3>& positions, double jitter, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    World world;
    for (const Vec3& x : positions)
        world.addParticle(x + jitter * Vec3(unit(rng), unit(rng), unit(rng)), Vec3(unit(rng), unit(rng), unit(rng)),
                          1.0 + 0.5 * unit(rng));
    return world;
}

inline void expectExactJacobiansMatchFiniteDifferences(World& world, double tolerance = 1e-6) {
    const DenseJacobians exact = analyticJacobians(world, JacobianForm::Exact);
    const DenseJacobians fd = finiteDifferenceJacobians(world);
    EXPECT_LT(relativeMaxDifference(exact.dFdx, fd.dFdx), tolerance);
    EXPECT_LT(relativeMaxDifference(exact.dFdv, fd.dFdv), tolerance);
    // Not trivially: the Jacobians have entries.
    EXPECT_GT(exact.dFdx.cwiseAbs().maxCoeff(), 1e-3);
    EXPECT_GT(exact.dFdv.cwiseAbs().maxCoeff(), 1e-3);
}

// With the velocities zeroed (no damping force), f = -dU/dx by central differences.
inline void expectForceIsMinusEnergyGradient(World& world, double tolerance = 1e-6) {
    for (Index i = 0; i < world.particleCount(); ++i) world.setVelocity(i, Vec3::Zero());
    VecX f;
    world.appliedForces(f);
    const double eps = 1e-6;
    double largest = 0.0, worst = 0.0;
    for (Index i = 0; i < world.particleCount(); ++i)
        for (int c = 0; c < 3; ++c) {
            const Vec3 x = world.position(i);
            world.setPosition(i, x + Vec3::Unit(c) * eps);
            const double plus = world.potentialEnergy();
            world.setPosition(i, x - Vec3::Unit(c) * eps);
            const double minus = world.potentialEnergy();
            world.setPosition(i, x);
            const double gradient = (plus - minus) / (2.0 * eps);
            worst = std::max(worst, std::abs(f[3 * i + c] + gradient));
            largest = std::max(largest, std::abs(f[3 * i + c]));
        }
    EXPECT_GT(largest, 1e-3);
    EXPECT_LT(worst, tolerance * std::max(1.0, largest));
}

inline void expectDefiniteIsSymmetricNegativeSemiDefinite(World& world) {
    const DenseJacobians definite = analyticJacobians(world, JacobianForm::Definite);
    for (const Eigen::MatrixXd* m : {&definite.dFdx, &definite.dFdv}) {
        const double scale = std::max(1e-300, m->cwiseAbs().maxCoeff());
        EXPECT_LT((*m - m->transpose()).cwiseAbs().maxCoeff(), 1e-13 * scale);
        EXPECT_LE(symmetricEigenvalues(*m).maxCoeff(), 1e-11 * scale);
    }
}

}  // namespace tinkerbox::test
