#include "core/contact/ContactModel.h"

#include <algorithm>
#include <stdexcept>

#include "core/contact/BaraffContact.h"
#include "core/contact/ObaContact.h"

namespace tinkerbox {

void ContactReport::add(const ContactReport& r) {
    contacts += r.contacts;
    maxPenetration = std::max(maxPenetration, r.maxPenetration);
    iterations += r.iterations;
    seconds += r.seconds;
    if (failure.empty()) failure = r.failure;
}

std::unique_ptr<ContactModel> makeContactModel(const std::string& name, const ContactModelSettings& settings) {
    if (name == BaraffContact::kName) return std::make_unique<BaraffContact>(settings);
    if (name == ObaContact::kName) return std::make_unique<ObaContact>(settings);
    throw std::invalid_argument("unknown contact model '" + name + "'");
}

const std::vector<std::string>& contactModelNames() {
    static const std::vector<std::string> names{BaraffContact::kName, ObaContact::kName};
    return names;
}

}  // namespace tinkerbox
