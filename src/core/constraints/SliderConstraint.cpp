#include "core/constraints/SliderConstraint.h"

#include <stdexcept>

namespace tinkerbox {

SliderConstraint::SliderConstraint(const SliderSpec& spec) : spec_(spec) {
    const std::optional<Vec3> direction = unitVector(spec.direction);
    if (!direction) throw std::invalid_argument("a slider's direction must be finite and not zero");
    spec_.direction = *direction;
    orthonormalComplement(spec_.direction, u_, w_);
}

void SliderConstraint::evaluate(std::span<const AnchorKinematics> anchors, ConstraintRows& rows) const {
    const Vec3 d = anchors[0].position - spec_.point;
    const Vec3 v = anchors[0].velocity;
    const Vec3* axes[2] = {&u_, &w_};
    for (int r = 0; r < 2; ++r) {
        rows.C[r] = axes[r]->dot(d);
        rows.Cdot[r] = axes[r]->dot(v);
        rows.point(r, 0, *axes[r], Vec3::Zero());
    }
}

}  // namespace tinkerbox
