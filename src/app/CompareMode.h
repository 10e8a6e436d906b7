#pragma once
// Compare mode (Ctrl+K, the Compare panel): the editor's model as it stands, run under two
// to four integrators (and contact models) at once from the same start (scene/Comparison.h), each drawn in its
// own colour over the others (ghosts) or in a view of its own side by side (split). The
// panel plots each run's total energy, constraint error and time per step; a run that
// diverged is marked and stays where it was. A drag pulls the same point of every run with
// the same mouse spring. The editor is paused meanwhile and left as it was.
#include <optional>
#include <string>
#include <vector>

#include "app/FrameStepper.h"
#include "editor/Editor.h"
#include "render/Camera.h"
#include "render/RenderFrame.h"
#include "scene/Comparison.h"

namespace tinkerbox {

class Renderer;

class CompareMode {
public:
    static constexpr std::size_t kMinRuns = 2, kMaxRuns = 4;

    bool active() const { return comparison_.has_value(); }
    // Starts comparing the editor's model as it stands (pausing the editor), or stops.
    // Returns a line for the status bar.
    std::string toggle(Editor& editor);
    // Ghosts or split views; returns a line for the status bar.
    std::string toggleSplit();

    // While active: Space plays and pauses the runs, '.' steps them one frame while paused,
    // Backspace starts them again from the start. Returns whether it took the key.
    bool onKey(int key);

    // The pointer, in window pixels (y down), while active: a press on a particle or a body
    // of the run under it (in split views, that view's run; over ghosts, the first run still
    // going) pulls that point of every run; the pull follows the pointer in the plane through
    // the grabbed point facing the view, until the release. Returns whether it grabbed.
    bool pointerDown(const Camera& camera, double x, double y, double pickPixels);
    void pointerMove(const Camera& camera, double x, double y);
    void pointerUp();

    // One frame of every run still going, while playing (or once, after '.').
    void advance();
    // Draws the runs over the whole framebuffer; split views share out the part between
    // the insets (pixels the side panels cover). Split views draw cloths and hair as shaded
    // surfaces and strands when shadedClothAndHair is on (the editor view's F), the ghosts as
    // lines always: surfaces drawn over each other would hide the runs behind the first.
    void draw(Renderer& renderer, const Camera& camera, int width, int height, double insetLeft, double insetRight,
              bool shadedClothAndHair);
    // The Compare panel: the integrators, start and stop, ghosts or split, and the plots.
    // While comparing it fills the rectangle given (where the editor's Stats panel goes,
    // which the runs' own stats replace); otherwise it sits just below it. An edit, undo or
    // another scene in the editor ends comparing: the runs are of the model as it was.
    void drawPanel(Editor& editor, float x, float y, float width, float height);
    // "key value" lines for the status file (docs/app.md).
    std::string status() const;

private:
    struct Pane {
        int x = 0, width = 0;
    };
    std::size_t paneCount() const { return split_ && active() ? comparison_->size() : 1; }
    Pane pane(std::size_t index) const;
    std::size_t paneAt(double x) const;
    // The camera of a pane, its pixels counted from the pane's left edge.
    Camera paneCamera(const Camera& camera, std::size_t index) const;
    std::optional<Vec3> pullPoint(const Camera& camera, double x, double y) const;
    void chooseDefaults(const Editor& editor);
    void start(const Scene& scene);
    void drawPlots();

    // Until the user chooses, the scene's compare list, else the editor's integrator against
    // the first two of euler, verlet and rk4 that it is not.
    std::vector<std::string> integrators_;
    std::vector<std::string> contactModels_;  // each run's; empty: the scene's
    bool chosen_ = false;
    bool split_ = false;
    bool playing_ = true;
    bool stepRequested_ = false;
    std::optional<Comparison> comparison_;
    long revision_ = 0;              // the editor's document when comparing started: another one ends it
    std::vector<Vec3> startPoints_;  // the first run's tracked points at the start
    long frames_ = 0;
    bool framePending_ = false;  // a frame the runs have begun and not all ended (Comparison::advance)
    SubstepChunk chunk_;
    // The view as last drawn, for the pointer.
    int width_ = 1, height_ = 1;
    double insetLeft_ = 0.0, insetRight_ = 0.0;
    // The pull: the plane the pointer moves it in, and where it is.
    Vec3 pullPlanePoint_ = Vec3::Zero(), pullPlaneNormal_ = Vec3::UnitZ();
    Vec3 pullTarget_ = Vec3::Zero();
    std::size_t pullPane_ = 0;
    RenderFrame frame_;
};

// The colour compare mode draws and plots run k in.
Color compareRunColor(std::size_t run);

// How a run is drawn: in its colour (faded, or greyed where shaded, once it diverged); the
// planes and wires, which do not move, only with the first run drawn; the pull's spring, if
// any, to its target.
struct CompareRunStyle {
    Color color;
    bool first = true;
    // Cloths as surfaces and hair as strands in the run's colour, their particles drawn only
    // where nailed; else both as lines in the run's colour, with every particle.
    bool shaded = false;
    std::optional<Anchor> pull;
    Vec3 pullTarget = Vec3::Zero();
};

// Adds one run of a comparison of scene to frame: its bodies, springs, constraints, cloths,
// hair, beads and particles.
void addCompareRun(const Comparison::Run& run, const Scene& scene, const CompareRunStyle& style, RenderFrame& frame);

}  // namespace tinkerbox
