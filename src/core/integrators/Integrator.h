#pragma once
// Integrators advance a system by one step. They see the system only through
// OdeSystem (explicit methods) or MechanicalSystem (methods that treat positions and
// velocities differently); they never know which forces exist.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/integrators/IntegratorKind.h"
#include "core/integrators/MechanicalSystem.h"
#include "core/math/ConjugateGradient.h"
#include "core/math/TwoWayParallel.h"

namespace tinkerbox {

// What a step did, for the stats panel and the benchmark.
struct StepReport {
    int derivativeEvaluations = 0;
    CgResult linearSolve;           // implicit-euler: the last CG solve
    std::vector<double> stepSizes;  // adaptive: every accepted internal step
    std::string failure;            // non-empty when the integrator could not take the step
};

struct IntegratorSettings {
    // 1e-4: on the 20 x 20 cloth the positions after 3 s differ from a 1e-10 solve by
    // 0.04 mm on a 2 m cloth (1e-3: 1 mm), at a third of the iterations of 1e-6.
    CgSettings implicitSolver{1e-4, 500};
    // implicit-euler: particles in contact have their velocity change prescribed along the
    // contact normals inside the solve (Baraff & Witkin 1998, section 5.3; VelocityFilter.h).
    bool contactFilter = true;
    double adaptiveTolerance = 1e-6;
    int projectiveIterations = 10;  // local-global iterations per projective step

    bool operator==(const IntegratorSettings&) const = default;
};

class Integrator {
public:
    virtual ~Integrator() = default;
    virtual const IntegratorKind& kind() const = 0;
    std::string_view name() const { return kind().name; }
    virtual void step(MechanicalSystem& system, double h, StepReport& report) = 0;
    // What a step leaves for the next one to start from (a warm start, a step size), as
    // numbers: given back after a rewind to a frame, the steps from there are bitwise those
    // taken from it the first time (Simulation::restoreFrame). Nothing for most methods.
    virtual void saveMemory(VecX& memory) const { memory.resize(0); }
    virtual void restoreMemory(const VecX&) {}
    // The helper thread the method's work shares: a big model's force passes
    // (World::shareThreads) and the work between steps (the energy reading). A method with
    // solves of its own gives its solver's.
    virtual TwoWayParallel* parallel() { return &threads_; }

private:
    TwoWayParallel threads_;  // its thread starts on first use
};

// Methods that need nothing but Witkin's interface, and so work on any OdeSystem.
class ExplicitIntegrator : public Integrator {
public:
    void step(MechanicalSystem& system, double h, StepReport& report) final { advance(system, h, report); }
    virtual void advance(OdeSystem& system, double h, StepReport& report) = 0;
};

// The relative accuracy a method of order p with step h asks of the solves inside its
// derivative evaluations (OdeSystem::setSolveTolerance): its truncation error over a step is
// about (h / T)^p of the motion's own change, T the time over which the motion changes. With
// T = 1 s the solve error stays below the truncation error of every motion of a second or
// faster (a 1 m pendulum swings in 2 s, and in a tenth of it the motion is well resolved).
double solveToleranceForOrder(int order, double h);

// The integrator of that kind (IntegratorKind.h lists them). Throws std::invalid_argument
// naming the valid choices when the name is unknown.
std::unique_ptr<Integrator> makeIntegrator(std::string_view name, const IntegratorSettings& settings = {});

}  // namespace tinkerbox
