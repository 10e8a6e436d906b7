#pragma once
// Beads on circular wires in generalized (Lagrangian) coordinates, the other formulation of Witkin's Constrained Dynamics notes
// method: the state is the angle theta on the wire, x(theta) = c + r (cos theta u +
// sin theta w), J = dx/dtheta, and
//   (J^T M J) theta'' = J^T Q - J^T M Jdot theta'        (Witkin, Constrained Dynamics, parametric bead)
// with Q = m g - kd v the bead's gravity and drag. Scenes put one next to a constrained
// bead (WireConstraint) to compare the two methods under the same integrator.
//
// Each bead's angle sits in the first slot of a 3-vector block (the other two slots stay
// zero), so that the system has the particles' block structure and every integrator,
// the implicit one included, steps it without special cases.
#include <vector>

#include "core/integrators/MechanicalSystem.h"

namespace tinkerbox {

struct ParametricBead {
    Vec3 center = Vec3::Zero();
    double radius = 1.0;
    Vec3 normal = Vec3::UnitZ();  // of the wire's plane; angles are measured from u (x when the normal is z)
    double mass = 1.0;
    double angle = 0.0;            // theta (rad)
    double angularVelocity = 0.0;  // theta' (rad/s)

    bool operator==(const ParametricBead&) const = default;
};

class ParametricBeadSystem final : public MechanicalSystem {
public:
    // Throws std::invalid_argument for a non-positive radius or mass or a zero normal.
    void addBead(const ParametricBead& bead);
    Index beadCount() const { return static_cast<Index>(geometry_.size()); }
    // The bead as it is now (angle and angular velocity from the state).
    ParametricBead bead(Index i) const;
    Vec3 position(Index i) const;
    Vec3 velocity(Index i) const;

    void setGravity(const Vec3& g) { gravity_ = g; }
    void setDrag(double kd) { drag_ = kd; }

    double kineticEnergy() const;
    double potentialEnergy() const;

    // OdeSystem: [q | qdot], q = (theta, 0, 0) per bead.
    Index dimension() const override { return 6 * beadCount(); }
    void getState(VecX& x) const override;
    void setState(const VecX& x, double t) override;
    void derivative(VecX& xdot) override;
    double time() const override { return t_; }

    // MechanicalSystem
    Index velocityDimension() const override { return 3 * beadCount(); }
    const VecX& velocities() const override { return qdot_; }
    void setVelocities(const VecX& v) override { qdot_ = v; }
    void setTime(double t) override { t_ = t; }
    void accelerations(VecX& a) override;
    void drift(double h) override { q_ += h * qdot_; }
    void unconstrainedAccelerations(VecX& a) override { accelerations(a); }
    void constrainPositions(double) override {}
    void constrainVelocities() override {}
    void appliedForces(VecX& f) override;
    void combinedJacobian(double cx, double cv, BlockSparseMatrix& J, VecX& dFdxTimesVelocity) override;
    const VecX& inverseMassPerDof() const override { return inverseMass_; }

private:
    struct Wire {
        Vec3 center, u, w;
        double radius, mass;
    };
    // x(theta), J = dx/dtheta and dJ/dtheta.
    Vec3 point(const Wire& wire, double theta) const;
    Vec3 tangent(const Wire& wire, double theta) const;

    std::vector<Wire> geometry_;
    VecX q_, qdot_, inverseMass_;  // per dof: 1 / (m r^2)
    Vec3 gravity_{0.0, -9.81, 0.0};
    double drag_ = 0.0;
    double t_ = 0.0;
    VecX force_, acceleration_;
};

}  // namespace tinkerbox
