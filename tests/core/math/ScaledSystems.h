#pragma once
// Implicit-euler systems (J + M) x = rhs for the tests of the implicit solver, and their
// scaled matrix G^-1 (J + M) G^-T (D_i = G_i G_i^T the diagonal blocks) built block by block
// from J, as a reference for ScaledSweepMatrix and SgsConjugateGradient.
#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <vector>

#include "core/TestSystems.h"
#include "core/math/BlockSparseMatrix.h"
#include "core/math/ScaledSweepMatrix.h"

namespace tinkerbox::test {

struct ImplicitSystem {
    BlockSparseMatrix J;  // Upper storage
    std::vector<Mat3> mass;
    std::vector<char> fixed;
    VecX rhs;
};

// The implicit-euler system at h = 1/60 of a world.
inline ImplicitSystem implicitSystem(World& world) {
    const double h = 1.0 / 60.0;
    ImplicitSystem s;
    VecX dFdxV, f;
    world.combinedJacobian(-h * h, -h, s.J, dFdxV);
    world.massBlocks(s.mass, s.fixed);
    world.appliedForces(f);
    s.rhs = h * (f + h * dFdxV);
    return s;
}

// |x - exact| in the norm of J + M, relative to |exact|.
inline double relativeEnergyError(const ImplicitSystem& s, const VecX& x, const VecX& exact) {
    const auto energy = [&](const VecX& v) {
        VecX product;
        s.J.multiply(v, product);
        for (Index i = 0; i < s.J.blockRows(); ++i) block3(product, i) += s.mass[i] * block3(v, i);
        return v.dot(product);
    };
    return std::sqrt(energy(x - exact) / energy(exact));
}

// A stretched n x n cloth, two corners nailed.
inline ImplicitSystem clothSystem(int n) {
    World world;
    addCloth(world, n, 0.02, 1.1, 500.0, 0.01, 0.001);
    return implicitSystem(world);
}

// Random springs among `particles` free particles: couplings with no order to them.
inline ImplicitSystem randomSystem(int particles, unsigned seed) {
    World world;
    addRandomSpringNetwork(world, particles, 3 * particles, seed);
    return implicitSystem(world);
}

// G^-1 (J + M) G^-T with Full storage (fixed rows and columns dropped, their diagonal block
// the identity), and its strictly upper and lower triangles in a sweep order: U holds the
// blocks (i, j) with i before j in the order, L = U^T. Computed from J in double precision,
// or (asStored) with the off-diagonal blocks the single-precision ones the sweep matrix stores.
struct ScaledReference {
    BlockSparseMatrix scaled, upper, lower;

    ScaledReference(const ImplicitSystem& s, const ScaledSweepMatrix& order, bool asStored = false) {
        const Index n = s.J.blockRows();
        std::vector<Index> position(n);
        for (Index r = 0; r < n; ++r) position[order.originalRow(r)] = r;
        std::vector<std::pair<Index, Index>> couplings, upperCouplings, lowerCouplings;
        for (Index i = 0; i < n; ++i)
            for (Index k = s.J.rowStart(i); k < s.J.rowStart(i + 1); ++k) {
                const Index j = s.J.column(k);
                if (j == i) continue;
                couplings.emplace_back(i, j);
                const auto [before, after] = position[i] < position[j] ? std::pair(i, j) : std::pair(j, i);
                upperCouplings.emplace_back(before, after);
                lowerCouplings.emplace_back(after, before);
            }
        scaled.setPattern(n, couplings);
        upper.setPattern(n, upperCouplings);
        lower.setPattern(n, lowerCouplings);
        std::vector<Mat3> inverse(n);
        for (Index i = 0; i < n; ++i) {
            const Mat3 G = Mat3(s.J.diagonal(i) + s.mass[i]).llt().matrixL();
            inverse[i] = G.inverse();
            scaled.at(i, i) = s.fixed[i] ? Mat3::Identity()
                                         : Mat3(inverse[i] * (s.J.diagonal(i) + s.mass[i]) * inverse[i].transpose());
        }
        for (Index i = 0; i < n; ++i)
            for (Index k = s.J.rowStart(i); k < s.J.rowStart(i + 1); ++k) {
                const Index j = s.J.column(k);
                if (j == i) continue;
                const Mat3 block =
                    s.fixed[i] || s.fixed[j] ? Mat3::Zero() : Mat3(inverse[i] * s.J.value(k) * inverse[j].transpose());
                scaled.at(i, j) = block;
                scaled.at(j, i) = block.transpose();
                if (position[i] < position[j]) {
                    upper.at(i, j) = block;
                    lower.at(j, i) = block.transpose();
                } else {
                    upper.at(j, i) = block.transpose();
                    lower.at(i, j) = block;
                }
            }
        if (!asStored) return;
        for (Index r = 0; r < n; ++r)
            for (Index k = order.rowStart()[r]; k < order.rowStart()[r + 1]; ++k) {
                const Index i = order.originalRow(r), j = order.originalRow(order.column()[k]);
                using Stored = Eigen::Matrix<float, 3, 3, Eigen::RowMajor>;
                const Mat3 block = Eigen::Map<const Stored>(order.blocks() + 9 * k).cast<double>();
                scaled.at(i, j) = block;
                scaled.at(j, i) = block.transpose();
                upper.at(i, j) = block;
                lower.at(j, i) = block.transpose();
            }
    }
};

}  // namespace tinkerbox::test
