#include "cli/Progress.h"

#include <unistd.h>

#include <cstdio>

namespace tinkerbox {

namespace {
constexpr auto kDelay = std::chrono::milliseconds(500);
constexpr auto kInterval = std::chrono::milliseconds(100);
constexpr int kWidth = 30;
}  // namespace

ProgressBar::ProgressBar()
    : enabled_(::isatty(STDERR_FILENO) == 1), start_(std::chrono::steady_clock::now()), lastDraw_(start_) {}

ProgressBar::~ProgressBar() {
    if (drawn_) std::fprintf(stderr, "\r%*s\r", kWidth + 40, "");
}

void ProgressBar::update(double fraction, double simulatedTime, double endTime) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - start_ < kDelay || now - lastDraw_ < kInterval) return;
    lastDraw_ = now;
    drawn_ = true;
    const int filled = static_cast<int>(fraction * kWidth);
    std::fprintf(stderr, "\r[%.*s%*s] %3d%%  t = %.3f / %.3f s", filled, "##############################",
                 kWidth - filled, "", static_cast<int>(100 * fraction), simulatedTime, endTime);
    std::fflush(stderr);
}

}  // namespace tinkerbox
