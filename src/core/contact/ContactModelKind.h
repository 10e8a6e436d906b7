#pragma once
// What the program knows about a contact model besides its step: its name, its own choices
// with their ranges, and how to make one. Each model declares its kind next to its class;
// contactModelKinds() lists them, and the loader, the writer, the Solver panel, compare mode
// and tinkerbox-sim go through that list, so a model is its own files plus one line there.
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/math/Parameter.h"

namespace tinkerbox {

class ContactModel;
struct ContactModelSettings;

using ContactModelParameter = Parameter<ContactModelSettings>;

struct ContactModelKind {
    std::string_view name;
    std::string_view summary = {};  // one line, for menus, tooltips and --help
    // Its own choices, each a key of a scene's settings ("oba_freezing"); the settings every
    // model reads (self collision) are not among them.
    std::span<const ContactModelParameter> parameters = {};
    std::unique_ptr<ContactModel> (*make)(const ContactModelSettings&) = nullptr;
};

// Every contact model, in the order the program lists them; the first is the default.
std::span<const ContactModelKind* const> contactModelKinds();
// nullptr when no model has that name.
const ContactModelKind* findContactModelKind(std::string_view name);
// Throws std::invalid_argument naming the valid choices when the name is unknown.
const ContactModelKind& contactModelKind(std::string_view name);
// "baraff, oba", for error messages and help texts.
std::string contactModelNameList();

}  // namespace tinkerbox
