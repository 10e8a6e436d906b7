#pragma once
// Numbers typed into the panels' fields, which take anything strtod reads ("nan", "inf",
// 1e400), or read back from the app's settings file.
#include <algorithm>
#include <cmath>

namespace tinkerbox {

// x brought into [low, high]; not a number (a typed "nan") becomes low.
inline double clampTyped(double x, double low, double high) { return std::isnan(x) ? low : std::clamp(x, low, high); }

}  // namespace tinkerbox
