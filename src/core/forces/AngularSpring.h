#pragma once
// Angular springs at the joints of a strand (hair): at the joint b between the segments
// e0 = x_b - x_a and e1 = x_c - x_b, theta is the turning angle between the segments
// (0 for a straight strand) and E = 1/2 k (theta - theta_rest)^2, with damping
// d = -kd dtheta/dx thetadot (the condition form of Baraff and Witkin, Large Steps in Cloth
// Simulation, SIGGRAPH 1998, section 4.5, with C = theta - theta_rest). Summed over a
// strand's joints, E = 1/2 sum k_i theta_i^2 about its rest curvature; the strand's
// twist (the plane its bends turn in) is held by dihedral springs on four consecutive
// particles (DihedralBending, which the scene's HairSpec lays along it), so that a curly strand keeps its curl.
// The gradient: dtheta/de0 = (e0 x c)/(|e0|^2 |c|), dtheta/de1 = -(e1 x c)/(|e1|^2 |c|),
// c = e0 x e1; it is undefined where the strand is straight (c = 0), where a rest angle of
// zero gives the force 0 and a non-zero one a cone point of E: no force there either.
// Exact Jacobians differentiate that gradient by forward-mode automatic differentiation;
// definite ones drop the (indefinite) curvature term (docs/integrators.md).
//
// For the projective integrator (ProjectiveTerm.h) a joint with rest lengths l0, l1 is one
// constraint of two rows, the segments (e0, e1) = (x_b - x_a, x_c - x_b), with target their
// nearest pair at the rest angle (nearestPairAtAngle): the two turned in their common plane
// and scaled to the nearest points of the turned rays. Turning e0 by alpha and e1 by beta
// (alpha + beta = theta_rest - theta) costs |e0|^2 sin^2 alpha + |e1|^2 sin^2 beta, least at
// (theta - theta_rest)^2 |e0|^2 |e1|^2 / (|e0|^2 + |e1|^2) to second order, so the weight
// k (1/l0^2 + 1/l1^2) gives the energy k/2 (theta - theta_rest)^2 to second order about the
// rest shape. Damping: the weight kd (1/l0^2 + 1/l1^2) / h on the step's displacement of
// (e0, e1) along dtheta/d(e0, e1) at the step's start, as for springs (DampedSpring.h); none
// where the strand is straight then (no direction, as for the force). Joints without rest
// lengths are applied as an explicit force instead.
#include "core/forces/ParticleElementForce.h"
#include "core/forces/ProjectiveTerm.h"

namespace tinkerbox {

struct AngularSpring {
    std::array<Index, 3> particles{};  // a, joint b, c
    double stiffness = 0.0;
    double damping = 0.0;
    double restAngle = 0.0;  // radians, 0 to pi
    // |x_b - x_a| and |x_c - x_b| at rest, for the projective weight; zero: the joint stays
    // out of the projective solve.
    double restLength0 = 0.0, restLength1 = 0.0;

    bool operator==(const AngularSpring&) const = default;
};

// The turning angle at x_b of the particles (x_a, x_b, x_c), 0 to pi.
double jointAngle(const Vec3& xa, const Vec3& xb, const Vec3& xc);

// The nearest pair (p, q) to (e0, e1) whose angle is `angle` (0 to pi): e0 turned by -alpha
// and e1 by beta about n, alpha + beta = angle - theta, 2 alpha = atan2(|e1|^2 sin 2 delta,
// |e0|^2 + |e1|^2 cos 2 delta) (delta = angle - theta: the stationary point of |e0|^2
// sin^2 alpha + |e1|^2 sin^2 beta), each then scaled to the nearest point of its ray. n is
// e0 x e1 normalized; for parallel segments (no plane) a fixed perpendicular of e0 (of e1
// when e0 is zero): the unit axis of its first smallest component in size, crossed with it.
// That is the nearest pair for |delta| up to a quarter turn (alpha and beta then lie between
// 0 and delta). Farther (a joint folded far from its rest angle) the rays' nearest points may
// be their origins, so the pair is instead turned by the shares alpha = delta |e1|^2 /
// (|e0|^2 + |e1|^2) and beta = delta - alpha with its lengths kept: a pair at the angle, not
// the nearest.
void nearestPairAtAngle(const Vec3& e0, const Vec3& e1, double angle, Vec3& p, Vec3& q);

class AngularSpringSet final : public ParticleElementForce<3>, public ProjectiveTerm {
public:
    Index add(const AngularSpring& s);
    const AngularSpring& spring(Index e) const { return springs_[e]; }
    double angle(const ModelState& state, Index e) const;
    // The joints that are projective constraints, in the constraints' order.
    const std::vector<Index>& projectiveJoints() const { return projectiveJoints_; }

    const ProjectiveTerm* projectiveTerm() const override { return this; }
    void accumulateOutsideProjectiveTerm(const ModelState& state, VecX& f) const override;
    std::uint64_t projectiveRevision() const override { return springs_.size(); }  // joints are only added
    void appendProjectiveStencils(double h, std::vector<ProjectiveStencil>& out) const override;
    // Per joint: the shares of its weight (elastic, damping) and the damping's direction
    // dtheta/d(e0, e1) at the step's start, normalized.
    int projectionStateSize() const override { return 8; }
    void prepareProjections(const VecX& x0, double h, Index first, Index last, double* state) const override;
    void projectTargets(const VecX& x, const VecX& x0, Index first, Index last, const double* state,
                        ProjectiveTarget* targets) const override;

protected:
    void elementForce(const ModelState& state, Index e, const Vector& x, const Vector& v, Vector& fe) const override;
    double elementEnergy(Index e, const Vector& x) const override;
    void elementJacobians(const ModelState& state, Index e, const Vector& x, const Vector& v,
                          const JacobianRequest& request, Matrix& K, Vector& KxV) const override;

private:
    ElementCondition<3> condition(Index e, const Vector& x, bool withHessian) const;
    // 1/l0^2 + 1/l1^2: the projective weight per unit stiffness or damping.
    static double weightPerStiffness(const AngularSpring& s);

    std::vector<AngularSpring> springs_;
    std::vector<Index> projectiveJoints_;
    std::vector<Index> explicitJoints_;  // the others
};

}  // namespace tinkerbox
