#pragma once
// The scene being edited as a document: where it came from (a file, a built-in example, a
// restored autosave), opening and saving it, and the autosave of unsaved work. Opening
// never loses the open scene: a file that cannot be read or built leaves it as it was and
// says why and where.
#include <filesystem>
#include <functional>
#include <future>
#include <string>

#include "app/AppSettings.h"
#include "app/AutosaveSchedule.h"
#include "app/Notice.h"
#include "editor/Editor.h"

namespace tinkerbox {

class Document {
public:
    // adopted runs after every scene the editor takes on (to frame it, to clear the plots).
    Document(Editor& editor, AppSettings& settings, Notice& notice, std::function<void()> adopted);
    ~Document();  // waits for an autosave being written
    Document(const Document&) = delete;
    Document& operator=(const Document&) = delete;

    void newScene();
    bool openFile(const std::filesystem::path& path);
    bool openBuiltIn(const std::string& name);  // an example or a benchmark scene
    // Makes a scene read from path the document; throws when the model cannot be built.
    void adoptFile(Scene scene, const std::filesystem::path& path);
    bool saveTo(const std::filesystem::path& path);
    void restoreAutosave();
    void discardAutosave();
    // Writes the scene to the autosave file when the schedule says so (off the UI thread).
    void autosave(double now);
    // A clean exit: waits for the write in progress and removes the autosave.
    void closeCleanly();

    const std::filesystem::path& path() const { return path_; }
    const std::string& label() const { return label_; }
    bool autosaveCurrent() const { return schedule_.current() && !write_.valid(); }
    // Why the last open or save failed (for the file dialogs); empty after a success.
    const std::string& error() const { return error_; }
    void clearError() { error_.clear(); }

private:
    void adopt(Scene scene, const std::string& label);
    bool fail(const std::string& why, const std::string& prefix);

    Editor& editor_;
    AppSettings& settings_;
    Notice& notice_;
    std::function<void()> adopted_;
    std::filesystem::path path_;
    std::string label_;
    std::string error_;
    AutosaveSchedule schedule_;
    std::future<void> write_;  // the autosave in progress, off the UI thread
};

}  // namespace tinkerbox
