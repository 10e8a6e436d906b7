#pragma once
// Look-ups in a registry of kinds (IntegratorKind, ContactModelKind): a list of descriptors,
// each with a name.
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tinkerbox {

// nullptr when no kind has that name.
template <class Kind>
const Kind* findKind(std::span<const Kind* const> kinds, std::string_view name) {
    for (const Kind* kind : kinds)
        if (kind->name == name) return kind;
    return nullptr;
}

// "euler, midpoint, rk4": the names, for error messages and help texts.
template <class Kind>
std::string kindNameList(std::span<const Kind* const> kinds) {
    std::string list;
    for (const Kind* kind : kinds) list += (list.empty() ? "" : ", ") + std::string(kind->name);
    return list;
}

// Throws std::invalid_argument, "unknown integrator 'leapfrog' (choose one of: ...)", when no
// kind has that name; what says what a kind is.
template <class Kind>
const Kind& kindNamed(std::span<const Kind* const> kinds, std::string_view name, std::string_view what) {
    if (const Kind* kind = findKind(kinds, name)) return *kind;
    throw std::invalid_argument("unknown " + std::string(what) + " '" + std::string(name) +
                                "' (choose one of: " + kindNameList(kinds) + ")");
}

}  // namespace tinkerbox
