#include "core/integrators/Integrator.h"

#include <cmath>

namespace tinkerbox {

double solveToleranceForOrder(int order, double h) { return std::pow(h / 1.0, order); }

std::unique_ptr<Integrator> makeIntegrator(std::string_view name, const IntegratorSettings& settings) {
    return integratorKind(name).make(settings);
}

}  // namespace tinkerbox
