#pragma once
// In-plane cloth energies on triangles with rest (u, v) coordinates (Baraff and Witkin,
// Large Steps in Cloth Simulation, SIGGRAPH 1998, section 4.2). The map from (u, v) to
// the world is linear on a triangle: [w_u w_v] = [dx1 dx2] [du1 du2; dv1 dv2]^-1, with
// dx1 = x_j - x_i, du1 = u_j - u_i and so on. With a the triangle's rest area in (u, v):
//   stretch C = a (|w_u| - b_u, |w_v| - b_v)   (equation 10; b = 1: no stretch at rest),
//   shear   C = a w_u . w_v                     (equation 11),
// each with energy k/2 C^T C and damping d = -kd dC/dx Cdot (section 4.5).
// The stiffness and damping are per triangle: a material's per-area constants divided by
// a (the scene's ClothMaterial), so that the energy is k_material/2 (S_u^2 + S_v^2) a whatever the mesh.
// Definite Jacobians: the stretch curvature term is kept where the triangle is stretched
// (|w| > b: positive semi-definite) and dropped where it is compressed; the shear
// curvature term is indefinite and always dropped (docs/integrators.md).
//
// For the projective integrator (ProjectiveTerm.h) each triangle's conditions are
// constraints on the rows A x = (w_u, w_v), which are linear in x:
// - stretch: target (b_u w_u/|w_u|, b_v w_v/|w_v|), weight k a^2, so that w/2 |A x - p|^2 is
//   exactly k/2 a^2 ((|w_u| - b_u)^2 + (|w_v| - b_v)^2), the stretch energy;
// - shear: target the nearest pair (p, q) with p . q = 0 (nearestOrthogonalPair), whose
//   squared distance is (w_u . w_v)^2 / S + O(|w_u . w_v|^3), S = |w_u|^2 + |w_v|^2; with the
//   weight k a^2 (b_u^2 + b_v^2) the constraint's energy is k/2 (a w_u . w_v)^2 to second
//   order about the rest shape (where S = b_u^2 + b_v^2).
// Damping as for springs (DampedSpring.h): each condition adds the weight kd |dC/dy|^2 / h
// (y = (w_u, w_v); |dC/dy|^2 = a^2 for stretch, a^2 (b_u^2 + b_v^2) at rest for shear) and
// pulls the step's displacement y - y0 towards its part across g0 = dC/dy at the step's
// start, so that at convergence the damping force is -kd dC/dx (dC/dx . v) with the end
// velocities, g frozen at the step's start: Baraff and Witkin's damping, backward Euler.
// The four (stretch, shear and their damping) share A, so they are one constraint: weight
// the sum of theirs, target the weighted mean of theirs (sum_i w_i/2 |A x - p_i|^2 is
// W/2 |A x - sum_i w_i p_i / W|^2 plus what does not depend on x). So a triangle with only
// stretch (or only shear) is exactly the constraint above.
#include "core/forces/ParticleElementForce.h"
#include "core/forces/ProjectiveTerm.h"
#include "core/math/Lanes.h"

namespace tinkerbox {

struct StretchShearTriangle {
    std::array<Index, 3> particles{};
    std::array<Eigen::Vector2d, 3> restUV{};  // (u, v) of each corner
    double stretchStiffness = 0.0;            // per triangle
    double stretchDamping = 0.0;
    double shearStiffness = 0.0;
    double shearDamping = 0.0;
    double bu = 1.0, bv = 1.0;  // rest stretch along u and v
};

// The nearest pair (p, q) with p . q = 0 to (a, b): p = (a - l b)/(1 - l^2), q = (b - l a)/(1 - l^2),
// l the root of (a.b) l^2 - (|a|^2 + |b|^2) l + a.b = 0 nearest 0 (the stationary points of
// |p - a|^2 + |q - b|^2 + 2 l p . q). Where a = +-b (|l| = 1) the nearest pair is not unique:
// then p = a and q = b less its part along a. For one pair, and for four at once (Lanes.h),
// in two stages for a caller that works out many pairs' l and 1 / (1 - l^2) (a square root
// and a division) before it needs the pairs: orthogonalPairScale, then orthogonalPair.
// (The four-wide ones are forced inline: a call would pass the vectors through memory.)
void nearestOrthogonalPair(const Vec3& a, const Vec3& b, Vec3& p, Vec3& q);
struct OrthogonalPairScale {
    Lanes l, inverse;  // l and 1 / (1 - l^2)
};
EIGEN_ALWAYS_INLINE OrthogonalPairScale orthogonalPairScale(const LaneVec3& a, const LaneVec3& b) {
    const Lanes c = dot(a, b), S = dot(a, a) + dot(b, b);
    // The root nearest 0 of c l^2 - S l + c, written without cancellation (S >= 2 |c|):
    // l = 2c / D with D = S + sqrt(S^2 - 4c^2), and 1 / (1 - l^2) = D^2 / (D^2 - 4c^2), both
    // from the one division 1 / (D (D^2 - 4c^2)): projective's local step waits on its divisions.
    // (D^3 stays finite for |a|, |b| up to about 1e50.)
    const Lanes D = S + (S * S - 4.0 * c * c).max(0.0).sqrt(), rest = D * D - 4.0 * c * c;
    const Lanes reciprocal = 1.0 / (D * rest);
    const LaneMask orthogonal = lanesEqual(c, 0.0);
    return {select(orthogonal, Lanes::Zero(), Lanes(2.0 * c * rest * reciprocal)),
            select(orthogonal, Lanes::Ones(), Lanes(D * D * D * reciprocal))};
}
EIGEN_ALWAYS_INLINE void orthogonalPair(const LaneVec3& a, const LaneVec3& b, const OrthogonalPairScale& scale,
                                        LaneVec3& p, LaneVec3& q) {
    const LaneMask unique = lanesGreater(1.0 - scale.l * scale.l, 1e-12);
    p = select(unique, (a - scale.l * b) * scale.inverse, a);
    q = (b - scale.l * a) * scale.inverse;
    if (allLanes(unique)) return;  // the usual case: no division for the rest
    const Lanes a2 = dot(a, a);
    q = select(unique, q, select(lanesGreater(a2, 0.0), b - (dot(a, b) / a2) * a, b));
}
EIGEN_ALWAYS_INLINE void nearestOrthogonalPair(const LaneVec3& a, const LaneVec3& b, LaneVec3& p, LaneVec3& q) {
    orthogonalPair(a, b, orthogonalPairScale(a, b), p, q);
}

class TriangleStretchShear final : public ParticleElementForce<3>, public ProjectiveTerm {
public:
    // Throws std::invalid_argument for a triangle whose rest (u, v) corners are on one line.
    Index add(const StretchShearTriangle& t);
    const StretchShearTriangle& triangle(Index e) const { return triangles_[e].spec; }
    double restArea(Index e) const { return triangles_[e].area; }
    // The stretch along u and v and the shear (w_u . w_v) of a triangle now.
    Vec3 strain(const ModelState& state, Index e) const;

