#pragma once
// The document being edited: a scene, the simulation built from it, the tools that turn
// pointer input into edits, the selection and the undo history. No GL: the app hands it
// rays in world coordinates, and tests do the same with synthetic input.
//
// Edits go to the scene (the model's description); the simulation is rebuilt from it,
// keeping the clock, so an edit made while the model runs continues from where it is.
// Every edit is undoable. Solver settings are live controls, not edits: undo and redo
// keep the current ones.
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "core/constraints/ConstraintKind.h"
#include "core/constraints/NailConstraint.h"
#include "core/forces/MouseSpring.h"
#include "core/pipeline/Simulation.h"
#include "editor/Chain.h"
#include "editor/Clipboard.h"
#include "editor/ClothTool.h"
#include "editor/HairTool.h"
#include "editor/Picking.h"
#include "editor/RubberBand.h"
#include "editor/Selection.h"
#include "editor/SnapGrid.h"
#include "editor/Timeline.h"
#include "editor/Tool.h"
#include "editor/ToolSettings.h"
#include "editor/UndoHistory.h"
#include "scene/Scene.h"

namespace tinkerbox {

enum class PointerButton { Left, Right, Middle };

// What the pointer is in the middle of, for drawing.
struct Gesture {
    enum class Kind { None, Connect, WireRadius, Grab, Move, BodySize, RubberBand, Chain, ClothSize };
    Kind kind = Kind::None;
    Tool tool = Tool::Select;   // Connect: Spring or Rod
    Index particle = -1;        // Connect, Chain: where it starts; Grab, Move: the particle under the pointer
    Vec3 start = Vec3::Zero();  // WireRadius: the centre; BodySize: a box's corner, a sphere's centre;
                                // RubberBand, ClothSize: a corner; Chain: where it starts
    Vec3 current = Vec3::Zero();
    Anchor anchor;  // Connect, Chain: where it starts; Grab: what the mouse spring holds (a particle or a body point)
};

class Editor {
public:
    explicit Editor(Scene scene = {});

    // The document
    // Replaces the model: selection, history and play state start afresh. A scene that
    // cannot be built throws, and the editor is exactly as it was.
    void open(Scene scene);
    const Scene& scene() const { return scene_; }  // as of the last edit; the model's state lags while running
    Scene currentScene() const;                    // with the simulation's current state: what to save
    Simulation& simulation() { return *simulation_; }
    const Simulation& simulation() const { return *simulation_; }
    bool modified() const { return modified_; }
    void markSaved() { modified_ = false; }
    void markUnsaved() { modified_ = true; }  // e.g. a restored autosave: saved nowhere the user chose
    // Counts the changes to the document (opens, edits, undo and redo), e.g. to save after each.
    long revision() const { return revision_; }

    // Running
    bool playing() const { return playing_; }
    // Play remembers the state for rewind() and makes Grab the tool until the pause.
    void setPlaying(bool playing);
    void togglePlaying() { setPlaying(!playing_); }
    // One frame of simulation while playing; on divergence the model is paused and rolled
    // back and divergence() says what happened. With maxSubsteps, at most that many
    // substeps of the frame (Simulation::advance): the report says whether it finished,
    // and the next call goes on with it. A grab's pointer is read at the frame's start.
    FrameReport advance(int maxSubsteps = std::numeric_limits<int>::max());
    FrameReport stepOnce(int maxSubsteps = std::numeric_limits<int>::max());  // the same while paused
    bool canRewind() const { return beforePlay_.has_value(); }
    void rewind();  // back to the state before the last play (an undoable edit)
    const std::string& divergence() const { return divergence_; }
    // Whether a smaller step or another integrator may cure it (not a contact step past its
    // bound of contact points).
    bool divergenceCuredByTheStep() const { return !divergenceAtContactBound_; }
    void dismissDivergence() { divergence_.clear(); }
    // A one-line hint after a gesture that did nothing (e.g. threading a bead with no wire).
    const std::string& status() const { return status_; }

