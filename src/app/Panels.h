#pragma once
// The ImGui panels of the app: menu, tools, solver, scenes, inspector, stats, banners, the
// status line and the keys window. They show the app's parts and turn clicks into the same
// actions as the keys.
#include <cmath>
#include <filesystem>
#include <vector>

#include "app/AppActions.h"

namespace tinkerbox {

class Panels {
public:
    // The side panels' width: the model is framed between them.
    static constexpr float kSideWidth = 310.0f;

    Panels(AppActions& app, const AppParts& parts);
    void draw();
    void toggleHelp() { showHelp_ = !showHelp_; }

private:
    void drawMenu();
    void drawToolbar();
    void drawSolverPanel();
    void drawScenesPanel();
    void drawInspector();
    void drawStats();
    void drawBanners();
    void offerStepRemedies();
    void drawHelp();

    AppActions& app_;
    const ViewRecording& recording_;
    CompareMode& compare_;
    Editor& editor_;
    Document& document_;
    FileDialogs& dialogs_;
    FrameStepper& stepper_;
    Camera& camera_;
    SceneViewOptions& viewOptions_;
    AppSettings& settings_;
    Notice& notice_;
    bool showHelp_ = false;
    std::vector<std::filesystem::path> assetFiles_;  // the Scenes panel's files, and when they were read
    double assetFilesReadAt_ = -INFINITY;
};

}  // namespace tinkerbox
