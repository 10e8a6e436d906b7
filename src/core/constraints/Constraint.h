#pragma once
// A hard constraint C = 0 (Witkin, Constrained Dynamics, SIGGRAPH 2001 notes, "tinkertoys")
// on anchors: particles and points of rigid bodies. A constraint owns some rows of C and
// Cdot. It sees its anchors' kinematics only, never the world, and writes for each row
// and anchor the derivative of C with respect to the anchor's point (the rod's n), or, for
// rows about orientation (a hinge's axes), with respect to the body's rotation. The rows
// turn these into the linear and angular parts of J = dC/dq per body: a point p = x + r
// of a body moving with (v, omega) has pdot = v + omega x r, so a row c . pdot becomes
// J_linear = c, J_angular = r x c (Baraff, Rigid Body Simulation, SIGGRAPH 2001 notes,
// section 2.6: velocity of a body point). One solver then serves particles and bodies.
#include <span>
#include <vector>

#include "core/constraints/ConstraintSpec.h"
#include "core/state/ModelState.h"

namespace tinkerbox {

// A constraint's slice of the solver's arrays: its rows of C, Cdot and the blocks of J and
// Jdot, one block per row and velocity block (a particle has one; a rigid body two:
// linear, then angular).
struct ConstraintRows {
    double* C;
    double* Cdot;
    Vec3* J;
    Vec3* Jdot;
    int blocksPerRow;
    std::span<const int> firstBlock;  // per anchor: its linear block within a row
    std::span<const AnchorKinematics> anchors;

    // Row r depends on anchor k's point through c (dC_r/dp = c^T), whose rate is cdot.
    // Jdot is such that Jdot qdot = cdot . pdot + c . (omega x (omega x r)), the
    // velocity-product terms of C_r's second derivative.
    void point(int r, int k, const Vec3& c, const Vec3& cdot);
    // Row r depends on body k's rotation through a (dC_r/dt = a . omega); adot is a's rate.
    void angular(int r, int k, const Vec3& a, const Vec3& adot);
};

class Constraint {
public:
    virtual ~Constraint() = default;

    virtual int rowCount() const = 0;
    // The anchors the rows depend on, in block order.
    virtual std::vector<Anchor> anchors() const = 0;
    // C and Cdot, with the rows' point and angular derivatives, at the anchors' kinematics.
    virtual void evaluate(std::span<const AnchorKinematics> anchors, ConstraintRows& rows) const = 0;
    // The length |C| is measured against (a rod's length, a wire's radius); 0 for
    // constraints without one, whose error is reported in metres.
    virtual double scale() const { return 0.0; }
    virtual ConstraintSpec spec() const = 0;
};

}  // namespace tinkerbox
