#pragma once
// A progress bar on stderr, drawn only when stderr is a terminal and the run has
// already taken a while (short runs print nothing).
#include <chrono>

namespace tinkerbox {

class ProgressBar {
public:
    ProgressBar();
    ~ProgressBar();
    void update(double fraction, double simulatedTime, double endTime);

private:
    bool enabled_;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point start_, lastDraw_;
};

}  // namespace tinkerbox
