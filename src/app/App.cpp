#include "app/App.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <glad/gl.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "app/BuildingControls.h"
#include "app/SceneView.h"
#include "core/bodies/ShapeGeometry.h"
#include "core/dynamics/Connectivity.h"
#include "render/Renderer.h"
#include "scene/BenchmarkScenes.h"
#include "scene/SceneJson.h"

namespace tinkerbox {

namespace {

constexpr double kPickPixels = 9.0;
constexpr double kSidePanelWidth = 310.0;  // the panels on each side (Panels.cpp)
constexpr std::size_t kPlotSamples = 600;  // ten seconds at 60 frames per second
constexpr int kMaxStepsPerFrame = 8;
// Simulation work per drawn frame: a frame that takes longer is spread over several drawn
// frames, so that the window keeps responding whatever the settings (docs/app.md).
constexpr std::chrono::milliseconds kSimulationBudget{25};
// Editor::advance calls are sized to take about this long, so that the budget is kept to
// within a call without asking the clock after every substep.
constexpr double kCallMs = 1.0;
// The slow notice stays this long after the budget last cut a frame, so that it does not
// flicker when frames take about one budget.
constexpr double kSlowNoticeSeconds = 1.0;
const char* const kDefaultExample = "double-pendulum";

// A scene file that reads well but whose model the core refuses.
std::string modelError(const std::exception& e) { return std::string("the model cannot be built: ") + e.what(); }

App* appOf(GLFWwindow* window) { return static_cast<App*>(glfwGetWindowUserPointer(window)); }

void keyCallback(GLFWwindow* w, int key, int, int action, int mods) {
    InputEvent e;
    e.type = InputEvent::Type::Key;
    e.key = key;
    e.action = action;
    e.mods = mods;
    appOf(w)->push(std::move(e));
}
void charCallback(GLFWwindow* w, unsigned codepoint) {
    InputEvent e;
    e.type = InputEvent::Type::Char;
    e.codepoint = codepoint;
    appOf(w)->push(std::move(e));
}
void mouseButtonCallback(GLFWwindow* w, int button, int action, int mods) {
    InputEvent e;
    e.type = InputEvent::Type::MouseButton;
    e.key = button;
    e.action = action;
    e.mods = mods;
    appOf(w)->push(std::move(e));
}
void cursorCallback(GLFWwindow* w, double x, double y) {
    InputEvent e;
    e.type = InputEvent::Type::CursorPos;
    e.x = x;
    e.y = y;
    appOf(w)->push(std::move(e));
}
void scrollCallback(GLFWwindow* w, double dx, double dy) {
    InputEvent e;
    e.type = InputEvent::Type::Scroll;
    e.x = dx;
    e.y = dy;
    appOf(w)->push(std::move(e));
}
void dropCallback(GLFWwindow* w, int count, const char** paths) {
    InputEvent e;
    e.type = InputEvent::Type::Drop;
    e.paths.assign(paths, paths + count);
    appOf(w)->push(std::move(e));
}

}  // namespace

App::App(AppOptions options) : options_(std::move(options)) {
    settings_ = loadAppSettings();
    if (!options_.script.empty()) script_ = loadInputScript(options_.script);
    if (!options_.record.empty()) {
        record_.open(options_.record);
        if (!record_) throw std::runtime_error("cannot write the input recording " + options_.record);
        record_ << "# Tinkerbox input recording: replay with tinkerbox --script " << options_.record << '\n';
    }
    // A bad scene file is an error before any window opens (and needs no display).
    std::optional<Scene> initialScene;
    if (!options_.scene.empty()) initialScene = loadScene(options_.scene);
    initWindow();
    openInitialScene(std::move(initialScene));
    if (!writeStatus()) throw std::runtime_error("cannot write the status file " + options_.statusFile);
    // Offer the autosave of a session that did not end cleanly (not in batch runs).
    if (options_.screenshot.empty() && options_.script.empty() && std::filesystem::exists(autosavePath()))
        restorePrompt_ = true;
}

App::~App() {
    if (window_) {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
        renderer_.reset();
        glfwDestroyWindow(window_);
    }
    glfwTerminate();
}

void App::initWindow() {
    glfwSetErrorCallback([](int code, const char* text) { std::cerr << "GLFW error " << code << ": " << text << '\n'; });
    if (!glfwInit()) throw std::runtime_error("cannot start GLFW: is there a display (DISPLAY set, X server running)?");
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    const int width = options_.width > 0 ? options_.width : settings_.windowWidth;
    const int height = options_.height > 0 ? options_.height : settings_.windowHeight;
    window_ = glfwCreateWindow(width, height, "Tinkerbox", nullptr, nullptr);
    if (!window_)
        throw std::runtime_error(
            "cannot create an OpenGL 3.3 core window: Tinkerbox needs OpenGL 3.3 (with Mesa, llvmpipe provides it)");
    glfwMakeContextCurrent(window_);
    glfwSwapInterval(options_.screenshot.empty() ? 1 : 0);
    if (!gladLoadGL(glfwGetProcAddress)) throw std::runtime_error("cannot load the OpenGL functions");
    renderer_ = std::make_unique<Renderer>();  // checks the OpenGL version

    // Our callbacks first: input goes to the queue, and ImGui is fed from there too.
    glfwSetWindowUserPointer(window_, this);
    glfwSetKeyCallback(window_, keyCallback);
    glfwSetCharCallback(window_, charCallback);
    glfwSetMouseButtonCallback(window_, mouseButtonCallback);
    glfwSetCursorPosCallback(window_, cursorCallback);
    glfwSetScrollCallback(window_, scrollCallback);
    glfwSetDropCallback(window_, dropCallback);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // the layout is the app's, not a file's
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(window_, false);
    ImGui_ImplOpenGL3_Init("#version 330 core");
}

void App::openInitialScene(std::optional<Scene> fromFile) {
    if (fromFile) {
        try {
            adoptFile(std::move(*fromFile), options_.scene);
        } catch (const std::exception& e) {
            throw std::runtime_error(options_.scene + ": " + modelError(e));
        }
    } else if (settings_.lastScene.rfind("example:", 0) == 0 && openBuiltIn(settings_.lastScene.substr(8))) {
        // reopened the last session's built-in scene
    } else if (!settings_.lastScene.empty() && openFile(settings_.lastScene)) {
        // reopened the last session's file
    } else {
        openBuiltIn(kDefaultExample);
    }
    // The solver chosen last time applies to the scene the session reopens.
    if (options_.integrator) chooseIntegrator(*options_.integrator);
    else if (options_.scene.empty() && isIntegratorName(settings_.integrator)) chooseIntegrator(settings_.integrator);
    if (options_.play) editor_.setPlaying(true);
    message_.clear();
}

// --- The main loop ---------------------------------------------------------------------

int App::run() {
    const auto runStart = std::chrono::steady_clock::now();
    auto frameStart = runStart;
    while (!quitRequested_) {
        glfwPollEvents();
        if (glfwWindowShouldClose(window_)) {
            glfwSetWindowShouldClose(window_, GLFW_FALSE);
            unlessUnsaved("quit", [this] { quit(); });
        }
        while (scriptNext_ < script_.size() && script_[scriptNext_].frame <= frameNumber_)
            events_.push_back(script_[scriptNext_++].event);
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        processInput();
        ImGui::NewFrame();
        simulate();
        render();
        ++frameNumber_;
        if (!options_.screenshot.empty() && frameNumber_ >= options_.frames) quit();
        autosave(glfwGetTime());
        writeStatus();
        // Without vsync (Xvfb), keep an interactive session near 60 frames per second.
        const auto now = std::chrono::steady_clock::now();
        const double seconds = std::chrono::duration<double>(now - frameStart).count();
        stats_.fps = 0.9 * stats_.fps + 0.1 / std::max(seconds, 1e-6);
        if (options_.screenshot.empty() && options_.script.empty() && seconds < 1.0 / 60.0)
            std::this_thread::sleep_for(std::chrono::duration<double>(1.0 / 60.0 - seconds));
        frameStart = std::chrono::steady_clock::now();
    }
    if (options_.timing && stats_.frames > 0) {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart).count();
        std::cout << stats_.frames << " frames in " << seconds << " s (" << stats_.frames / seconds
                  << " frames per second): simulate " << (stats_.steps ? stats_.simulationTotalMs / stats_.steps : 0.0)
                  << " ms per simulated frame (" << stats_.steps << " simulated; "
                  << stats_.simulationTotalMs / stats_.frames << " ms per drawn frame), draw "
                  << stats_.renderTotalMs / stats_.frames << " ms per frame\n";
    }
    return exitCode_;
}

