#include "core/constraints/ConstraintSpec.h"

#include <stdexcept>

#include "core/constraints/HingeConstraint.h"
#include "core/constraints/NailConstraint.h"
#include "core/constraints/PinConstraint.h"
#include "core/constraints/RodConstraint.h"
#include "core/constraints/SliderConstraint.h"
#include "core/constraints/WireConstraint.h"

namespace tinkerbox {

std::unique_ptr<Constraint> makeConstraint(const ConstraintSpec& spec) {
    return std::visit(
        [](const auto& s) -> std::unique_ptr<Constraint> {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, NailSpec>) return std::make_unique<NailConstraint>(s);
            else if constexpr (std::is_same_v<S, RodSpec>) return std::make_unique<RodConstraint>(s);
            else if constexpr (std::is_same_v<S, WireSpec>) return std::make_unique<WireConstraint>(s);
            else if constexpr (std::is_same_v<S, SliderSpec>) return std::make_unique<SliderConstraint>(s);
            else if constexpr (std::is_same_v<S, PinSpec>) return std::make_unique<PinConstraint>(s);
            else return std::make_unique<HingeConstraint>(s);
        },
        spec);
}

}  // namespace tinkerbox
