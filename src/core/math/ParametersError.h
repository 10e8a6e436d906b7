#pragma once
// Settings checked against their kind's parameters, as the editor's setters check an edit.
#include <span>
#include <string>

#include "core/math/Parameter.h"

namespace tinkerbox {

// Why settings are refused: the first parameter out of its range, as "label why"
// ("gust size (m) must be between ..."); empty when every one is in range.
template <class Settings>
std::string parametersError(std::span<const Parameter<Settings>> parameters, const Settings& settings) {
    for (const Parameter<Settings>& p : parameters)
        if (std::string why = p.rangeError(p.get(settings)); !why.empty()) return std::string(p.label) + " " + why;
    return {};
}

}  // namespace tinkerbox
