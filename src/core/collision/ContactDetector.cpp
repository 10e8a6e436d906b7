#include "core/collision/ContactDetector.h"

#include "core/dynamics/World.h"

namespace tinkerbox {

struct ContactDetector::Cache {};

ContactDetector::ContactDetector() : cache_(std::make_unique<Cache>()) {}
ContactDetector::~ContactDetector() = default;
ContactDetector::ContactDetector(ContactDetector&&) noexcept = default;
ContactDetector& ContactDetector::operator=(ContactDetector&&) noexcept = default;

void ContactDetector::detect(const World&, double, std::vector<ContactManifold>& out) {
    out.clear();
    stats_ = {};
}

}  // namespace tinkerbox
