#pragma once
// The mouse spring (Witkin, Particle System Dynamics, SIGGRAPH 2001 notes, "Drag"): a grabbed anchor (a particle, or
// the point of a body where it was grabbed) is tied to the cursor by a zero-rest-length damped spring, f = -ks (x - y)
// - kd (v - ydot), with its magnitude capped so that a fast flick cannot blow the model apart. Nothing is moved
// directly; a body grabbed off its centre of mass turns under the torque. For the projective integrator a grabbed
// particle is one constraint (ProjectiveTerm.h) of weight w = ks + kd/h whose target is p = x + F/w, F the capped force
// with the velocity (x - x0)/h at the iterate: at convergence w (p - x) = F, the spring's force at the step's end
// (backward Euler), and uncapped p = (ks y + kd/h (x0 + h ydot)) / w does not depend on x. So a stiff grab (the
// editor's pulls a whole cloth through one particle) stays stable there; a body point is left to the external forces.
#include "core/bodies/Anchor.h"
#include "core/forces/Force.h"
#include "core/forces/ProjectiveTerm.h"

namespace tinkerbox {

class MouseSpring final : public Force, public ProjectiveTerm {
public:
    MouseSpring(const Anchor& anchor, double stiffness, double damping, double maxForce);

    const Anchor& anchor() const { return anchor_; }
    const Vec3& target() const { return target_; }
    // The target moves with the cursor; its velocity enters the damping term.
    void setTarget(const Vec3& target, const Vec3& targetVelocity = Vec3::Zero());

    // The force at position x, velocity v (capped).
    Vec3 force(const Vec3& x, const Vec3& v) const;

    void accumulate(const ModelState& state, VecX& f, TwoWayParallel* parallel) const override;
    // Energy of the capped spring: ks L^2/2 while ks L <= cap, then grows linearly.
    double potentialEnergy(const ModelState& state) const override;
    // Uncapped: -ks I and -kd I. Capped (f = c g/|g|): both scaled by c/|g| (I - g g^T/|g|^2).
    // On a body, K of those is G^T K G over its translation and rotation, G = [1, -[r]x]
    // the map to the grabbed point's velocity (the terms of the lever's own turning, which
    // vanish with the force and omega, left out).
    void addJacobians(const ModelState& state, const JacobianRequest& request, BlockSparseMatrix& J) const override;
    // A body's translation and rotation blocks are coupled.
    void appendCouplings(const ModelState& state, std::vector<std::pair<Index, Index>>& out) const override;

    const ProjectiveTerm* projectiveTerm() const override { return anchor_.isParticle() ? this : nullptr; }
    std::uint64_t projectiveRevision() const override { return 0; }  // the stencil never changes
    void appendProjectiveStencils(double h, std::vector<ProjectiveStencil>& out) const override;
    // The step's h: the velocity at the iterate is (x - x0) / h.
    int projectionStateSize() const override { return 1; }
    void prepareProjections(const VecX& x0, double h, Index first, Index last, double* state) const override;
    void projectTargets(const VecX& x, const VecX& x0, Index first, Index last, const double* state,
                        ProjectiveTarget* targets) const override;

private:
    Anchor anchor_;
    double ks_, kd_, maxForce_;
    Vec3 target_ = Vec3::Zero();
    Vec3 targetVelocity_ = Vec3::Zero();
};

}  // namespace tinkerbox
