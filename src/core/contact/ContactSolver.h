#pragma once
// Contact response after an integrator step (Baraff, Rigid Body Simulation II:
// Nonpenetration Constraints, SIGGRAPH 2001 notes): the world is at the step's end, the
// manifolds are those found there. In order:
//   1. collisions: a touching point approaching faster than resting contact can (2 |g| h)
//      takes Baraff's colliding-contact impulse (section 8, appendix D), one point at a
//      time, pass after pass, until no point approaches so (a Newton's cradle passes its
//      momentum ball to ball); the bodies are also moved by the time since impact times
//      the velocity change, so that a body that hit mid-step ends where it bounced to;
//   2. resting contact and Coulomb friction: Baraff's LCP a = A f + b, a >= 0, f >= 0,
//      f.a = 0 (section 9, appendix D) over the step, A = J W J^T, b = vrel / h, solved for
//      the impulses h f by projected Gauss-Seidel (sequential impulses), accelerated by the
//      nonsmooth nonlinear conjugate gradient method and warm-started from the previous step;
//      once the sweeps have told which points push and which stick, the system on that
//      active set is solved at once by a sparse factorization in the bodies' velocity space
//      (subspace minimization, Morales, Nocedal and Smelyanskiy 2008), which carries a
//      pile's weights down all its rows in one step where sweeps carry them one row each;
//   3. positions: the contact forces of 2 move the bodies as far as the integrator would
//      have moved them for those forces had it known them (ContactStep::start), which takes
//      away the step's sink into a support and a held box's creep down a slope; then what
//      still overlaps by more than a slop is pushed out, and what touched is kept in touch,
//      by positions alone (no velocity, so no kinetic energy, changes).
#include <array>
#include <utility>
#include <vector>

#include "core/bodies/InverseMass.h"
#include "core/collision/Contact.h"
#include "core/contact/ContactModel.h"
#include "core/math/BlockCholesky.h"

namespace tinkerbox {

class World;

struct ContactStep {
    double h = 1.0 / 60.0;  // the step just taken
    double gravity = 9.81;  // |g|: sets the speed below which an approach rests
    // The world's state at the step's start (World::getState layout), for how the step
    // moved the bodies: without it the free acceleration along the normals is taken as 0
    // and the integrator's positionResponse as 1/2.
    const VecX* start = nullptr;
};

// x_end - x_start - h v_start = c h (v_end - v_start) for a body under a steady force: how
// far the integrator moves a body for the velocity a force gives it in the step (1
// symplectic and implicit Euler, 1/2 rk4, midpoint and Verlet, 0 explicit Euler), the
// least-squares c over the free rigid bodies' centres of mass from the step's start state
// to the world now; 1/2 (exact integration) when no body's velocity changed.
double positionResponse(const World& world, const VecX& start, double h);

class ContactSolver {
public:
    static constexpr int kMaxCollisionPasses = 100;
    static constexpr int kManifoldCollisionIterations = 50;
    // Sweeps: a stack of ten cubes started cold takes hundreds (the weights travel down one
    // box per sweep, and friction converges slowly); warm-started, a few. Fewer left the
    // first steps' residual velocities to rock the stack by millimetres.
    static constexpr int kMaxIterations = 1000;
    // When at most a tenth of the points start cold (new points of a settled pile).
    static constexpr int kMaxWarmIterations = 250;
    static constexpr double kRelativeTolerance = 1e-6;
    // Subspace minimization (solveResting): after this many sweeps, and again after as
    // many more, at most kMaxSubspaceSolves times a step; the regularization of each row
    // relative to its own J W J^T, and how many solves with one factor take its bias out.
    static constexpr int kSweepsBeforeSubspace = 4;
    static constexpr int kMaxSubspaceSolves = 6;
    static constexpr double kSubspaceRegularization = 1e-6;
    static constexpr int kMaxSubspaceRefinements = 3;  // solves with the same factor
    // A subspace step is kept when it shrinks the active rows' largest velocity error by
    // this much (it does unless the factor is degenerate).
    static constexpr double kSubspaceReduction = 1e-3;
    // Nor when more than this fraction of its points end outside the cone.
    static constexpr double kSubspaceOutside = 0.1;  // largest impulse change per sweep / largest impulse
    static constexpr double kSlop = 5e-5;            // metres of overlap left alone
    // Metres: a gap this narrow is contact (its point must not approach), not a gap the step
    // may close. The position pass holds touching points at the slop only to a tenth of it
    // once a pile rests; in a pile just built it leaves gaps of about the slop, and taken as
    // gaps to close (a target velocity of -s / h each) they ask the pile's sticking bodies
    // for motions they cannot all make: the sweeps then stall for hundreds of passes.
    static constexpr double kTouching = 2.0 * kSlop;
    static constexpr int kPositionIterations = 50;
    // A point whose feature ids changed (a touching pair's reference face flipped) takes the
    // warm start of the previous point of its pair nearest it on a, if this close.
    static constexpr double kWarmMatchDistance = 0.01;

