#pragma once
// The mechanical world: a model's state (ModelState.h: its particles, rigid bodies and
// beads) with the forces, constraints and planes that act on it, behind Witkin's solver
// interface (Witkin, Particle System Dynamics, SIGGRAPH 2001 notes), stepped by one
// integrator. State vector: [configuration | velocity coordinates] (ModelState.h); the
// velocity coordinates are what integrators step, their rates what accelerations() gives
// (a, (F, tau), theta'').
// Fixed particles and bodies have W = 0: no integrator moves them, and their velocity is
// whatever the controller moving them says (zero when they stay put).
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/collision/CollidingModel.h"
#include "core/collision/Contact.h"
#include "core/collision/Plane.h"
#include "core/constraints/ConstraintSolver.h"
#include "core/forces/DampedSpring.h"
#include "core/integrators/MechanicalSystem.h"
#include "core/state/ModelState.h"

namespace tinkerbox {

class World final : public ModelState, public MechanicalSystem, public CollidingModel {
public:
    // Adding particles, bodies and beads changes the Jacobians' pattern and the constraints'
    // layout: these are ModelState's, which World tracks.
    Index addParticle(const Vec3& x, const Vec3& v, double mass, bool nailed = false);
    void addParticles(const std::vector<ParticleInit>& particles);
    Index addRigidBody(const RigidBodySpec& spec);
    void addBead(const ParametricBead& bead);

    // Forces. Springs are kept in one set; other force objects are added by owner.
    const DampedSpringSet& springs() const { return springs_; }
    // Replaces spring k (its ends may change).
    void setSpring(Index k, const DampedSpring& s);
    Index addSpring(const DampedSpring& s);  // throws on a bad anchor
    Force& addForce(std::unique_ptr<Force> force);
    void removeForce(const Force* force);
    const std::vector<std::unique_ptr<Force>>& forces() const { return forces_; }

    // Hard constraints (Witkin, Constrained Dynamics, SIGGRAPH 2001 notes), solved inside every derivative evaluation.
    Constraint& addConstraint(std::unique_ptr<Constraint> constraint);  // throws on a bad anchor
    void removeConstraint(const Constraint* constraint);
    const std::vector<std::unique_ptr<Constraint>>& constraints() const override { return constraints_; }
    const ConstraintSettings& constraintSettings() const { return constraintSettings_; }
    void setConstraintSettings(const ConstraintSettings& settings) { constraintSettings_ = settings; }
    // max |C| relative to each constraint's size (metres for nails, pins and sliders).
    double constraintError();
    const ConstraintSolver& constraintSolver() const { return constraintSolver_; }
    ConstraintSolver& constraintSolver() { return constraintSolver_; }

    // Planes
    // Normalizes the plane's normal; throws std::invalid_argument for a zero or non-finite one.
    void addPlane(const Plane& plane);
    const std::vector<Plane>& planes() const override { return planes_; }
    std::vector<Plane>& planes() { return planes_; }
    // Particle-plane collisions and contact after a step of length h that started at the
    // particle positions and velocities (xBefore, vBefore). Returns the number of contacts.
    int resolveContacts(const Eigen::Ref<const VecX>& xBefore, const Eigen::Ref<const VecX>& vBefore, double h);
    // The contacts of particles with fixed bodies among a contact model's manifolds (those it
    // found at the last step's end), kept in the bodies' frames for velocityFilters(); and
    // the step's filter impulses (filterImpulses) are forgotten, the step's contacts being done.
    void setParticleContacts(const std::vector<ContactManifold>& manifolds);
    // The normal impulse the implicit step's contact filter applied to particle i in the step
    // just taken, along a unit direction (0 when it pulled or held nothing): what a contact
    // takes into its friction bound.
    double heldImpulse(Index i, const Vec3& direction) const;
    // A particle closer than this to a plane or a fixed body it met counts as touching it
    // (a plane contact leaves it at 0, a body contact at most ContactSolver::kSlop inside).
    static constexpr double kTouching = 1e-5;  // metres
    // ... and one moving away from it slower than this is taken as resting on it (the contact
    // model leaves a particle it holds on a body moving out at some 1e-5 m/s).
    static constexpr double kRestingSpeed = 1e-3;  // metres per second

    // Every force's potential energy, summed in the forces' order; with parallel, the halves
    // of the forces' energies (Force::potentialEnergyHalf) on two threads at once: the same
    // bits either way.
    double potentialEnergy(TwoWayParallel* parallel = nullptr) const;
    // The helper thread on which the force passes without Jacobians (derivative,
    // accelerations, appliedForces) run a big force's two parts at once (Force::accumulate):
    // the stepping integrator's, which the Simulation shares; none unless given. The numbers
    // do not depend on it.
    void shareThreads(TwoWayParallel* parallel) { threads_ = parallel; }
    double totalEnergy() const { return kineticEnergy() + potentialEnergy(); }

    // OdeSystem
    Index dimension() const override { return configurationDimension() + velocityDimension(); }
    void getState(VecX& x) const override;
    void setState(const VecX& x, double t) override;
    void derivative(VecX& xdot) override;
    double time() const override { return ModelState::time(); }
    void setSolveTolerance(double tolerance) override { constraintSolver_.requestTolerance(tolerance); }

