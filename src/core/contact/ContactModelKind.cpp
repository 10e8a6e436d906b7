#include "core/contact/ContactModelKind.h"

#include <array>

#include "core/contact/BaraffContact.h"
#include "core/contact/ObaContact.h"
#include "core/math/KindRegistry.h"

namespace tinkerbox {

namespace {

// The registry: one line per contact model.
constexpr std::array<const ContactModelKind*, 2> kContactModelKinds = {&kBaraffContactKind, &kObaContactKind};

}  // namespace

std::span<const ContactModelKind* const> contactModelKinds() { return kContactModelKinds; }

const ContactModelKind* findContactModelKind(std::string_view name) { return findKind(contactModelKinds(), name); }

std::string contactModelNameList() { return kindNameList(contactModelKinds()); }

const ContactModelKind& contactModelKind(std::string_view name) {
    return kindNamed(contactModelKinds(), name, "contact model");
}

}  // namespace tinkerbox
