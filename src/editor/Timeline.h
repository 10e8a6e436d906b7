#pragma once
// Every frame the model ran through, for scrubbing back and stepping frame by frame: a
// ring of saved frames bounded by a memory budget, the oldest dropped first. A cursor marks
// the frame shown. Frames are numbered from the first one ever kept, so that a number still
// names the same frame after older ones were dropped (for undoing a branch).
//
// Each frame holds the model it belongs to (shared by the frames between two edits), so
// that a frame from before an edit can be shown with the model it was made with.
#include <cstddef>
#include <deque>
#include <memory>
#include <optional>

#include "core/pipeline/Simulation.h"
#include "scene/Scene.h"

namespace tinkerbox {

struct TimelineFrame {
    SimulationFrame simulation;
    std::shared_ptr<const Scene> model;  // the scene the state belongs to (its own state aside)
};

// Frames cut off after a frame, and where the state was: what a branch drops and an undo
// brings back.
struct TimelineCut {
    long keptThrough = -1;             // the number of the last frame kept
    long cursor = -1;                  // the number of the frame the state was at
    bool atCursor = true;              // the state was that frame's (false: edited after it)
    std::deque<TimelineFrame> frames;  // numbered from keptThrough + 1
};

class Timeline {
public:
    static constexpr std::size_t kDefaultBudget = std::size_t{256} << 20;

    explicit Timeline(std::size_t budgetBytes = kDefaultBudget) : budget_(budgetBytes) {}

    std::size_t budget() const { return budget_; }
    void setBudget(std::size_t bytes);  // drops the oldest frames that do not fit
    std::size_t bytes() const { return bytes_; }
    static std::size_t frameBytes(const TimelineFrame& frame);  // the frame's own (not its model)
    static std::size_t modelBytes(const Scene& model);

    void clear();  // and the numbering starts again at 0
    bool empty() const { return frames_.empty(); }
    std::size_t size() const { return frames_.size(); }
    long firstNumber() const { return first_; }
    long lastNumber() const { return first_ + static_cast<long>(frames_.size()) - 1; }
    const TimelineFrame& frame(long number) const;  // firstNumber() <= number <= lastNumber()
    bool contains(long number) const { return number >= first_ && number <= lastNumber(); }

    long cursor() const { return cursor_; }
    bool atEnd() const { return cursor_ == lastNumber(); }
    void setCursor(long number);  // clamped to the frames kept

    // Appends a frame after the last one and puts the cursor on it; the oldest frames go
    // while the budget is exceeded (the new one always stays).
    void push(TimelineFrame frame);
    // Cuts off the frames after `number` (moving the cursor back onto it if it was past).
    TimelineCut cutAfter(long number);
    // Appends the frames of a cut made after the current last frame.
    void append(std::deque<TimelineFrame> frames);

private:
    // Bytes of a frame counted in the budget: its own, and its model's when the frame before
    // it has another model (each model counted once per run of frames that share it).
    std::size_t costAt(std::size_t index) const;
    void trim();

    std::size_t budget_;
    std::size_t bytes_ = 0;
    std::deque<TimelineFrame> frames_;
    long first_ = 0;
    long cursor_ = -1;
};

}  // namespace tinkerbox