    // ParticleElementForce's sum of the triangles' energies to round-off, each triangle's w_u
    // and w_v computed four triangles at a time, in two halves: the divergence guard reads it
    // every frame, on two threads where the integrator has them.
    double potentialEnergy(const ModelState& state) const override {
        return potentialEnergyHalf(state, 0) + potentialEnergyHalf(state, 1);
    }
    double potentialEnergyHalf(const ModelState& state, int half) const override;

    // Constraint e is triangle e.
    const ProjectiveTerm* projectiveTerm() const override { return this; }
    std::uint64_t projectiveRevision() const override { return triangles_.size(); }  // triangles are only added
    void appendProjectiveStencils(double h, std::vector<ProjectiveStencil>& out) const override;
    // Per triangle: the shares of its weight (the stretch's, the shear's, the two dampings'
    // summed), the dampings' shares over their directions' squared lengths, and (w_u, w_v) at
    // the step's start, lane by lane in blocks of four (ProjectiveTerm.h).
    int projectionStateSize() const override { return 12; }
    void prepareProjections(const VecX& x0, double h, Index first, Index last, double* state) const override;
    void projectTargets(const VecX& x, const VecX& x0, Index first, Index last, const double* state,
                        ProjectiveTarget* targets) const override;

protected:
    void elementForce(const ModelState& state, Index e, const Vector& x, const Vector& v, Vector& fe) const override;
    double elementEnergy(Index e, const Vector& x) const override;
    void elementJacobians(const ModelState& state, Index e, const Vector& x, const Vector& v,
                          const JacobianRequest& request, Matrix& K, Vector& KxV) const override;
    // The conditions once for the force and the definite Jacobians, block by block: a stretch
    // condition's gradient is a d_m n and its Hessian a d_m d_n (I - n n^T)/|w|, so its blocks
    // are d_m d_n times one 3x3 matrix; the shear's are rank-one.
    void definiteElementForceAndJacobians(const ModelState& state, Index e, const Vector& x, const Vector& v,
                                          const JacobianRequest& request, Vector& fe, Blocks& blocks,
                                          Vector& KxV) const override;

private:
    struct Triangle {
        StretchShearTriangle spec;
        double area;  // a
        Vec3 du, dv;  // w_u = sum_m du_m x_m, w_v = sum_m dv_m x_m
    };
    // What the projections read in every iteration, per block of kLanes triangles lane by lane
    // (a block's last lanes repeat its last triangle): 76 bytes a triangle, not Triangle's 176
    // and its element's 24.
    struct LaneBlock {
        std::array<std::array<std::int32_t, kLanes>, 3> particles;
        std::array<std::array<double, kLanes>, 3> du, dv;
        std::array<double, kLanes> bu, bv;
    };
    // A block's (w_u, w_v) at positions x, lane by lane, summed corner by corner (the same
    // bits wherever it is taken).
    static void laneRows(const VecX& x, const LaneBlock& t, LaneVec3& u, LaneVec3& v);
    // The three conditions (stretch u, stretch v, shear), with the Hessians asked for.
    enum class Hessians { None, WhereStretched, All };
    void conditions(const Triangle& t, const Vector& x, Hessians hessians, ElementCondition<3> c[3]) const;

    std::vector<Triangle> triangles_;
    std::vector<LaneBlock> laneBlocks_;
};

}  // namespace tinkerbox
