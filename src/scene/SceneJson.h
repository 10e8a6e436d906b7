#pragma once
// Scene files: JSON with a format name and version (docs/scene-format.md). The
// loader checks everything and either returns a whole scene or throws a SceneError
// that names the place: "chain.json:14:12: springs[3].b: particle 12 out of range
// (7 particles)". Saving writes a temporary file and renames it over the target.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/math/Parameter.h"
#include "scene/Scene.h"

namespace tinkerbox {

inline constexpr std::string_view kSceneFormat = "tinkerbox-scene";
inline constexpr int kSceneVersion = 2;

class SceneError : public std::runtime_error {
public:
    SceneError(std::string source, int line, int column, std::string path, std::string message);

    const std::string& source() const { return source_; }  // file name, or a label
    int line() const { return line_; }                     // 0 when unknown
    int column() const { return column_; }
    const std::string& path() const { return path_; }  // e.g. "springs[3].b"; empty for the whole file
    const std::string& message() const { return message_; }

private:
    std::string source_;
    int line_;
    int column_;
    std::string path_;
    std::string message_;
};

// source names the text in error messages (usually the file name).
Scene parseScene(std::string_view text, const std::string& source = "<scene>");
Scene loadScene(const std::filesystem::path& file);

// Throws std::invalid_argument naming the place of a number that is not finite (JSON has
// none): such a scene is not saved.
std::string serializeScene(const Scene& scene);
// Atomic: the target is either the old file or the whole new one. Throws
// std::runtime_error naming the file when it cannot be written.
void saveScene(const Scene& scene, const std::filesystem::path& file);
// The same for any text: written to a temporary file, flushed to disk, renamed.
void writeFileAtomically(const std::filesystem::path& file, const std::string& text);

}  // namespace tinkerbox
