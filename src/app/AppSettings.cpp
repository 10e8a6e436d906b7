#include "app/AppSettings.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "scene/SceneJson.h"

namespace tinkerbox {

namespace {

constexpr std::size_t kRecentFiles = 10;

std::filesystem::path xdgDirectory(const char* variable, const char* fallback) {
    if (const char* dir = std::getenv(variable); dir && *dir) return std::filesystem::path(dir) / "tinkerbox";
    const char* home = std::getenv("HOME");
    return std::filesystem::path(home && *home ? home : ".") / fallback / "tinkerbox";
}

}  // namespace

void AppSettings::addRecent(const std::string& path) {
    std::erase(recentFiles, path);
    recentFiles.insert(recentFiles.begin(), path);
    if (recentFiles.size() > kRecentFiles) recentFiles.resize(kRecentFiles);
}

std::filesystem::path configDirectory() { return xdgDirectory("XDG_CONFIG_HOME", ".config"); }
std::filesystem::path stateDirectory() { return xdgDirectory("XDG_STATE_HOME", ".local/state"); }
std::filesystem::path autosavePath() { return stateDirectory() / "autosave.json"; }

AppSettings loadAppSettings() {
    AppSettings settings;
    std::ifstream in(configDirectory() / "settings.json");
    if (!in) return settings;
    const nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
    if (!json.is_object()) return settings;
    settings.windowWidth = std::max(320, json.value("window_width", settings.windowWidth));
    settings.windowHeight = std::max(240, json.value("window_height", settings.windowHeight));
    settings.lastScene = json.value("last_scene", std::string());
    settings.integrator = json.value("integrator", std::string());
    settings.timelineMegabytes = std::clamp(json.value("timeline_mb", settings.timelineMegabytes), 1, 1 << 20);
    if (json.contains("recent_files") && json["recent_files"].is_array())
        for (const auto& f : json["recent_files"])
            if (f.is_string()) settings.recentFiles.push_back(f.get<std::string>());
    return settings;
}

void saveAppSettings(const AppSettings& settings) {
    const nlohmann::json json = {{"window_width", settings.windowWidth},
                                 {"window_height", settings.windowHeight},
                                 {"last_scene", settings.lastScene},
                                 {"integrator", settings.integrator},
                                 {"timeline_mb", settings.timelineMegabytes},
                                 {"recent_files", settings.recentFiles}};
    std::filesystem::create_directories(configDirectory());
    writeFileAtomically(configDirectory() / "settings.json", json.dump(2) + "\n");
}

}  // namespace tinkerbox
