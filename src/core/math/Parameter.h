#pragma once
// One number or switch of a kind's settings (an integrator's CG tolerance, a contact model's
// freezing), as every layer sees it: the loader and the Solver panel check its range, the
// writer and tinkerbox-sim's options name it. Its range is written here once.
#include <string>
#include <string_view>

namespace tinkerbox {

// Every number in a scene is at most kMaxSceneMagnitude in magnitude (directions and
// normals excepted: only their direction counts), and every number that must be positive
// is at least kMinScenePositive: products of a few of them (energies, m r^2, 1/m) stay
// finite. Physical quantities are far inside these bounds.
inline constexpr double kMaxSceneMagnitude = 1e50;
inline constexpr double kMinScenePositive = 1e-50;

enum class ParameterType { Real, Count, Flag };

// Whether value is in [min, max] (a Count whole, a Flag 0 or 1); if not, why:
// "must be between 1 and 1000000 (got 0)".
bool parameterAccepts(ParameterType type, double min, double max, double value);
std::string parameterRangeError(ParameterType type, double min, double max, double value);
// "true", "500", "1e-16": a value as a scene file or an option writes it.
std::string parameterValueText(ParameterType type, double value);

template <class Settings>
struct Parameter {
    std::string_view key;          // its field in a scene file
    std::string_view option = {};  // tinkerbox-sim's option for it, without the dashes; empty: none
    std::string_view label = {};   // in the Solver panel or the inspector, with its unit
    std::string_view help = {};    // the field's tooltip and the option's help
    ParameterType type = ParameterType::Real;
    double min = 0.0, max = 1.0;  // inclusive (a Flag is 0 or 1)
    double (*get)(const Settings&) = nullptr;
    void (*set)(Settings&, double) = nullptr;

    bool accepts(double value) const { return parameterAccepts(type, min, max, value); }
    std::string rangeError(double value) const { return parameterRangeError(type, min, max, value); }
    std::string valueText(double value) const { return parameterValueText(type, value); }
};

}  // namespace tinkerbox
