#include "core/constraints/PinConstraint.h"

#include <stdexcept>
#include <string_view>

#include "core/constraints/ConstraintKind.h"

namespace tinkerbox {

PinConstraint::PinConstraint(const PinSpec& spec) : spec_(spec) {
    if (spec.a.body == spec.b.body) throw std::invalid_argument("a pin must join two different particles or bodies");
}

void PinConstraint::evaluate(std::span<const AnchorKinematics> anchors, ConstraintRows& rows) const {
    const Vec3 c = anchors[0].position - anchors[1].position;
    const Vec3 cdot = anchors[0].velocity - anchors[1].velocity;
    for (int r = 0; r < 3; ++r) {
        rows.C[r] = c[r];
        rows.Cdot[r] = cdot[r];
        rows.point(r, 0, Vec3::Unit(r), Vec3::Zero());
        rows.point(r, 1, -Vec3::Unit(r), Vec3::Zero());
    }
}

// --- Its kind: the file format, the figure, the factory ----------------------------------

namespace {

constexpr std::string_view kPinKeys[] = {"a", "b"};

ConstraintSpec readPin(const ConstraintFields& fields) {
    PinSpec pin;
    pin.a = fields.anchor("a");
    pin.b = fields.anchor("b");
    if (pin.a.body == pin.b.body) fields.fail("", "pin joins " + describeAnchor(pin.a) + " to itself");
    return pin;
}

void writePin(const ConstraintSpec& spec, ConstraintFieldWriter& out) {
    const auto& pin = std::get<PinSpec>(spec);
    out.anchor("a", pin.a);
    out.anchor("b", pin.b);
}

ConstraintFigure pinFigure(const ConstraintSpec&) { return {}; }

}  // namespace

const ConstraintKind PinSpec::kind{
    .name = "pin",
    .summary = "Makes two anchors coincide: between two bodies, a ball joint.",
    .capabilities = static_cast<unsigned>(ConstraintCapability::MakesAnchorsCoincide),
    .keys = kPinKeys,
    .read = readPin,
    .write = writePin,
    .figure = pinFigure,
    .make = makeConstraintOf<PinSpec, PinConstraint>,
};

}  // namespace tinkerbox
