#include "core/pipeline/DivergenceGuard.h"

#include <cmath>
#include <sstream>

namespace tinkerbox {

void DivergenceGuard::clear() {
    frames_.clear();
    reference_.reset();
}

void DivergenceGuard::record(const VecX& state, double time, const EnergyReading& reading) {
    if (!frames_.empty() && frames_.back().state.size() != state.size()) clear();  // the model changed
    if (!reference_) reference_ = Reference{reading, time};
    if (frames_.size() == kWindow) {
        Frame recycled = std::move(frames_.front());  // reuse the oldest frame's storage
        frames_.pop_front();
        recycled.state = state;
        recycled.time = time;
        recycled.energyScale = reading.scale;
        frames_.push_back(std::move(recycled));
    } else {
        frames_.push_back({state, time, reading.scale});
    }
}

std::optional<std::string> DivergenceGuard::check(const EnergyReading& now, double time, double gravity) const {
    std::ostringstream why;
    // Speeds or stretches whose squares overflow: finite states of infinite energy.
    if (!std::isfinite(now.kinetic) || !std::isfinite(now.total)) return "the energy became non-finite";
    if (!frames_.empty() && now.kinetic > kGrowth * frames_.front().energyScale) {
        why << "the kinetic energy grew more than " << kGrowth << "-fold within " << kWindow << " frames";
        return why.str();
    }
    if (!reference_) return std::nullopt;
    const EnergyReading& ref = reference_->reading;
    const double budget = ref.total + kBudget * ref.scale;
    if (now.total > budget) {
        why << "the energy grew from " << ref.total << " J at t = " << reference_->time << " s to " << now.total
            << " J with nothing driving the model";
        return why.str();
    }
    // Farthest a particle can get: the budget's energy all in the lightest particle,
    // plus free fall, plus a margin of a hundred model sizes.
    const double elapsed = std::max(0.0, time - reference_->time);
    const double speed = std::sqrt(2.0 * (kBudget + 1.0) * ref.scale / ref.lightestMass);
    const double size = (ref.high - ref.low).norm() + 1.0;
    const double reach = 100.0 * size + speed * elapsed + 0.5 * gravity * elapsed * elapsed;
    const double outside = std::max((ref.low - now.low).maxCoeff(), (now.high - ref.high).maxCoeff());
    if (outside > reach) {
        why << "a particle got " << outside << " m outside the model's extent at t = " << reference_->time
            << " s, farther than its energy can carry it";
        return why.str();
    }
    return std::nullopt;
}

}  // namespace tinkerbox
