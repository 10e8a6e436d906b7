#pragma once
// Where each value of a JSON text starts (line and column), keyed by its path in the
// form the scene loader's messages use: "springs[3].b", "settings.dt". Built only
// when a load fails, so that big scenes cost nothing when they are valid.
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tinkerbox {

struct TextLocation {
    int line = 0;  // 1-based; 0 when unknown
    int column = 0;
};

class JsonLocations {
public:
    // Indexes a JSON text up to the end, or up to the first error (see failure()).
    explicit JsonLocations(std::string_view text);

    // Where parsing stopped, when the text does not parse: the path of the value being
    // read (e.g. the number that overflows a double) and its location.
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
