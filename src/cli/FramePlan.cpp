#include "cli/FramePlan.h"

#include <cmath>

namespace tinkerbox {

std::optional<FramePlan> planFrames(std::optional<long> steps, std::optional<double> duration, double dt) {
    FramePlan plan;
    if (steps) {
        plan.wholeFrames = *steps;
        return plan;
    }
    const double seconds = duration.value_or(10.0);
    constexpr double kMaxFrames = 1e15;
    if (!(std::floor(seconds / dt) < kMaxFrames)) return std::nullopt;
    plan.wholeFrames = static_cast<long>(std::floor(seconds / dt));
    plan.lastFrame = seconds - static_cast<double>(plan.wholeFrames) * dt;
    if (plan.lastFrame <= 1e-9 * dt) {
        plan.lastFrame = 0.0;
    } else if (plan.lastFrame >= dt * (1.0 - 1e-9)) {  // seconds / dt rounded down across a whole number
        ++plan.wholeFrames;
        plan.lastFrame = 0.0;
    }
    return plan;
}

}  // namespace tinkerbox
