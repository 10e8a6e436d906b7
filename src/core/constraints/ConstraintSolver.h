#pragma once
// Constrained dynamics (Witkin, Constrained Dynamics, SIGGRAPH 2001 notes). The solver lays out the rows of
// every constraint and the 1x3 blocks of the sparse Jacobian J (one per row and velocity
// block: a particle's, or a rigid body's linear or angular block), and solves for the
// multipliers matrix-free: only J x and J^T y are ever formed, never J W J^T. W is the
// inverse mass operator (InverseMass.h): a scalar per particle, the world inverse inertia
// for a body's rotation, so the same rows hold particles and bodies together.
//
// Acceleration level, inside each derivative evaluation:
//   J W J^T lambda = -Jdot qdot - J a0 - ks C - kd Cdot,   Q += J^T lambda,
// with a0 = W Q the unconstrained acceleration (for a body's rotation also the term from
// its turning inertia, which the world adds).
// Position and velocity level, for the integrators that update velocities first
// (symplectic Euler, Verlet, implicit Euler), as in SHAKE and RATTLE: after a drift the
// positions go back onto C = 0 along the constraint gradients G0 at the drift's start,
// x += W G0^T nu with G0 W G0^T nu = -C(x), repeated (a quasi-Newton iteration that
// converges at the rate of the step's rotation); then the velocities are projected,
// mass-weighted, onto J v = 0. Correcting along G0 rather than along the gradients at the
// new positions is what keeps these methods from losing energy step after step.
//
// All solves use conjugate gradient preconditioned with symmetric Gauss-Seidel, run
// matrix-free: a sweep keeps W J^T of the rows already done in a particle-space
// accumulator, so a row of J W J^T's triangle is one dot product with it (the pattern of
// "sequential impulses"). With Eisenstat's trick an iteration costs the two sweeps and
// nothing else, and needs about half the iterations of Jacobi-preconditioned CG on a rod
// grid. Solves are warm started from the last solution; the stopping test does not depend
// on the start (ConjugateGradient.h), so a warm start saves iterations, never accuracy.
// The tolerance follows the integrator: each one says, before it steps, how accurate the
// solves inside its derivative evaluations must be (OdeSystem::setSolveTolerance), unless
// the settings fix a tolerance.
// Redundant rows make J W J^T singular; consistent ones (two equal rods) are no trouble for
// CG, which converges to a least-squares solution whose null-space part exerts no force.
// Conflicting ones (two rods of different lengths between the same particles) make the
// system inconsistent: CG's directions turn into the null space. Only then, when it breaks
// down or does not converge, is the solve repeated with a Tikhonov term (1e-9 of the mean
// diagonal), which makes the matrix positive definite and gives the least-squares forces; a
// well-posed system is solved exactly, with no regularization floor. Rows whose particles
// are all fixed are left out.
#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/bodies/InverseMass.h"
#include "core/constraints/Constraint.h"
#include "core/math/ConjugateGradient.h"

namespace tinkerbox {

class ModelState;

struct ConstraintSettings {
    double ks = 400.0;  // position feedback (1/s^2): C'' = -ks C - kd C' when nothing else acts
    double kd = 40.0;   // velocity feedback (1/s); ks = 400, kd = 40 is critically damped
    // The multiplier solve's CG, stopping at |r| <= tolerance |b| (preconditioned norms).
    // Tolerance 0, the default, is automatic: what the integrator asks for (its truncation
    // error, or a fraction of adaptive's tolerance), between kTightestAutomaticTolerance and
    // kLoosestAutomaticTolerance. A positive tolerance overrides it, looser or tighter.
    CgSettings solver{0.0, 500};
    bool warmStart = true;

    // 1e-6 was the fixed default: the frictionless double pendulum under rk4 (dt = 1e-3)
    // then drifts 7e-8 in energy over 10 s (1e-4 lets it drift 1e-5). No integrator gets
    // less. Below 1e-14 the residual is at the rounding of the products.
    static constexpr double kLoosestAutomaticTolerance = 1e-6;
    static constexpr double kTightestAutomaticTolerance = 1e-14;
    // The tolerance of a solve for an integrator that asks for `requested` (0: nothing).
    double tolerance(double requested) const;

    bool operator==(const ConstraintSettings&) const = default;
};

struct ConstraintSolveStats {
    long solves = 0;
    long iterations = 0;
    long regularized = 0;  // solves that needed the Tikhonov term
    double seconds = 0.0;
};

class ConstraintSolver {
public:
    using ConstraintList = std::vector<std::unique_ptr<Constraint>>;

    // The tolerance the integrator asks of the solves (OdeSystem::setSolveTolerance).
    void requestTolerance(double tolerance) { requestedTolerance_ = tolerance; }

