#include "core/constraints/RodConstraint.h"

#include <stdexcept>

#include "core/dynamics/ParticleSystem.h"

namespace tinkerbox {

RodConstraint::RodConstraint(const RodSpec& spec) : spec_(spec) {
    if (spec.a == spec.b) throw std::invalid_argument("a rod must join two different particles");
    if (!(spec.length > 0.0)) throw std::invalid_argument("a rod must have a positive length");
}

void RodConstraint::evaluate(const ParticleSystem& ps, ConstraintRows& rows) const {
    const Vec3 l = ps.position(spec_.a) - ps.position(spec_.b);
    const Vec3 ldot = ps.velocity(spec_.a) - ps.velocity(spec_.b);
    const double length = l.norm();
    rows.C[0] = length - spec_.length;
    if (length < 1e-12 * spec_.length) {  // the direction is undefined: the rod exerts nothing
        rows.Cdot[0] = 0.0;
        rows.j(0, 0) = rows.j(0, 1) = rows.jdot(0, 0) = rows.jdot(0, 1) = Vec3::Zero();
        return;
    }
    const Vec3 n = l / length;
    const Vec3 ndot = (ldot - n.dot(ldot) * n) / length;
    rows.Cdot[0] = n.dot(ldot);
    rows.j(0, 0) = n;
    rows.j(0, 1) = -n;
    rows.jdot(0, 0) = ndot;
    rows.jdot(0, 1) = -ndot;
}

}  // namespace tinkerbox
