#pragma once
// How many frames of dt a run takes: a number of frames, or whole frames of dt up to a
// duration and then (for a duration dt does not divide) one shortened frame that ends the
// run exactly there.
#include <optional>

namespace tinkerbox {

struct FramePlan {
    long wholeFrames = 0;
    double lastFrame = 0.0;  // seconds; 0: none

    long frames() const { return wholeFrames + (lastFrame > 0.0 ? 1 : 0); }
    double endTime(double dt) const { return static_cast<double>(wholeFrames) * dt + lastFrame; }
};

// steps: the frame count, else duration (default 10 s). Nothing for a run of more than
// 1e15 frames, a count beyond a long (undefined to convert, and it would never end).
std::optional<FramePlan> planFrames(std::optional<long> steps, std::optional<double> duration, double dt);

}  // namespace tinkerbox
