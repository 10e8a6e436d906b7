#include "core/constraints/ConstraintKind.h"

#include <array>
#include <utility>

#include "core/constraints/Constraint.h"
#include "core/math/KindRegistry.h"

namespace tinkerbox {

namespace {

// One kind per alternative of the variant, in its order: spec.index() finds a spec's kind.
constexpr auto kKinds = []<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<const ConstraintKind*, sizeof...(I)>{&std::variant_alternative_t<I, ConstraintSpec>::kind...};
}
(std::make_index_sequence<std::variant_size_v<ConstraintSpec>>{});

}  // namespace

std::span<const ConstraintKind* const> constraintKinds() { return kKinds; }

const ConstraintKind& constraintKind(const ConstraintSpec& spec) { return *kKinds[spec.index()]; }

const ConstraintKind* findConstraintKind(std::string_view name) { return findKind(constraintKinds(), name); }

std::string constraintNameList() { return kindNameList(constraintKinds()); }

std::string_view constraintName(const ConstraintSpec& spec) { return constraintKind(spec).name; }

std::unique_ptr<Constraint> makeConstraint(const ConstraintSpec& spec) { return constraintKind(spec).make(spec); }

Anchor readOneEnd(const ConstraintFields& fields) {
    if (fields.has("particle") && fields.has("anchor")) fields.fail("anchor", "give particle or anchor, not both");
    return fields.has("anchor") ? fields.anchor("anchor") : fields.particle("particle");
}

std::string describeAnchor(const Anchor& anchor) {
    return (anchor.isParticle() ? "particle " : "body ") + std::to_string(anchor.index());
}

}  // namespace tinkerbox