void App::push(InputEvent event) {
    if (record_.is_open()) record_ << formatScriptedEvent({frameNumber_, event}) << '\n';
    events_.push_back(std::move(event));
}

void App::processInput() {
    ImGuiIO& io = ImGui::GetIO();
    for (bool& c : mouseClicked_) c = false;
    std::vector<int> pressed;  // keys pressed in this frame
    while (!events_.empty()) {
        const InputEvent& next = events_.front();
        // ImGui (before 1.87) only sees keys down at a new frame: a release of a key pressed
        // in this frame, and what follows it, wait for the next one (xdotool sends both at once).
        const bool key = next.type == InputEvent::Type::Key;
        if (key && next.action == GLFW_RELEASE && std::find(pressed.begin(), pressed.end(), next.key) != pressed.end())
            break;
        if (key && next.action == GLFW_PRESS) pressed.push_back(next.key);
        const InputEvent event = std::move(events_.front());
        events_.pop_front();
        dispatch(event);
    }
    // ImGui's backend polled the real mouse; it gets the queue's view instead, so that
    // scripted input reaches the UI exactly as real input does.
    io.MousePos = ImVec2(static_cast<float>(mouseX_), static_cast<float>(mouseY_));
    for (int b = 0; b < 3; ++b) io.MouseDown[b] = mouseDown_[b] || mouseClicked_[b];
}

