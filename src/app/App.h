#pragma once
// The interactive app: a GLFW window with OpenGL 3.3 and Dear ImGui, the editor, the
// renderer, and the main loop. All input goes through one queue (GLFW callbacks and input
// scripts alike) and one dispatcher: ImGui first, then shortcuts, then the editor.
#include <chrono>
#include <cmath>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/AppSettings.h"
#include "app/AutosaveSchedule.h"
#include "app/InputEvent.h"
#include "app/InputScript.h"
#include "app/SceneView.h"
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
    int frames = 1;
    bool play = false;        // start running
    std::string script;       // replay this input script
    std::string record;       // record the input to this script file
    std::string saveOnExit;   // write the scene here when the app quits
    int width = 0, height = 0;  // window size (default: the remembered one)
    bool timing = false;        // print the mean simulate and draw times per frame at exit
    std::string statusFile;     // rewritten after every frame with what the app shows (docs/app.md)
};

// What the stats panel and the energy plot show.
struct FrameStats {
    double simulationMs = 0.0;  // per simulated frame, however many drawn frames it took
    double renderMs = 0.0;
    double fps = 0.0;
    double speed = 0.0;  // simulated seconds per second, averaged over the last drawn frames
    FrameReport last;    // of the last finished frame
    // Since the start, for --timing.
    double simulationTotalMs = 0.0, renderTotalMs = 0.0;
    long steps = 0, frames = 0;
};

class App {
public:
    explicit App(AppOptions options);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    // Returns the process exit code.
    int run();

    // Called by the GLFW callbacks: input goes to the queue.
    void push(InputEvent event);

private:
    void initWindow();
    void openInitialScene(std::optional<Scene> fromFile);
    void processInput();
    void dispatch(const InputEvent& event);
    void onKey(int key, int action, int mods);
    void onMouseButton(int button, int action, int mods);
    void onCursor(double x, double y);
    void onScroll(double dx, double dy);
    void simulate();
    void requestStep();  // one frame while paused, run by simulate() on its time budget
    bool slow() const;   // the time budget is cutting the frames: the model runs slower than it should
    std::string slowNotice() const;
    void render();
    void drawUi();
    void drawMenu();
    void drawToolbar();
    void drawSolverPanel();
    void drawScenesPanel();
    void drawInspector();
    void drawStats();
    void drawBanners();
    void drawFileDialogs();
    void drawHelp();

    // Actions
    void newScene();
    bool openFile(const std::filesystem::path& path);
    bool openBuiltIn(const std::string& name);  // an example or a benchmark scene
    void adopt(Scene scene, const std::string& label);  // show a freshly opened scene
    void adoptFile(Scene scene, const std::filesystem::path& path);  // ... and make the file the document
    bool saveTo(const std::filesystem::path& path);
    void save();
    void screenshot(const std::filesystem::path& path);
    void chooseIntegrator(const std::string& name);
    void chooseContactModel(const std::string& name);
    void quit();
    // Runs the action now, or, when it would drop unsaved edits, after the user saves or
    // discards them.
    void unlessUnsaved(const std::string& what, std::function<void()> action);
    void restoreAutosave();
    void autosave(double now);
    void updateTitle();
    bool writeStatus() const;
    void frameView();

    Ray pointerRay() const;
    PickTolerance pickTolerance() const;

    AppOptions options_;
    AppSettings settings_;
    GLFWwindow* window_ = nullptr;
    std::unique_ptr<Renderer> renderer_;
    Camera camera_;
    Editor editor_;
    RenderFrame frame_;

    std::deque<InputEvent> events_;
    std::vector<ScriptedEvent> script_;
    std::size_t scriptNext_ = 0;
    std::ofstream record_;
    long frameNumber_ = 0;

    // Input state as the dispatcher has seen it.
    double mouseX_ = 0.0, mouseY_ = 0.0;
    bool mouseDown_[3] = {false, false, false};
    bool mouseClicked_[3] = {false, false, false};  // pressed since the last ImGui frame
    bool editorPointer_ = false;    // a pointer gesture owned by the editor is in progress
    bool orbiting_ = false, panning_ = false;

    std::filesystem::path documentPath_;
    std::string documentLabel_;
    std::vector<std::filesystem::path> assetFiles_;  // the Scenes panel's files, and when they were read
    double assetFilesReadAt_ = -INFINITY;
    double timeScale_ = 1.0;
    double stepCredit_ = 0.0;
    bool stepRequested_ = false;
    int substepChunk_ = 1;          // substeps per Editor::advance call, sized to take about a millisecond
    double frameWorkMs_ = 0.0;      // spent so far on the simulated frame in progress
    double slowUntil_ = -INFINITY;  // glfwGetTime() until which the slow notice shows
    std::optional<std::chrono::steady_clock::time_point> lastSimulate_;
    double simulatedAverage_ = 0.0, wallAverage_ = 0.0;  // per drawn frame, for the speed
    FrameStats stats_;
    std::vector<float> kinetic_, potential_, total_;  // the last seconds, one sample per frame
    std::string message_;  // a transient line in the status bar
    double messageUntil_ = 0.0;
    AutosaveSchedule autosaveSchedule_;
    std::future<void> autosaveWrite_;  // the write in progress, off the UI thread
    bool quitRequested_ = false;
    int exitCode_ = 0;
    bool showHelp_ = false;
    SceneViewOptions viewOptions_;
    bool openDialog_ = false, saveDialog_ = false, restorePrompt_ = false, unsavedPrompt_ = false;
    std::string unsavedWhat_;              // what the unsaved-changes prompt is about to do
    std::function<void()> afterUnsaved_;   // ... and the action itself
    char pathBuffer_[1024] = {};
    std::string dialogError_;
};

}  // namespace tinkerbox
