#include "core/integrators/IntegratorKind.h"

#include <algorithm>
#include <array>
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

// The registry: one line per integrator.
constexpr std::array<const IntegratorKind*, 8> kIntegratorKinds = {
    &kExplicitEulerKind, &kMidpointKind,        &kRungeKutta4Kind,    &kImplicitEulerKind,
    &kAdaptiveKind,      &kSymplecticEulerKind, &kVelocityVerletKind, &kProjectiveDynamicsKind,
};

}  // namespace

std::span<const IntegratorKind* const> integratorKinds() { return kIntegratorKinds; }

const IntegratorKind* findIntegratorKind(std::string_view name) {
    const auto it = std::find_if(kIntegratorKinds.begin(), kIntegratorKinds.end(),
                                 [&](const IntegratorKind* k) { return k->name == name; });
    return it == kIntegratorKinds.end() ? nullptr : *it;
}

std::string integratorNameList() {
    std::string list;
    for (const IntegratorKind* k : kIntegratorKinds) list += (list.empty() ? "" : ", ") + std::string(k->name);
    return list;
}

const IntegratorKind& integratorKind(std::string_view name) {
    if (const IntegratorKind* kind = findIntegratorKind(name)) return *kind;
    throw std::invalid_argument("unknown integrator '" + std::string(name) +
                                "' (choose one of: " + integratorNameList() + ")");
}

const IntegratorKind& stiffStableIntegratorKind() {
    for (const IntegratorKind* k : kIntegratorKinds)
        if (k->has(IntegratorCapability::StableOnStiffSprings)) return *k;
    throw std::logic_error("no integrator is stable on stiff springs");
}

}  // namespace tinkerbox
