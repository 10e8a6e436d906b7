// The implicit step's solver: SGS-preconditioned CG, with its rows swept in two halves at
// once from SgsConjugateGradient::kSplitRows rows up.
#include "core/math/SgsConjugateGradient.h"

#include <gtest/gtest.h>

#include "core/TestSystems.h"

namespace tinkerbox {
namespace {

struct ClothSystem {
    BlockSparseMatrix J;
    std::vector<Mat3> mass;
    std::vector<char> fixed;
    VecX rhs;
};

// The implicit-euler system of a stretched n x n cloth (two corners nailed) at h = 1/60.
ClothSystem clothSystem(int n) {
    World ps;
    test::addCloth(ps, n, 0.02, 1.1, 500.0, 0.01, 0.001);
    const double h = 1.0 / 60.0;
    ClothSystem s;
    VecX dFdxV, f;
    ps.combinedJacobian(-h * h, -h, s.J, dFdxV);
    ps.massBlocks(s.mass, s.fixed);
    ps.appliedForces(f);
    s.rhs = h * (f + h * dFdxV);
    return s;
}

// (J + M) x - rhs over the free blocks, relative to rhs.
double relativeResidual(const ClothSystem& s, const VecX& x) {
    VecX r;
    s.J.multiply(x, r);
    for (Index i = 0; i < s.J.blockRows(); ++i) block3(r, i) += s.mass[i] * block3(x, i);
    r -= s.rhs;
    for (Index i = 0; i < s.J.blockRows(); ++i)
        if (s.fixed[i]) block3(r, i).setZero();
    return r.norm() / s.rhs.norm();
}

// Swept whole (32 x 32) or in halves (64 x 64), the solve reaches the solution of the
// unpreconditioned system, leaves the nailed blocks at zero, and gives the same bits twice.
TEST(SgsConjugateGradient, SolvesWholeAndSplitSystems) {
    for (const int n : {32, 64}) {
        const ClothSystem system = clothSystem(n);
        ASSERT_EQ(system.J.blockRows() >= SgsConjugateGradient::kSplitRows, n == 64);
        SgsConjugateGradient solver;
        VecX first, second;
        for (VecX* x : {&first, &second}) {
            BlockSparseMatrix J = system.J;  // consumed by the solve
            const CgResult result = solver.solve(J, system.mass, system.fixed, system.rhs, *x, CgSettings{1e-11, 2000});
            EXPECT_TRUE(result.converged) << n;
        }
        EXPECT_LT(relativeResidual(system, first), 1e-8) << n;
        EXPECT_TRUE(first == second) << n;
        EXPECT_EQ(block3(first, 0), Vec3::Zero());
        EXPECT_EQ(block3(first, n - 1), Vec3::Zero());
    }
}

}  // namespace
}  // namespace tinkerbox