    // Tools and pointer input
    Tool tool() const { return tool_; }
    void setTool(Tool tool);
    // The plane new particles are created on (2D: z = 0); a gesture that starts on a
    // particle works on the parallel plane through that particle.
    void setWorkPlane(const Vec3& point, const Vec3& normal);
    void pointerDown(const Ray& ray, const PickTolerance& tolerance, PointerButton button, bool shift = false);
    void pointerMove(const Ray& ray, const PickTolerance& tolerance);
    // The pointer stays where it was while the model moves under it: what is hovered and the
    // hair tool's tuft are looked for again (the app calls it each frame while playing).
    void pointerRests(const Ray& ray, const PickTolerance& tolerance);
    void pointerUp(const Ray& ray, const PickTolerance& tolerance);
    const Gesture& gesture() const { return gesture_; }
    std::optional<Index> hovered() const { return hovered_; }  // pickParticleClothOrHair
    // The body the box or sphere tool's gesture makes so far (for drawing it).
    std::optional<std::pair<Shape, Vec3>> bodyBeingSized() const;
    // The select tool's rectangle, while a drag on empty space draws it.
    std::optional<PlaneRectangle> rubberBand() const;
    // The rope the chain tool would drop now, from its start to the pointer (both ends
    // included); empty when no chain is being laid.
    std::vector<Vec3> chainBeingLaid() const;
    // The cloth the cloth tool would lay now, while its rectangle is being dragged.
    std::optional<TriangleClothOptions> clothBeingLaid() const;
    // With the hair tool, the roots of the tuft a click would grow where the pointer last
    // moved (none off the bodies), for the view to draw.
    const std::vector<StrandRoot>& tuftUnderPointer() const { return tuftUnderPointer_; }
    // Drops a chain waiting for its second click, or a rubber band being drawn.
    void cancelGesture();

    // Selection and the inspector's edits
    const Selection& selection() const { return selection_; }
    void selectParticle(Index particle, bool add = false);
    void selectAll();
    // Adds everything joined to the selection (Connectivity.h): the particles and bodies of
    // the pieces it touches, and their springs and constraints. One particle of a cloth
    // selects the whole cloth; of a strand, the strand.
    void selectConnected();
    void deleteSelection();  // and everything that hangs on the deleted particles
    // Copy and paste (Clipboard.h). The clipboard is the editor's and outlives open(), so a
    // piece of one scene can be pasted into another.
    void copySelection();
    void cutSelection();  // copy, then delete
    bool canPaste() const { return !clipboard_.empty(); }
    // Pastes the clipboard and selects what it added, in one undoable edit: offset from
    // where it was copied (one step further for each paste), or centred where the ray meets
    // the work plane. On the grid, the offset is a whole number of grid steps.
    void paste();
    void pasteAt(const Ray& ray);
    void setParticleMass(Index particle, double mass);
    void setSpring(Index spring, double stiffness, double damping, double restLength);
    // One of a constraint's numbers (a rod's length, a wire's radius), as its kind lists it:
    // the reason when the value is out of its range or the parameter not of that constraint's
    // kind, and nothing changes; empty when set.
    std::string setConstraintParameter(Index constraint, const ConstraintParameter& parameter, double value);
    // The cloth (the hair) whose particles include `particle`, if any: an index into
    // scene().cloths (scene().hair).
    std::optional<Index> clothOf(Index particle) const;
    std::optional<Index> hairOf(Index particle) const;
    // Returns why a material is refused (a constant out of its range, clothMaterialParameters
    // and hairMaterialParameters, as the loader checks it), and nothing changes; empty when set.
    std::string setClothMaterial(Index cloth, const ClothMaterial& material);
    std::string setHairMaterial(Index hair, const HairMaterial& material);
    // Switches a force field on with these settings, or changes it (an undoable edit). Returns
    // the reason when a setting is out of its kind's range (forceFieldError), and nothing
    // changes; empty when set.
    std::string setForceField(const ForceFieldSpec& field);
    void removeForceField(const ForceFieldKind& kind);  // off: nothing when it is not on
    void setBodyMass(Index body, double mass);
    void setBodyFixed(Index body, bool fixed);
    // Returns why the shape can be no body's (shapeError: a number out of its kind's range, no
    // volume), and nothing changes; empty when set.
    std::string setBodyShape(Index body, const Shape& shape);
    // Ignored for a friction below 0 or a restitution outside 0..1, which no scene file holds.
    void setBodySurface(Index body, double friction, double restitution);
    // All of the tools' settings at once (remembered between runs); set, they are clamped.
    ToolSettings toolSettings() const { return {newElements_, grid_, chain_, cloth_, hair_}; }
    void setToolSettings(ToolSettings tools);
    NewElementSettings& newElements() { return newElements_; }
    SnapGrid& grid() { return grid_; }
    const SnapGrid& grid() const { return grid_; }
    ChainSettings& chain() { return chain_; }
    const ChainSettings& chain() const { return chain_; }
    ClothSettings& cloth() { return cloth_; }
    const ClothSettings& cloth() const { return cloth_; }
    HairSettings& hair() { return hair_; }
    const HairSettings& hair() const { return hair_; }

