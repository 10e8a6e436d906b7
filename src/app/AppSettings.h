#pragma once
// What the app remembers between runs, in the user's config directory
// ($XDG_CONFIG_HOME/tinkerbox/settings.json, else ~/.config/tinkerbox/settings.json), and
// where it autosaves the scene being edited ($XDG_STATE_HOME/tinkerbox/autosave.json, else
// ~/.local/state/tinkerbox/autosave.json). A crash loses at most about the last second: the
// autosave is written (atomically) soon after every edit (AutosaveSchedule) and removed on a
// clean exit, so the next start can offer to restore it.
#include <filesystem>
#include <string>
#include <vector>

#include "editor/ToolSettings.h"

namespace tinkerbox {

struct AppSettings {
    int windowWidth = 1280;
    int windowHeight = 800;
    std::string lastScene;   // a file path, or "example:NAME" for a built-in (example or benchmark) scene
    std::string integrator;  // the solver last chosen, applied to scenes opened from the list ("" = the scene's own)
    std::vector<std::string> recentFiles;  // newest first
    int timelineMegabytes = 256;           // the memory the timeline's frames may take (Timeline.h)
    ToolSettings tools;                    // what the building tools make, as last set (clamped when read)

    void addRecent(const std::string& path);
};

std::filesystem::path configDirectory();
std::filesystem::path stateDirectory();

// Missing or unreadable settings give the defaults, each missing or unreadable one its default
// (the app must start regardless).
AppSettings loadAppSettings();
void saveAppSettings(const AppSettings& settings);  // throws std::runtime_error

std::filesystem::path autosavePath();

}  // namespace tinkerbox
