// The implicit step's solver: CG on Eisenstat's split SGS-preconditioned matrix, its rows swept
// in two parts at once from ScaledSweepMatrix::kSplitRows rows up.
#include "core/math/SgsConjugateGradient.h"

#include <gtest/gtest.h>

#include "core/math/ScaledSystems.h"

namespace tinkerbox {
namespace {

// (J + M) x - rhs over the free blocks, relative to rhs.
double relativeResidual(const test::ImplicitSystem& s, const VecX& x) {
    VecX r;
    s.J.multiply(x, r);
    for (Index i = 0; i < s.J.blockRows(); ++i) block3(r, i) += s.mass[i] * block3(x, i);
    r -= s.rhs;
    for (Index i = 0; i < s.J.blockRows(); ++i)
        if (s.fixed[i]) block3(r, i).setZero();
    return r.norm() / s.rhs.norm();
}

// The product is A^ = E^-1 A~ E^-T with A~ = G^-1 (J + M) G^-T (its blocks as stored, in single
// precision), E = I/omega + L and L, U = L^T its triangles in the solver's sweep order: for
// u = E^T w, E A^ u = A~ w, whole (32 x 32) and split (64 x 64, random springs).
TEST(SgsConjugateGradient, ProductIsTheSplitPreconditionedMatrix) {
    std::vector<test::ImplicitSystem> systems;
    systems.push_back(test::clothSystem(32));
    systems.push_back(test::clothSystem(64));
    systems.push_back(test::randomSystem(4200, 7));
    for (const test::ImplicitSystem& s : systems) {
        SgsConjugateGradient solver;
        solver.prepare(s.J, s.mass, s.fixed);
        const test::ScaledReference reference(s, solver.matrix(), true);
        const Index n = s.J.blockRows();
        VecX w = VecX::Random(3 * n);
        for (Index i = 0; i < n; ++i)
            if (s.fixed[i]) block3(w, i).setZero();
        VecX upperW, expected, product, lowerProduct;
        reference.upper.multiply(w, upperW);
        reference.scaled.multiply(w, expected);
        const double omega = SgsConjugateGradient::kRelaxation;
        solver.applyPreconditioned(w / omega + upperW, product);
        reference.lower.multiply(product, lowerProduct);
        EXPECT_LT((product / omega + lowerProduct - expected).norm(), 1e-14 * expected.norm());
    }
}

// Swept whole (32 x 32) or in parts (64 x 64), the solve reaches the solution of the
// unpreconditioned system, leaves the nailed blocks at zero, and gives the same bits twice;
// at the implicit step's tolerance (1e-4) it is within 3e-4 of it in the energy norm, from
// zero or from a start near the answer (not the same as it: a warm start saves iterations).
TEST(SgsConjugateGradient, SolvesWholeAndSplitSystems) {
    for (const int n : {32, 64}) {
        const test::ImplicitSystem system = test::clothSystem(n);
        SgsConjugateGradient solver;
        VecX first, second;
        for (VecX* x : {&first, &second}) {
            const CgResult result =
                solver.solve(system.J, system.mass, system.fixed, system.rhs, *x, CgSettings{1e-11, 2000});
            EXPECT_TRUE(result.converged) << n;
        }
        EXPECT_EQ(solver.matrix().split(), n == 64);
        EXPECT_LT(relativeResidual(system, first), 1e-8) << n;
        EXPECT_TRUE(first == second) << n;
        EXPECT_EQ(block3(first, 0), Vec3::Zero());
        EXPECT_EQ(block3(first, n - 1), Vec3::Zero());

        VecX cold = VecX::Zero(first.size()), warm = 0.9 * first;
        const CgResult fromZero =
            solver.solve(system.J, system.mass, system.fixed, system.rhs, cold, CgSettings{1e-4, 1000});
        const CgResult fromNear =
            solver.solve(system.J, system.mass, system.fixed, system.rhs, warm, CgSettings{1e-4, 1000});
        EXPECT_TRUE(fromZero.converged && fromNear.converged) << n;
        EXPECT_LT(fromNear.iterations, fromZero.iterations) << n;
        EXPECT_LT(test::relativeEnergyError(system, cold, first), 3e-4) << n;
        EXPECT_LT(test::relativeEnergyError(system, warm, first), 3e-4) << n;
    }
}

// The scaled matrix is stored in single precision, which moves the answer by a few 1e-6 of
// its energy norm on these cloths (whole and split): from SgsConjugateGradient::kRefinedTolerance up that is
// well within what the tolerance allows, and below it the answer is refined against the
// system in double precision, to as close as the tolerance asks (single precision alone stops
// at about 5e-6 on the 64 x 64 cloth).
TEST(SgsConjugateGradient, TheSinglePrecisionMatrixMovesTheAnswerLessThanTheToleranceAllows) {
    std::vector<test::ImplicitSystem> systems;
    systems.push_back(test::clothSystem(32));
    systems.push_back(test::clothSystem(64));
    for (const test::ImplicitSystem& s : systems) {
        SgsConjugateGradient solver;
        VecX exact;
        ASSERT_TRUE(solver.solve(s.J, s.mass, s.fixed, s.rhs, exact, CgSettings{1e-12, 5000}).converged);
        for (const double tolerance : {1e-4, SgsConjugateGradient::kRefinedTolerance, 1e-6, 1e-7}) {
            VecX x = VecX::Zero(exact.size());
            EXPECT_TRUE(solver.solve(s.J, s.mass, s.fixed, s.rhs, x, CgSettings{tolerance, 5000}).converged);
            EXPECT_LT(test::relativeEnergyError(s, x, exact), 1.5 * tolerance) << s.J.blockRows() << " " << tolerance;
        }
        // Refined from a start near the answer that moves the nailed corners too: they end at zero.
        VecX x = 0.9 * exact;
        for (Index i = 0; i < s.J.blockRows(); ++i)
            if (s.fixed[i]) block3(x, i) = Vec3(0.01, 0.0, 0.0);
        EXPECT_TRUE(solver.solve(s.J, s.mass, s.fixed, s.rhs, x, CgSettings{1e-7, 5000}).converged);
        for (Index i = 0; i < s.J.blockRows(); ++i)
            if (s.fixed[i]) {
                EXPECT_EQ(block3(x, i), Vec3::Zero()) << i;
            }
    }
}

// A solve started from the answer takes no iteration: the start's transform into the scaled,
// preconditioned unknowns (x^ = E^T G^T x, the separator's rows after both parts') and the
// answer's way back are exact inverses, whole and split.
TEST(SgsConjugateGradient, StartedFromTheAnswerItTakesNoIteration) {
    for (const int n : {32, 64}) {
        const test::ImplicitSystem system = test::clothSystem(n);
        SgsConjugateGradient solver;
        VecX answer;
        ASSERT_TRUE(
            solver.solve(system.J, system.mass, system.fixed, system.rhs, answer, CgSettings{1e-12, 2000}).converged);
        VecX x = answer;
        const CgResult again = solver.solve(system.J, system.mass, system.fixed, system.rhs, x, CgSettings{1e-8, 2000});
        EXPECT_TRUE(again.converged) << n;
        EXPECT_EQ(again.iterations, 0) << n;
        EXPECT_LT((x - answer).norm(), 1e-12 * answer.norm()) << n;
    }
}

// The solver keeps its vectors from one solve to the next and zeroes them only when their
// size changes: a solver that has solved another system of the same size, or a larger one,
// gives the same bits as a new solver, whole and split.
TEST(SgsConjugateGradient, AUsedSolverGivesTheBitsOfANewOne) {
    for (const int n : {32, 64}) {
        const test::ImplicitSystem system = test::clothSystem(n);
        std::vector<test::ImplicitSystem> before;
        before.push_back(test::randomSystem(n * n, 3));  // the same size
        before.push_back(test::clothSystem(n + 8));
        for (const test::ImplicitSystem& other : before) {
            SgsConjugateGradient fresh, used;
            VecX scratch, expected, x;
            used.solve(other.J, other.mass, other.fixed, other.rhs, scratch, CgSettings{1e-6, 1000});
            const CgResult a =
                fresh.solve(system.J, system.mass, system.fixed, system.rhs, expected, CgSettings{1e-6, 1000});
            const CgResult b = used.solve(system.J, system.mass, system.fixed, system.rhs, x, CgSettings{1e-6, 1000});
            EXPECT_TRUE(a.converged) << n;
            EXPECT_EQ(a.iterations, b.iterations) << n;
            EXPECT_TRUE(x == expected) << n;
        }
    }
}

}  // namespace
}  // namespace tinkerbox
