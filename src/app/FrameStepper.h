#pragma once
// Runs the editor's simulation against the wall clock: one simulated frame per drawn frame
// at time scale 1, on a time budget per drawn frame, and the statistics and energy series
// the stats panel shows.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "editor/Editor.h"

namespace tinkerbox {

// Simulation work per drawn frame: a frame that takes longer is spread over several drawn
// frames, so that the window keeps responding whatever the settings (docs/app.md).
inline constexpr std::chrono::milliseconds kSimulationBudget{25};

// How many substeps one call of a frame's advance runs: sized to take about a millisecond,
// so that the budget is kept to within a call without asking the clock after every substep.
struct SubstepChunk {
    int size = 1;
    // After a call that stopped inside the frame (only such a call ran a whole chunk).
    void adapt(double callMs) {
        constexpr double kCallMs = 1.0;
        if (callMs < kCallMs) size = std::min(size * 2, 1 << 24);
        else if (callMs > 2.0 * kCallMs) size = std::max(static_cast<int>(size * (kCallMs / callMs)), 1);
    }
};

// What the stats panel and the energy plot show.
struct FrameStats {
    double simulationMs = 0.0;  // per simulated frame, however many drawn frames it took
    double renderMs = 0.0;
    double fps = 0.0;
    double speed = 0.0;  // simulated seconds per second, averaged over the last drawn frames
    FrameReport last;    // of the last finished frame
    // Since the start, for --timing.
    double simulationTotalMs = 0.0, renderTotalMs = 0.0;
    long steps = 0, frames = 0;
};

class FrameStepper {
public:
    explicit FrameStepper(Editor& editor) : editor_(editor) {}

    // Steps what this drawn frame may (playing, or a requested single step); now is the
    // window clock, for the slow notice.
    void simulate(double now);
    void requestStep();  // one frame while paused, run by simulate() on its time budget
    // The time budget is cutting the frames: the model runs slower than it should.
    bool slow(double now) const;
    std::string slowNotice(double now) const;
    void recordRender(double renderMs);    // the drawing time of a frame, for the stats
    void recordFrameRate(double seconds);  // the wall time of a drawn frame
    void clearPlots();                     // a new model: the energy series start again

    double timeScale() const { return timeScale_; }
    void setTimeScale(double scale) { timeScale_ = scale; }
    const FrameStats& stats() const { return stats_; }
    double frameWorkMs() const { return frameWorkMs_; }  // spent so far on the frame in progress
    const std::vector<float>& kinetic() const { return kinetic_; }
    const std::vector<float>& potential() const { return potential_; }
    const std::vector<float>& total() const { return total_; }

private:
    Editor& editor_;
    double timeScale_ = 1.0;
    double stepCredit_ = 0.0;
    bool stepRequested_ = false;
    SubstepChunk chunk_;            // substeps per Editor::advance call
    double frameWorkMs_ = 0.0;      // spent so far on the simulated frame in progress
    double slowUntil_ = -INFINITY;  // window clock until which the slow notice shows
    std::optional<std::chrono::steady_clock::time_point> lastSimulate_;
    double simulatedAverage_ = 0.0, wallAverage_ = 0.0;  // per drawn frame, for the speed
    FrameStats stats_;
    std::vector<float> kinetic_, potential_, total_;  // the last seconds, one sample per frame
};

}  // namespace tinkerbox
