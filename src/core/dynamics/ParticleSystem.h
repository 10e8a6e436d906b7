#pragma once
// The particle system of Witkin, Particle System Dynamics, SIGGRAPH 2001 notes: particles (mass, position, velocity, force
// accumulator), force objects, and planes, behind Witkin's solver interface.
// State vector: [x_0 .. x_{n-1} | v_0 .. v_{n-1}] (6n numbers).
// Nailed particles have inverse mass 0: no integrator moves them, and their velocity
// is whatever the controller moving them says (zero when they stay put).
#include <memory>
#include <vector>

#include "core/constraints/ConstraintSolver.h"
#include "core/forces/DampedSpring.h"
#include "core/integrators/MechanicalSystem.h"
#include "core/collision/Plane.h"

namespace tinkerbox {

struct ParticleInit {
    Vec3 position = Vec3::Zero();
    Vec3 velocity = Vec3::Zero();
    double mass = 1.0;
    bool nailed = false;

    bool operator==(const ParticleInit&) const = default;
};

class ParticleSystem final : public MechanicalSystem {
public:
    // Particles. Adding many at once costs O(n) in total; one by one costs O(n) each.
    Index addParticle(const Vec3& x, const Vec3& v, double mass, bool nailed = false);
    void addParticles(const std::vector<ParticleInit>& particles);
    Index particleCount() const { return mass_.size(); }
    const VecX& positions() const { return x_; }
    Vec3 position(Index i) const { return block3(x_, i); }
    Vec3 velocity(Index i) const { return block3(v_, i); }
    double mass(Index i) const { return mass_[i]; }
    bool isNailed(Index i) const { return inverseMass_[3 * i] == 0.0; }
    void setPosition(Index i, const Vec3& x) { block3(x_, i) = x; }
    void setVelocity(Index i, const Vec3& v) { block3(v_, i) = v; }
    void setMass(Index i, double m);
    void setNailed(Index i, bool nailed);
    // Moves a nailed particle to target over the time h, so that its velocity is right
    // for the damping of everything attached to it.
    void moveNailed(Index i, const Vec3& target, double h);

    // Forces. Springs are kept in one set; other force objects are added by owner.
    const DampedSpringSet& springs() const { return springs_; }
    // For editing a spring's stiffness, damping or rest length; its particles stay.
    DampedSpring& spring(Index k) { return springs_[k]; }
    Index addSpring(const DampedSpring& s);
    Force& addForce(std::unique_ptr<Force> force);
    void removeForce(const Force* force);
    const std::vector<std::unique_ptr<Force>>& forces() const { return forces_; }

    // Hard constraints (Witkin, Constrained Dynamics, SIGGRAPH 2001 notes), solved inside every derivative evaluation.
    Constraint& addConstraint(std::unique_ptr<Constraint> constraint);  // throws on a bad particle index
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
    // Plane collisions and contact after a step of length h that started at
    // (xBefore, vBefore). Returns the number of particle-plane contacts.
    int resolveContacts(const Eigen::Ref<const VecX>& xBefore, const Eigen::Ref<const VecX>& vBefore, double h);

    // Energies
    double kineticEnergy() const;
    double potentialEnergy() const;
    double totalEnergy() const { return kineticEnergy() + potentialEnergy(); }

    // OdeSystem
    Index dimension() const override { return 6 * particleCount(); }
    void getState(VecX& x) const override;
    void setState(const VecX& x, double t) override;
    void derivative(VecX& xdot) override;
    double time() const override { return t_; }
    void setSolveTolerance(double tolerance) override { constraintSolver_.requestTolerance(tolerance); }

    // MechanicalSystem
    Index velocityDimension() const override { return 3 * particleCount(); }
    const VecX& velocities() const override { return v_; }
    void setVelocities(const VecX& v) override { v_ = v; }
    void setTime(double t) override { t_ = t; }
    void accelerations(VecX& a) override;
    void drift(double h) override;
    void unconstrainedAccelerations(VecX& a) override;
    void constrainPositions(double h) override;
    void constrainVelocities() override;
    void appliedForces(VecX& f) override;
    void combinedJacobian(double cx, double cv, BlockSparseMatrix& J, VecX& dFdxTimesVelocity) override;
    // dF/dx and dF/dv apart (Exact: full storage; Definite: Upper storage).
    void forceJacobians(JacobianForm form, BlockSparseMatrix& dFdx, BlockSparseMatrix& dFdv);
    const VecX& inverseMassPerDof() const override { return inverseMass_; }

private:
    // Exact Jacobians need full storage; definite ones are symmetric and use half.
    void bindJacobianPattern(BlockSparseMatrix::Storage storage);
    void addJacobians(const JacobianRequest& request, BlockSparseMatrix& J);
    // Lays the constraint rows out if they changed and evaluates C, J and their rates.
    void evaluateConstraints();

    VecX x_, v_;
    VecX mass_;         // per particle
    VecX inverseMass_;  // per dof, 0 when nailed
    double t_ = 0.0;
    DampedSpringSet springs_;
    std::vector<std::unique_ptr<Force>> forces_;
    std::vector<Plane> planes_;
    std::vector<std::unique_ptr<Constraint>> constraints_;
    ConstraintSolver constraintSolver_;
    ConstraintSettings constraintSettings_;
    bool constraintLayoutDirty_ = false;
    VecX force_;  // accumulator
    VecX acceleration_, positionCorrection_, driftStart_;
    BlockSparseMatrix pattern_;  // the pattern the forces are bound to
    bool patternDirty_ = true;
};

}  // namespace tinkerbox