    // Changes the world's velocities and positions; adds to the report its contacts
    // (points that overlap or took an impulse), the largest overlap, and its iterations
    // (collision passes and Gauss-Seidel sweeps).
    void solve(World& world, const std::vector<ContactManifold>& manifolds, const ContactStep& step,
               ContactReport& report);
    // Forgets the warm starts.
    void reset();

private:
    struct Key {
        ColliderRef a, b;
        std::uint32_t feature = 0;
        auto operator<=>(const Key&) const = default;
    };
    // One direction d of a contact row: the Jacobian of the relative velocity along it,
    // J = [-d, angularA | d, angularB] on the row's blocks (a's linear and angular, then
    // b's), the angular parts of W J^T and 1 / (J W J^T). W's linear blocks are diagonal
    // (InverseMass.h), so the linear parts of W J^T are -wLinearA * d and wLinearB * d
    // (componentwise, the row's), not stored per axis: a row is read in every sweep.
    struct Axis {
        Vec3 direction, angularA, angularB, wAngularA, wAngularB;
        double effectiveMass = 0.0;  // 1 / (J W J^T), 0 when nothing moves
    };
    // The fields in the order the passes read them: the position projection the first
    // lines (blocks, W's diagonal, the normal, its separation), the Gauss-Seidel sweeps
    // those and the next, the rest after (a row is about 700 bytes and the sweeps go over all of them).
    struct Row {
        Index linearA = -1, angularA = -1, linearB = -1, angularB = -1;  // velocity blocks, -1: none
        Vec3 wLinearA = Vec3::Zero(), wLinearB = Vec3::Zero();           // W's diagonal on the linear blocks (0: none)
        Axis normal;
        double separation = 0.0;       // at detection; the linear change from displacements is added on
        double positionImpulse = 0.0;  // of the position projection
        bool held = false;             // in the position projection: kept at the slop from both sides
        bool collided = false;
        int tangents = 2;         // 1 in a planar world
        Axis tangent1, tangent2;  // tangent2 all zero in a planar world
        // J_t W J_n^T of each tangent: how an impulse along the normal moves the point
        // along it.
        double coupling1 = 0.0, coupling2 = 0.0;
        double normalImpulse = 0.0, tangentImpulse1 = 0.0, tangentImpulse2 = 0.0;
        double targetVelocity = 0.0;  // the least relative normal velocity after the step
        double friction = 0.0, restitution = 0.0;
        // A particle held on a fixed body by the implicit step's contact filter: the normal
        // impulse the step already gave it there, which counts in the friction bound.
        double heldImpulse = 0.0;
        // The impulses (normal, tangent 1, tangent 2) at the start of an iteration, and the
        // conjugate direction they move along (solveResting).
        Vec3 iterationStart = Vec3::Zero(), direction = Vec3::Zero();
        Key key;
        Vec3 onA = Vec3::Zero();          // the point in a's frame (from its centre of mass)
        double normalAcceleration = 0.0;  // of the relative normal velocity over the step, without contact
        double impactTime = 0.0;          // before the step's end (< 0: after it), once collided
        // In the collision pass at hand: whether the point collides, the normal velocity its
        // impulse aims at, and the impulse so far.
        bool colliding = false;
        double collisionTarget = 0.0, collisionImpulse = 0.0;
    };
    struct Warm {
        Key key;
        Vec3 onA = Vec3::Zero();
        double normal = 0.0;
        Vec3 tangent = Vec3::Zero();  // world frame, so that a turned tangent basis keeps it
    };

