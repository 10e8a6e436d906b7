#include "core/constraints/NailConstraint.h"

#include <string_view>

#include "core/constraints/ConstraintKind.h"

namespace tinkerbox {

void NailConstraint::evaluate(std::span<const AnchorKinematics> anchors, ConstraintRows& rows) const {
    const Vec3 c = anchors[0].position - spec_.point;
    const Vec3 cdot = anchors[0].velocity - pointVelocity_;
    for (int r = 0; r < 3; ++r) {
        rows.C[r] = c[r];
        rows.Cdot[r] = cdot[r];
        rows.point(r, 0, Vec3::Unit(r), Vec3::Zero());
    }
}

// --- Its kind: the file format, the figure, the factory ----------------------------------

namespace {

constexpr std::string_view kNailKeys[] = {"particle", "anchor", "point"};

ConstraintSpec readNail(const ConstraintFields& fields) {
    NailSpec nail;
    nail.anchor = readOneEnd(fields);
    nail.point = fields.has("point") ? fields.point("point") : fields.placeOf(nail.anchor);
    return nail;
}

void writeNail(const ConstraintSpec& spec, ConstraintFieldWriter& out) {
    const auto& nail = std::get<NailSpec>(spec);
    out.anchor("anchor", nail.anchor);
    out.vector("point", nail.point);
}

ConstraintFigure nailFigure(const ConstraintSpec& spec) { return {.pivot = std::get<NailSpec>(spec).point}; }

}  // namespace

const ConstraintKind NailSpec::kind{
    .name = "nail",
    .summary = "Holds a particle or a point of a body at a point in the world.",
    .keys = kNailKeys,
    .read = readNail,
    .write = writeNail,
    .figure = nailFigure,
    .make = makeConstraintOf<NailSpec, NailConstraint>,
};

}  // namespace tinkerbox