    // Lays the rows and blocks out; call again whenever the constraints or the bodies change.
    void layout(const ConstraintList& constraints, const ModelState& world);
    Index rows() const { return static_cast<Index>(C_.size()); }

    // C, Cdot, J and Jdot at the world's current state.
    void evaluate(const ConstraintList& constraints, const ModelState& world);
    // Solves for lambda and adds J^T lambda to Q (after evaluate()); qdot and a0 are the
    // velocities and unconstrained accelerations per velocity block.
    void addConstraintForces(const InverseMass& W, const VecX& qdot, const VecX& a0, VecX& Q,
                             const ConstraintSettings& settings);
    // The change dv = W J^T mu that projects the velocities v onto J v = 0 (after evaluate()).
    void projectVelocities(const InverseMass& W, const VecX& v, VecX& dv, const ConstraintSettings& settings);
    // Keeps the current J and W as the drift's start gradients G0 and masses W0 (after
    // evaluate() there).
    void holdStartJacobian(const InverseMass& W) {
        J0_ = J_;
        W0_ = W;
    }
    // One step of the position projection onto C = 0 along G0: the displacement
    // d = W0 G0^T nu with G0 W0 G0^T nu = -C (after evaluate()), per velocity block (a
    // rotation vector for a body's angular block).
    void projectPositions(VecX& d, const ConstraintSettings& settings);
    // At most this many steps, stopping once max relative |C| is below the tolerance.
    static constexpr int kProjectionIterations = 10;
    static constexpr double kProjectionTolerance = 1e-10;

    // max over rows of |C| / the row's constraint scale (metres for constraints without one).
    double maxRelativeError() const;
    const VecX& C() const { return C_; }
    const VecX& multipliers() const { return lambda_; }
    void multiplyJ(const VecX& x, VecX& y) const { multiply(J_, x, y); }                      // y = J x
    void multiplyJTransposed(const VecX& y, VecX& x) const { multiplyTransposed(J_, y, x); }  // x += J^T y
    const VecX& Cdot() const { return Cdot_; }

    // Starts the next solves from zero, as a new solver would (after the state jumped).
    void forgetWarmStarts();

    const ConstraintSolveStats& stats() const { return stats_; }
    void resetStats() { stats_ = {}; }

private:
    using Blocks = std::vector<Vec3>;
    void multiply(const Blocks& J, const VecX& x, VecX& y) const;
    void multiplyTransposed(const Blocks& J, const VecX& y, VecX& x) const;
    // Solves J W J^T x = b from the warm start x, with empty rows removed; again with a
    // Tikhonov term eps I if that breaks down or does not converge.
    void solve(const Blocks& J, const InverseMass& W, VecX& b, VecX& x, const ConstraintSettings& settings);
    // One preconditioned CG solve of (J W J^T + epsilon I) x = b (after prepareSweeps); x
    // is left as it was when it does not converge, unless keepUnconverged.
    CgResult solveWith(double epsilon, const Blocks& J, const VecX& b, VecX& x, const CgSettings& cg,
                       bool keepUnconverged);
    void prepareSweeps(const Blocks& J, const InverseMass& W, VecX& b, VecX& x);
    void scaleRows(double epsilon);
    template <bool Descending, class Row>
    void sweep(const Blocks& J, Row&& row);

    std::vector<Index> rowOffset_, blockOffset_;          // per constraint
    std::vector<int> blocksPerRow_;                       // per constraint
    std::vector<std::vector<int>> firstBlock_;            // per constraint and anchor (ConstraintRows)
    std::vector<std::int32_t> blockRow_, blockParticle_;  // per block: its row and velocity block
    std::vector<Index> rowBlockStart_;  // the blocks of row r are rowBlockStart_[r] .. rowBlockStart_[r + 1] - 1
    std::vector<double> rowScale_;
    VecX C_, Cdot_;
    Blocks J_, Jdot_, J0_;
    VecX lambda_, mu_, nu_;
    struct WarmStart {
        VecX rhs, lambda;
    };
    std::array<WarmStart, 4> warmStarts_;
    std::size_t nextWarmStart_ = 0;  // acceleration-, velocity- and position-level multipliers (warm starts)
    VecX rhs_, diagonal_, particleVector_, jv_;
    std::vector<AnchorKinematics> kinematics_;
    InverseMass W0_;
    // Sweep state: the inverse mass, row scales s_r = (J W J^T + eps)_rr^-1/2, the
    // accumulator over the velocity blocks.
    const InverseMass* inverseMass_ = nullptr;
    VecX scale_, accumulator_, bHat_, xHat_, product_, t_;
    double meanDiagonal_ = 0.0;
    double requestedTolerance_ = 0.0;
    Index blockCount_ = 0;
    CgWorkspace work_;
    ConstraintSolveStats stats_;
};

}  // namespace tinkerbox
