#include "app/FrameStepper.h"

#include <algorithm>
#include <cstdio>

namespace tinkerbox {

namespace {

constexpr std::size_t kPlotSamples = 600;  // ten seconds at 60 frames per second
constexpr int kMaxStepsPerFrame = 8;
// The slow notice stays this long after the budget last cut a frame, so that it does not
// flicker when frames take about one budget.
constexpr double kSlowNoticeSeconds = 1.0;

}  // namespace

void FrameStepper::simulate(double now) {
    // One frame of simulated time per rendered frame at time scale 1, so that runs and
    // recordings are the same on any machine; slow motion steps less often. The work is
    // capped at kSimulationBudget per drawn frame: a frame that needs more goes on in the
    // next drawn frames (Simulation::advance gives the same result), and the model runs
    // slower than real time, which the slow notice says. Credit is given only between
    // frames, so that a slow stretch is not made up for afterwards.
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const auto deadline = start + kSimulationBudget;
    const double timeBefore = editor_.simulation().time();
    int steps = 0;
    bool cut = false;
    if (!editor_.playing()) stepCredit_ = 0.0;
    else if (editor_.simulation().substepsDone() == 0) stepCredit_ += timeScale_;
    while (editor_.playing() || stepRequested_) {
        const bool playing = editor_.playing();
        if (playing) stepRequested_ = false;
        const bool newFrame = editor_.simulation().substepsDone() == 0;
        if (playing && newFrame && (stepCredit_ < 1.0 || steps >= kMaxStepsPerFrame)) break;
        if (Clock::now() >= deadline) {
            cut = true;
            break;
        }
        if (playing && newFrame) stepCredit_ -= 1.0;
        if (newFrame) frameWorkMs_ = 0.0;  // a frame that an edit ended early no longer counts
        const auto callStart = Clock::now();
        const FrameReport report = playing ? editor_.advance(chunk_.size) : editor_.stepOnce(chunk_.size);
        const double callMs = 1e3 * std::chrono::duration<double>(Clock::now() - callStart).count();
        frameWorkMs_ += callMs;
        if (!report.finished) {
            chunk_.adapt(callMs);
            continue;
        }
        stats_.last = report;
        stats_.simulationMs = stats_.steps + steps == 0 ? frameWorkMs_ : 0.9 * stats_.simulationMs + 0.1 * frameWorkMs_;
        frameWorkMs_ = 0.0;
        ++steps;
        if (!playing) stepRequested_ = false;
    }
    const auto end = Clock::now();
    if (cut) slowUntil_ = now + kSlowNoticeSeconds;
    stats_.simulationTotalMs += 1e3 * std::chrono::duration<double>(end - start).count();
    stats_.steps += steps;
    // Simulated time per wall-clock time, from one call to the next (drawing and the frame
    // rate's sleep included); a rollback does not count as time going backwards.
    if (lastSimulate_) {
        const double simulated = std::max(0.0, editor_.simulation().time() - timeBefore);
        simulatedAverage_ = 0.9 * simulatedAverage_ + 0.1 * simulated;
        wallAverage_ = 0.9 * wallAverage_ + 0.1 * std::chrono::duration<double>(end - *lastSimulate_).count();
        stats_.speed = wallAverage_ > 0.0 ? simulatedAverage_ / wallAverage_ : 0.0;
    }
    lastSimulate_ = end;
    if (steps > 0 || kinetic_.empty()) {
        const Simulation& sim = editor_.simulation();
        const auto record = [](std::vector<float>& series, double value) {
            if (series.size() >= kPlotSamples) series.erase(series.begin());
            series.push_back(static_cast<float>(value));
        };
        record(kinetic_, sim.kineticEnergy());
        record(potential_, sim.potentialEnergy());
        record(total_, sim.totalEnergy());
    }
}

void FrameStepper::requestStep() {
    if (!editor_.playing()) stepRequested_ = true;
}

bool FrameStepper::slow(double now) const { return (editor_.playing() || stepRequested_) && now < slowUntil_; }

std::string FrameStepper::slowNotice(double now) const {
    if (!slow(now)) return "";
    char text[256];
    std::snprintf(text, sizeof text,
                  "Slow: %.2g x real time. A frame's %d substeps take longer than a drawn frame may spend, so each "
                  "frame is spread over several drawn frames.",
                  stats_.speed, editor_.simulation().substeps());
    return text;
}

void FrameStepper::recordRender(double renderMs) {
    stats_.renderMs = 0.9 * stats_.renderMs + 0.1 * renderMs;
    stats_.renderTotalMs += renderMs;
    ++stats_.frames;
}

void FrameStepper::recordFrameRate(double seconds) { stats_.fps = 0.9 * stats_.fps + 0.1 / std::max(seconds, 1e-6); }

void FrameStepper::clearPlots() {
    kinetic_.clear();
    potential_.clear();
    total_.clear();
}

}  // namespace tinkerbox
