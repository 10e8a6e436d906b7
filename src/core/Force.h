#pragma once
// A force object (seed 000 ch. C): it adds its forces to the accumulators, knows
// its potential energy, and gives its Jacobians dF/dx and dF/dv for the implicit
// integrator. Integrators never see individual forces.
#include <utility>
#include <vector>

#include "core/BlockSparseMatrix.h"
#include "core/Types.h"

namespace tinkerbox {

class ParticleSystem;

enum class JacobianForm {
    Exact,     // the true derivative (tests compare it with finite differences)
    Definite,  // symmetric negative semi-definite part, so that the implicit system stays SPD for CG
};

class Force {
public:
    virtual ~Force() = default;

    // f += this force, evaluated at the system's current positions and velocities.
    virtual void accumulate(const ParticleSystem& ps, VecX& f) const = 0;
    virtual double potentialEnergy(const ParticleSystem&) const { return 0.0; }

    // Particle pairs (i, j) whose force depends on each other: the off-diagonal blocks
    // this force writes into the Jacobians.
    virtual void appendCouplings(std::vector<std::pair<Index, Index>>&) const {}
    // Called whenever the Jacobian pattern changes, so a force can cache block positions.
    virtual void bindPattern(const BlockSparseMatrix&) {}
    // dFdx += d(this force)/dx, dFdv += d(this force)/dv (both have the bound pattern).
    // The Definite form comes with Upper storage: symmetric blocks, written once.
    virtual void addJacobians(const ParticleSystem&, JacobianForm, BlockSparseMatrix& /*dFdx*/,
                              BlockSparseMatrix& /*dFdv*/) const {}
};

}  // namespace tinkerbox
