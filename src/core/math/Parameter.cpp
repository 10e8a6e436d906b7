#include "core/math/Parameter.h"

#include <cmath>
#include <cstdio>

namespace tinkerbox {

bool parameterAccepts(ParameterType type, double min, double max, double value) {
    if (!(value >= min && value <= max)) return false;  // also NaN
    return type == ParameterType::Real || value == std::floor(value);
}

std::string parameterValueText(ParameterType type, double value) {
    if (type == ParameterType::Flag) return value != 0.0 ? "true" : "false";
    char text[32];
    std::snprintf(text, sizeof text, "%.15g", value);
    return text;
}

std::string parameterRangeError(ParameterType type, double min, double max, double value) {
    if (parameterAccepts(type, min, max, value)) return {};
    if (type == ParameterType::Flag) return "must be true or false";
    const std::string got = " (got " + parameterValueText(type, value) + ")";
    if (type == ParameterType::Count && value >= min && value <= max) return "must be a whole number" + got;
    return "must be between " + parameterValueText(type, min) + " and " + parameterValueText(type, max) + got;
}

}  // namespace tinkerbox