    // CollidingModel
    const ModelState& state() const override { return *this; }

    // MechanicalSystem (the state's parts are ModelState's)
    Index particleCount() const override { return ModelState::particleCount(); }
    const VecX& positions() const override { return ModelState::positions(); }
    Index velocityDimension() const override { return ModelState::velocityDimension(); }
    const VecX& velocities() const override { return ModelState::velocities(); }
    void setVelocities(const VecX& u) override { ModelState::setVelocities(u); }
    void setTime(double t) override { ModelState::setTime(t); }
    void accelerations(VecX& a) override;
    void drift(double h) override;
    void driftBackward(double h) override;
    void unconstrainedAccelerations(VecX& a) override;
    void constrainPositions(double h) override;
    void constrainVelocities() override;
    void appliedForces(VecX& f) override;
    void appliedForcesAndCombinedJacobian(VecX& f, double cx, double cv, BlockSparseMatrix& J, VecX& dFdxTimesVelocity,
                                          TwoWayParallel* parallel = nullptr) override;
    // The Jacobians of appliedForcesAndCombinedJacobian alone.
    void combinedJacobian(double cx, double cv, BlockSparseMatrix& J, VecX& dFdxTimesVelocity);
    void massBlocks(std::vector<Mat3>& mass, std::vector<char>& fixed) const override {
        ModelState::massBlocks(mass, fixed);
    }
    void changeVelocities(const VecX& dv) override { ModelState::changeVelocities(dv); }
    // Every particle touching a plane or a fixed body (kTouching) and not moving away from
    // it (kRestingSpeed): its velocity relative to the surface along the normal goes to 0 in
    // the step.
    void velocityFilters(std::vector<VelocityFilter>& filters) const override;
    // Kept for the next resolveContacts(), whose plane friction counts them.
    void filterImpulses(const std::vector<VelocityFilter>& filters, const std::vector<Vec3>& impulses) override;
    void projectiveTerms(std::vector<const ProjectiveTerm*>& terms) const override;
    void forcesOutsideProjectiveTerms(VecX& f) override;
    // The pairs of velocity blocks whose forces depend on each other: those a spring or a
    // force's element joins (Force::appendCouplings), in no particular order, repeats kept.
    void couplings(std::vector<std::pair<Index, Index>>& out) const override;
    // Counts the changes that can change couplings(): particles, bodies, beads, springs or
    // forces added, set or removed.
    std::uint64_t elementsRevision() const override { return elementsRevision_; }
    // dF/dx and dF/dv apart (Exact: full storage; Definite: Upper storage).
    void forceJacobians(JacobianForm form, BlockSparseMatrix& dFdx, BlockSparseMatrix& dFdv);

private:
    // The Jacobian pattern must be made again, and elementsRevision() moves on.
    void elementsChanged();
    // Exact Jacobians need full storage; definite ones are symmetric and use half.
    void bindJacobianPattern(BlockSparseMatrix::Storage storage);
    void addJacobians(const JacobianRequest& request, BlockSparseMatrix& J);
    // Binds the pattern for the request's form and gives J that pattern (its values as they
    // were when it had it already).
    void bindJacobian(const JacobianRequest& request, BlockSparseMatrix& J);
    // bindJacobian, then J = 0.
    void prepareJacobian(const JacobianRequest& request, BlockSparseMatrix& J);
    // Lays the constraint rows out if they changed and evaluates C, J and their rates.
    void evaluateConstraints();
    // The rates of the velocity coordinates for the generalized forces Q (see above).
    void velocityRates(const VecX& Q, VecX& a) const;
    // Moves every body by a displacement in velocity-block space (a rotation vector for a
    // body's angular block).
    void displace(const VecX& d);
    // drift and driftBackward: the same for everything but the bodies' turn.
    void drift(double h, bool backward);

    DampedSpringSet springs_;
    std::vector<std::unique_ptr<Force>> forces_;
    TwoWayParallel* threads_ = nullptr;  // shareThreads
    std::vector<Plane> planes_;
    struct ParticleContact {
        Index particle, body;
        Vec3 surfacePoint, normal;  // the body's, in its shape frame; the normal points to the particle
    };
    std::vector<ParticleContact> particleContacts_;     // sorted by particle
    std::vector<std::pair<Index, Vec3>> heldImpulses_;  // per filtered particle, sorted by it
    std::vector<std::unique_ptr<Constraint>> constraints_;
    ConstraintSolver constraintSolver_;
    ConstraintSettings constraintSettings_;
    bool constraintLayoutDirty_ = false;
    VecX force_;  // accumulator
    VecX acceleration_, freeAcceleration_, correction_, driftStartState_, driftEndState_, velocityChange_;
    std::vector<Mat3> startInertia_;  // the bodies' world inertia at the drift's start
    BlockSparseMatrix pattern_;       // the pattern the forces are bound to
    bool patternDirty_ = true;
    std::uint64_t elementsRevision_ = 0;
};

}  // namespace tinkerbox
