#pragma once
// Detects a numerical explosion, as MuJoCo's simulate does, so that a run can pause
// and go back instead of filling the screen (or a CSV) with 1e131. A state that
// stays finite can still be exploding: explicit Euler on a stiff spring grows 3.5x
// per step. The test is on growth over a window, because the energy scale of the
// last frame grows along with the explosion:
//   exploded  <=>  kinetic energy now > 1000 x energy scale of the model 10 frames ago
//                  (or at the first frame kept, early in a run).
// Physical motion (a released spring, a mouse yank) converts energy that is already
// in the scale (stored elastic energy, or the model's weight times its size) and stays
// far below that bound. The guard keeps the last 10 frame-start states, so the run
// can return to one from before the explosion began.
#include <deque>

#include "core/Types.h"

namespace tinkerbox {

class DivergenceGuard {
public:
    static constexpr std::size_t kWindow = 10;
    static constexpr double kGrowth = 1000.0;

    void clear() { frames_.clear(); }
    // At the start of a frame: the state about to be advanced and its energy scale.
    void record(const VecX& state, double time, double energyScale);
    bool exploded(double kineticEnergy) const;

    bool empty() const { return frames_.empty(); }
    // The oldest frame kept: the state to go back to.
    const VecX& safeState() const { return frames_.front().state; }
    double safeTime() const { return frames_.front().time; }

private:
    struct Frame {
        VecX state;
        double time;
        double energyScale;
    };
    std::deque<Frame> frames_;
};

}  // namespace tinkerbox
