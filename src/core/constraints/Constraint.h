#pragma once
// A hard constraint C(x) = 0 (Witkin, Constrained Dynamics, SIGGRAPH 2001 notes, "tinkertoys"). Each constraint owns some
// rows of C and Cdot and, for each of those rows and each particle it involves, the
// 1x3 blocks of J = dC/dx and Jdot = dCdot/dx. The ConstraintSolver lays the rows and
// blocks out once; a constraint fills its own at every evaluation.
#include <vector>

#include "core/constraints/ConstraintSpec.h"
#include "core/math/Types.h"

namespace tinkerbox {

class ParticleSystem;

// A constraint's slice of the solver's arrays. Block k of row r (the derivative of
// C_r with respect to the position of particles()[k]) is J[r * particles + k].
struct ConstraintRows {
    double* C;
    double* Cdot;
    Vec3* J;
    Vec3* Jdot;
    int particles;

    Vec3& j(int row, int particle) { return J[row * particles + particle]; }
    Vec3& jdot(int row, int particle) { return Jdot[row * particles + particle]; }
};

class Constraint {
public:
    virtual ~Constraint() = default;

    virtual int rowCount() const = 0;
    // The particles the rows depend on, in block order.
    virtual std::vector<Index> particles() const = 0;
    // C, Cdot, J and Jdot at the system's current positions and velocities.
    virtual void evaluate(const ParticleSystem& ps, ConstraintRows& rows) const = 0;
    // The length |C| is measured against (a rod's length, a wire's radius); 0 for
    // constraints without one, whose error is reported in metres.
    virtual double scale() const { return 0.0; }
    virtual ConstraintSpec spec() const = 0;
};

}  // namespace tinkerbox
