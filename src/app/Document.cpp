#include "app/Document.h"

#include <GLFW/glfw3.h>

#include "scene/BenchmarkScenes.h"
#include "scene/SceneJson.h"

namespace tinkerbox {

namespace {

// A scene file that reads well but whose model the core refuses.
std::string modelError(const std::exception& e) { return std::string("the model cannot be built: ") + e.what(); }

}  // namespace

Document::Document(Editor& editor, AppSettings& settings, Notice& notice, std::function<void()> adopted)
    : editor_(editor), settings_(settings), notice_(notice), adopted_(std::move(adopted)) {}

Document::~Document() {
    if (write_.valid()) write_.wait();
}

void Document::adopt(Scene scene, const std::string& label) {
    editor_.open(std::move(scene));
    label_ = label;
    if (adopted_) adopted_();
}

void Document::newScene() {
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
    path_.clear();
}

void Document::adoptFile(Scene scene, const std::filesystem::path& path) {
    try {
        adopt(std::move(scene), path.filename().string());
    } catch (const std::exception& e) {
        throw std::runtime_error(path.string() + ": " + modelError(e));
    }
    path_ = path;
    settings_.addRecent(std::filesystem::absolute(path).string());
    settings_.lastScene = std::filesystem::absolute(path).string();
    error_.clear();
}

bool Document::fail(const std::string& why, const std::string& prefix) {
    error_ = why;
    notice_.show(prefix + why, glfwGetTime(), 8.0);
    return false;
}

bool Document::openFile(const std::filesystem::path& path) {
    // The new scene is read and built aside (Editor::open): a failure at either step keeps
    // the open scene, its history and its unsaved flag, and says why and where.
    std::optional<Scene> scene;
    try {
        scene = loadScene(path);  // a SceneError names the file, line:column and field
    } catch (const std::exception& e) {
        return fail(e.what(), "Could not open: ");
    }
    try {
        adoptFile(std::move(*scene), path);
    } catch (const std::exception& e) {
        return fail(e.what(), "Could not open: ");
    }
    return true;
}

bool Document::openBuiltIn(const std::string& name) {
    std::optional<Scene> scene = makeBuiltInScene(name);
    if (!scene) return false;
    adopt(std::move(*scene), name);
    path_.clear();
    settings_.lastScene = "example:" + name;
    return true;
}

bool Document::saveTo(const std::filesystem::path& path) {
    try {
        saveScene(editor_.currentScene(), path);
    } catch (const std::exception& e) {
        return fail(e.what(), "");
    }
    path_ = path;
    label_ = path.filename().string();
    editor_.markSaved();
    settings_.addRecent(std::filesystem::absolute(path).string());
    settings_.lastScene = std::filesystem::absolute(path).string();
    error_.clear();
    notice_.show("Saved " + path.string(), glfwGetTime(), 4.0);
    return true;
}

void Document::restoreAutosave() {
    try {
        adopt(loadScene(autosavePath()), "restored autosave");
        path_.clear();
        editor_.markUnsaved();  // saved nowhere the user chose yet
    } catch (const std::exception& e) {
        notice_.show("Could not restore the autosave: " + std::string(e.what()), glfwGetTime(), 8.0);
    }
}

void Document::discardAutosave() {
    std::error_code ignored;
    std::filesystem::remove(autosavePath(), ignored);
}

void Document::autosave(double now) {
    if (write_.valid() && write_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        try {
            write_.get();
        } catch (const std::exception& e) {
            notice_.show(std::string("Autosave failed: ") + e.what(), now, 8.0);
        }
    }
    schedule_.observe(editor_.revision(), editor_.modified(), now);
    if (write_.valid() || !schedule_.due(now)) return;
    schedule_.writing(now);
    // The scene is captured here; turning it into text and writing it (atomically, synced) can
    // take a while for a big model, so that happens on another thread.
    write_ = std::async(std::launch::async, [scene = editor_.currentScene()] {
        std::filesystem::create_directories(stateDirectory());
        saveScene(scene, autosavePath());
    });
}

void Document::closeCleanly() {
    if (write_.valid()) write_.wait();
    discardAutosave();  // a clean exit: nothing to restore
}

}  // namespace tinkerbox
