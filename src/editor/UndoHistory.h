#pragma once
// Undo and redo by snapshots of the whole scene: every edit is undoable, whatever it is,
// with no inverse operation to get wrong. A snapshot taken where the timeline branched
// (an edit or a play at an earlier frame) also holds the frames the branch cut off, so that
// undoing it brings them back. The history keeps at most a memory budget (oldest snapshots
// go first), so a 128 x 128 cloth cannot exhaust memory.
#include <cstddef>
#include <deque>
#include <optional>

#include "editor/Timeline.h"
#include "scene/Scene.h"

namespace tinkerbox {

struct UndoEntry {
    Scene scene;
    std::optional<TimelineCut> cut;
    bool branchOnly = false;  // a run from an earlier frame, no edit: undoing it edits nothing
};

class UndoHistory {
public:
    explicit UndoHistory(std::size_t budgetBytes = std::size_t{256} << 20) : budget_(budgetBytes) {}

    void clear();
    // Records the document as it was before an edit; clears the redo list.
    void recordBefore(UndoEntry entry);
    void recordBefore(const Scene& scene) { recordBefore(UndoEntry{scene, std::nullopt}); }
    bool canUndo() const { return !undo_.empty(); }
    bool canRedo() const { return !redo_.empty(); }
    const UndoEntry& nextUndo() const { return undo_.back(); }
    const UndoEntry& nextRedo() const { return redo_.back(); }
    // Swap the current document with the previous (undo) or next (redo) one.
    UndoEntry undo(UndoEntry current);
    UndoEntry redo(UndoEntry current);
    std::size_t undoDepth() const { return undo_.size(); }

    static std::size_t approximateBytes(const Scene& scene);
    static std::size_t approximateBytes(const UndoEntry& entry);

private:
    void trim();

    std::size_t budget_;
    std::deque<UndoEntry> undo_, redo_;
};

}  // namespace tinkerbox
