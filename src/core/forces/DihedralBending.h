#pragma once
// Bending across the interior edges of a triangle mesh, from the dihedral angle theta
// of each hinge (Baraff and Witkin, Large Steps in Cloth Simulation, SIGGRAPH 1998,
// section 4.3: the bend condition C = theta; here measured from a rest angle):
//   E = k/2 (theta - theta_rest)^2, damping d = -kd dtheta/dx thetadot.
// A hinge is the edge (x0, x1) shared by the triangles (x0, x1, x2) and (x1, x0, x3);
// theta = 0 when they are flat, positive when x2 and x3 fold towards the side their
// normals point to. The gradient is Bridson, Marino and Fedkiw's (Simulation of
// Clothing with Folds and Wrinkles, SCA 2003, section 4): dtheta/dx2 = |e| N1/|N1|^2 and so on.
// With k = k_material |e|^2/(A1 + A2) (the scene's ClothMaterial), the energy is k_material/2 kappa^2 A
// with the curvature kappa = theta |e|/(A1 + A2) (the angle over the mean height of the two
// triangles) and the hinge's area A = A1 + A2. A grid sheet rolled on a cylinder of radius
// R about a grid direction bends only along its grid lines parallel to the axis, each by
// h/R, so E = k_material/2 (1/R)^2 times the area between the first and last of those lines.
// Exact Jacobians need d2theta/dx2: it is the exact derivative of the gradient above,
// taken by forward-mode automatic differentiation (Eigen's AutoDiffScalar), so only
// when the Exact form is asked for. Definite Jacobians drop the curvature term
// (theta - theta_rest) d2theta/dx2, which is indefinite (docs/integrators.md).
//
// For the projective integrator (ProjectiveTerm.h) a hinge with a rest shape is one row on
// its four particles: the discrete curvature vector of Bergou, Wardetzky, Harmon, Zorin &
// Grinspun 2006, "A Quadratic Bending Model for Inextensible Surfaces" (section 4),
//   K = (c1_1 + c2_1) x0 + (c1_0 + c2_0) x1 - (c1_0 + c1_1) x2 - (c2_0 + c2_1) x3,
// ci_j the cotangent of triangle i's rest angle at x_j: triangle i adds (|e|/h_i)(foot - apex),
// so K = -|e| (u1 + u2) = -2 |e| sin(theta/2) m for any isometric deformation of the rest
// shape (u_i the unit directions from the edge to the apexes, m the unit bisector of the
// triangles' normals n1 + n2, |e| the rest edge length). The target is the rest curvature
// vector turned to the current frame, p = -2 |e| sin(theta_rest/2) m (zero for a flat rest
// shape: then p is the nearest point of {0}, exactly), so |K - p| = 2 |e| |sin(theta/2) -
// sin(theta_rest/2)| and the weight k / (|e| cos(theta_rest/2))^2 gives the energy
// k/2 (theta - theta_rest)^2 to second order about the rest shape. A hinge folded more than a
// right angle at rest (a twist hinge of curly hair, near theta = pi) uses triangle 2's part
// negated instead, K = -|e| (u1 - u2) = -2 |e| cos(theta/2) b, b = sign(theta)(n2 - n1)/|n2 - n1|,
// which keeps turning with theta near pi (and through the wrap from pi to -pi) where u1 + u2
// does not: target -2 |e| cos(theta_rest/2) sign(theta_rest) along (n2 - n1)/|n2 - n1|, weight
// k / (|e| sin(theta_rest/2))^2. Damping: the same weight per unit kd / h on the step's
// displacement of K along the frame's vector at the step's start, as for springs
// (DampedSpring.h). Hinges without a usable rest shape (none given, or a degenerate
// triangle) are applied as an explicit force instead.
#include "core/forces/ParticleElementForce.h"
#include "core/forces/ProjectiveTerm.h"

namespace tinkerbox {

struct BendingHinge {
    std::array<Index, 4> particles{};  // edge x0, x1; opposite corners x2, x3
    double stiffness = 0.0;
    double damping = 0.0;
    double restAngle = 0.0;  // radians
    // The rest positions of x0, x1, x2, x3 (only their triangles' shapes matter: the cotangent
    // weights of the projective row); all zero: none, the hinge stays out of the projective solve.
    Eigen::Matrix<double, 12, 1> restShape = Eigen::Matrix<double, 12, 1>::Zero();

