#include "editor/UndoHistory.h"

namespace tinkerbox {

std::size_t UndoHistory::approximateBytes(const Scene& scene) {
    return sizeof(Scene) + scene.particles.size() * sizeof(ParticleInit) + scene.springs.size() * sizeof(DampedSpring) +
           scene.planes.size() * sizeof(Plane) + scene.constraints.size() * sizeof(ConstraintSpec) +
           scene.parametricBeads.size() * sizeof(ParametricBead) + scene.wires.size() * sizeof(Wire);
}

std::size_t UndoHistory::approximateBytes(const UndoEntry& entry) {
    std::size_t bytes = approximateBytes(entry.scene);
    if (entry.cut)
        for (const TimelineFrame& f : entry.cut->frames) bytes += Timeline::frameBytes(f);
    return bytes;
}

void UndoHistory::clear() {
    undo_.clear();
    redo_.clear();
}

void UndoHistory::recordBefore(UndoEntry entry) {
    undo_.push_back(std::move(entry));
    redo_.clear();
    trim();
}

UndoEntry UndoHistory::undo(UndoEntry current) {
    UndoEntry previous = std::move(undo_.back());
    undo_.pop_back();
    redo_.push_back(std::move(current));
    return previous;
}

UndoEntry UndoHistory::redo(UndoEntry current) {
    UndoEntry next = std::move(redo_.back());
    redo_.pop_back();
    undo_.push_back(std::move(current));
    return next;
}

void UndoHistory::trim() {
    std::size_t total = 0;
    for (const UndoEntry& e : undo_) total += approximateBytes(e);
    while (undo_.size() > 1 && total > budget_) {
        total -= approximateBytes(undo_.front());
        undo_.pop_front();
    }
}

}  // namespace tinkerbox
