#pragma once
// Witkin's solver interface (Witkin & Baraff, Differential Equation Basics, SIGGRAPH 2001 notes): every integrator
// talks to a system only through these calls, so any integrator works on any system.
#include "core/math/Types.h"

namespace tinkerbox {

class OdeSystem {
public:
    virtual ~OdeSystem() = default;

    virtual Index dimension() const = 0;
    virtual void getState(VecX& x) const = 0;
    virtual void setState(const VecX& x, double t) = 0;
    // dx/dt at the current state (the one last given to setState).
    virtual void derivative(VecX& xdot) = 0;
    virtual double time() const = 0;
    // How accurately the solves inside derivative() (and the constraint projections) must
    // be, relative: an integrator says it before it steps, from its own error (its order and
    // step, or its error tolerance). A system that solves nothing ignores it.
    virtual void setSolveTolerance(double tolerance) { (void)tolerance; }
};

}  // namespace tinkerbox
