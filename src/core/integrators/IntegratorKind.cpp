#include "core/integrators/IntegratorKind.h"

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
#include "core/math/KindRegistry.h"

namespace tinkerbox {

namespace {

// The registry: one line per integrator.
constexpr std::array<const IntegratorKind*, 8> kIntegratorKinds = {
    &kExplicitEulerKind, &kMidpointKind,        &kRungeKutta4Kind,    &kImplicitEulerKind,
    &kAdaptiveKind,      &kSymplecticEulerKind, &kVelocityVerletKind, &kProjectiveDynamicsKind,
};

}  // namespace

std::span<const IntegratorKind* const> integratorKinds() { return kIntegratorKinds; }

const IntegratorKind* findIntegratorKind(std::string_view name) { return findKind(integratorKinds(), name); }

std::string integratorNameList() { return kindNameList(integratorKinds()); }

const IntegratorKind& integratorKind(std::string_view name) { return kindNamed(integratorKinds(), name, "integrator"); }

const IntegratorKind& stiffStableIntegratorKind() {
    for (const IntegratorKind* k : kIntegratorKinds)
        if (k->has(IntegratorCapability::StableOnStiffSprings)) return *k;
    throw std::logic_error("no integrator is stable on stiff springs");
}

}  // namespace tinkerbox
