#include "core/constraints/SliderConstraint.h"

#include <stdexcept>
#include <string_view>

#include "core/constraints/ConstraintKind.h"

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

// --- Its kind: the file format, the figure, the factory ----------------------------------

namespace {

constexpr std::string_view kSliderKeys[] = {"particle", "anchor", "point", "direction"};

ConstraintSpec readSlider(const ConstraintFields& fields) {
    SliderSpec slider;
    slider.anchor = readOneEnd(fields);
    slider.point = fields.has("point") ? fields.point("point") : fields.placeOf(slider.anchor);
    slider.direction = fields.direction("direction");
    return slider;
}

void writeSlider(const ConstraintSpec& spec, ConstraintFieldWriter& out) {
    const auto& slider = std::get<SliderSpec>(spec);
    out.anchor("anchor", slider.anchor);
    out.vector("point", slider.point);
    out.vector("direction", slider.direction);
}

ConstraintFigure sliderFigure(const ConstraintSpec& spec) {
    const auto& slider = std::get<SliderSpec>(spec);
    return {.guide = ConstraintFigure::Line{slider.point, slider.direction}};
}

}  // namespace

const ConstraintKind SliderSpec::kind{
    .name = "slider",
    .summary = "Keeps a particle or a body point on a line through a point.",
    .keys = kSliderKeys,
    .read = readSlider,
    .write = writeSlider,
    .figure = sliderFigure,
    .make = makeConstraintOf<SliderSpec, SliderConstraint>,
};

}  // namespace tinkerbox
