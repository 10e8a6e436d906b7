#pragma once
// Detects a run that diverges, as MuJoCo's simulate does, so that it can pause and go
// back instead of filling the screen (or a CSV) with 1e39. Three tests, at the end of
// every frame (a non-finite state is caught earlier, per substep, by the Simulation):
// - Energy budget: without input, a model cannot gain energy. Its total energy
//   (kinetic + potential) may exceed the energy at a reference frame by at most
//   kBudget energy scales of that frame. This catches growth at any rate: explicit
//   Euler on an undamped spring gains a few percent per step and takes many frames to
//   get anywhere, but it crosses the budget all the same. The reference is the first
//   frame after the model, its gravity or an input (a mouse drag) changed it, so that
//   the work the user does is never counted as divergence.
// - Reach: no particle gets farther from the reference frame's bounding box than the
//   energy budget could carry it (speed from the budget, plus free fall under gravity).
// - Fast growth: kinetic energy more than kGrowth times the energy scale of the model
//   kWindow frames ago. This one holds during input as well (a yank with a stiff
//   spring under explicit Euler).
// A reading that is not finite (speeds whose squares overflow) fails at once.
// The energy scale is the energy the model could legitimately turn into motion:
// kinetic + elastic energy, plus its weight times its size and its mass times 1 (m/s)^2.
// The guard keeps the last kWindow frame-start states, so the run can return to one
// from before the divergence began.
#include <deque>
#include <optional>
#include <string>

#include "core/math/Types.h"

namespace tinkerbox {

// What the guard needs to know of the model at one moment.
struct EnergyReading {
    double kinetic = 0.0;
    double total = 0.0;                            // kinetic + potential
    double scale = 0.0;                            // see above
    Vec3 low = Vec3::Zero(), high = Vec3::Zero();  // bounding box of the positions
    double lightestMass = 1.0;
};

class DivergenceGuard {
public:
    static constexpr std::size_t kWindow = 10;
    static constexpr double kGrowth = 1000.0;
    static constexpr double kBudget = 10.0;

    // Forgets everything: the model changed.
    void clear();
    // The energy reference is taken again at the next frame (an input did work).
    void rebase() { reference_.reset(); }
    // At the start of a frame: the state about to be advanced and its reading.
    void record(const VecX& state, double time, const EnergyReading& reading);
    // At the end of a frame: why the run diverged, or nothing. `gravity` is |g|.
    std::optional<std::string> check(const EnergyReading& now, double time, double gravity) const;

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
    struct Reference {
        EnergyReading reading;
        double time;
    };
    std::deque<Frame> frames_;
    std::optional<Reference> reference_;
};

}  // namespace tinkerbox