    bool operator==(const BendingHinge&) const = default;
};

// theta of the hinge (x0, x1, x2, x3) as above; its gradient when gradient is given
// (zero for a degenerate hinge, one of whose triangles has no area).
double dihedralAngle(const Eigen::Matrix<double, 12, 1>& x, Eigen::Matrix<double, 12, 1>* gradient = nullptr);

class DihedralBending final : public ParticleElementForce<4>, public ProjectiveTerm {
public:
    Index add(const BendingHinge& h);
    const BendingHinge& hinge(Index e) const { return hinges_[e]; }
    double angle(const ModelState& state, Index e) const;
    // The hinges that are projective constraints, in the constraints' order.
    const std::vector<Index>& projectiveHinges() const { return projectiveHinges_; }

    // ParticleElementForce's sum of the hinges' energies to round-off, four hinges at a time
    // (their angles by atan2Lanes) and in two halves: the divergence guard reads it every
    // frame, on two threads where the integrator has them.
    double potentialEnergy(const ModelState& state) const override {
        return potentialEnergyHalf(state, 0) + potentialEnergyHalf(state, 1);
    }
    double potentialEnergyHalf(const ModelState& state, int half) const override;

    const ProjectiveTerm* projectiveTerm() const override { return this; }
    void accumulateOutsideProjectiveTerm(const ModelState& state, VecX& f) const override;
    std::uint64_t projectiveRevision() const override { return hinges_.size(); }  // hinges are only added
    void appendProjectiveStencils(double h, std::vector<ProjectiveStencil>& out) const override;
    // Per hinge: the shares of its weight (elastic, damping), its frame's direction at the
    // step's start (the damping's) and its row's value K0 there, lane by lane in blocks of
    // four (ProjectiveTerm.h).
    int projectionStateSize() const override { return 8; }
    void prepareProjections(const VecX& x0, double h, Index first, Index last, double* state) const override;
    void projectTargets(const VecX& x, const VecX& x0, Index first, Index last, const double* state,
                        ProjectiveTarget* targets) const override;

protected:
    void elementForce(const ModelState& state, Index e, const Vector& x, const Vector& v, Vector& fe) const override;
    double elementEnergy(Index e, const Vector& x) const override;
    void elementJacobians(const ModelState& state, Index e, const Vector& x, const Vector& v,
                          const JacobianRequest& request, Matrix& K, Vector& KxV) const override;
    // The angle and its gradient once for the force and the definite Jacobians, whose blocks
    // are -(cx k + cv kd) g_m g_n^T.
    void definiteElementForceAndJacobians(const ModelState& state, Index e, const Vector& x, const Vector& v,
                                          const JacobianRequest& request, Vector& fe, Blocks& blocks,
                                          Vector& KxV) const override;

private:
    ElementCondition<4> condition(Index e, const Vector& x, bool withHessian) const;
    struct ProjectiveRow {
        Index hinge;
        std::array<Index, 4> particles;      // the hinge's (a copy: the projections read only the rows)
        std::array<double, 4> coefficients;  // K = sum_m coefficients[m] x_m
        double frameSign;                    // the frame m is along frameSign n1/|n1| + n2/|n2|
        double restCurvature;                // p = restCurvature m
        double weightPerStiffness;           // 1 / (d|K|/dtheta at rest)^2
    };
    std::vector<BendingHinge> hinges_;
    std::vector<ProjectiveRow> projectiveRows_;
    // What the projections read in every iteration, per block of kLanes rows lane by lane (a
    // block's last lanes repeat its last row): compact, as the iterations stream it. Then
    // what the step's preparation reads besides: the weights per unit h of stiffness and
    // damping (the hinge's stiffness and damping times weightPerStiffness).
    struct LaneBlock {
        std::array<std::array<std::int32_t, kLanes>, 4> particles;
        std::array<std::array<double, kLanes>, 4> coefficients;
        std::array<double, kLanes> frameSign, restCurvature;
        std::array<double, kLanes> stiffnessWeight, dampingWeight;
    };
    std::vector<LaneBlock> laneBlocks_;
    std::vector<Index> projectiveHinges_;
    std::vector<Index> explicitHinges_;  // the others
};

}  // namespace tinkerbox
