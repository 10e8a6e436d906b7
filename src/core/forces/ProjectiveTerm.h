#pragma once
// What a force offers the `projective` integrator (ProjectiveDynamics.h): its energy written
// as a sum of constraints of projective dynamics (Bouaziz, Martin, Liu, Kavan & Pauly 2014,
// "Projective Dynamics: Fusing Constraint Projections for Fast Simulation", eq. 4 and 6;
// Liu, Bargteil, O'Brien & Kavan 2013, "Fast Simulation of Mass-Spring Systems", eq. 9):
//
//   E_c(x) = w_c / 2 |A_c x - p_c|^2,   p_c = the point of the constraint set nearest A_c x,
//
// with x the particles' positions, A_c a small linear map of a few particles' positions
// (the same for x, y and z: one coefficient per particle and row) and w_c a constant weight.
// A spring of stiffness k and rest length r is one row, A x = xa - xb, p = r (xa - xb)/|xa - xb|,
// w = k: then E_c is exactly k/2 (|xa - xb| - r)^2. A triangle's stretch and shear are two
// rows (the deformation gradient's columns w_u, w_v: TriangleStretchShear.h), a bending hinge
// one (a discrete curvature vector, p = the rest curvature vector turned to the current
// frame: DihedralBending.h), a hair joint two (its segments, p = their nearest pair at the
// rest angle: AngularSpring.h).
//
// The integrator minimizes 1/(2 h^2) |x - y|_M^2 + sum_c E_c(x) by alternating a local step
// (every p_c from the current x: projectTargets()) and a global step (a linear solve with the
// constant matrix M/h^2 + sum_c w_c A_c^T A_c, factored once). So everything the matrix is
// built from must stay constant until the term says otherwise through its revision: the
// stencils (particles, coefficients, weights), for a given h.
//
// To plug a new energy in (one file): derive the force from Force and from ProjectiveTerm,
// return `this` from Force::projectiveTerm(), and accumulate in
// Force::accumulateOutsideProjectiveTerm whatever part of the force the constraints leave out
// (a spring with a rigid-body end, say). The part the constraints cover is then taken
// implicitly by the projective solve; everything else the system applies (gravity, drag, wind,
// a grab of a rigid body) enters the step as an external force. DampedSpringSet and
// MouseSpring are the simplest examples: a spring is one row on two particles, a grab one on
// one. A term that damps adds its damping's weight to the constraint's and blends the
// targets (projectiveDampingDirection and projectiveDampingDisplacement below).
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/math/Lanes.h"
#include "core/math/Types.h"

namespace tinkerbox {

// The linear part of one constraint: rows r of A_c x = sum_k coefficients[r][k] x_particles[k].
struct ProjectiveStencil {
    static constexpr int kMaxParticles = 4;
    static constexpr int kMaxRows = 3;

