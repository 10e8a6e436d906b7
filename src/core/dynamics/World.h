#pragma once
// The mechanical world: every body of a model in one system behind Witkin's solver
// interface (Witkin, Particle System Dynamics, SIGGRAPH 2001 notes), stepped by one
// integrator. Three kinds of body:
//   particles (Witkin): position and velocity, 3 + 3 numbers;
//   rigid bodies (Baraff, Rigid Body Simulation, SIGGRAPH 2001 notes): (x, q) and (P, L),
//     7 + 6 numbers (RigidBodies.h);
//   parametric beads (Witkin, Constrained Dynamics, parametric bead): (theta, theta'),
//     padded to 3 + 3 (ParametricBeads.h).
// State vector: [configuration | velocity coordinates], each laid out particles, then
// rigid bodies, then beads. The velocity coordinates are what integrators step: a
// particle's velocity, a body's momenta (P, L), a bead's theta'; their rates are what
// accelerations() gives (a, (F, tau), theta''). The velocity blocks (3 numbers each: one
// per particle and bead, two per body, linear then angular) are the space forces,
// Jacobians, constraint rows and the inverse mass operator W live in: a force on a body
// is (F, tau), a body's velocity (v, omega).
// Fixed particles and bodies have W = 0: no integrator moves them, and their velocity is
// whatever the controller moving them says (zero when they stay put).
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/bodies/Anchor.h"
#include "core/bodies/InverseMass.h"
#include "core/bodies/ParametricBeads.h"
#include "core/bodies/RigidBodies.h"
#include "core/collision/Contact.h"
#include "core/collision/Plane.h"
#include "core/constraints/ConstraintSolver.h"
#include "core/forces/DampedSpring.h"
#include "core/integrators/MechanicalSystem.h"

namespace tinkerbox {

struct ParticleInit {
    Vec3 position = Vec3::Zero();
    Vec3 velocity = Vec3::Zero();
    double mass = 1.0;
    bool nailed = false;

    bool operator==(const ParticleInit&) const = default;
};

class World final : public MechanicalSystem {
public:
    // Particles. Adding many at once costs O(n) in total; one by one costs O(n) each.
    Index addParticle(const Vec3& x, const Vec3& v, double mass, bool nailed = false);
    void addParticles(const std::vector<ParticleInit>& particles);
    Index particleCount() const override { return mass_.size(); }
    const VecX& positions() const override { return x_; }
    Vec3 position(Index i) const { return block3(x_, i); }
    Vec3 velocity(Index i) const { return block3(v_, i); }
    double mass(Index i) const { return mass_[i]; }
    bool isNailed(Index i) const { return particleInverseMass_[3 * i] == 0.0; }
    void setPosition(Index i, const Vec3& x) { block3(x_, i) = x; }
    void setVelocity(Index i, const Vec3& v) { block3(v_, i) = v; }
    void setMass(Index i, double m);
    void setNailed(Index i, bool nailed);
    // Moves a nailed particle to target over the time h, so that its velocity is right
    // for the damping of everything attached to it.
    void moveNailed(Index i, const Vec3& target, double h);

    // Rigid bodies and beads.
    Index addRigidBody(const RigidBodySpec& spec, const RigidBodyMass& mass);
    Index addRigidBody(const RigidBodySpec& spec) { return addRigidBody(spec, rigidBodyMass(spec)); }
    const RigidBodies& rigidBodies() const { return bodies_; }
    RigidBodies& rigidBodies() { return bodies_; }
    Index rigidBodyCount() const { return bodies_.count(); }
    void addBead(const ParametricBead& bead);
    const ParametricBeads& beads() const { return beads_; }
    Index beadCount() const { return beads_.beadCount(); }
    // Every body and particle in the z = 0 plane, turning about z only.
    void setPlanar(bool planar);
    bool planar() const { return planar_; }

