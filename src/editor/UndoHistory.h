#pragma once
// Undo and redo by snapshots of the whole scene: every edit is undoable, whatever it is,
// with no inverse operation to get wrong. The history keeps at most a memory budget
// (oldest snapshots go first), so a 128 x 128 cloth cannot exhaust memory.
#include <cstddef>
#include <deque>

#include "scene/Scene.h"

namespace tinkerbox {

class UndoHistory {
public:
    explicit UndoHistory(std::size_t budgetBytes = std::size_t{256} << 20) : budget_(budgetBytes) {}

    void clear();
    // Records the scene as it was before an edit; clears the redo list.
    void recordBefore(const Scene& scene);
    bool canUndo() const { return !undo_.empty(); }
    bool canRedo() const { return !redo_.empty(); }
    // Swap the current scene with the previous (undo) or next (redo) one.
    Scene undo(Scene current);
    Scene redo(Scene current);
    std::size_t undoDepth() const { return undo_.size(); }

    static std::size_t approximateBytes(const Scene& scene);

private:
    void trim();

    std::size_t budget_;
    std::deque<Scene> undo_, redo_;
};

}  // namespace tinkerbox
