#pragma once
// Projective dynamics: backward Euler for the particles, solved by local-global iterations
// (Liu, Bargteil, O'Brien & Kavan 2013, "Fast Simulation of Mass-Spring Systems", section 4;
// Bouaziz, Martin, Liu, Kavan & Pauly 2014, "Projective Dynamics: Fusing Constraint Projections
// for Fast Simulation", eq. 7-11). The step's end positions minimize
//   1/(2 h^2) |x - y|_M^2 + sum_c w_c/2 |A_c x - p_c|^2,   y = x0 + h v0 + h^2 M^-1 f_ext,
// over x and the projections p_c (ProjectiveTerm.h). A local step projects every constraint
// (p_c from x), a global step solves
//   (M/h^2 + sum_c w_c A_c^T A_c) x = M y / h^2 + sum_c w_c A_c^T p_c
// with a sparse Cholesky (LDL^T) factorization made once and reused for as long as the
// stencils, the masses, the nailed particles and h stay the same; x, y and z share the one
// matrix. Each iteration lowers the objective; with enough of them x reaches the nonlinear
// backward Euler step, which implicit-euler approximates by one Newton step. Then
// v1 = (x - x0) / h. The solve is for the displacement d = x - x0 (the targets less A_c x0),
// so that v1 = d / h loses nothing to cancellation, and nailed particles (d = 0) drop out.
// - The terms: springs between particles (DampedSpring.h), grabs of particles
//   (MouseSpring.h), triangles' stretch and shear (TriangleStretchShear.h), bending hinges
//   (DihedralBending.h) and hair joints (AngularSpring.h).
// - f_ext: every applied force the terms do not cover (gravity, drag, wind, springs and
//   grabs at a rigid body), evaluated once at the step's start.
// - Damping: each term's damping is part of its constraints (DampedSpring.h), implicit.
// - Nailed particles stay put.
// - Rigid bodies and beads are not part of the solve: they take a symplectic Euler step
//   (u += h a, then drift) within the same step, from the forces at the step's start.
// - Hard constraints (rods, nails, pins, wires...) are kept as by symplectic Euler and
//   implicit-euler: positions and velocities are projected back after the step (RATTLE).
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include <Eigen/SparseCore>

#include "core/forces/ProjectiveTerm.h"
#include "core/integrators/Integrator.h"
#include "core/math/LdltSubstitution.h"
#include "core/math/TwoWayParallel.h"

namespace tinkerbox {

extern const IntegratorKind kProjectiveDynamicsKind;

class ProjectiveDynamics final : public Integrator {
public:
    explicit ProjectiveDynamics(int iterations);

    const IntegratorKind& kind() const override { return kProjectiveDynamicsKind; }
    void step(MechanicalSystem& system, double h, StepReport& report) override;
    TwoWayParallel* parallel() override { return &parallel_; }

    // How many times the global matrix has been factored so far.
    long factorizations() const { return factorizations_; }
    // Whether the substitution's two sets follow the local step's halves (findAlignedSets).
    bool setsFollowHalves() const { return aligned_; }

private:
    bool factorizationCurrent(double h) const;
    // False when the matrix has no LDL^T factorization with a positive D in double precision
    // (a spring whose stiffness dwarfs the masses over h^2 by some 1e17): no factorization is
    // then current.
    bool factor(double h);
    // The substitution from a SimplicialLDLT's L and D, split as sets says or its own way;
    // false when the factorization failed.
    template <class Ldlt>
    bool factorNumbered(const Ldlt& ldlt, const std::optional<std::array<Index, 2>>& sets);
    // For big systems whose halves of the local step reach few unknowns in common (a cloth's
    // elements in rows: a band of particles), the substitution's two sets: those reached by
    // the first halves alone and by the second's, the rest the top; each in its own
    // minimum-degree order of its part of the matrix, written to lNumber (per free unknown,
    // its number in L). Nothing when the top would hold more than kMostTopShare of the unknowns.
    std::optional<std::array<Index, 2>> findAlignedSets(const std::vector<Index>& free,
                                                        const Eigen::SparseMatrix<double>& matrix,
                                                        std::vector<Index>& lNumber) const;
    // Term t's stencils begin .. end - 1 of its first (half 0) or second half; the second
    // starts at a whole block of lanes.
    std::array<Index, 2> termHalf(std::size_t t, int half) const;
    // Term t's stencils begin .. end - 1: what their projections keep for the step (from x0),
    // and their targets (from x).
    void prepareTerm(std::size_t t, double h, Index begin, Index end);
    void projectTerm(std::size_t t, Index begin, Index end);
    // The right-hand side's rows first .. last - 1, and x of their particles from the answer.
    void gatherRows(Index first, Index last);
    void placeRows(Index first, Index last);
    // d of the free particles from the targets, and x = x0 + d when positionsWanted.
    void solveGlobal(bool positionsWanted);
    // Every iteration of a step with aligned sets.
    void iterateAligned(double h);
    // Runs task(t, first, last) over each term t's stencils [0, count); for big systems in two
    // halves at once, each thread taking one half of every term.
    void forTermHalves(const std::function<void(std::size_t, Index, Index)>& task);

    int iterations_;
    long factorizations_ = 0;

    // What the factored matrix was built from, when factored_.
    bool factored_ = false;
    double h_ = 0.0;
    std::vector<const ProjectiveTerm*> factoredTerms_;
    std::vector<std::uint64_t> factoredRevisions_;
    VecX factoredMass_;
    std::vector<char> factoredFixed_;

    std::vector<Index> firstStencil_;  // per term, the index of its first stencil (and one past the last)
    std::vector<Index> firstRow_;      // per stencil, the index of its first target (and one past the last)
    std::vector<Index> firstState_;    // per term, where its projections' state starts (and one past the last)
    std::vector<Index> unknown_;       // per particle its row in the solve, -1 when nailed
    std::vector<Index> particle_;      // per row of the solve, its particle
    bool aligned_ = false;             // the substitution's sets follow the local step's halves
    static constexpr double kMostTopShare = 0.125;
    Index unknowns_ = 0;
    // The factors P A P^T = L D L^T (SimplicialLDLT's; P an AMD order of the whole, or of each
    // aligned set and the top: findAlignedSets); the unknowns are numbered
    // as the substitution numbers P's order (position()), 4 numbers each in inertia_ and rhs_.
    LdltSubstitution substitution_;
    // The right-hand side's projection part, sum_c w_c A_c^T (p_c - A_c x0), gathered per
    // unknown: row r takes sum over k of gatherWeight_[k] targets_[gatherTarget_[k]], k in its range.
    std::vector<Index> gatherStart_;
    std::vector<std::int32_t> gatherTarget_;
    std::vector<double> gatherWeight_;

    // Per step
    std::vector<const ProjectiveTerm*> terms_;
    std::vector<Mat3> massBlocks_;
    std::vector<char> fixed_;
    VecX mass_;  // per particle
    VecX force_, acceleration_, x0_, x_, velocity_;
    std::vector<ProjectiveTarget> targets_;  // p_c - A_c x0
    std::vector<double> projectionState_;    // what the terms keep for their projections in a step
    std::vector<ProjectiveStencil> stencils_;
    VecX inertia_, rhs_;
    // From kParallelUnknowns unknowns up, the iterations run on two threads: the local step in
    // halves, the right-hand side and the substitution by its sets (each constraint and row on
    // its own: the same bits either way); with aligned sets, one handoff per iteration
    // (iterateAligned), else three.
    static constexpr Index kParallelUnknowns = 2048;
    TwoWayParallel parallel_;
};

}  // namespace tinkerbox
