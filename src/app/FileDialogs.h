#pragma once
// The app's modal dialogs: open, save as, "unsaved changes" before an action that would drop
// them, and the offer to restore the autosave of a session that did not end cleanly.
#include <functional>
#include <string>

#include "app/AppSettings.h"
#include "app/Document.h"

namespace tinkerbox {

class FileDialogs {
public:
    FileDialogs(Document& document, Editor& editor, const AppSettings& settings)
        : document_(document), editor_(editor), settings_(settings) {}

    void requestOpen() { openDialog_ = true; }
    void requestSaveAs() { saveDialog_ = true; }
    void requestRestore() { restorePrompt_ = true; }
    bool restoreRequested() const { return restorePrompt_; }
    // Runs the action now, or, when it would drop unsaved edits, after the user saves or
    // discards them.
    void unlessUnsaved(const std::string& what, std::function<void()> action);
    void draw();

private:
    void drawUnsavedPrompt();
    void drawRestorePrompt();

    Document& document_;
    Editor& editor_;
    const AppSettings& settings_;
    bool openDialog_ = false, saveDialog_ = false, restorePrompt_ = false, unsavedPrompt_ = false;
    std::string unsavedWhat_;             // what the unsaved-changes prompt is about to do
    std::function<void()> afterUnsaved_;  // ... and the action itself
    char pathBuffer_[1024] = {};
};

}  // namespace tinkerbox
