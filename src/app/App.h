#pragma once
// The interactive app: the GLFW window with OpenGL 3.3 and Dear ImGui, the main loop, and
// input routing. All input goes through one queue (GLFW callbacks and input scripts alike)
// and one dispatcher: ImGui first, then shortcuts, then the editor. The rest is in parts
// with one job each: the document (open, save, autosave), its dialogs, the frame stepper
// (simulating on a time budget), the panels, and compare mode.
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/AppSettings.h"
#include "app/CompareMode.h"
#include "app/Document.h"
#include "app/FileDialogs.h"
#include "app/FrameStepper.h"
#include "app/InputEvent.h"
#include "app/InputScript.h"
#include "app/Notice.h"
#include "app/Panels.h"
#include "app/SceneView.h"
#include "app/ViewRecording.h"
#include "editor/Editor.h"
#include "render/Camera.h"
#include "render/RenderFrame.h"

struct GLFWwindow;

namespace tinkerbox {

class Renderer;

struct AppOptions {
    std::string scene;                      // a scene file to open
    std::optional<std::string> integrator;  // overrides the scene's
    std::string screenshot;                 // render `frames` frames, save this PNG, exit
    std::string video;                      // render `frames` frames into this video, exit
    int frames = 1;
    bool play = false;          // start running
    std::string script;         // replay this input script
    std::string record;         // record the input to this script file
    std::string saveOnExit;     // write the scene here when the app quits
    int width = 0, height = 0;  // window size (default: the remembered one)
    bool timing = false;        // print the mean simulate and draw times per frame at exit
    std::string statusFile;     // rewritten after every frame with what the app shows (docs/app.md)

    bool batch() const { return !screenshot.empty() || !video.empty(); }  // render, save, exit
};

class App final : public AppActions {
public:
    explicit App(AppOptions options);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    // Returns the process exit code.
    int run();

    // Called by the GLFW callbacks: input goes to the queue.
    void push(InputEvent event);

    // The parts, for the panels.
    Editor& editor() { return editor_; }
    Document& document() { return document_; }
    FileDialogs& dialogs() { return dialogs_; }
    FrameStepper& stepper() { return stepper_; }
    Camera& camera() { return camera_; }
    SceneViewOptions& viewOptions() { return viewOptions_; }
    AppSettings& settings() { return settings_; }
    Notice& notice() { return notice_; }
    ViewRecording& recording() { return recording_; }
    CompareMode& compare() { return compare_; }

    // Actions of the keys and the panels alike.
    void chooseIntegrator(const std::string& name) override;
    void chooseContactModel(const std::string& name) override;
    void toggleSelfCollision() override;
    void save() override;
    void screenshot(const std::filesystem::path& path) override;
    void toggleRecording() override;
    void frameView() override;
    void requestQuit() override;
    void quit();

private:
    void initWindow();
    void openInitialScene(std::optional<Scene> fromFile);
    void processInput();
    void dispatch(const InputEvent& event);
    void onKey(int key, int action, int mods);
    void onMouseButton(int button, int action, int mods);
    void onCursor(double x, double y);
    void onScroll(double dx, double dy);
    void render();
    // Saves the frame just drawn for --screenshot or a script, without a notice (it would be in
    // the next picture); a file that cannot be written is an error on stderr and exit status 1.
    void saveRequestedScreenshot(const std::filesystem::path& path);
    void updateTitle();
    bool writeStatus() const;
    Ray pointerRay() const;
    PickTolerance pickTolerance() const;

    AppOptions options_;
    AppSettings settings_;
    Notice notice_;
    GLFWwindow* window_ = nullptr;
    std::unique_ptr<Renderer> renderer_;
    Camera camera_;
    SceneViewOptions viewOptions_;
    Editor editor_;
    RenderFrame frame_;
    FrameStepper stepper_{editor_};
    Document document_;
    FileDialogs dialogs_{document_, editor_, settings_};
    ViewRecording recording_{notice_, options_.batch()};
    CompareMode compare_;
    Panels panels_{*this, AppParts{editor_, document_, dialogs_, stepper_, camera_, viewOptions_, settings_, notice_,
                                   recording_, compare_}};

    // Input: the queue, scripts, and the state as the dispatcher has seen it.
    std::deque<InputEvent> events_;
    std::vector<ScriptedEvent> script_;
    std::size_t scriptNext_ = 0;
    std::vector<std::filesystem::path> scriptedScreenshots_;  // to save once this frame is drawn
    std::ofstream record_;
    long frameNumber_ = 0;
    double mouseX_ = 0.0, mouseY_ = 0.0;
    bool mouseDown_[3] = {false, false, false};
    bool mouseClicked_[3] = {false, false, false};  // pressed since the last ImGui frame
    bool editorPointer_ = false;                    // a pointer gesture owned by the editor is in progress
    bool orbiting_ = false, panning_ = false;

    bool quitRequested_ = false;
    int exitCode_ = 0;
};

}  // namespace tinkerbox
