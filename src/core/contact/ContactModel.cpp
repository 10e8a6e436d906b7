#include "core/contact/ContactModel.h"

#include <algorithm>

namespace tinkerbox {

void ContactReport::add(const ContactReport& r) {
    contacts += r.contacts;
    maxPenetration = std::max(maxPenetration, r.maxPenetration);
    iterations += r.iterations;
    seconds += r.seconds;
    if (failure.empty()) failure = r.failure;
}

std::unique_ptr<ContactModel> makeContactModel(std::string_view name, const ContactModelSettings& settings) {
    return contactModelKind(name).make(settings);
}

}  // namespace tinkerbox
