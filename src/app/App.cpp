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
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "app/BuildingControls.h"
#include "app/SceneView.h"
#include "app/ModelFraming.h"
#include "app/StampedFileName.h"
#include "app/TimelineBar.h"
#include "render/Renderer.h"
#include "scene/BenchmarkScenes.h"
#include "scene/SceneJson.h"

namespace tinkerbox {

namespace {

constexpr double kPickPixels = 9.0;
const char* const kDefaultExample = "double-pendulum";

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

App::App(AppOptions options)
    : options_(std::move(options)), document_(editor_, settings_, notice_, [this] {
          stepper_.clearPlots();
          frameView();
      }) {
    settings_ = loadAppSettings();
    editor_.setToolSettings(settings_.tools);
    editor_.setTimelineBudget(static_cast<std::size_t>(settings_.timelineMegabytes) << 20);
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
    if (!options_.video.empty()) {
        int width, height;
        glfwGetFramebufferSize(window_, &width, &height);
        recording_.start(options_.video, 1.0 / editor_.simulation().settings().dt, width, height, glfwGetTime());
    }
    if (!writeStatus()) throw std::runtime_error("cannot write the status file " + options_.statusFile);
    // Offer the autosave of a session that did not end cleanly (not in batch runs).
    if (!options_.batch() && options_.script.empty() && std::filesystem::exists(autosavePath()))
        dialogs_.requestRestore();
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
    glfwSetErrorCallback(
        [](int code, const char* text) { std::cerr << "GLFW error " << code << ": " << text << '\n'; });
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
    glfwSwapInterval(options_.batch() ? 0 : 1);
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
        document_.adoptFile(std::move(*fromFile), options_.scene);  // throws, naming the file
    } else if (settings_.lastScene.rfind("example:", 0) == 0 && document_.openBuiltIn(settings_.lastScene.substr(8))) {
        // reopened the last session's built-in scene
    } else if (!settings_.lastScene.empty() && document_.openFile(settings_.lastScene)) {
        // reopened the last session's file
    } else {
        document_.openBuiltIn(kDefaultExample);
    }
    // The solver chosen last time applies to the scene the session reopens.
    if (options_.integrator) chooseIntegrator(*options_.integrator);
    else if (options_.scene.empty() && findIntegratorKind(settings_.integrator)) chooseIntegrator(settings_.integrator);
    if (options_.play) editor_.setPlaying(true);
    notice_ = {};
}

// --- The main loop ---------------------------------------------------------------------

int App::run() {
    const auto runStart = std::chrono::steady_clock::now();
    auto frameStart = runStart;
    while (!quitRequested_) {
        glfwPollEvents();
        if (glfwWindowShouldClose(window_)) {
            glfwSetWindowShouldClose(window_, GLFW_FALSE);
            requestQuit();
        }
        while (scriptNext_ < script_.size() && script_[scriptNext_].frame <= frameNumber_)
            events_.push_back(script_[scriptNext_++].event);
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        processInput();
        ImGui::NewFrame();
        if (compare_.active()) compare_.advance();
        else stepper_.simulate(glfwGetTime());
        // The model moved under a pointer that did not: what it hovers follows the model.
        if (!compare_.active() && editor_.playing() && (!ImGui::GetIO().WantCaptureMouse || editorPointer_))
            editor_.pointerRests(pointerRay(), pickTolerance());
        render();
        ++frameNumber_;
        if (options_.batch() && frameNumber_ >= options_.frames) quit();
        if (!dialogs_.restoreRequested()) document_.autosave(glfwGetTime());
        writeStatus();
        // Without vsync (Xvfb), keep an interactive session near 60 frames per second.
        const auto now = std::chrono::steady_clock::now();
        const double seconds = std::chrono::duration<double>(now - frameStart).count();
        stepper_.recordFrameRate(seconds);
        if (!options_.batch() && options_.script.empty() && seconds < 1.0 / 60.0)
            std::this_thread::sleep_for(std::chrono::duration<double>(1.0 / 60.0 - seconds));
        frameStart = std::chrono::steady_clock::now();
    }
    if (!recording_.stop(glfwGetTime())) exitCode_ = 1;
    const FrameStats& stats = stepper_.stats();
    if (options_.timing && stats.frames > 0) {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart).count();
        std::cout << stats.frames << " frames in " << seconds << " s (" << stats.frames / seconds
                  << " frames per second): simulate " << (stats.steps ? stats.simulationTotalMs / stats.steps : 0.0)
                  << " ms per simulated frame (" << stats.steps << " simulated; "
                  << stats.simulationTotalMs / stats.frames << " ms per drawn frame), draw "
                  << stats.renderTotalMs / stats.frames << " ms per frame\n";
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
            if (e.key >= 0 && e.key < static_cast<int>(IM_ARRAYSIZE(io.KeysDown)))
                io.KeysDown[e.key] = e.action != GLFW_RELEASE;
            io.KeyCtrl = (e.mods & GLFW_MOD_CONTROL) != 0;
            io.KeyShift = (e.mods & GLFW_MOD_SHIFT) != 0;
            io.KeyAlt = (e.mods & GLFW_MOD_ALT) != 0;
            if (!io.WantTextInput) onKey(e.key, e.action, e.mods);
            break;
        case InputEvent::Type::Char: io.AddInputCharacter(e.codepoint); break;
        case InputEvent::Type::CursorPos: onCursor(e.x, e.y); break;
        case InputEvent::Type::MouseButton:
            // A click carries the modifiers held with it: a script's "key V ctrl" leaves no Ctrl
            // down, so the panels must not take the next click for a Ctrl+click.
            io.KeyCtrl = (e.mods & GLFW_MOD_CONTROL) != 0;
            io.KeyShift = (e.mods & GLFW_MOD_SHIFT) != 0;
            io.KeyAlt = (e.mods & GLFW_MOD_ALT) != 0;
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
        case InputEvent::Type::Screenshot:
            scriptedScreenshots_.insert(scriptedScreenshots_.end(), e.paths.begin(), e.paths.end());
            break;
        case InputEvent::Type::Drop:
            for (const std::string& path : e.paths)
                if (std::filesystem::path(path).extension() == ".json") {
                    dialogs_.unlessUnsaved("open " + path, [this, path] { document_.openFile(path); });
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
        notice_.show(*done, glfwGetTime(), 2.0);
        return;
    }
    const bool ctrl = mods & GLFW_MOD_CONTROL, shift = mods & GLFW_MOD_SHIFT;
    if (ctrl) {
        if (action == GLFW_REPEAT && key != GLFW_KEY_Z && key != GLFW_KEY_Y) return;
        switch (key) {
            case GLFW_KEY_N: dialogs_.unlessUnsaved("start a new scene", [this] { document_.newScene(); }); break;
            case GLFW_KEY_O: dialogs_.unlessUnsaved("open another scene", [this] { dialogs_.requestOpen(); }); break;
            case GLFW_KEY_S:
                if (shift) dialogs_.requestSaveAs();
                else save();
                break;
            case GLFW_KEY_Z:
                if (shift) editor_.redo();
                else editor_.undo();
                break;
            case GLFW_KEY_Y: editor_.redo(); break;
            case GLFW_KEY_Q: requestQuit(); break;
            case GLFW_KEY_R: toggleRecording(); break;
            case GLFW_KEY_K:  // compare mode; with Shift, its ghosts or split views
                notice_.show(shift ? compare_.toggleSplit() : compare_.toggle(editor_), glfwGetTime(), 3.0);
                break;
            default: break;
        }
        return;
    }
    // Held, they scrub the timeline frame by frame; not while comparing, whose runs are not the editor's.
    if (!compare_.active()) {
        if (key == GLFW_KEY_LEFT && !editor_.playing()) editor_.stepBack();
        if (key == GLFW_KEY_RIGHT && !editor_.playing() && !editor_.stepForward()) stepper_.requestStep();
    }
    if (action == GLFW_REPEAT || compare_.onKey(key)) return;
    if (key >= GLFW_KEY_1 && key < GLFW_KEY_1 + static_cast<int>(integratorKinds().size()) && key <= GLFW_KEY_9) {
        chooseIntegrator(std::string(integratorKinds()[key - GLFW_KEY_1]->name));
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
        case GLFW_KEY_PERIOD: stepper_.requestStep(); break;
        case GLFW_KEY_BACKSPACE: editor_.rewind(); break;
        case GLFW_KEY_DELETE: editor_.deleteSelection(); break;
        case GLFW_KEY_C:
            camera_.setMode(camera_.mode() == Camera::Mode::TwoD ? Camera::Mode::ThreeD : Camera::Mode::TwoD);
            break;
        case GLFW_KEY_HOME: frameView(); break;
        case GLFW_KEY_A: viewOptions_.bodyAxes = !viewOptions_.bodyAxes; break;
        case GLFW_KEY_F: viewOptions_.shadedClothAndHair = !viewOptions_.shadedClothAndHair; break;
        case GLFW_KEY_K:  // with Shift, self collision
            if (shift) toggleSelfCollision();
            else viewOptions_.contacts = !viewOptions_.contacts;
            break;
        case GLFW_KEY_F1: panels_.toggleHelp(); break;
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
        if (compare_.active()) {  // a pull on every run; in 3D a left drag from empty space orbits
            orbiting_ = !compare_.pointerDown(camera_, mouseX_, mouseY_, kPickPixels) &&
                        camera_.mode() == Camera::Mode::ThreeD && button == GLFW_MOUSE_BUTTON_LEFT;
            return;
        }
        const Ray ray = pointerRay();
        // In 3D, a left drag that starts on empty space (or with Alt) orbits the view.
        if (camera_.mode() == Camera::Mode::ThreeD && button == GLFW_MOUSE_BUTTON_LEFT &&
            ((mods & GLFW_MOD_ALT) ||
             ((editor_.tool() == Tool::Select || editor_.tool() == Tool::Grab) &&
              !pickParticleClothOrHair(editor_.scene(), editor_.simulation(), ray, pickTolerance())))) {
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
        if (button != GLFW_MOUSE_BUTTON_MIDDLE) compare_.pointerUp();
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
    if (compare_.active()) compare_.pointerMove(camera_, x, y);
    else if (!ImGui::GetIO().WantCaptureMouse || editorPointer_) editor_.pointerMove(pointerRay(), pickTolerance());
}

void App::onScroll(double, double dy) {
    if (ImGui::GetIO().WantCaptureMouse) return;
    camera_.zoomAbout(mouseX_, mouseY_, std::pow(1.15, dy));
}

// --- Simulation and drawing ------------------------------------------------------------

void App::render() {
    int width, height;
    glfwGetFramebufferSize(window_, &width, &height);
    camera_.setViewport(width, height);
    const Vec3 workPoint = camera_.mode() == Camera::Mode::TwoD ? Vec3::Zero() : camera_.target();
    editor_.setWorkPlane(workPoint, camera_.mode() == Camera::Mode::TwoD ? Vec3::UnitZ() : Vec3(-camera_.forward()));

    const auto start = std::chrono::steady_clock::now();
    glViewport(0, 0, width, height);
    if (compare_.active()) {
        compare_.draw(*renderer_, camera_, width, height, Panels::kSideWidth, Panels::kSideWidth,
                      viewOptions_.shadedClothAndHair);
    } else {
        buildRenderFrame(editor_, frame_, viewOptions_);
        renderer_->draw(frame_, camera_);
    }
    recording_.capture(width, height, glfwGetTime());  // the view, without the panels
    panels_.draw();
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glFinish();  // so that the render time counts the drawing, not just its submission
    const double renderMs = 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    stepper_.recordRender(renderMs);
    for (const std::filesystem::path& path : scriptedScreenshots_) saveRequestedScreenshot(path);
    scriptedScreenshots_.clear();
    if (!options_.screenshot.empty() && frameNumber_ + 1 >= options_.frames)
        saveRequestedScreenshot(options_.screenshot);
    glfwSwapBuffers(window_);
    updateTitle();
}

// --- Actions ---------------------------------------------------------------------------

void App::save() {
    if (document_.path().empty()) dialogs_.requestSaveAs();
    else document_.saveTo(document_.path());
}

void App::toggleRecording() {
    int width, height;
    glfwGetFramebufferSize(window_, &width, &height);
    recording_.toggle(1.0 / editor_.simulation().settings().dt, width, height, glfwGetTime());
}

void App::screenshot(const std::filesystem::path& path) {
    const std::filesystem::path file = path.empty() ? stampedFileName(std::time(nullptr), ".png") : path;
    try {
        saveFramebufferPng(file, camera_.width(), camera_.height());
        notice_.show("Screenshot saved to " + file.string(), glfwGetTime(), 4.0);
    } catch (const std::exception& e) {
        notice_.show(e.what(), glfwGetTime(), 4.0);
    }
}

void App::saveRequestedScreenshot(const std::filesystem::path& path) {
    try {
        saveFramebufferPng(path, camera_.width(), camera_.height());
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << '\n';
        exitCode_ = 1;
    }
}

void App::chooseIntegrator(const std::string& name) {
    editor_.setIntegrator(name);
    settings_.integrator = name;
    notice_.show("Integrator: " + name, glfwGetTime(), 2.0);
}

void App::chooseContactModel(const std::string& name) {
    editor_.setContactModel(name);
    notice_.show("Contact model: " + name, glfwGetTime(), 2.0);
}

void App::toggleSelfCollision() {
    const double thickness = editor_.toggleSelfCollision();
    std::ostringstream text;
    text << "Self collision ";
    if (thickness > 0.0) text << "on: particles " << std::setprecision(3) << 1e3 * thickness << " mm thick";
    else text << "off";
    notice_.show(text.str(), glfwGetTime(), 2.5);
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
    settings_.tools = editor_.toolSettings();
    try {
        saveAppSettings(settings_);
    } catch (const std::exception& e) {
        std::cerr << "warning: " << e.what() << '\n';
    }
    document_.closeCleanly();
}

void App::requestQuit() {
    // --save-on-exit writes the scene whatever happens, so quitting loses nothing.
    if (!options_.saveOnExit.empty()) quit();
    else dialogs_.unlessUnsaved("quit", [this] { quit(); });
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
    out << "frame " << frameNumber_ << "\ntime " << sim.time() << "\nplaying " << editor_.playing() << "\ntool "
        << toolInfo(editor_.tool()).name << "\ncursor " << mouseX_ << ' ' << mouseY_ << "\nbuttons "
        << (mouseDown_[0] ? 1 : 0) + (mouseDown_[1] ? 2 : 0) + (mouseDown_[2] ? 4 : 0) << "\nselection "
        << editor_.selection().particles.size() << ' ' << editor_.selection().springs.size() << ' '
        << editor_.selection().constraints.size() << ' ' << editor_.selection().wires.size() << ' '
        << editor_.selection().bodies.size() << "\nparticles " << system.particleCount() << "\nbodies "
        << system.rigidBodyCount() << "\nsprings " << system.springs().size() << "\nconstraints "
        << system.constraints().size() << "\nnailed " << nailed << "\nintegrator " << sim.settings().integrator
        << "\ncontact_model " << sim.settings().contactModel << "\ncontacts " << stepper_.stats().last.contact.contacts
        << "\nself_collision " << sim.settings().contact.selfCollisionThickness << "\nsubsteps " << sim.substeps()
        << "\nview " << (camera_.mode() == Camera::Mode::TwoD ? "2D" : "3D") << "\nshaded_cloth_hair "
        << viewOptions_.shadedClothAndHair << "\ndocument " << document_.label() << "\nmodified " << editor_.modified()
        << "\nundo " << editor_.undoSteps() << "\nautosave " << (document_.autosaveCurrent() ? "current" : "pending")
        << "\nmessage " << oneLine(notice_.text) << "\ndivergence " << oneLine(editor_.divergence()) << "\nspeed "
        << stepper_.stats().speed << "\nsubstep " << sim.substepsDone() << "\nslow "
        << stepper_.slowNotice(glfwGetTime()) << '\n'
        << timelineStatus(editor_) << "recording " << recording_.on() << "\nrecorded_frames " << recording_.frames()
        << '\n'
        << compare_.status();
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
    const std::string title = "Tinkerbox - " + document_.label() + (editor_.modified() ? " *" : "");
    glfwSetWindowTitle(window_, title.c_str());
}

void App::frameView() {
    // A headless video shows the view without the panels: the model fills it.
    const ViewInsets panels{Panels::kSideWidth, Panels::kSideWidth, 60.0, 40.0};
    frameModel(editor_, camera_, options_.video.empty() ? panels : ViewInsets{});
}

}  // namespace tinkerbox
