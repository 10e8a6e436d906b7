#include "core/constraints/NailConstraint.h"

#include "core/dynamics/ParticleSystem.h"

namespace tinkerbox {

void NailConstraint::evaluate(const ParticleSystem& ps, ConstraintRows& rows) const {
    const Vec3 c = ps.position(spec_.particle) - spec_.point;
    const Vec3 cdot = ps.velocity(spec_.particle) - pointVelocity_;
    for (int r = 0; r < 3; ++r) {
        rows.C[r] = c[r];
        rows.Cdot[r] = cdot[r];
        rows.j(r, 0) = Vec3::Unit(r);
        rows.jdot(r, 0).setZero();
    }
}

}  // namespace tinkerbox
