#pragma once
// What the panels ask of the app: the actions that a key also triggers, and the parts they
// show and edit. The panels see the app through this and nothing else.
#include <filesystem>
#include <string>

namespace tinkerbox {

class Camera;
class CompareMode;
class Document;
class Editor;
class FileDialogs;
class FrameStepper;
class ViewRecording;
struct AppSettings;
struct Notice;
struct SceneViewOptions;

class AppActions {
public:
    virtual void chooseIntegrator(const std::string& name) = 0;
    virtual void chooseContactModel(const std::string& name) = 0;
    virtual void toggleSelfCollision() = 0;  // at the editor's suggested thickness, with a notice
    virtual void save() = 0;                 // to the document's file, or through the save dialog
    virtual void screenshot(const std::filesystem::path& path) = 0;  // empty: a name from the time
    virtual void toggleRecording() = 0;                              // a video of the view, at the run's frame rate
    virtual void frameView() = 0;
    virtual void requestQuit() = 0;  // quits, or asks first when that would drop unsaved edits

protected:
    ~AppActions() = default;
};

// The app's parts the panels show and edit.
struct AppParts {
    Editor& editor;
    Document& document;
    FileDialogs& dialogs;
    FrameStepper& stepper;
    Camera& camera;
    SceneViewOptions& viewOptions;
    AppSettings& settings;
    Notice& notice;
    const ViewRecording& recording;
    CompareMode& compare;
};

}  // namespace tinkerbox