    // Anchors: where they are, how they move, and forces on them.
    bool hasAnchor(const Anchor& a) const;
    Vec3 anchorPosition(const Anchor& a) const;
    Vec3 anchorVelocity(const Anchor& a) const;
    AnchorKinematics anchorKinematics(const Anchor& a) const;
    // The inverse mass an anchor has along a unit direction (1/m for a particle; 1/m +
    // (r x n) . Iinv (r x n) for a body point): what a pull there moves.
    double effectiveInverseMass(const Anchor& a, const Vec3& direction) const;
    // f += a force F at the anchor: F on a particle; F and r x F on a body.
    void applyForce(const Anchor& a, const Vec3& F, VecX& f) const;
    // The first velocity block of a body (see above), and how many there are in all.
    Index velocityBlock(const BodyRef& body) const;
    Index velocityBlocks() const { return particleCount() + 2 * rigidBodyCount() + beadCount(); }
    Index rigidBlock(Index k) const { return particleCount() + 2 * k; }
    Index beadBlock(Index i) const { return particleCount() + 2 * rigidBodyCount() + i; }

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
    const std::vector<std::unique_ptr<Constraint>>& constraints() const { return constraints_; }
    const ConstraintSettings& constraintSettings() const { return constraintSettings_; }
    void setConstraintSettings(const ConstraintSettings& settings) { constraintSettings_ = settings; }
    // max |C| relative to each constraint's size (metres for nails, pins and sliders).
    double constraintError();
    const ConstraintSolver& constraintSolver() const { return constraintSolver_; }
    ConstraintSolver& constraintSolver() { return constraintSolver_; }

    // Planes
    // Normalizes the plane's normal; throws std::invalid_argument for a zero or non-finite one.
    void addPlane(const Plane& plane);
    const std::vector<Plane>& planes() const { return planes_; }
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

    // Energies and momenta of everything
    double kineticEnergy() const;
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
    Vec3 linearMomentum() const;
    Vec3 angularMomentum() const;  // about the origin

    // OdeSystem
    Index dimension() const override { return configurationDimension() + velocityDimension(); }
    void getState(VecX& x) const override;
    // Whether every number of the state is finite (getState's, without the copy).
    bool stateIsFinite() const;
    void setState(const VecX& x, double t) override;
    void derivative(VecX& xdot) override;
    double time() const override { return t_; }
    void setSolveTolerance(double tolerance) override { constraintSolver_.requestTolerance(tolerance); }
    Index configurationDimension() const { return 3 * particleCount() + 7 * rigidBodyCount() + 3 * beadCount(); }

    // MechanicalSystem
    Index velocityDimension() const override { return 3 * velocityBlocks(); }
    const VecX& velocities() const override;
    void setVelocities(const VecX& u) override;
    void setTime(double t) override { t_ = t; }
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
    void massBlocks(std::vector<Mat3>& mass, std::vector<char>& fixed) const override;
    void changeVelocities(const VecX& dv) override;
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
    void couplings(std::vector<std::pair<Index, Index>>& out) const;
    // Counts the changes that can change couplings(): particles, bodies, beads, springs or
    // forces added, set or removed.
    std::uint64_t elementsRevision() const { return elementsRevision_; }
    // dF/dx and dF/dv apart (Exact: full storage; Definite: Upper storage).
    void forceJacobians(JacobianForm form, BlockSparseMatrix& dFdx, BlockSparseMatrix& dFdv);
    // W over the velocity blocks, at the current orientations.
    const InverseMass& inverseMass() const;
    // (v, omega) per velocity block: particles' and beads' velocity coordinates as they
    // are, a body's momenta turned into velocities.
    const VecX& generalizedVelocities() const;

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
    void getConfiguration(Eigen::Ref<VecX> q) const;
    void setConfiguration(const Eigen::Ref<const VecX>& q);

    VecX x_, v_;                // particles
    VecX mass_;                 // per particle
    VecX particleInverseMass_;  // per dof, 0 when nailed
    RigidBodies bodies_;
    ParametricBeads beads_;
    bool planar_ = false;
    double t_ = 0.0;
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
    mutable VecX velocityCoordinates_, generalizedVelocities_;
    mutable InverseMass inverseMass_;
    BlockSparseMatrix pattern_;  // the pattern the forces are bound to
    bool patternDirty_ = true;
    std::uint64_t elementsRevision_ = 0;
};

}  // namespace tinkerbox
