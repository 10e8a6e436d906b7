#pragma once
// Beads on circular wires in generalized (Lagrangian) coordinates, the other formulation of Witkin's Constrained
// Dynamics notes method: the state is the angle theta on the wire, x(theta) = c + r (cos theta u + sin theta w), J =
// dx/dtheta, and
//   (J^T M J) theta'' = J^T Q - J^T M Jdot theta'        (Witkin, Constrained Dynamics, parametric bead)
// with Q = m g - kd v the bead's gravity and drag. Scenes put one next to a constrained
// bead (WireConstraint) to compare the two methods under the same integrator.
//
// The beads are a kind of body of the world, stepped with everything else. Each bead's
// angle sits in the first slot of a 3-vector block (the other two slots stay zero), so
// that it has the particles' block structure and every integrator, the implicit one
// included, steps it without special cases.
#include <vector>

#include "core/math/Types.h"

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

// The beads of a world: one velocity block each, (theta', 0, 0).
class ParametricBeads {
public:
    // Throws std::invalid_argument for a non-positive radius or mass or a zero normal.
    void addBead(const ParametricBead& bead);
    Index beadCount() const { return static_cast<Index>(geometry_.size()); }
    // The bead as it is now (angle and angular velocity from the state).
    ParametricBead bead(Index i) const;
    Vec3 position(Index i) const;
    Vec3 velocity(Index i) const;

    double kineticEnergy() const;
    // Of gravity g.
    double potentialEnergy(const Vec3& g) const;

    // q = (theta, 0, 0) and qdot = (theta', 0, 0) per bead.
    const VecX& angles() const { return q_; }
    const VecX& angularVelocities() const { return qdot_; }
    void setAngles(const Eigen::Ref<const VecX>& q) { q_ = q; }
    void setAngularVelocities(const Eigen::Ref<const VecX>& qdot) { qdot_ = qdot; }
    void drift(double h) { q_ += h * qdot_; }
    // The generalized forces of gravity g and drag kd, added to f (one block per bead).
    void addForces(const Vec3& g, double kd, Eigen::Ref<VecX> f) const;
    // The bead's own velocity-product term, -J^T M Jdot theta', added to f.
    void addVelocityTerms(Eigen::Ref<VecX> f) const;
    // Their definite Jacobians: the diagonal entry cx dQ/dtheta + cv dQ/dtheta' of block i
    // (dQ/dtheta clamped at 0), and dQ/dtheta theta' per bead.
    double jacobian(Index i, const Vec3& g, double kd, double cx, double cv, double& dFdxTimesVelocity) const;
    // 1 / (m r^2) per dof.
    const VecX& inverseMassPerDof() const { return inverseMass_; }

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
};

}  // namespace tinkerbox