void App::dispatch(const InputEvent& e) {
    ImGuiIO& io = ImGui::GetIO();
    switch (e.type) {
        case InputEvent::Type::Key:
            if (e.key >= 0 && e.key < static_cast<int>(IM_ARRAYSIZE(io.KeysDown))) io.KeysDown[e.key] = e.action != GLFW_RELEASE;
            io.KeyCtrl = (e.mods & GLFW_MOD_CONTROL) != 0;
            io.KeyShift = (e.mods & GLFW_MOD_SHIFT) != 0;
            io.KeyAlt = (e.mods & GLFW_MOD_ALT) != 0;
            if (!io.WantTextInput) onKey(e.key, e.action, e.mods);
            break;
        case InputEvent::Type::Char:
            io.AddInputCharacter(e.codepoint);
            break;
        case InputEvent::Type::CursorPos:
            onCursor(e.x, e.y);
            break;
        case InputEvent::Type::MouseButton:
            if (e.key >= 0 && e.key < 3) {
                mouseDown_[e.key] = e.action == GLFW_PRESS;
                if (e.action == GLFW_PRESS) mouseClicked_[e.key] = true;
            }
            onMouseButton(e.key, e.action, e.mods);
            break;
        case InputEvent::Type::Scroll:
            io.MouseWheel += static_cast<float>(e.y);
            io.MouseWheelH += static_cast<float>(e.x);
            onScroll(e.x, e.y);
            break;
        case InputEvent::Type::Drop:
            for (const std::string& path : e.paths)
                if (std::filesystem::path(path).extension() == ".json") {
                    unlessUnsaved("open " + path, [this, path] { openFile(path); });
                    break;
                }
            break;
    }
}

Ray App::pointerRay() const {
    const Camera::Ray r = camera_.ray(mouseX_, mouseY_);
    return {r.origin, r.direction};
}

PickTolerance App::pickTolerance() const {
    // kPickPixels on screen: constant in 2D, growing with distance along the ray in 3D.
    return {kPickPixels * camera_.pixelSize(0.0), kPickPixels * camera_.pixelSizePerDistance()};
}

