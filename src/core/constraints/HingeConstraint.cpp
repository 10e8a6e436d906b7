#include "core/constraints/HingeConstraint.h"

#include <stdexcept>
#include <string_view>
#include <utility>

#include "core/constraints/ConstraintKind.h"

namespace tinkerbox {

HingeConstraint::HingeConstraint(const HingeSpec& spec) : spec_(spec) {
    if (!spec.a.isRigid() || !spec.b.isRigid() || spec.a.body == spec.b.body)
        throw std::invalid_argument("a hinge must join points of two different rigid bodies");
    const std::optional<Vec3> axisA = unitVector(spec.axisA), axisB = unitVector(spec.axisB);
    if (!axisA || !axisB) throw std::invalid_argument("a hinge's axes must be finite and not zero");
    spec_.axisA = *axisA;
    spec_.axisB = *axisB;
    orthonormalComplement(spec_.axisB, b1_, b2_);
}

void HingeConstraint::evaluate(std::span<const AnchorKinematics> anchors, ConstraintRows& rows) const {
    const AnchorKinematics& A = anchors[0];
    const AnchorKinematics& B = anchors[1];
    const Vec3 c = A.position - B.position;
    const Vec3 cdot = A.velocity - B.velocity;
    for (int r = 0; r < 3; ++r) {
        rows.C[r] = c[r];
        rows.Cdot[r] = cdot[r];
        rows.point(r, 0, Vec3::Unit(r), Vec3::Zero());
        rows.point(r, 1, -Vec3::Unit(r), Vec3::Zero());
    }
    const Vec3 a = A.rotation * spec_.axisA;
    const Vec3 adot = A.angularVelocity.cross(a);
    const Vec3 relative = A.angularVelocity - B.angularVelocity;
    const Vec3* perpendiculars[2] = {&b1_, &b2_};
    for (int i = 0; i < 2; ++i) {
        const Vec3 b = B.rotation * *perpendiculars[i];
        const Vec3 bdot = B.angularVelocity.cross(b);
        const Vec3 axb = a.cross(b);
        const Vec3 axbDot = adot.cross(b) + a.cross(bdot);
        rows.C[3 + i] = a.dot(b);
        rows.Cdot[3 + i] = axb.dot(relative);
        rows.angular(3 + i, 0, axb, axbDot);
        rows.angular(3 + i, 1, -axb, -axbDot);
    }
}

// --- Its kind: the file format, the figure, the factory ----------------------------------

namespace {

constexpr std::string_view kHingeKeys[] = {"a", "b", "axis_a", "axis_b"};

ConstraintSpec readHinge(const ConstraintFields& fields) {
    HingeSpec hinge;
    hinge.a = fields.anchor("a");
    hinge.b = fields.anchor("b");
    for (const auto& [key, end] : {std::pair{"a", hinge.a}, std::pair{"b", hinge.b}})
        if (!end.isRigid())
            fields.fail(key, "a hinge joins points of rigid bodies: expected {\"body\": i, \"point\": [x, y, z]}");
    if (hinge.a.body == hinge.b.body) fields.fail("", "hinge joins " + describeAnchor(hinge.a) + " to itself");
    hinge.axisA = fields.direction("axis_a");
    // Body b's axis defaults to the same world line as body a's.
    const Quat qa = fields.bodyOrientation(hinge.a.index()), qb = fields.bodyOrientation(hinge.b.index());
    hinge.axisB = fields.has("axis_b") ? fields.direction("axis_b") : Vec3(qb.conjugate() * (qa * hinge.axisA));
    return hinge;
}

void writeHinge(const ConstraintSpec& spec, ConstraintFieldWriter& out) {
    const auto& hinge = std::get<HingeSpec>(spec);
    out.anchor("a", hinge.a);
    out.anchor("b", hinge.b);
    out.vector("axis_a", hinge.axisA);
    out.vector("axis_b", hinge.axisB);
}

ConstraintFigure hingeFigure(const ConstraintSpec&) { return {}; }

}  // namespace

const ConstraintKind HingeSpec::kind{
    .name = "hinge",
    .summary = "Joins two bodies at a point about an axis fixed in both: a door's hinge, a wheel's axle.",
    .capabilities = static_cast<unsigned>(ConstraintCapability::MakesAnchorsCoincide),
    .keys = kHingeKeys,
    .read = readHinge,
    .write = writeHinge,
    .figure = hingeFigure,
    .make = makeConstraintOf<HingeSpec, HingeConstraint>,
};

}  // namespace tinkerbox
