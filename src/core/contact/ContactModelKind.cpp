#include "core/contact/ContactModelKind.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "core/contact/BaraffContact.h"
#include "core/contact/ObaContact.h"

namespace tinkerbox {

namespace {

// The registry: one line per contact model.
constexpr std::array<const ContactModelKind*, 2> kContactModelKinds = {&kBaraffContactKind, &kObaContactKind};

}  // namespace

std::span<const ContactModelKind* const> contactModelKinds() { return kContactModelKinds; }

const ContactModelKind* findContactModelKind(std::string_view name) {
    const auto it = std::find_if(kContactModelKinds.begin(), kContactModelKinds.end(),
                                 [&](const ContactModelKind* k) { return k->name == name; });
    return it == kContactModelKinds.end() ? nullptr : *it;
}

std::string contactModelNameList() {
    std::string list;
    for (const ContactModelKind* k : kContactModelKinds) list += (list.empty() ? "" : ", ") + std::string(k->name);
    return list;
}

const ContactModelKind& contactModelKind(std::string_view name) {
    if (const ContactModelKind* kind = findContactModelKind(name)) return *kind;
    throw std::invalid_argument("unknown contact model '" + std::string(name) +
                                "' (choose one of: " + contactModelNameList() + ")");
}

}  // namespace tinkerbox