    std::array<Index, kMaxParticles> particles{};  // particle indices (not velocity blocks of bodies)
    int particleCount = 0;
    int rows = 0;
    std::array<std::array<double, kMaxParticles>, kMaxRows> coefficients{};
    double weight = 0.0;  // w_c > 0; may depend on h (a damping weight kd / h does)
};

// The damping of a condition C(y) of the rows' values y (Baraff and Witkin's d = -kd dC/dx
// Cdot) as a projective constraint of weight kd |g0|^2 / h, g0 = dC/dy at the step's start:
// its target is y less the step's displacement y - y0 along g0, so that its energy is
// kd h/2 (g0 . ydot)^2 / |g0|^2 and its force -kd g0 g0^T ydot / |g0|^2 (DampedSpringSet's
// damping, for any condition). Once per step, the direction g0 / |g0| (zero where g0
// vanishes: then the target is y itself, no damping):
template <std::size_t Rows>
std::array<Vec3, Rows> projectiveDampingDirection(const std::array<Vec3, Rows>& g0) {
    double g0squared = 0.0;
    for (const Vec3& g : g0) g0squared += g.squaredNorm();
    std::array<Vec3, Rows> unit;
    const double scale = g0squared > 1e-24 ? 1.0 / std::sqrt(g0squared) : 0.0;
    for (std::size_t r = 0; r < Rows; ++r) unit[r] = scale * g0[r];
    return unit;
}
// and in every iteration, the target less y0 from the step's displacement dy = y - y0: dy
// less its part along the direction.
template <std::size_t Rows>
std::array<Vec3, Rows> projectiveDampingDisplacement(const std::array<Vec3, Rows>& dy,
                                                     const std::array<Vec3, Rows>& unit) {
    double along = 0.0;
    for (std::size_t r = 0; r < Rows; ++r) along += dy[r].dot(unit[r]);
    std::array<Vec3, Rows> target;
    for (std::size_t r = 0; r < Rows; ++r) target[r] = dy[r] - along * unit[r];
    return target;
}
// (the same for one row)
inline Vec3 projectiveDampingDisplacement(const Vec3& dy, const Vec3& unit) { return dy - dy.dot(unit) * unit; }

// A row's target as the integrator keeps it: x, y, z and a 0, so that the right-hand side
// takes it as one vector of four (LdltSubstitution.h's layout).
using ProjectiveTarget = Eigen::Vector4d;
inline ProjectiveTarget projectiveTarget(const Vec3& p) { return ProjectiveTarget(p.x(), p.y(), p.z(), 0.0); }
// Lane k of `target` (four constraints' rows, Lanes.h) as the target at out[stride * k], for
// the first `count` lanes.
EIGEN_ALWAYS_INLINE void storeTargets(const LaneVec3& target, int count, ProjectiveTarget* out, Index stride = 1) {
    storeLaneRows(target, count, out->data(), 4 * stride);
}

// How many numbers of state `count` constraints of `size` numbers each are given
// (ProjectiveTerm::prepareProjections): whole blocks of kLanes.
inline Index projectionStateLength(int size, Index count) { return size * ((count + kLanes - 1) / kLanes * kLanes); }

class ProjectiveTerm {
public:
    virtual ~ProjectiveTerm() = default;

    // Changes whenever what the stencils are built from changes (particles, stiffness,
    // damping, rest shape): the integrator refactors its matrix then, and only then (or when
    // h, the masses or the set of terms change).
    virtual std::uint64_t projectiveRevision() const = 0;

    // Appends one stencil per constraint for steps of length h, always in the same order.
    virtual void appendProjectiveStencils(double h, std::vector<ProjectiveStencil>& out) const = 0;

    // How many numbers per constraint prepareProjections keeps for the step.
    virtual int projectionStateSize() const = 0;

    // Once per step, before its iterations, for this term's constraints first .. last - 1
    // (numbered in the stencils' order; first a multiple of kLanes): whatever their
    // projections take from the step's start x0 (3 numbers per particle) and h alone, such as
    // their damping's directions and the shares of their weights, computed once rather than
    // in every iteration. `state` has projectionStateSize() numbers per constraint for
    // last - first rounded up to a multiple of kLanes constraints (projectionStateLength),
    // laid out as the term likes: one after the other, or lane by lane in blocks of kLanes
    // constraints (Lanes.h's loadLanes), so that four constraints' numbers load as vectors.
    virtual void prepareProjections(const VecX& x0, double h, Index first, Index last, double* state) const = 0;

    // The local step for constraints first .. last - 1: writes each row's target relative to
    // the step's start, p_c - A_c x0 (the global step solves for the displacement x - x0), one
    // per row consecutively from `targets` on. x: the current iterate of every particle's
    // position; x0: the positions at the step's start; state: what prepareProjections wrote
    // for these constraints. The integrator projects disjoint ranges at once on two threads:
    // a projection must depend on nothing but its arguments and write nothing else.
    virtual void projectTargets(const VecX& x, const VecX& x0, Index first, Index last, const double* state,
                                ProjectiveTarget* targets) const = 0;
};

}  // namespace tinkerbox
