#pragma once
// A transient line in the status bar: what was saved, what could not be opened, which
// integrator was chosen. Times are the window clock's (glfwGetTime).
#include <string>

namespace tinkerbox {

struct Notice {
    std::string text;
    double until = 0.0;

    void show(std::string message, double now, double seconds) {
        text = std::move(message);
        until = now + seconds;
    }
    bool showing(double now) const { return !text.empty() && now < until; }
};

}  // namespace tinkerbox