void App::onKey(int key, int action, int mods) {
    if (action == GLFW_RELEASE) return;
    const std::optional<Ray> pointer = ImGui::GetIO().WantCaptureMouse ? std::nullopt : std::optional(pointerRay());
    if (const std::optional<std::string> done = handleBuildingKey(editor_, key, action, mods, pointer)) {
        message_ = *done;
        messageUntil_ = glfwGetTime() + 2.0;
        return;
    }
    const bool ctrl = mods & GLFW_MOD_CONTROL, shift = mods & GLFW_MOD_SHIFT;
    if (ctrl) {
        if (action == GLFW_REPEAT && key != GLFW_KEY_Z && key != GLFW_KEY_Y) return;
        switch (key) {
            case GLFW_KEY_N: unlessUnsaved("start a new scene", [this] { newScene(); }); break;
            case GLFW_KEY_O: unlessUnsaved("open another scene", [this] { openDialog_ = true; }); break;
            case GLFW_KEY_S:
                if (shift || documentPath_.empty()) saveDialog_ = true;
                else save();
                break;
            case GLFW_KEY_Z:
                if (shift) editor_.redo();
                else editor_.undo();
                break;
            case GLFW_KEY_Y: editor_.redo(); break;
            case GLFW_KEY_Q: unlessUnsaved("quit", [this] { quit(); }); break;
            default: break;
        }
        return;
    }
    if (action == GLFW_REPEAT) return;
    if (key >= GLFW_KEY_1 && key < GLFW_KEY_1 + static_cast<int>(integratorNames().size()) && key <= GLFW_KEY_9) {
        chooseIntegrator(std::string(integratorNames()[key - GLFW_KEY_1]));
        return;
    }
    if (key < 128) {
        if (const std::optional<Tool> tool = toolForKey(static_cast<char>(key))) {
            editor_.setTool(*tool);
            return;
        }
    }
    switch (key) {
        case GLFW_KEY_SPACE: editor_.togglePlaying(); break;
        case GLFW_KEY_PERIOD: requestStep(); break;
        case GLFW_KEY_BACKSPACE: editor_.rewind(); break;
        case GLFW_KEY_DELETE: editor_.deleteSelection(); break;
        case GLFW_KEY_C:
            camera_.setMode(camera_.mode() == Camera::Mode::TwoD ? Camera::Mode::ThreeD : Camera::Mode::TwoD);
            break;
        case GLFW_KEY_HOME: frameView(); break;
        case GLFW_KEY_A: viewOptions_.bodyAxes = !viewOptions_.bodyAxes; break;
        case GLFW_KEY_K: viewOptions_.contacts = !viewOptions_.contacts; break;
        case GLFW_KEY_F1: showHelp_ = !showHelp_; break;
        case GLFW_KEY_F12: screenshot(""); break;
        case GLFW_KEY_ESCAPE:
            editor_.dismissDivergence();
            editor_.cancelGesture();
            break;
        default: break;
    }
}

void App::onMouseButton(int button, int action, int mods) {
    const ImGuiIO& io = ImGui::GetIO();
    if (action == GLFW_PRESS) {
        if (io.WantCaptureMouse) return;
        if (button == GLFW_MOUSE_BUTTON_MIDDLE) {
            panning_ = true;
            return;
        }
        const Ray ray = pointerRay();
        // In 3D, a left drag that starts on empty space (or with Alt) orbits the view.
        if (camera_.mode() == Camera::Mode::ThreeD && button == GLFW_MOUSE_BUTTON_LEFT &&
            ((mods & GLFW_MOD_ALT) ||
             ((editor_.tool() == Tool::Select || editor_.tool() == Tool::Grab) &&
              !pickParticle(editor_.simulation(), ray, pickTolerance())))) {
            orbiting_ = true;
            return;
        }
        editor_.pointerDown(ray, pickTolerance(),
                            button == GLFW_MOUSE_BUTTON_RIGHT ? PointerButton::Right : PointerButton::Left,
                            (mods & GLFW_MOD_SHIFT) != 0);
        editorPointer_ = true;
    } else {
        if (button == GLFW_MOUSE_BUTTON_MIDDLE) panning_ = false;
        if (button == GLFW_MOUSE_BUTTON_LEFT) orbiting_ = false;
        if (editorPointer_ && !mouseDown_[GLFW_MOUSE_BUTTON_LEFT] && !mouseDown_[GLFW_MOUSE_BUTTON_RIGHT]) {
            editor_.pointerUp(pointerRay(), pickTolerance());
            editorPointer_ = false;
        }
    }
}

void App::onCursor(double x, double y) {
    const double dx = x - mouseX_, dy = y - mouseY_;
    mouseX_ = x;
    mouseY_ = y;
    if (panning_) camera_.pan(dx, dy);
    else if (orbiting_) camera_.orbit(dx, dy);
    if (!ImGui::GetIO().WantCaptureMouse || editorPointer_) editor_.pointerMove(pointerRay(), pickTolerance());
}

void App::onScroll(double, double dy) {
    if (ImGui::GetIO().WantCaptureMouse) return;
    camera_.zoomAbout(mouseX_, mouseY_, std::pow(1.15, dy));
}

// --- Simulation and drawing ------------------------------------------------------------

