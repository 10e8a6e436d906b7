#pragma once
// Uniform gravity f = m g on every free particle and body, at a body's centre of mass
// (Witkin, Particle System Dynamics, SIGGRAPH 2001 notes, unary force); a parametric bead
// takes the part along its wire, J^T m g.
#include "core/forces/Force.h"

namespace tinkerbox {

class Gravity final : public Force {
public:
    explicit Gravity(const Vec3& g) : g_(g) {}

    const Vec3& acceleration() const { return g_; }
    void setAcceleration(const Vec3& g) { g_ = g; }

    void accumulate(const ModelState& state, VecX& f, TwoWayParallel* parallel) const override;
    // U = -sum m g.x over free particles, bodies and beads (fixed ones cannot exchange energy).
    double potentialEnergy(const ModelState& state) const override;
    // A bead's generalized gravity depends on its angle (the definite part only).
    void addJacobians(const ModelState& state, const JacobianRequest& request, BlockSparseMatrix& J) const override;

private:
    Vec3 g_;
};

}  // namespace tinkerbox
