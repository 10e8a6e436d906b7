#include "core/constraints/RodConstraint.h"

#include <stdexcept>
#include <string_view>

#include "core/constraints/ConstraintKind.h"

namespace tinkerbox {

RodConstraint::RodConstraint(const RodSpec& spec) : spec_(spec) {
    if (spec.a.body == spec.b.body) throw std::invalid_argument("a rod must join two different particles or bodies");
    if (!(spec.length > 0.0)) throw std::invalid_argument("a rod must have a positive length");
}

void RodConstraint::evaluate(std::span<const AnchorKinematics> anchors, ConstraintRows& rows) const {
    const Vec3 l = anchors[0].position - anchors[1].position;
    const Vec3 ldot = anchors[0].velocity - anchors[1].velocity;
    const double length = l.norm();
    rows.C[0] = length - spec_.length;
    if (length < 1e-12 * spec_.length) {  // the direction is undefined: the rod exerts nothing
        rows.Cdot[0] = 0.0;
        return;
    }
    const Vec3 n = l / length;
    const Vec3 ndot = (ldot - n.dot(ldot) * n) / length;
    rows.Cdot[0] = n.dot(ldot);
    rows.point(0, 0, n, ndot);
    rows.point(0, 1, -n, -ndot);
}

// --- Its kind: the file format, the length the inspector edits, the figure, the factory -

namespace {

constexpr std::string_view kRodKeys[] = {"a", "b", "length"};

ConstraintSpec readRod(const ConstraintFields& fields) {
    RodSpec rod;
    rod.a = fields.anchor("a");
    rod.b = fields.anchor("b");
    if (rod.a.body == rod.b.body) fields.fail("", "rod joins " + describeAnchor(rod.a) + " to itself");
    if (fields.has("length")) {
        rod.length = fields.positive("length");
    } else {
        rod.length = (fields.placeOf(rod.a) - fields.placeOf(rod.b)).norm();
        if (rod.length < 1e-12)
            fields.fail("", "zero-length rod: " + describeAnchor(rod.a) + " and " + describeAnchor(rod.b) +
                                " are at the same place (give a length)");
    }
    return rod;
}

void writeRod(const ConstraintSpec& spec, ConstraintFieldWriter& out) {
    const auto& rod = std::get<RodSpec>(spec);
    out.anchor("a", rod.a);
    out.anchor("b", rod.b);
    out.number("length", rod.length);
}

constexpr ConstraintParameter kRodParameters[] = {
    {.key = "length",
     .label = "length (m)",
     .help = "The distance the rod keeps between its ends.",
     .min = kMinScenePositive,
     .max = kMaxSceneMagnitude,
     .get = [](const ConstraintSpec& s) { return std::get<RodSpec>(s).length; },
     .set = [](ConstraintSpec& s, double v) { std::get<RodSpec>(s).length = v; }},
};

ConstraintFigure rodFigure(const ConstraintSpec&) { return {.link = ConstraintFigure::Link::Rod}; }

}  // namespace

const ConstraintKind RodSpec::kind{
    .name = "rod",
    .summary = "Keeps two particles or body points a fixed distance apart.",
    .keys = kRodKeys,
    .read = readRod,
    .write = writeRod,
    .parameters = kRodParameters,
    .figure = rodFigure,
    .make = makeConstraintOf<RodSpec, RodConstraint>,
};

}  // namespace tinkerbox
