#include "core/DivergenceGuard.h"

namespace tinkerbox {

void DivergenceGuard::record(const VecX& state, double time, double energyScale) {
    if (!frames_.empty() && frames_.back().state.size() != state.size()) frames_.clear();  // the model changed
    if (frames_.size() == kWindow) {
        Frame recycled = std::move(frames_.front());  // reuse the oldest frame's storage
        frames_.pop_front();
        recycled.state = state;
        recycled.time = time;
        recycled.energyScale = energyScale;
        frames_.push_back(std::move(recycled));
    } else {
        frames_.push_back({state, time, energyScale});
    }
}

bool DivergenceGuard::exploded(double kineticEnergy) const {
    return !frames_.empty() && kineticEnergy > kGrowth * frames_.front().energyScale;
}

}  // namespace tinkerbox
