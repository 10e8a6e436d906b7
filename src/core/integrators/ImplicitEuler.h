#pragma once
// Linearized backward Euler for second-order systems (Baraff, Implicit Methods, SIGGRAPH 2001 notes; Baraff & Witkin
// 1998, "Large Steps in Cloth Simulation", eq. 16):
//   (M - h dF/dv - h^2 dF/dx) dv = h (F0 + h dF/dx v0),  v1 = v0 + dv,  x1 = x0 + h v1.
// The matrix is sparse (3x3 blocks where forces couple particles), symmetric positive
// definite (the Jacobians are taken in their definite form), and solved by conjugate
// gradient with a symmetric Gauss-Seidel preconditioner (SgsConjugateGradient), started
// from the last steps' dv extrapolated to this one (WarmStart). Fixed (nailed) particles are
// filtered out of the solve, as with Baraff & Witkin's filter S, and particles in contact have their change
// prescribed along the contact normals by the same filter (section 5.3, VelocityFilter.h;
// with contactFilter): a particle resting on the ground does not sink in the solve, and
// a contact that pulled in one step is left out of the next. A rigid body's x1 = x0 + h v1 has for its
// orientation q1 = exp(h omega1) q0 with omega1 the angular velocity at q1
// (MechanicalSystem::driftBackward, RigidBodies::driftBackward).
#include <vector>

#include "core/integrators/Integrator.h"
#include "core/integrators/WarmStart.h"
#include "core/math/SgsConjugateGradient.h"

namespace tinkerbox {

extern const IntegratorKind kImplicitEulerKind;

class ImplicitEuler final : public Integrator {
public:
    explicit ImplicitEuler(const CgSettings& settings, bool contactFilter = true)
        : settings_(settings), contactFilter_(contactFilter) {}

    const IntegratorKind& kind() const override { return kImplicitEulerKind; }
    void step(MechanicalSystem& system, double h, StepReport& report) override;
    // The released contacts and the warm start's history: [released count, their blocks, WarmStart's].
    void saveMemory(VecX& memory) const override;
    void restoreMemory(const VecX& memory) override;
    TwoWayParallel* parallel() override { return &solver_.parallel(); }

private:
    CgSettings settings_;
    bool contactFilter_;
    BlockSparseMatrix J_;  // -h dF/dv - h^2 dF/dx
    SgsConjugateGradient solver_;
    std::vector<char> fixed_;  // blocks filtered out of the solve
    std::vector<Mat3> mass_;
    std::vector<VelocityFilter> filters_;
    std::vector<Index> released_;  // blocks whose contact pulled in the last step (sorted)
    FilteredSystem filtered_;
    std::vector<Vec3> impulses_;
    WarmStart warmStart_;
    VecX force_, dFdxV_, rhs_, dv_;
};

}  // namespace tinkerbox
