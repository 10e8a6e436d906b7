#pragma once
// The contact model "baraff" (Baraff, Rigid Body Simulation II: Nonpenetration Constraints,
// SIGGRAPH 2001 notes): contacts found at the step's end with a small margin (speculative
// points, found before they touch), then collisions, resting contact with Coulomb friction
// and a position projection (ContactSolver.h). Joints are then re-projected onto their
// velocity constraints, one after the other: the coupling between contacts and joints is
// that of two block Gauss-Seidel sweeps, not one solve.
#include "core/collision/ContactDetector.h"
#include "core/contact/ContactModel.h"
#include "core/contact/ContactSolver.h"

namespace tinkerbox {

extern const ContactModelKind kBaraffContactKind;

class BaraffContact final : public ContactModel {
public:
    static constexpr double kMargin = 0.005;  // metres: how far apart points are found

    explicit BaraffContact(const ContactModelSettings& settings = {}) : settings_(settings) {}

    const ContactModelKind& kind() const override { return kBaraffContactKind; }
    void afterStep(World& world, const VecX& start, double h, ContactReport& report) override;
    const std::vector<ContactManifold>& manifolds() const override { return manifolds_; }
    void reset() override;
    // Of the settings, baraff uses selfCollisionThickness.
    void setSettings(const ContactModelSettings& settings) override { settings_ = settings; }
    bool isFrozen(Index) const override { return false; }

private:
    ContactModelSettings settings_;
    ContactDetector detector_;
    ContactSolver solver_;
    std::vector<ContactManifold> manifolds_;
};

// |g| of the world's Gravity forces.
double gravityMagnitude(const World& world);

}  // namespace tinkerbox
