#include "core/constraints/WireConstraint.h"

#include <stdexcept>

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

}  // namespace tinkerbox
