#include "app/AppSettings.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
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

// A setting of the expected type, or `fallback` when it is missing or of another type (a
// hand-edited file must not stop the app, nor set what it did not mean to).
double number(const nlohmann::json& json, const char* key, double fallback) {
    const auto it = json.find(key);
    return it != json.end() && it->is_number() ? it->get<double>() : fallback;
}
int integer(const nlohmann::json& json, const char* key, int fallback) {
    const auto it = json.find(key);
    if (it == json.end() || !it->is_number_integer()) return fallback;
    if (it->is_number_unsigned())
        return static_cast<int>(std::min<std::uint64_t>(it->get<std::uint64_t>(), std::numeric_limits<int>::max()));
    return static_cast<int>(std::clamp<std::int64_t>(it->get<std::int64_t>(), std::numeric_limits<int>::min(),
                                                     std::numeric_limits<int>::max()));
}
bool boolean(const nlohmann::json& json, const char* key, bool fallback) {
    const auto it = json.find(key);
    return it != json.end() && it->is_boolean() ? it->get<bool>() : fallback;
}
std::string text(const nlohmann::json& json, const char* key) {
    const auto it = json.find(key);
    return it != json.end() && it->is_string() ? it->get<std::string>() : std::string();
}
const nlohmann::json& object(const nlohmann::json& json, const char* key) {
    static const nlohmann::json empty = nlohmann::json::object();
    const auto it = json.find(key);
    return it != json.end() && it->is_object() ? *it : empty;
}

ToolSettings readTools(const nlohmann::json& json) {
    ToolSettings t;
    NewElementSettings& n = t.newElements;
    n.particleMass = number(json, "particle_mass", n.particleMass);
    n.springStiffness = number(json, "spring_stiffness", n.springStiffness);
    n.springDamping = number(json, "spring_damping", n.springDamping);
    n.bodyMass = number(json, "body_mass", n.bodyMass);
    n.boxSize = number(json, "box_size", n.boxSize);
    n.sphereRadius = number(json, "sphere_radius", n.sphereRadius);
    // The grid's spacing; snapping itself (Ctrl+G) starts off in every run.
    t.grid.spacing = number(object(json, "grid"), "spacing", t.grid.spacing);
    const nlohmann::json& chain = object(json, "chain");
    t.chain.particles = integer(chain, "particles", t.chain.particles);
    t.chain.rods = boolean(chain, "rods", t.chain.rods);
    t.chain.slack = number(chain, "slack", t.chain.slack);
    const nlohmann::json& cloth = object(json, "cloth");
    t.cloth.particles = integer(cloth, "particles", t.cloth.particles);
    t.cloth.size = number(cloth, "size", t.cloth.size);
    t.cloth.density = number(cloth, "density", t.cloth.density);
    t.cloth.material.stretch = number(cloth, "stretch", t.cloth.material.stretch);
    t.cloth.material.shear = number(cloth, "shear", t.cloth.material.shear);
    t.cloth.material.bend = number(cloth, "bend", t.cloth.material.bend);
    const nlohmann::json& hair = object(json, "hair");
    t.hair.strands = integer(hair, "strands", t.hair.strands);
    t.hair.particles = integer(hair, "particles", t.hair.particles);
    t.hair.segment = number(hair, "segment", t.hair.segment);
    t.hair.radius = number(hair, "radius", t.hair.radius);
    t.hair.curl = number(hair, "curl", t.hair.curl);
    t.hair.material.bend = number(hair, "bend", t.hair.material.bend);
    t.hair.material.twist = number(hair, "twist", t.hair.material.twist);
    clampSettings(t);
    return t;
}

nlohmann::json writeTools(const ToolSettings& t) {
    const NewElementSettings& n = t.newElements;
    return {{"particle_mass", n.particleMass},
            {"spring_stiffness", n.springStiffness},
            {"spring_damping", n.springDamping},
            {"body_mass", n.bodyMass},
            {"box_size", n.boxSize},
            {"sphere_radius", n.sphereRadius},
            {"grid", {{"spacing", t.grid.spacing}}},
            {"chain", {{"particles", t.chain.particles}, {"rods", t.chain.rods}, {"slack", t.chain.slack}}},
            {"cloth",
             {{"particles", t.cloth.particles},
              {"size", t.cloth.size},
              {"density", t.cloth.density},
              {"stretch", t.cloth.material.stretch},
              {"shear", t.cloth.material.shear},
              {"bend", t.cloth.material.bend}}},
            {"hair",
             {{"strands", t.hair.strands},
              {"particles", t.hair.particles},
              {"segment", t.hair.segment},
              {"radius", t.hair.radius},
              {"curl", t.hair.curl},
              {"bend", t.hair.material.bend},
              {"twist", t.hair.material.twist}}}};
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
    settings.windowWidth = std::clamp(integer(json, "window_width", settings.windowWidth), 320, 1 << 16);
    settings.windowHeight = std::clamp(integer(json, "window_height", settings.windowHeight), 240, 1 << 16);
    settings.lastScene = text(json, "last_scene");
    settings.integrator = text(json, "integrator");
    settings.timelineMegabytes = std::clamp(integer(json, "timeline_mb", settings.timelineMegabytes), 1, 1 << 20);
    if (json.contains("recent_files") && json["recent_files"].is_array())
        for (const auto& f : json["recent_files"])
            if (f.is_string()) settings.recentFiles.push_back(f.get<std::string>());
    settings.tools = readTools(object(json, "tools"));
    return settings;
}

void saveAppSettings(const AppSettings& settings) {
    const nlohmann::json json = {{"window_width", settings.windowWidth},      {"window_height", settings.windowHeight},
                                 {"last_scene", settings.lastScene},          {"integrator", settings.integrator},
                                 {"timeline_mb", settings.timelineMegabytes}, {"recent_files", settings.recentFiles},
                                 {"tools", writeTools(settings.tools)}};
    std::filesystem::create_directories(configDirectory());
    writeFileAtomically(configDirectory() / "settings.json", json.dump(2) + "\n");
}

}  // namespace tinkerbox
