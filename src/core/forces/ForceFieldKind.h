#pragma once
// What the program knows about a kind of force field besides its force: its name (its key in
// a scene file), its fields with their ranges (which the loader checks, the writer writes, the
// editor checks its edits against and the Solver panel draws), a field to start from, and its
// factory. Each field defines its kind next to its force, as its spec's `kind`;
// forceFieldKinds() lists them in the order of the ForceFieldSpec variant, so a new field is its
// own files plus its alternative there.
#include <array>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/forces/ForceFieldSpec.h"
#include "core/math/Parameter.h"

namespace tinkerbox {

class Force;

using ForceFieldParameter = Parameter<ForceFieldSpec>;

// A vector of a field's settings (the wind's mean velocity): any finite vector at most
// kMaxSceneMagnitude long in each coordinate.
struct ForceFieldVector {
    std::string_view key;         // its field in a scene file
    std::string_view label = {};  // in the Solver panel, with its unit
    std::string_view help = {};
    Vec3 (*get)(const ForceFieldSpec&) = nullptr;
    void (*set)(ForceFieldSpec&, const Vec3&) = nullptr;
};

struct ForceFieldKind {
    std::string_view name;          // its key in a scene file and its header in the Solver panel
    std::string_view label = {};    // the Solver panel's switch for it
    std::string_view summary = {};  // one line, for tooltips and documentation
    // Its fields in a scene file, in the order the writer writes them: vectors, then numbers.
    std::span<const ForceFieldVector> vectors = {};
    std::span<const ForceFieldParameter> parameters = {};
    // What the switch in the Solver panel turns on: a field worth seeing, to change from there.
    ForceFieldSpec (*example)() = nullptr;
    // Its force on the scene's surfaces (each cloth's triangles, by their three particles).
    std::unique_ptr<Force> (*make)(const ForceFieldSpec& spec,
                                   std::span<const std::array<Index, 3>> surfaces) = nullptr;
};

// Every kind, in the order of the ForceFieldSpec variant.
std::span<const ForceFieldKind* const> forceFieldKinds();
const ForceFieldKind& forceFieldKind(const ForceFieldSpec& spec);
// nullptr when no kind has that name.
const ForceFieldKind* findForceFieldKind(std::string_view name);
// The kind's place in the registry, which is its alternative's index in ForceFieldSpec.
std::size_t forceFieldIndex(const ForceFieldKind& kind);
// The kind's spec with every setting at its default (what a scene file's missing fields take).
ForceFieldSpec defaultForceField(const ForceFieldKind& kind);
// Why spec is no field a scene can hold ("gust size (m) must be between ..."), or empty.
std::string forceFieldError(const ForceFieldSpec& spec);

}  // namespace tinkerbox
