#include "core/constraints/RodConstraint.h"

#include <stdexcept>

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

}  // namespace tinkerbox
