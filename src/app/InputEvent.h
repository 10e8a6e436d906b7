#pragma once
// Input as the app sees it: every event, whether GLFW delivered it or an input script
// replays it, goes through one queue and one dispatcher. Keys are GLFW key codes and
// positions are window pixels, so that a recording replays exactly. Screenshot comes from
// scripts only: the frame it happens on is saved as a PNG once it is drawn.
#include <string>
#include <vector>

namespace tinkerbox {

struct InputEvent {
    enum class Type { Key, Char, MouseButton, CursorPos, Scroll, Drop, Screenshot };
    Type type = Type::Key;
    int key = 0;                     // Key: GLFW key code; MouseButton: GLFW button
    int action = 0;                  // Key, MouseButton: GLFW_PRESS, GLFW_RELEASE or GLFW_REPEAT
    int mods = 0;                    // GLFW_MOD_* bits
    unsigned codepoint = 0;          // Char
    double x = 0.0, y = 0.0;         // CursorPos: window pixels; Scroll: offsets
    std::vector<std::string> paths;  // Drop; Screenshot: the PNG file
};

}  // namespace tinkerbox