    // Live settings (not part of the undo history)
    void setIntegrator(const std::string& name);
    void setContactModel(const std::string& name);  // throws std::invalid_argument on an unknown name
    void setContactModelSettings(const ContactModelSettings& contact);  // oba's freezing and hop fix, self collision
    // Self collision off if on; else on, at the model's suggestedThickness (2 cm when no
    // element joins two particles). Returns the thickness now, 0 when off.
    double toggleSelfCollision();
    static constexpr double kLooseParticleThickness = 0.02;  // m
    void setTimeStep(double dt, int substeps);
    void setGravity(const Vec3& g);
    void setDrag(double kd);
    void setPlanar(bool planar);
    // Empty when set; else which parameter is out of its range, and nothing changes.
    std::string setSolverSettings(const IntegratorSettings& solver);
    void setConstraintSettings(const ConstraintSettings& constraints);

    // Timeline (Timeline.h): every finished frame is kept, the oldest dropped beyond the
    // budget. Showing an earlier frame restores it exactly, model and all, and pauses.
    // Playing, stepping or editing there branches: the later frames go, in one undoable
    // step that brings them back. Integrator and settings stay the current ones.
    const Timeline& timeline() const { return timeline_; }
    void setTimelineBudget(std::size_t bytes) { timeline_.setBudget(bytes); }
    // Shows frame `number` (clamped to those kept), ending a grab; ignored in the middle of
    // another gesture (a move, a spring being drawn). An edited present is kept as a frame
    // before another is shown.
    void seekFrame(long number);
    // The frame before the one shown (or, after an edit, the frame the edit was made at).
    void stepBack();
    // The next kept frame, if there is one after the one shown (otherwise false: the caller
    // steps the model instead).
    bool stepForward();
    // Whether the model is at the timeline's cursor frame, unchanged since.
    bool atTimelineFrame() const { return atFrame_; }

