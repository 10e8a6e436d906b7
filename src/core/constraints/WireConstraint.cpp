#include "core/constraints/WireConstraint.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>

#include "core/constraints/ConstraintKind.h"

namespace tinkerbox {

WireConstraint::WireConstraint(const WireSpec& spec) : spec_(spec) {
    if (!(spec.radius > 0.0)) throw std::invalid_argument("a wire must have a positive radius");
    const std::optional<Vec3> normal = unitVector(spec.normal);
    if (!normal) throw std::invalid_argument("a wire's normal must be finite and not zero");
    spec_.normal = *normal;
}

void WireConstraint::evaluate(std::span<const AnchorKinematics> anchors, ConstraintRows& rows) const {
    const Vec3& N = spec_.normal;
    const Vec3 d = anchors[0].position - spec_.center;
    const Vec3 v = anchors[0].velocity;
    rows.C[0] = N.dot(d);
    rows.Cdot[0] = N.dot(v);
    rows.point(0, 0, N, Vec3::Zero());
    const double distance = d.norm();
    rows.C[1] = distance - spec_.radius;
    if (distance < 1e-12 * spec_.radius) {  // at the centre the radial direction is undefined
        rows.Cdot[1] = 0.0;
        return;
    }
    const Vec3 n = d / distance;
    rows.Cdot[1] = n.dot(v);
    rows.point(1, 0, n, (v - n.dot(v) * n) / distance);
}

// --- Its kind: the file format, the radius the inspector edits, the figure, the factory -

namespace {

constexpr std::string_view kWireKeys[] = {"particle", "anchor", "center", "radius", "normal"};

ConstraintSpec readWire(const ConstraintFields& fields) {
    WireSpec wire;
    wire.anchor = readOneEnd(fields);
    wire.center = fields.point("center");
    wire.normal = fields.has("normal") ? fields.direction("normal") : Vec3::UnitZ();
    const double distance = (fields.placeOf(wire.anchor) - wire.center).norm();
    wire.radius = fields.has("radius") ? fields.positive("radius") : distance;
    if (distance < 1e-9 * std::max(1.0, wire.radius))
        fields.fail("", "the bead (" + describeAnchor(wire.anchor) + ") is at its wire's centre");
    return wire;
}

void writeWire(const ConstraintSpec& spec, ConstraintFieldWriter& out) {
    const auto& wire = std::get<WireSpec>(spec);
    out.anchor("anchor", wire.anchor);
    out.vector("center", wire.center);
    out.number("radius", wire.radius);
    out.vector("normal", wire.normal);
}

constexpr ConstraintParameter kWireParameters[] = {
    {.key = "radius",
     .label = "radius (m)",
     .help = "The radius of the circle the bead stays on.",
     .min = kMinScenePositive,
     .max = kMaxSceneMagnitude,
     .get = [](const ConstraintSpec& s) { return std::get<WireSpec>(s).radius; },
     .set = [](ConstraintSpec& s, double v) { std::get<WireSpec>(s).radius = v; }},
};

ConstraintFigure wireFigure(const ConstraintSpec& spec) {
    const auto& wire = std::get<WireSpec>(spec);
    return {.circle = ConstraintFigure::Circle{wire.center, wire.normal, wire.radius}};
}

}  // namespace

const ConstraintKind WireSpec::kind{
    .name = "wire",
    .summary = "Keeps a bead on a circle: in the circle's plane, at its radius from the centre.",
    .keys = kWireKeys,
    .read = readWire,
    .write = writeWire,
    .parameters = kWireParameters,
    .figure = wireFigure,
    .make = makeConstraintOf<WireSpec, WireConstraint>,
};

}  // namespace tinkerbox
