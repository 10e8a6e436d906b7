#include "core/forces/ForceFieldKind.h"

#include <array>
#include <cmath>
#include <utility>

#include "core/forces/Force.h"
#include "core/math/KindRegistry.h"
#include "core/math/ParametersError.h"

namespace tinkerbox {

namespace {

// spec.index() finds a spec's kind.
constexpr auto kForceFieldKinds = variantKinds<ForceFieldKind, ForceFieldSpec>();

// The default spec of each alternative, in the same order.
constexpr auto kForceFieldDefaults = []<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<ForceFieldSpec (*)(), sizeof...(I)>{[] { return ForceFieldSpec(std::in_place_index<I>); }...};
}
(std::make_index_sequence<std::variant_size_v<ForceFieldSpec>>{});

}  // namespace

std::span<const ForceFieldKind* const> forceFieldKinds() { return kForceFieldKinds; }

const ForceFieldKind& forceFieldKind(const ForceFieldSpec& spec) { return *kForceFieldKinds[spec.index()]; }

const ForceFieldKind* findForceFieldKind(std::string_view name) { return findKind(forceFieldKinds(), name); }

std::size_t forceFieldIndex(const ForceFieldKind& kind) {
    std::size_t i = 0;
    while (i < kForceFieldKinds.size() && kForceFieldKinds[i] != &kind) ++i;
    return i;
}

ForceFieldSpec defaultForceField(const ForceFieldKind& kind) { return kForceFieldDefaults[forceFieldIndex(kind)](); }

std::string forceFieldError(const ForceFieldSpec& spec) {
    const ForceFieldKind& kind = forceFieldKind(spec);
    for (const ForceFieldVector& v : kind.vectors)
        if (const Vec3 value = v.get(spec); !value.allFinite() || value.cwiseAbs().maxCoeff() > kMaxSceneMagnitude)
            return std::string(v.label) + " must be finite and at most " +
                   parameterValueText(ParameterType::Real, kMaxSceneMagnitude) + " in each coordinate";
    return parametersError(kind.parameters, spec);
}

}  // namespace tinkerbox
