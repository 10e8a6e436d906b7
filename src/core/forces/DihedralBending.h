#pragma once
// Bending across the interior edges of a triangle mesh, from the dihedral angle theta
// of each hinge (Baraff and Witkin, Large Steps in Cloth Simulation, SIGGRAPH 1998,
// section 4.3: the bend condition C = theta; here measured from a rest angle):
//   E = k/2 (theta - theta_rest)^2, damping d = -kd dtheta/dx thetadot.
// A hinge is the edge (x0, x1) shared by the triangles (x0, x1, x2) and (x1, x0, x3);
// theta = 0 when they are flat, positive when x2 and x3 fold towards the side their
// normals point to. The gradient is Bridson, Marino and Fedkiw's (Simulation of
// Clothing with Folds and Wrinkles, SCA 2003, section 4): dtheta/dx2 = |e| N1/|N1|^2 and so on.
// With k = k_material |e|^2/(A1 + A2) (ClothMaterial.h), the energy is k_material/2 kappa^2 A
// with the curvature kappa = theta |e|/(A1 + A2) (the angle over the mean height of the two
// triangles) and the hinge's area A = A1 + A2. A grid sheet rolled on a cylinder of radius
// R about a grid direction bends only along its grid lines parallel to the axis, each by
// h/R, so E = k_material/2 (1/R)^2 times the area between the first and last of those lines.
// Exact Jacobians need d2theta/dx2: it is the exact derivative of the gradient above,
// taken by forward-mode automatic differentiation (Eigen's AutoDiffScalar), so only
// when the Exact form is asked for. Definite Jacobians drop the curvature term
// (theta - theta_rest) d2theta/dx2, which is indefinite (docs/integrators.md).
#include "core/forces/ParticleElementForce.h"

namespace tinkerbox {

struct BendingHinge {
    std::array<Index, 4> particles{};  // edge x0, x1; opposite corners x2, x3
    double stiffness = 0.0;
    double damping = 0.0;
    double restAngle = 0.0;  // radians

    bool operator==(const BendingHinge&) const = default;
};

// theta of the hinge (x0, x1, x2, x3) as above; its gradient when gradient is given
// (zero for a degenerate hinge, one of whose triangles has no area).
double dihedralAngle(const Eigen::Matrix<double, 12, 1>& x, Eigen::Matrix<double, 12, 1>* gradient = nullptr);

class DihedralBending final : public ParticleElementForce<4> {
public:
    Index add(const BendingHinge& h);
    const BendingHinge& hinge(Index e) const { return hinges_[e]; }
    double angle(const World& world, Index e) const;

protected:
    void elementForce(const World& world, Index e, const Vector& x, const Vector& v, Vector& fe) const override;
    double elementEnergy(Index e, const Vector& x) const override;
    void elementJacobians(const World& world, Index e, const Vector& x, const Vector& v, const JacobianRequest& request,
                          Matrix& K, Vector& KxV) const override;

private:
    ElementCondition<4> condition(Index e, const Vector& x, bool withHessian) const;
    std::vector<BendingHinge> hinges_;
};

}  // namespace tinkerbox
