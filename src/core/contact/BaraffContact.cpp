#include "core/contact/BaraffContact.h"

#include "core/dynamics/World.h"

namespace tinkerbox {

void BaraffContact::afterStep(World& world, const VecX&, double, ContactReport& report) {
    detector_.detect(world, 0.0, manifolds_);
    for (const ContactManifold& m : manifolds_) report.contacts += m.count;
}

void BaraffContact::reset() {
    detector_ = ContactDetector();
    manifolds_.clear();
}

}  // namespace tinkerbox
