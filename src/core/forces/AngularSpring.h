#pragma once
// Angular springs at the joints of a strand (hair): at the joint b between the segments
// e0 = x_b - x_a and e1 = x_c - x_b, theta is the turning angle between the segments
// (0 for a straight strand) and E = 1/2 k (theta - theta_rest)^2, with damping
// d = -kd dtheta/dx thetadot (the condition form of Baraff and Witkin, Large Steps in Cloth
// Simulation, SIGGRAPH 1998, section 4.5, with C = theta - theta_rest). Summed over a
// strand's joints, E = 1/2 sum k_i theta_i^2 about its rest curvature; the strand's
// twist (the plane its bends turn in) is held by dihedral springs on four consecutive
// particles (DihedralBending, Hair.h), so that a curly strand keeps its curl.
// The gradient: dtheta/de0 = (e0 x c)/(|e0|^2 |c|), dtheta/de1 = -(e1 x c)/(|e1|^2 |c|),
// c = e0 x e1; it is undefined where the strand is straight (c = 0), where a rest angle of
// zero gives the force 0 and a non-zero one a cone point of E: no force there either.
// Exact Jacobians differentiate that gradient by forward-mode automatic differentiation;
// definite ones drop the (indefinite) curvature term (docs/integrators.md).
#include "core/forces/ParticleElementForce.h"

namespace tinkerbox {

struct AngularSpring {
    std::array<Index, 3> particles{};  // a, joint b, c
    double stiffness = 0.0;
    double damping = 0.0;
    double restAngle = 0.0;  // radians, 0 to pi

    bool operator==(const AngularSpring&) const = default;
};

// The turning angle at x_b of the particles (x_a, x_b, x_c), 0 to pi.
double jointAngle(const Vec3& xa, const Vec3& xb, const Vec3& xc);

class AngularSpringSet final : public ParticleElementForce<3> {
public:
    Index add(const AngularSpring& s);
    const AngularSpring& spring(Index e) const { return springs_[e]; }
    double angle(const World& world, Index e) const;

protected:
    void elementForce(const World& world, Index e, const Vector& x, const Vector& v, Vector& fe) const override;
    double elementEnergy(Index e, const Vector& x) const override;
    void elementJacobians(const World& world, Index e, const Vector& x, const Vector& v, const JacobianRequest& request,
                          Matrix& K, Vector& KxV) const override;

private:
    ElementCondition<3> condition(Index e, const Vector& x, bool withHessian) const;
    std::vector<AngularSpring> springs_;
};

}  // namespace tinkerbox
