#pragma once
// The contact model "baraff" (Baraff, Rigid Body Simulation II: Nonpenetration Constraints,
// SIGGRAPH 2001 notes).
#include "core/collision/ContactDetector.h"
#include "core/contact/ContactModel.h"

namespace tinkerbox {

class BaraffContact final : public ContactModel {
public:
    static constexpr const char* kName = "baraff";
    std::string name() const override { return kName; }
    void afterStep(World& world, const VecX& start, double h, ContactReport& report) override;
    const std::vector<ContactManifold>& manifolds() const override { return manifolds_; }
    void reset() override;

private:
    ContactDetector detector_;
    std::vector<ContactManifold> manifolds_;
};

}  // namespace tinkerbox
