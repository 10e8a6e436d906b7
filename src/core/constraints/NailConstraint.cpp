#include "core/constraints/NailConstraint.h"

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

}  // namespace tinkerbox
