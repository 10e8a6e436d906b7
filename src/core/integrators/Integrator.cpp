#include "core/integrators/Integrator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "core/integrators/AdaptiveRungeKutta.h"
#include "core/integrators/ExplicitEuler.h"
#include "core/integrators/ImplicitEuler.h"
#include "core/integrators/Midpoint.h"
#include "core/integrators/ProjectiveDynamics.h"
#include "core/integrators/RungeKutta4.h"
#include "core/integrators/SymplecticEuler.h"
#include "core/integrators/VelocityVerlet.h"

namespace tinkerbox {

namespace {
constexpr std::array<std::string_view, 8> kNames = {"euler",    "midpoint",         "rk4",    "implicit-euler",
                                                    "adaptive", "symplectic-euler", "verlet", "projective"};
}  // namespace

double solveToleranceForOrder(int order, double h) { return std::pow(h / 1.0, order); }

std::span<const std::string_view> integratorNames() { return kNames; }

bool isIntegratorName(std::string_view name) {
    return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

std::unique_ptr<Integrator> makeIntegrator(std::string_view name, const IntegratorSettings& settings) {
    if (name == "euler") return std::make_unique<ExplicitEuler>();
    if (name == "midpoint") return std::make_unique<Midpoint>();
    if (name == "rk4") return std::make_unique<RungeKutta4>();
    if (name == "implicit-euler") return std::make_unique<ImplicitEuler>(settings.implicitSolver, settings.contactFilter);
    if (name == "adaptive") return std::make_unique<AdaptiveRungeKutta>(settings.adaptiveTolerance);
    if (name == "symplectic-euler") return std::make_unique<SymplecticEuler>();
    if (name == "verlet") return std::make_unique<VelocityVerlet>();
    if (name == "projective") return std::make_unique<ProjectiveDynamics>(settings.projectiveIterations);
    std::string choices;
    for (std::string_view n : kNames) choices += (choices.empty() ? "" : ", ") + std::string(n);
    throw std::invalid_argument("unknown integrator '" + std::string(name) + "' (choose one of: " + choices + ")");
}

}  // namespace tinkerbox
