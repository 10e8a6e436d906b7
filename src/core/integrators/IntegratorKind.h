#pragma once
// What the program knows about an integrator besides its step: its name, what it can do,
// the settings it reads with their ranges, and how to make one. Each integrator declares its
// kind next to its class; integratorKinds() lists them, and the loader, the writer, the Solver
// panel, the number keys, the CLI's options and the capability checks go through that list, so
// an integrator is its own files plus one line there.
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/math/Parameter.h"

namespace tinkerbox {

class Integrator;
struct IntegratorSettings;

using IntegratorParameter = Parameter<IntegratorSettings>;

enum class IntegratorCapability : unsigned {
    // Stable at any step on stiff springs: what the app offers when another method diverges.
    StableOnStiffSprings = 1u << 0,
    // Solves a linear system by conjugate gradients each step (StepReport::linearSolve); a
    // tighter tolerance is its cure for a divergence.
    ConjugateGradientSolve = 1u << 1,
    // Chooses its own step sizes from a tolerance (StepReport::stepSizes): dt and substeps
    // set only where it reports.
    ChoosesItsOwnSteps = 1u << 2,
};

struct IntegratorKind {
    std::string_view name;
    std::string_view summary = {};  // one line, for menus, tooltips and --help
    unsigned capabilities = 0;
    // Its section of a scene's settings ("implicit": {...}), empty when it reads no settings.
    std::string_view section = {};
    std::span<const IntegratorParameter> parameters = {};
    std::unique_ptr<Integrator> (*make)(const IntegratorSettings&) = nullptr;

    bool has(IntegratorCapability c) const { return (capabilities & static_cast<unsigned>(c)) != 0; }
};

// Every integrator, in the order the program lists them and the number keys choose them.
std::span<const IntegratorKind* const> integratorKinds();
// nullptr when no integrator has that name.
const IntegratorKind* findIntegratorKind(std::string_view name);
// Throws std::invalid_argument naming the valid choices when the name is unknown.
const IntegratorKind& integratorKind(std::string_view name);
// "euler, midpoint, rk4, ...", for error messages and help texts.
std::string integratorNameList();
// The method the app offers when another diverges: the first stable on stiff springs.
const IntegratorKind& stiffStableIntegratorKind();

}  // namespace tinkerbox
