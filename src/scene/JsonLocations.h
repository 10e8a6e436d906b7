#pragma once
// JSON text for the scene loader: parsing with the limits a hostile file needs, and the
// place (line and column) of a value, found by its path in the form the loader's messages
// use: "springs[3].b", "settings.dt".
#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

namespace tinkerbox {

struct TextLocation {
    int line = 0;  // 1-based; 0 when unknown
    int column = 0;
};

// A scene needs 4 levels of nesting; 256 leaves room and bounds what a parse keeps per level.
inline constexpr std::size_t kMaxJsonDepth = 256;

// Why a JSON text cannot be a scene's document, and where.
struct JsonTextError {
    TextLocation location;
    std::string path;  // of the value being read; empty when it names nothing useful
    std::string message;
};

// The document of a JSON text, or a JsonTextError (thrown) for malformed text, nesting
// deeper than kMaxJsonDepth, a key given twice in one object (at the second copy), and a
// number too large for a double. One pass; the cost of a failure is at most that of a
// success.
nlohmann::json parseJsonDocument(std::string_view text);

// The place of the value at path ("springs[3].b") in a JSON text, or of its nearest
// ancestor that exists (a missing key is reported at the object that should hold it);
// {} for a text that does not parse before the path's first component. One pass that
// stops where the value is found, and keeps only the paths that lead to it: locating an
// error costs no more than parsing the text.
TextLocation locateJsonPath(std::string_view text, std::string_view path);

// Line and column of a byte offset.
TextLocation locateOffset(std::string_view text, std::size_t offset);

}  // namespace tinkerbox