void App::simulate() {
    // One frame of simulated time per rendered frame at time scale 1, so that runs and
    // recordings are the same on any machine; slow motion steps less often. The work is
    // capped at kSimulationBudget per drawn frame: a frame that needs more goes on in the
    // next drawn frames (Simulation::advance gives the same result), and the model runs
    // slower than real time, which the slow notice says. Credit is given only between
    // frames, so that a slow stretch is not made up for afterwards.
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const auto deadline = start + kSimulationBudget;
    const double timeBefore = editor_.simulation().time();
    int steps = 0;
    bool cut = false;
    if (!editor_.playing()) stepCredit_ = 0.0;
    else if (editor_.simulation().substepsDone() == 0) stepCredit_ += timeScale_;
    while (editor_.playing() || stepRequested_) {
        const bool playing = editor_.playing();
        if (playing) stepRequested_ = false;
        const bool newFrame = editor_.simulation().substepsDone() == 0;
        if (playing && newFrame && (stepCredit_ < 1.0 || steps >= kMaxStepsPerFrame)) break;
        if (Clock::now() >= deadline) {
            cut = true;
            break;
        }
        if (playing && newFrame) stepCredit_ -= 1.0;
        if (newFrame) frameWorkMs_ = 0.0;  // a frame that an edit ended early no longer counts
        const auto callStart = Clock::now();
        const FrameReport report = playing ? editor_.advance(substepChunk_) : editor_.stepOnce(substepChunk_);
        const double callMs = 1e3 * std::chrono::duration<double>(Clock::now() - callStart).count();
        frameWorkMs_ += callMs;
        if (!report.finished) {
            // Only a call that stopped inside the frame measured a whole chunk.
            if (callMs < kCallMs) substepChunk_ = std::min(substepChunk_ * 2, 1 << 24);
            else if (callMs > 2.0 * kCallMs)
                substepChunk_ = std::max(static_cast<int>(substepChunk_ * (kCallMs / callMs)), 1);
            continue;
        }
        stats_.last = report;
        stats_.simulationMs = stats_.steps + steps == 0 ? frameWorkMs_ : 0.9 * stats_.simulationMs + 0.1 * frameWorkMs_;
        frameWorkMs_ = 0.0;
        ++steps;
        if (!playing) stepRequested_ = false;
    }
    const auto end = Clock::now();
    if (cut) slowUntil_ = glfwGetTime() + kSlowNoticeSeconds;
    stats_.simulationTotalMs += 1e3 * std::chrono::duration<double>(end - start).count();
    stats_.steps += steps;
    // Simulated time per wall-clock time, from one call to the next (drawing and the frame
    // rate's sleep included); a rollback does not count as time going backwards.
    if (lastSimulate_) {
        const double simulated = std::max(0.0, editor_.simulation().time() - timeBefore);
        simulatedAverage_ = 0.9 * simulatedAverage_ + 0.1 * simulated;
        wallAverage_ = 0.9 * wallAverage_ + 0.1 * std::chrono::duration<double>(end - *lastSimulate_).count();
        stats_.speed = wallAverage_ > 0.0 ? simulatedAverage_ / wallAverage_ : 0.0;
    }
    lastSimulate_ = end;
    if (steps > 0 || kinetic_.empty()) {
        const Simulation& sim = editor_.simulation();
        const auto record = [](std::vector<float>& series, double value) {
            if (series.size() >= kPlotSamples) series.erase(series.begin());
            series.push_back(static_cast<float>(value));
        };
        record(kinetic_, sim.kineticEnergy());
        record(potential_, sim.potentialEnergy());
        record(total_, sim.totalEnergy());
    }
}

void App::requestStep() {
    if (!editor_.playing()) stepRequested_ = true;
}

bool App::slow() const { return (editor_.playing() || stepRequested_) && glfwGetTime() < slowUntil_; }

std::string App::slowNotice() const {
    if (!slow()) return "";
    const Simulation& sim = editor_.simulation();
    char text[256];
    std::snprintf(text, sizeof text,
                  "Slow: %.2g x real time. A frame's %d substeps take longer than a drawn frame may spend, so each "
                  "frame is spread over several drawn frames.",
                  stats_.speed, sim.substeps());
    return text;
}

void App::render() {
    int width, height;
    glfwGetFramebufferSize(window_, &width, &height);
    camera_.setViewport(width, height);
    const Vec3 workPoint = camera_.mode() == Camera::Mode::TwoD ? Vec3::Zero() : camera_.target();
    editor_.setWorkPlane(workPoint, camera_.mode() == Camera::Mode::TwoD ? Vec3::UnitZ() : Vec3(-camera_.forward()));

    const auto start = std::chrono::steady_clock::now();
    glViewport(0, 0, width, height);
    buildRenderFrame(editor_, frame_, viewOptions_);
    renderer_->draw(frame_, camera_);
    drawUi();
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glFinish();  // so that the render time counts the drawing, not just its submission
    const double renderMs = 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    stats_.renderMs = 0.9 * stats_.renderMs + 0.1 * renderMs;
    stats_.renderTotalMs += renderMs;
    ++stats_.frames;
    if (!options_.screenshot.empty() && frameNumber_ + 1 >= options_.frames) screenshot(options_.screenshot);
    glfwSwapBuffers(window_);
    updateTitle();
}

