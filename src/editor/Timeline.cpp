#include "editor/Timeline.h"

#include <algorithm>
#include <stdexcept>

#include "editor/UndoHistory.h"

namespace tinkerbox {

std::size_t Timeline::frameBytes(const TimelineFrame& frame) {
    const SimulationFrame& s = frame.simulation;
    return sizeof(TimelineFrame) +
           sizeof(double) * static_cast<std::size_t>(s.state.size() + s.integratorMemory.size()) +
           s.integrator.capacity();
}

std::size_t Timeline::modelBytes(const Scene& model) { return UndoHistory::approximateBytes(model); }

std::size_t Timeline::costAt(std::size_t index) const {
    const TimelineFrame& f = frames_[index];
    const bool newModel = index == 0 || frames_[index - 1].model != f.model;
    return frameBytes(f) + (newModel && f.model ? modelBytes(*f.model) : 0);
}

void Timeline::setBudget(std::size_t bytes) {
    budget_ = bytes;
    trim();
}

void Timeline::clear() {
    frames_.clear();
    bytes_ = 0;
    first_ = 0;
    cursor_ = -1;
}

const TimelineFrame& Timeline::frame(long number) const {
    if (!contains(number)) throw std::out_of_range("no such frame in the timeline");
    return frames_[static_cast<std::size_t>(number - first_)];
}

void Timeline::setCursor(long number) {
    if (frames_.empty()) return;
    cursor_ = std::clamp(number, first_, lastNumber());
}

void Timeline::push(TimelineFrame frame) {
    frames_.push_back(std::move(frame));
    bytes_ += costAt(frames_.size() - 1);
    cursor_ = lastNumber();
    trim();
}

void Timeline::trim() {
    while (frames_.size() > 1 && bytes_ > budget_) {
        bytes_ -= costAt(0);
        const std::shared_ptr<const Scene> model = std::move(frames_.front().model);
        frames_.pop_front();
        ++first_;
        // The new first frame carries its model's bytes now, if it shared them with the old.
        if (model && frames_.front().model == model) bytes_ += modelBytes(*model);
    }
    cursor_ = std::max(cursor_, first_);
}

TimelineCut Timeline::cutAfter(long number) {
    TimelineCut cut;
    cut.keptThrough = number;
    cut.cursor = cursor_;
    while (!frames_.empty() && lastNumber() > number) {
        bytes_ -= costAt(frames_.size() - 1);
        cut.frames.push_front(std::move(frames_.back()));
        frames_.pop_back();
    }
    cursor_ = std::min(cursor_, lastNumber());
    return cut;
}

void Timeline::append(std::deque<TimelineFrame> frames) {
    for (TimelineFrame& f : frames) {
        frames_.push_back(std::move(f));
        bytes_ += costAt(frames_.size() - 1);
    }
    trim();
}

}  // namespace tinkerbox
