#include "core/contact/ContactModel.h"

#include <algorithm>
#include <stdexcept>

#include "core/contact/BaraffContact.h"

namespace tinkerbox {

void ContactReport::add(const ContactReport& r) {
    contacts += r.contacts;
    maxPenetration = std::max(maxPenetration, r.maxPenetration);
    iterations += r.iterations;
    seconds += r.seconds;
}

std::unique_ptr<ContactModel> makeContactModel(const std::string& name) {
    if (name == BaraffContact::kName) return std::make_unique<BaraffContact>();
    throw std::invalid_argument("unknown contact model '" + name + "'");
}

const std::vector<std::string>& contactModelNames() {
    static const std::vector<std::string> names{BaraffContact::kName};
    return names;
}

}  // namespace tinkerbox