    // History
    bool canUndo() const { return history_.canUndo(); }
    bool canRedo() const { return history_.canRedo(); }
    std::size_t undoSteps() const { return history_.undoDepth(); }
    void undo();
    void redo();

private:
    template <class Change>
    void edit(Change&& change);
    void rebuild();
    void changed() {  // after an edit, undo or redo
        modified_ = true;
        ++revision_;
    }
    void restore(Scene scene);      // undo, redo: the settings stay the current ones
    void restore(UndoEntry entry);  // ... and the timeline's frames as they were
    void recordFrame();             // the model's state as the timeline's newest frame
    void showFrame(long number);
    // Before a change at an earlier frame: the frames after it, cut off (nothing at the end).
    std::optional<TimelineCut> branchCut();
    // Cuts the timeline after the frame a history entry was recorded at (to swap with it).
    std::optional<TimelineCut> cutForSwap(const UndoEntry& entry);
    void branch();  // before running at an earlier frame: cut, as an undoable step
    std::optional<Vec3> onPlane(const Ray& ray) const;
    void beginGrab(Index particle, const Vec3& at);
    void beginBodyGrab(Index body, const Vec3& at);
    void addBody(const Shape& shape, const Vec3& at);
    // What a click (no drag) or a drag from start to end with the box or sphere tool makes,
    // and where: a box with corners start and end in the work plane, a sphere centred at
    // start through end.
    std::pair<Shape, Vec3> sizedBody(Tool tool, const Vec3& start, const Vec3& end, bool dragged) const;
    // The cloth tool's cloth from a drag between two corners, or a click at `start`.
    TriangleClothOptions sizedCloth(const Vec3& start, const Vec3& end, bool dragged) const;
    void updateGrab(double dt);
    void endGrab();
    void beginMove(const Anchor& pressed, const Vec3& at);
    void moveTo(const Vec3& point);
    void connect(const Anchor& from, const Ray& ray, const PickTolerance& tolerance);
    void finishChain(const Ray& ray, const PickTolerance& tolerance);
    void pasteWithOffset(const Vec3& offset);
    Vec3 snap(const Vec3& p) const { return grid_.snap(p, workNormal_); }
    // The particle under the pointer, else the point of the body it hits first.
    std::optional<Anchor> pickAnchor(const Ray& ray, const PickTolerance& tolerance) const;
    void toggleBodyNail(const BodyHit& hit, const PickTolerance& tolerance, const Ray& ray);
    void threadBead(Index particle);
    // A tuft of hair (the hair tool's settings) on the body the ray hit, rooted there: nailed
    // on a fixed body, pinned to the body's points on a moving one. Straight in a planar model.
    void plantHair(const Ray& ray, const BodyHit& hit);
    // For the status line after a cloth or hair is made: that the integrator is an explicit
    // one, which runs stiff energies only with many substeps (empty otherwise).
    std::string stiffnessHint() const;
    void stepFrame(FrameReport& report, int maxSubsteps);
    NailConstraint* nailConstraintOn(Index particle);

    Scene scene_;
    std::unique_ptr<Simulation> simulation_;
    UndoHistory history_;
    Timeline timeline_;
    std::shared_ptr<const Scene> model_;  // scene_ as the timeline's frames share it; reset by rebuild()
    bool atFrame_ = false;                // the model is the timeline cursor's frame
    Selection selection_;
    NewElementSettings newElements_;
    SnapGrid grid_;
    ChainSettings chain_;
    ClothSettings cloth_;
    HairSettings hair_;
    std::vector<StrandRoot> tuftUnderPointer_;
    SceneFragment clipboard_;
    int pastes_ = 0;  // since the last copy, for the offset of the next paste
    bool modified_ = false;
    long revision_ = 0;

    bool playing_ = false;
    std::optional<Scene> beforePlay_;
    std::optional<Tool> toolBeforePlay_;
    std::string divergence_;
    bool divergenceAtContactBound_ = false;
    std::string status_;
    double beforePlayTime_ = 0.0;

    Tool tool_ = Tool::Particle;
    Vec3 workPoint_ = Vec3::Zero();
    Vec3 workNormal_ = Vec3::UnitZ();
    Vec3 gesturePlanePoint_ = Vec3::Zero();
    Ray pressRay_;  // of the gesture's press
    Gesture gesture_;
    std::optional<Index> hovered_;
    bool gestureMoved_ = false;
    std::optional<Scene> beforeMove_;
    Vec3 moveAnchor_ = Vec3::Zero();
    Vec3 moveReference_ = Vec3::Zero();  // where the pressed particle or body's centre was: what the grid snaps
    bool chainFromAnchor_ = false;       // the chain starts on gesture_.anchor, else at gesture_.start
    bool chainWaiting_ = false;          // its first click is done; the next press ends it
    std::set<Index> movedBodies_;        // by the move in progress

    MouseSpring* grabSpring_ = nullptr;  // owned by the simulation's particle system
    Vec3 grabTargetBefore_ = Vec3::Zero();
};

}  // namespace tinkerbox