// --- Actions ---------------------------------------------------------------------------

void App::adopt(Scene scene, const std::string& label) {
    editor_.open(std::move(scene));
    documentLabel_ = label;
    kinetic_.clear();
    potential_.clear();
    total_.clear();
    frameView();
}

void App::newScene() {
    Scene scene;
    scene.name = "Untitled";
    // It opens in the 2D view: planar, so that bodies built there turn in it, and with a
    // ground along the bottom of that view for them to land, stack and topple on.
    scene.settings.planar = true;
    Plane ground;
    ground.point = Vec3(0.0, -2.5, 0.0);
    ground.restitution = 0.2;
    ground.friction = 0.6;
    scene.planes.push_back(ground);
    adopt(std::move(scene), "untitled");  // an empty model frames the default 8 m x 6 m view
    documentPath_.clear();
}

void App::adoptFile(Scene scene, const std::filesystem::path& path) {
    adopt(std::move(scene), path.filename().string());
    documentPath_ = path;
    settings_.addRecent(std::filesystem::absolute(path).string());
    settings_.lastScene = std::filesystem::absolute(path).string();
    dialogError_.clear();
}

bool App::openFile(const std::filesystem::path& path) {
    // The new scene is read and built aside (Editor::open): a failure at either step keeps
    // the open scene, its history and its unsaved flag, and says why and where.
    const auto fail = [&](const std::string& why) {
        dialogError_ = why;
        message_ = "Could not open: " + why;
        messageUntil_ = glfwGetTime() + 8.0;
        return false;
    };
    std::optional<Scene> scene;
    try {
        scene = loadScene(path);  // a SceneError names the file, line:column and field
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    try {
        adoptFile(std::move(*scene), path);
    } catch (const std::exception& e) {
        return fail(path.string() + ": " + modelError(e));
    }
    return true;
}

bool App::openBuiltIn(const std::string& name) {
    std::optional<Scene> scene = makeBuiltInScene(name);
    if (!scene) return false;
    adopt(std::move(*scene), name);
    documentPath_.clear();
    settings_.lastScene = "example:" + name;
    return true;
}

bool App::saveTo(const std::filesystem::path& path) {
    try {
        saveScene(editor_.currentScene(), path);
        documentPath_ = path;
        documentLabel_ = path.filename().string();
        editor_.markSaved();
        settings_.addRecent(std::filesystem::absolute(path).string());
        settings_.lastScene = std::filesystem::absolute(path).string();
        message_ = "Saved " + path.string();
        messageUntil_ = glfwGetTime() + 4.0;
        return true;
    } catch (const std::exception& e) {
        dialogError_ = e.what();
        message_ = e.what();
        messageUntil_ = glfwGetTime() + 8.0;
        return false;
    }
}

void App::save() {
    if (documentPath_.empty()) saveDialog_ = true;
    else saveTo(documentPath_);
}

void App::screenshot(const std::filesystem::path& path) {
    std::filesystem::path file = path;
    if (file.empty()) {
        char stamp[32];
        const std::time_t now = std::time(nullptr);
        std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
        file = std::string("tinkerbox-") + stamp + ".png";
    }
    try {
        saveFramebufferPng(file, camera_.width(), camera_.height());
        message_ = "Screenshot saved to " + file.string();
    } catch (const std::exception& e) {
        message_ = e.what();
    }
    messageUntil_ = glfwGetTime() + 4.0;
}

void App::chooseIntegrator(const std::string& name) {
    editor_.setIntegrator(name);
    settings_.integrator = name;
    message_ = "Integrator: " + name;
    messageUntil_ = glfwGetTime() + 2.0;
}

void App::chooseContactModel(const std::string& name) {
    editor_.setContactModel(name);
    message_ = "Contact model: " + name;
    messageUntil_ = glfwGetTime() + 2.0;
}

void App::quit() {
    if (quitRequested_) return;
    quitRequested_ = true;
    if (!options_.saveOnExit.empty()) {
        try {
            saveScene(editor_.currentScene(), options_.saveOnExit);
        } catch (const std::exception& e) {
            std::cerr << "error: " << e.what() << '\n';
            exitCode_ = 1;
        }
    }
    int width, height;
    glfwGetWindowSize(window_, &width, &height);
    settings_.windowWidth = width;
    settings_.windowHeight = height;
    try {
        saveAppSettings(settings_);
    } catch (const std::exception& e) {
        std::cerr << "warning: " << e.what() << '\n';
    }
    if (autosaveWrite_.valid()) autosaveWrite_.wait();
    std::error_code ignored;
    std::filesystem::remove(autosavePath(), ignored);  // a clean exit: nothing to restore
}

void App::unlessUnsaved(const std::string& what, std::function<void()> action) {
    // --save-on-exit writes the scene whatever happens, so quitting loses nothing.
    const bool keptAnyway = what == "quit" && !options_.saveOnExit.empty();
    if (!editor_.modified() || keptAnyway) {
        action();
        return;
    }
    unsavedWhat_ = what;
    afterUnsaved_ = std::move(action);
    unsavedPrompt_ = true;
}

void App::restoreAutosave() {
    try {
        adopt(loadScene(autosavePath()), "restored autosave");
        documentPath_.clear();
        editor_.markUnsaved();  // saved nowhere the user chose yet
    } catch (const std::exception& e) {
        message_ = "Could not restore the autosave: " + std::string(e.what());
        messageUntil_ = glfwGetTime() + 8.0;
    }
}

void App::autosave(double now) {
    if (autosaveWrite_.valid() && autosaveWrite_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        try {
            autosaveWrite_.get();
        } catch (const std::exception& e) {
            message_ = std::string("Autosave failed: ") + e.what();
            messageUntil_ = now + 8.0;
        }
    }
    autosaveSchedule_.observe(editor_.revision(), editor_.modified(), now);
    if (autosaveWrite_.valid() || restorePrompt_ || !autosaveSchedule_.due(now)) return;
    autosaveSchedule_.writing(now);
    // The scene is captured here; turning it into text and writing it (atomically, synced) can
    // take a while for a big model, so that happens on another thread.
    autosaveWrite_ = std::async(std::launch::async, [scene = editor_.currentScene()] {
        std::filesystem::create_directories(stateDirectory());
        saveScene(scene, autosavePath());
    });
}

bool App::writeStatus() const {
    if (options_.statusFile.empty()) return true;
    const Simulation& sim = editor_.simulation();
    const World& system = sim.world();
    Index nailed = 0;
    for (Index i = 0; i < system.particleCount(); ++i) nailed += system.isNailed(i) ? 1 : 0;
    const auto oneLine = [](std::string text) {
        std::replace(text.begin(), text.end(), '\n', ' ');
        return text;
    };
    std::ostringstream out;
    out.precision(17);
    out << "frame " << frameNumber_ << "\ntime " << sim.time() << "\nplaying " << editor_.playing()
        << "\ntool " << toolInfo(editor_.tool()).name << "\ncursor " << mouseX_ << ' ' << mouseY_ << "\nbuttons "
        << (mouseDown_[0] ? 1 : 0) + (mouseDown_[1] ? 2 : 0) + (mouseDown_[2] ? 4 : 0)
        << "\nselection " << editor_.selection().particles.size() << ' ' << editor_.selection().springs.size() << ' '
        << editor_.selection().constraints.size() << ' ' << editor_.selection().wires.size() << ' '
        << editor_.selection().bodies.size() << "\nparticles " << system.particleCount() << "\nbodies " << system.rigidBodyCount() << "\nsprings " << system.springs().size() << "\nconstraints "
        << system.constraints().size() << "\nnailed " << nailed << "\nintegrator " << sim.settings().integrator
        << "\ncontact_model " << sim.settings().contactModel << "\ncontacts " << stats_.last.contact.contacts
        << "\nsubsteps " << sim.substeps() << "\nview " << (camera_.mode() == Camera::Mode::TwoD ? "2D" : "3D")
        << "\ndocument " << documentLabel_ << "\nmodified " << editor_.modified() << "\nundo " << editor_.undoSteps()
        << "\nautosave " << (autosaveSchedule_.current() && !autosaveWrite_.valid() ? "current" : "pending")
        << "\nmessage " << oneLine(message_)
        << "\ndivergence " << oneLine(editor_.divergence()) << "\nspeed " << stats_.speed
        << "\nsubstep " << sim.substepsDone() << "\nslow " << slowNotice() << '\n';
    // Written and renamed into place, so that a reader never sees half a file. No fsync:
    // this is a window on the app, not data to keep across a crash.
    const std::filesystem::path temporary = options_.statusFile + ".tmp";
    {
        std::ofstream file(temporary, std::ios::trunc);
        file << out.str();
        if (!file) return false;
    }
    std::error_code error;
    std::filesystem::rename(temporary, options_.statusFile, error);
    return !error;
}

void App::updateTitle() {
    const std::string title = "Tinkerbox - " + documentLabel_ + (editor_.modified() ? " *" : "");
    glfwSetWindowTitle(window_, title.c_str());
}

void App::frameView() {
    // What the model can reach: its particles, its wires, the planes' anchors, and, around
    // each nail, as far as the farthest particle joined to it (things swing about nails).
    const Simulation& sim = editor_.simulation();
    const World& system = sim.world();
    Vec3 low = Vec3::Constant(INFINITY), high = Vec3::Constant(-INFINITY);
    const auto include = [&](const Vec3& p) {
        low = low.cwiseMin(p);
        high = high.cwiseMax(p);
    };
    // A circle of unit normal n reaches r sqrt(1 - n_k^2) from its centre along axis k.
    const auto includeCircle = [&](const Vec3& center, double radius, const Vec3& normal) {
        const Vec3 extent = radius * (Vec3::Ones() - normal.cwiseAbs2()).cwiseMax(0.0).cwiseSqrt();
        include(center - extent);
        include(center + extent);
    };
    struct Pivot {  // a point something swings about, and the node (componentLabels) it holds
        Vec3 point;
        Index node;
    };
    std::vector<Pivot> pivots;
    const auto node = [&](const Anchor& a) { return a.isParticle() ? a.index() : system.particleCount() + a.index(); };
    for (Index i = 0; i < system.particleCount(); ++i) {
        include(system.position(i));
        if (system.isNailed(i)) pivots.push_back({system.position(i), i});
    }
    const RigidBodies& bodies = system.rigidBodies();
    for (Index k = 0; k < bodies.count(); ++k) {
        const double radius = boundingRadius(bodies.spec(k).shape, bodies.centerOfMassInShapeFrame(k));
        include(bodies.position(k) - Vec3::Constant(radius));
        include(bodies.position(k) + Vec3::Constant(radius));
        if (bodies.isFixed(k)) pivots.push_back({bodies.position(k), system.particleCount() + k});
    }
    for (const auto& c : system.constraints()) {
        const ConstraintSpec spec = c->spec();
        if (const auto* nail = std::get_if<NailSpec>(&spec)) pivots.push_back({nail->point, node(nail->anchor)});
        if (const auto* wire = std::get_if<WireSpec>(&spec)) includeCircle(wire->center, wire->radius, wire->normal);
    }
    // An empty scene counts as flat: what is clicked into it goes on the z = 0 plane.
    const bool empty = !(low.array() <= high.array()).all();
    const bool flat = empty || sim.settings().planar || ((high - low).z() <= 1e-9 && std::abs(low.z()) < 1e-9);
    if (flat) {  // in 2D; a 3D view can be turned to follow the motion instead
        const std::vector<Index> component = componentLabels(system);
        for (const Pivot& pivot : pivots) {
            double reach = 0.0;
            for (Index i = 0; i < system.particleCount(); ++i)
                if (component[i] == component[pivot.node])
                    reach = std::max(reach, (system.position(i) - pivot.point).norm());
            for (Index k = 0; k < bodies.count(); ++k)
                if (component[system.particleCount() + k] == component[pivot.node])
                    reach = std::max(reach, (bodies.position(k) - pivot.point).norm() +
                                                boundingRadius(bodies.spec(k).shape, bodies.centerOfMassInShapeFrame(k)));
            include(pivot.point - Vec3(reach, reach, 0.0));
            include(pivot.point + Vec3(reach, reach, 0.0));
        }
    }
    // A plane's anchor counts beside a model, not alone: a new scene's ground is not a model
    // to zoom in on.
    if (!empty)
        for (const Plane& p : system.planes()) include(p.point);
    for (Index i = 0; i < system.beadCount(); ++i) {
        const ParametricBead b = system.beads().bead(i);
        includeCircle(b.center, b.radius, b.normal);
    }
    for (const Wire& w : editor_.scene().wires) includeCircle(w.center, w.radius, w.normal);
    if (!(low.array() <= high.array()).all()) {  // nothing with a place: the default view
        low = Vec3(-4, -3, 0);
        high = Vec3(4, 3, 0);
    }
    // A flat model in the z = 0 plane is shown head-on; anything else in 3D.
    camera_.setMode(flat ? Camera::Mode::TwoD : Camera::Mode::ThreeD);
    const Vec3 margin = Vec3(0.25, 0.25, camera_.mode() == Camera::Mode::TwoD ? 0.0 : 0.25);
    camera_.frame(low - margin, high + margin, {kSidePanelWidth, kSidePanelWidth, 60.0, 40.0});
}

}  // namespace tinkerbox
