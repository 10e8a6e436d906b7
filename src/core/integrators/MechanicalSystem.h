#pragma once
// Second-order view of a system: the state is a configuration plus velocities, and
// the configuration moves with the velocities. Integrators that treat the two halves
// differently (symplectic Euler, Verlet, implicit Euler) work through this view;
// the explicit ones only need Witkin's OdeSystem interface.
//
// State layout of the systems that implement it: [configuration | velocity coordinates].
// The velocity coordinates u are what the integrators step, u += h udot; what they mean
// is the system's business (a particle's velocity, a rigid body's momenta P and L), and so
// is how the configuration moves with them (drift() turns a body by exact turns about its
// principal axes, so its quaternion stays a rotation). Only the
// implicit step needs more: it solves for a change of the generalized velocities (v,
// omega) with the mass operator and hands it back through changeVelocities().
#include "core/math/BlockSparseMatrix.h"
#include <vector>

#include "core/forces/Force.h"
#include "core/forces/ProjectiveTerm.h"
#include "core/integrators/OdeSystem.h"
#include "core/integrators/VelocityFilter.h"

namespace tinkerbox {

class MechanicalSystem : public OdeSystem {
public:
    virtual Index velocityDimension() const = 0;  // also the size of the generalized velocities
    virtual const VecX& velocities() const = 0;
    virtual void setVelocities(const VecX& v) = 0;
    virtual void setTime(double t) = 0;

    // du/dt at the current state: from the applied forces plus constraint forces.
    virtual void accelerations(VecX& a) = 0;
    // The same without constraint forces, for the integrators that keep the constraints
    // by projection instead (below).
    virtual void unconstrainedAccelerations(VecX& a) = 0;
    // Moves the configuration by h along the current velocities; fixed dof stay put.
    virtual void drift(double h) = 0;
    // The same with the velocities at the drift's end where they depend on the
    // configuration (a rigid body's omega = I(q)^-1 L): backward Euler for the configuration,
    // for implicit Euler.
    virtual void driftBackward(double h) = 0;
    // How symplectic Euler, Verlet and implicit Euler keep constraints (RATTLE): after a
    // drift of h the positions are projected back onto C = 0 and the velocities take the
    // same correction divided by h; then the velocities are projected onto J v = 0.
    virtual void constrainPositions(double h) = 0;
    virtual void constrainVelocities() = 0;

    // What the linearized implicit step needs (Baraff, Implicit Methods, SIGGRAPH 2001 notes): applied forces, the
    // combination J = cx dF/dx + cv dF/dv of their definite Jacobians (3x3 blocks, Upper
    // storage) with the product dF/dx v, all at the current state in one pass over the forces
    // (big forces in two parts at once on parallel, when given), the mass M as one symmetric 3x3
    // block per velocity block (fixed blocks flagged), and a way to apply the change of
    // velocity it solved for.
    virtual void appliedForces(VecX& f) = 0;
    virtual void appliedForcesAndCombinedJacobian(VecX& f, double cx, double cv, BlockSparseMatrix& J,
                                                  VecX& dFdxTimesVelocity, TwoWayParallel* parallel) = 0;
    virtual void massBlocks(std::vector<Mat3>& mass, std::vector<char>& fixed) const = 0;
    virtual void changeVelocities(const VecX& dv) = 0;
    // The blocks in contact, whose change of velocity the implicit step prescribes along the
    // contact normals (Baraff & Witkin 1998, section 5.3; VelocityFilter.h), at the current
    // state; fixed blocks are not among them (massBlocks flags those).
    virtual void velocityFilters(std::vector<VelocityFilter>& filters) const = 0;
    // What the filters the step used applied: per filter, the constraint impulse (A dv - b)_i
    // of the step (the contact force times h), for the contact model's friction.
    virtual void filterImpulses(const std::vector<VelocityFilter>& filters, const std::vector<Vec3>& impulses) = 0;

    // What the projective integrator needs (ProjectiveTerm.h; it moves particles only): the
    // particles come first among the velocity blocks, one block each, in the order of their
    // positions; the constraints the forces offer as projective terms; and the applied forces
    // without the part those terms cover.
    virtual Index particleCount() const = 0;
    virtual const VecX& positions() const = 0;
    virtual void projectiveTerms(std::vector<const ProjectiveTerm*>& terms) const = 0;
    virtual void forcesOutsideProjectiveTerms(VecX& f) = 0;
};

}  // namespace tinkerbox