    void buildRows(const World& world, const std::vector<ContactManifold>& manifolds);
    // Of the previous points of the row's pair, [first, last): the one of its feature, else
    // the nearest within kWarmMatchDistance, else none.
    static const Warm* findWarm(const Row& row, const Warm* first, const Warm* last);
    void buildAxis(const InverseMass& W, const Row& row, const Vec3& direction, const Vec3& ra, const Vec3& rb,
                   Axis& axis) const;
    static Axis zeroAxis();
    static double coupling(const Row& row, const Axis& along, const Axis& pushed);  // J_along W J_pushed^T
    double velocityAlong(const Axis& axis, const Row& row, const VecX& u) const;
    double velocityAlong(const Axis& axis, const Row& row) const { return velocityAlong(axis, row, u_); }
    void applyImpulse(const Axis& axis, const Row& row, double impulse, VecX& target) const;
    // target += W J^T p for the row's three axes, p = (normal, tangent 1, tangent 2).
    void applyImpulses(const Row& row, const Vec3& p, VecX& target) const;
    double separationNow(const Row& row) const;
    void measureStep(const World& world, const ContactStep& step);
    int collide(double threshold, double h);
    // One Gauss-Seidel step of a row's three impulses; returns them.
    Vec3 sweepRow(Row& row);
    int solveResting(const InverseMass& W, double h, double hPrevious);
    bool minimizeOnActiveSet(const InverseMass& W);
    void projectPositions(double h);
    void writeBack(World& world);

    std::vector<Row> rows_;
    std::vector<std::size_t> manifoldStart_;  // the first row of each manifold, and rows_.size()
    std::vector<Warm> warm_, nextWarm_;
    double previousH_ = 0.0;
    double positionResponse_ = 0.5;
    VecX u_, u0_, uStart_, displacement_;  // (v, omega) per velocity block; the displacement to make
    // The active-set system of minimizeOnActiveSet, kept to reuse its storage.
    struct ActiveAxis {
        Row* row;
        int axis;       // 0 normal, 1 and 2 the tangents
        double weight;  // 1 / the row's regularization
    };
    std::vector<ActiveAxis> activeAxes_;
    std::vector<Index> activeDof_;     // per velocity block: its first unknown, or -1
    std::vector<Vec3> activeDofMask_;  // per velocity block: 1 where W is not 0
    // The system's 3 x 3 pieces, at their first rows' and columns' unknowns, on or below the
    // diagonal; repeats are summed.
    struct ActiveBlock {
        Index row, column;
        Mat3 value;
    };
    std::vector<ActiveBlock> activeBlocks_;
    std::vector<Index> activeVelocityBlocks_;  // the velocity blocks with unknowns
    // Each active axis's Jacobian on its four blocks (their first unknowns, -1 for none),
    // without the dofs W holds, and its residual.
    struct ActiveJacobian {
        std::array<Index, 4> at;
        std::array<Vec3, 4> j;
    };
    std::vector<ActiveJacobian> activeJacobians_;
    std::vector<double> activeResidual_;
    int activeBlockSize_ = 3;  // of the factorization's blocks: 6 (bodies) or 3 (velocity blocks)
    // Factors the system of activeBlocks_ by B x B blocks; false when it is not positive definite.
    template <int B>
    bool factorActiveSet(BlockCholesky<B>& factor, std::vector<typename BlockCholesky<B>::Block>& values, Index dofs);
    BlockCholesky<3> factor3_;
    BlockCholesky<6> factor6_;
    std::vector<BlockCholesky<3>::Block> values3_;
    std::vector<BlockCholesky<6>::Block> values6_;
    std::vector<std::pair<Index, Index>> activePattern_, analysedPattern_;  // below the diagonal
    int analysedBlockSize_ = 0;
    // The pieces' (row, column) in the order they came, as last given slots, and the slots.
    std::vector<std::pair<Index, Index>> activeSequence_, slottedSequence_;
    int slottedBlockSize_ = 0;
    std::vector<Index> activeSlots_;
    VecX activeRhs_, activeSolution_, savedU_;
    std::vector<double> savedImpulses_;
};

}  // namespace tinkerbox
