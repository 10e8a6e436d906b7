#pragma once
// JSON text for the scene loader: parsing with the limits a hostile file needs, and the
// place (line and column) of each value, keyed by its path in the form the loader's
// messages use: "springs[3].b", "settings.dt".
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

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

class JsonLocations {
public:
    // Indexes a JSON text, in one pass, up to the end or up to the first error (see
    // failure()). Built only when a load fails, so that big scenes cost nothing when
    // they are valid.
    explicit JsonLocations(std::string_view text);

    // Where parsing stopped, when the text does not parse: the path of the value being
    // read and its location.
    struct Failure {
        std::string path;
        TextLocation location;
    };
    const std::optional<Failure>& failure() const { return failure_; }

    // The location of the value at path, or of its nearest ancestor that exists
    // (a missing key is reported at the object that should hold it).
    TextLocation find(std::string path) const;

    // Line and column of a byte offset.
    static TextLocation locate(std::string_view text, std::size_t offset);

private:
    std::unordered_map<std::string, TextLocation> locations_;
    std::optional<Failure> failure_;
};

}  // namespace tinkerbox
