#include "core/contact/BaraffContact.h"

#include <chrono>

#include "core/dynamics/World.h"
#include "core/forces/Gravity.h"

namespace tinkerbox {

constexpr ContactModelKind kBaraffContactKind{
    .name = "baraff",
    .summary =
        "Baraff's nonpenetration constraints: collisions, then resting contact with Coulomb friction "
        "solved by sweeps, and a position projection.",
    .make = [](const ContactModelSettings& s) -> std::unique_ptr<ContactModel> {
        return std::make_unique<BaraffContact>(s);
    },
};

double gravityMagnitude(const World& world) {
    Vec3 g = Vec3::Zero();
    for (const auto& force : world.forces())
        if (const auto* gravity = dynamic_cast<const Gravity*>(force.get())) g += gravity->acceleration();
    return g.norm();
}

void BaraffContact::afterStep(World& world, const VecX& start, double h, ContactReport& report) {
    const auto begin = std::chrono::steady_clock::now();
    detector_.detect(world, kMargin, manifolds_, settings_.selfCollisionThickness);
    if (detector_.stats().overflow) {
        report.failure = detector_.overflowMessage();
        manifolds_.clear();
        return;
    }
    ContactStep step;
    step.h = h;
    step.gravity = gravityMagnitude(world);
    step.start = &start;
    solver_.solve(world, manifolds_, step, report);
    if (!manifolds_.empty() && !world.constraints().empty()) world.constrainVelocities();
    report.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

void BaraffContact::reset() {
    detector_ = ContactDetector();
    solver_.reset();
    manifolds_.clear();
}

}  // namespace tinkerbox
