#include "core/constraints/ConstraintKind.h"

#include "core/constraints/Constraint.h"
#include "core/math/KindRegistry.h"

namespace tinkerbox {

namespace {

// spec.index() finds a spec's kind.
constexpr auto kKinds = variantKinds<ConstraintKind, ConstraintSpec>();

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
