#include "core/constraints/PinConstraint.h"

#include <stdexcept>

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

}  // namespace tinkerbox
