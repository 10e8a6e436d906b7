#pragma once
// A force object (Witkin, Particle System Dynamics, SIGGRAPH 2001 notes): it adds its forces to the accumulators, knows
// its potential energy, and gives its Jacobians dF/dx and dF/dv for the implicit
// integrator. Integrators never see individual forces. The accumulator has one block per
// velocity block of the model's state (ModelState.h): a force on a particle, or the force
// and the torque on a rigid body (ModelState::applyForce turns a force at a body point into
// both).
#include <string>
#include <utility>
#include <vector>

#include "core/math/BlockSparseMatrix.h"
#include "core/math/Types.h"

namespace tinkerbox {

class ModelState;
class ProjectiveTerm;
class TwoWayParallel;

enum class JacobianForm {
    Exact,     // the true derivative (tests compare it with finite differences)
    Definite,  // symmetric negative semi-definite part, so that the implicit system stays SPD for CG
};

struct JacobianRequest {
    JacobianForm form = JacobianForm::Exact;
    double cx = 1.0;  // weight of dF/dx
    double cv = 0.0;  // weight of dF/dv
    VecX* dFdxTimesVelocity = nullptr;
    // When given, accumulateWithJacobians may run the two parts of a big force's elements
    // on it at once (ElementPartition.h); the numbers are the same without it.
    TwoWayParallel* parallel = nullptr;
};

class Force {
public:
    virtual ~Force() = default;

    // f += this force, evaluated at the system's current positions and velocities. When
    // parallel is given, a big force may add the two parts of its elements at once on it
    // (ElementPartition.h); the numbers are the same without it.
    virtual void accumulate(const ModelState& state, VecX& f, TwoWayParallel* parallel) const = 0;
    virtual double potentialEnergy(const ModelState&) const { return 0.0; }
    // The potential energy of the first (half 0) or the second half (1) of the force's
    // elements, so that two threads can share a big force's energy: potentialEnergy() is
    // half 0's plus half 1's. A force that does not split gives all of it as half 0.
    virtual double potentialEnergyHalf(const ModelState& state, int half) const {
        return half == 0 ? potentialEnergy(state) : 0.0;
    }

    // Velocity blocks (i, j) whose force depends on each other: the off-diagonal blocks
    // this force writes into the Jacobians.
    virtual void appendCouplings(const ModelState&, std::vector<std::pair<Index, Index>>&) const {}
    // Called whenever the Jacobian pattern changes, so a force can cache block positions.
    virtual void bindPattern(const ModelState&, const BlockSparseMatrix&) {}
    // J += cx dF/dx + cv dF/dv, J having the bound pattern. The Definite form comes with
    // Upper storage (symmetric blocks, written once). When dFdxTimesVelocity is given,
    // also dFdxTimesVelocity += dF/dx v with v the current velocities (the implicit step's
    // right-hand side needs it; computing it here spares a second matrix).
    virtual void addJacobians(const ModelState&, const JacobianRequest&, BlockSparseMatrix& /*J*/) const {}
    // accumulate and addJacobians at one state (the implicit step needs both), in one pass
    // where a force shares their work; the same numbers as the two calls.
    virtual void accumulateWithJacobians(const ModelState& state, const JacobianRequest& request, VecX& f,
                                         BlockSparseMatrix& J) const {
        accumulate(state, f, request.parallel);
        addJacobians(state, request, J);
    }

    // The constraints this force offers the projective integrator (ProjectiveTerm.h), or
    // none: then that integrator applies the force as an external one.
    virtual const ProjectiveTerm* projectiveTerm() const { return nullptr; }
    // With a projective term: f += the part of the force its constraints leave out.
    virtual void accumulateOutsideProjectiveTerm(const ModelState&, VecX& /*f*/) const {}

    // What the app's Stats panel calls this force's potential energy ("cloth bending");
    // empty for the forces it does not list one by one.
    const std::string& label() const { return label_; }
    void setLabel(std::string label) { label_ = std::move(label); }

private:
    std::string label_;
};

}  // namespace tinkerbox
