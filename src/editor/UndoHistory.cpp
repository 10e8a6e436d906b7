#include "editor/UndoHistory.h"

namespace tinkerbox {

std::size_t UndoHistory::approximateBytes(const Scene& scene) {
    return sizeof(Scene) + scene.particles.size() * sizeof(ParticleInit) + scene.springs.size() * sizeof(DampedSpring) +
           scene.planes.size() * sizeof(Plane) + scene.constraints.size() * sizeof(ConstraintSpec) +
           scene.parametricBeads.size() * sizeof(ParametricBead) + scene.wires.size() * sizeof(Wire);
}

void UndoHistory::clear() {
    undo_.clear();
    redo_.clear();
}

void UndoHistory::recordBefore(const Scene& scene) {
    undo_.push_back(scene);
    redo_.clear();
    trim();
}

Scene UndoHistory::undo(Scene current) {
    Scene previous = std::move(undo_.back());
    undo_.pop_back();
    redo_.push_back(std::move(current));
    return previous;
}

Scene UndoHistory::redo(Scene current) {
    Scene next = std::move(redo_.back());
    redo_.pop_back();
    undo_.push_back(std::move(current));
    return next;
}

void UndoHistory::trim() {
    std::size_t total = 0;
    for (const Scene& s : undo_) total += approximateBytes(s);
    while (undo_.size() > 1 && total > budget_) {
        total -= approximateBytes(undo_.front());
        undo_.pop_front();
    }
}

}  // namespace tinkerbox
