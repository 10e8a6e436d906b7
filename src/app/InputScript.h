#pragma once
// Input scripts: recorded input, replayed through the same path as real input.
//
// One event per line, prefixed by the frame it happens on (counted from the start):
//   <frame> key <KEY> [press|release|repeat] [mods]   e.g. "12 key P", "40 key Q press ctrl"
//   <frame> char <codepoint>
//   <frame> move <x> <y>                              cursor position in window pixels
//   <frame> button <left|right|middle> <press|release> [mods]
//   <frame> scroll <dx> <dy>
//   <frame> drop <path>
//   <frame> screenshot <path>                         save the view as drawn this frame
// "key K" without an action is a press followed by a release on the next frame. Key names
// are GLFW's: letters, digits, SPACE, ESCAPE, ENTER, BACKSPACE, DELETE, TAB, PERIOD, F1..F12,
// LEFT, RIGHT, UP, DOWN. Mods are shift, ctrl, alt joined by '+'. Lines starting with '#'
// and blank lines are ignored.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "app/InputEvent.h"

namespace tinkerbox {

struct ScriptedEvent {
    long frame = 0;
    InputEvent event;
};

// Throws std::runtime_error naming the file and line of a malformed line.
std::vector<ScriptedEvent> loadInputScript(const std::filesystem::path& file);
std::vector<ScriptedEvent> parseInputScript(const std::string& text, const std::string& source);
// The line that replays an event (for recording).
std::string formatScriptedEvent(const ScriptedEvent& e);

int keyFromName(const std::string& name);  // -1 when unknown
std::string keyName(int key);

}  // namespace tinkerbox
