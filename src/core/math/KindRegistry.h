#pragma once
// Look-ups in a registry of kinds (IntegratorKind, ContactModelKind, ...): a list of
// descriptors, each with a name.
#include <array>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace tinkerbox {

// The registry of a variant whose alternatives each declare `static const Kind kind` (the
// constraints, force fields and shapes): their kinds in the variant's order, so that a value's
// index() finds its kind.
template <class Kind, class Variant>
constexpr auto variantKinds() {
    return []<std::size_t... I>(std::index_sequence<I...>) {
        return std::array<const Kind*, sizeof...(I)>{&std::variant_alternative_t<I, Variant>::kind...};
    }
    (std::make_index_sequence<std::variant_size_v<Variant>>{});
}

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
