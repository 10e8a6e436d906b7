#include "core/constraints/PinConstraint.h"

#include <stdexcept>

#include "core/dynamics/ParticleSystem.h"

namespace tinkerbox {

PinConstraint::PinConstraint(const PinSpec& spec) : spec_(spec) {
    if (spec.a == spec.b) throw std::invalid_argument("a pin must join two different particles");
}

void PinConstraint::evaluate(const ParticleSystem& ps, ConstraintRows& rows) const {
    const Vec3 c = ps.position(spec_.a) - ps.position(spec_.b);
    const Vec3 cdot = ps.velocity(spec_.a) - ps.velocity(spec_.b);
    for (int r = 0; r < 3; ++r) {
        rows.C[r] = c[r];
        rows.Cdot[r] = cdot[r];
        rows.j(r, 0) = Vec3::Unit(r);
        rows.j(r, 1) = -Vec3::Unit(r);
        rows.jdot(r, 0).setZero();
        rows.jdot(r, 1).setZero();
    }
}

}  // namespace tinkerbox
