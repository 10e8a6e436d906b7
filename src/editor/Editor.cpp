#include "editor/Editor.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <vector>

#include "core/bodies/MassProperties.h"
#include "core/bodies/ShapeKind.h"
#include "core/collision/ParticleCollisions.h"
#include "core/dynamics/Connectivity.h"
#include "core/dynamics/GrabSpring.h"
#include "core/math/ParametersError.h"
#include "scene/SceneBuilder.h"

namespace tinkerbox {

namespace {

// Boxes and spheres sized by a drag are at least this big (m), so that a drag along one
// axis still makes a body with a volume.
constexpr double kSmallestBodySize = 0.05;

// Gestures whose pointer places what they make (a body's corner, a wire's radius, a chain's
// end), which lands on the grid; a move snaps what it drags instead (moveTo).
bool madeAtPointer(Gesture::Kind kind) {
    return kind == Gesture::Kind::BodySize || kind == Gesture::Kind::WireRadius || kind == Gesture::Kind::Chain ||
           kind == Gesture::Kind::ClothSize;
}

}  // namespace

Editor::Editor(Scene scene) { open(std::move(scene)); }

void Editor::open(Scene scene) {
    // Built aside first: a scene that fails to build leaves the open one, its history and
    // its unsaved flag untouched.
    std::unique_ptr<Simulation> simulation = buildSimulation(scene);
    scene_ = std::move(scene);
    history_.clear();
    selection_.clear();
    gesture_ = {};
    chainWaiting_ = false;
    grabSpring_ = nullptr;
    hovered_.reset();
    playing_ = false;
    beforePlay_.reset();
    toolBeforePlay_.reset();
    divergence_.clear();
    status_.clear();
    modified_ = false;
    ++revision_;
    simulation_ = std::move(simulation);
    model_.reset();
    timeline_.clear();
    recordFrame();
}

Scene Editor::currentScene() const { return captureScene(*simulation_, scene_); }

void Editor::rebuild() {
    const double t = simulation_->time();
    simulation_ = buildSimulation(scene_);
    simulation_->setTime(t);
    grabSpring_ = nullptr;
    model_.reset();
    atFrame_ = false;
    // A grab's spring went with the old simulation; a chain's start may have gone with the edit.
    if (gesture_.kind == Gesture::Kind::Grab || gesture_.kind == Gesture::Kind::Chain) gesture_ = {};
    chainWaiting_ = chainWaiting_ && gesture_.kind == Gesture::Kind::Chain;
    const auto dropOutOfRange = [](std::set<Index>& set, std::size_t size) {
        std::erase_if(set, [size](Index i) { return i < 0 || static_cast<std::size_t>(i) >= size; });
    };
    dropOutOfRange(selection_.particles, scene_.particles.size());
    dropOutOfRange(selection_.springs, scene_.springs.size());
    dropOutOfRange(selection_.constraints, scene_.constraints.size());
    dropOutOfRange(selection_.wires, scene_.wires.size());
    dropOutOfRange(selection_.bodies, scene_.bodies.size());
}

template <class Change>
void Editor::edit(Change&& change) {
    Scene before = currentScene();
    history_.recordBefore({before, branchCut()});
    scene_ = std::move(before);
    change(scene_);
    rebuild();
    changed();
    status_.clear();
}

void Editor::restore(Scene scene) {
    scene.settings = simulation_->settings();
    scene_ = std::move(scene);
    selection_.clear();
    rebuild();
    changed();
}

void Editor::restore(UndoEntry entry) {
    // The frames of the entry's branch go back after the frame it was cut at, and the model
    // to that frame (exactly) or to the entry's scene at its time (edited after the frame).
    if (entry.cut && timeline_.contains(entry.cut->keptThrough) && timeline_.lastNumber() == entry.cut->keptThrough) {
        setPlaying(false);  // frames follow the one shown: a run would have to branch first
        TimelineCut& cut = *entry.cut;
        timeline_.append(std::move(cut.frames));
        if (timeline_.contains(cut.cursor)) {
            if (cut.atCursor) {
                showFrame(cut.cursor);
                selection_.clear();
                if (entry.branchOnly) ++revision_;
                else changed();
                return;
            }
            const double time = timeline_.frame(cut.cursor).simulation.time;
            timeline_.setCursor(cut.cursor);
            restore(std::move(entry.scene));
            simulation_->setTime(time);
            return;
        }
    }
    restore(std::move(entry.scene));
}

std::optional<TimelineCut> Editor::cutForSwap(const UndoEntry& entry) {
    if (!entry.cut || !timeline_.contains(entry.cut->keptThrough)) return std::nullopt;
    TimelineCut cut = timeline_.cutAfter(entry.cut->keptThrough);
    cut.atCursor = atFrame_;
    return cut;
}

void Editor::undo() {
    if (!history_.canUndo()) return;
    endGrab();
    UndoEntry current{currentScene(), cutForSwap(history_.nextUndo()), history_.nextUndo().branchOnly};
    restore(history_.undo(std::move(current)));
}

void Editor::redo() {
    if (!history_.canRedo()) return;
    endGrab();
    UndoEntry current{currentScene(), cutForSwap(history_.nextRedo()), history_.nextRedo().branchOnly};
    restore(history_.redo(std::move(current)));
}

// --- Timeline --------------------------------------------------------------------------

void Editor::recordFrame() {
    if (!model_) model_ = std::make_shared<const Scene>(scene_);
    TimelineFrame frame;
    simulation_->saveFrame(frame.simulation);
    frame.model = model_;
    timeline_.push(std::move(frame));
    atFrame_ = true;
}

void Editor::showFrame(long number) {
    const TimelineFrame& frame = timeline_.frame(number);
    if (frame.model != model_) {
        Scene model = *frame.model;
        model.settings = simulation_->settings();
        scene_ = std::move(model);
        rebuild();
        model_ = frame.model;
    }
    simulation_->restoreFrame(frame.simulation);
    timeline_.setCursor(number);
    atFrame_ = true;
}

void Editor::seekFrame(long number) {
    // A grab ends; a gesture that builds or moves something holds on to the model shown.
    const bool building = gesture_.kind != Gesture::Kind::None && gesture_.kind != Gesture::Kind::Grab;
    if (timeline_.empty() || building) return;
    setPlaying(false);
    endGrab();
    if (timeline_.atEnd() && !atFrame_) {
        if (number > timeline_.lastNumber()) return;  // the edited present is shown
        // Kept, so that coming back to the end finds it (a frame in progress is not kept).
        if (simulation_->substepsDone() == 0) recordFrame();
    }
    showFrame(std::clamp(number, timeline_.firstNumber(), timeline_.lastNumber()));
}

void Editor::stepBack() {
    if (timeline_.empty()) return;
    seekFrame(atFrame_ || !timeline_.atEnd() ? timeline_.cursor() - 1 : timeline_.cursor());
}

bool Editor::stepForward() {
    if (timeline_.atEnd()) return false;
    seekFrame(timeline_.cursor() + 1);
    return true;
}

std::optional<TimelineCut> Editor::branchCut() {
    if (timeline_.empty() || timeline_.atEnd()) return std::nullopt;
    TimelineCut cut = timeline_.cutAfter(timeline_.cursor());
    cut.atCursor = atFrame_;
    return cut;
}

void Editor::branch() {
    if (std::optional<TimelineCut> cut = branchCut()) {
        history_.recordBefore({currentScene(), std::move(cut), true});
        ++revision_;
    }
}

// --- Running ---------------------------------------------------------------------------

void Editor::setPlaying(bool playing) {
    if (playing == playing_) return;
    if (playing) {
        branch();
        beforePlay_ = currentScene();
        beforePlayTime_ = simulation_->time();
        divergence_.clear();
        if (tool_ != Tool::Grab) {
            toolBeforePlay_ = tool_;
            tool_ = Tool::Grab;
        }
    } else {
        endGrab();
        if (toolBeforePlay_ && tool_ == Tool::Grab) tool_ = *toolBeforePlay_;
        toolBeforePlay_.reset();
    }
    playing_ = playing;
}

void Editor::stepFrame(FrameReport& report, int maxSubsteps) {
    // The pointer is read at a frame's start; a grab begun in the middle of a frame does
    // work in it all the same.
    if (gesture_.kind == Gesture::Kind::Grab) {
        if (simulation_->substepsDone() == 0) updateGrab(simulation_->settings().dt);
        else simulation_->drivenByInput();
    }
    report = simulation_->advance(maxSubsteps);
    if (report.diverged) {
        divergence_ = report.message;
        divergenceAtContactBound_ = report.contactBound;
        setPlaying(false);
        atFrame_ = false;  // rolled back to a state from before
    } else if (report.finished) {
        recordFrame();
    }
}

FrameReport Editor::advance(int maxSubsteps) {
    FrameReport report;
    if (playing_) stepFrame(report, maxSubsteps);
    return report;
}

FrameReport Editor::stepOnce(int maxSubsteps) {
    FrameReport report;
    if (playing_) return report;
    if (simulation_->substepsDone() == 0) branch();
    stepFrame(report, maxSubsteps);
    return report;
}

void Editor::rewind() {
    if (!beforePlay_) return;
    setPlaying(false);
    Scene target = *beforePlay_;
    const double time = beforePlayTime_;
    edit([&](Scene& scene) {
        target.settings = scene.settings;
        scene = std::move(target);
    });
    simulation_->setTime(time);
}

// --- Tools -----------------------------------------------------------------------------

void Editor::setTool(Tool tool) {
    if (chainWaiting_) cancelGesture();
    if (gesture_.kind != Gesture::Kind::None) return;  // not in the middle of a gesture
    tool_ = tool;
    tuftUnderPointer_.clear();
    toolBeforePlay_.reset();
    status_.clear();
}

void Editor::setWorkPlane(const Vec3& point, const Vec3& normal) {
    workPoint_ = point;
    workNormal_ = normal.normalized();
}

std::optional<Vec3> Editor::onPlane(const Ray& ray) const {
    const bool inGesture = gesture_.kind != Gesture::Kind::None;
    return intersectPlane(ray, inGesture ? gesturePlanePoint_ : workPoint_, workNormal_);
}

void Editor::pointerDown(const Ray& ray, const PickTolerance& tolerance, PointerButton button, bool shift) {
    if (chainWaiting_ && button != PointerButton::Middle) {  // the chain's second click ends it; a right click drops it
        if (button == PointerButton::Left) finishChain(ray, tolerance);
        else cancelGesture();
        return;
    }
    if (gesture_.kind != Gesture::Kind::None || button == PointerButton::Middle) return;
    status_.clear();
    pressRay_ = ray;
    const std::optional<Index> particle = pickParticleClothOrHair(scene_, *simulation_, ray, tolerance);
    const std::optional<Vec3> point = onPlane(ray);

    // Right-drag grabs whatever the tool; so does the grab tool. Paused, a grab moves.
    if (button == PointerButton::Right || tool_ == Tool::Grab) {
        if (!particle) {
            // A body is pulled at the point where it was grabbed, so it turns as well.
            if (const std::optional<BodyHit> hit = pickBody(*simulation_, ray)) {
                if (playing_) beginBodyGrab(hit->body, hit->point);
                else beginMove(Anchor::onBody(hit->body, Vec3::Zero()), hit->point);
            }
            return;
        }
        if (playing_) beginGrab(*particle, simulation_->world().position(*particle));
        else beginMove(*particle, simulation_->world().position(*particle));
        return;
    }
    switch (tool_) {
        case Tool::Particle:
            if (particle || !point) return;
            edit([&](Scene& scene) {
                scene.particles.push_back({snap(*point), Vec3::Zero(), newElements_.particleMass, false});
            });
            return;
        case Tool::Spring:
        case Tool::Rod: {
            const std::optional<Anchor> from = pickAnchor(ray, tolerance);
            if (!from) return;
            const Vec3 at = simulation_->world().anchorPosition(*from);
            gesture_ = {Gesture::Kind::Connect, tool_, from->isParticle() ? from->index() : -1, at, at, *from};
            gesturePlanePoint_ = gesture_.start;
            return;
        }
        case Tool::Wire:
            if (particle) {
                threadBead(*particle);
            } else if (point) {
                gesture_ = {Gesture::Kind::WireRadius, tool_, -1, snap(*point), snap(*point), Anchor()};
                gesturePlanePoint_ = gesture_.start;
            }
            return;
        case Tool::Nail:
            if (!particle) {
                if (const std::optional<BodyHit> hit = pickBody(*simulation_, ray))
                    toggleBodyNail(*hit, tolerance, ray);
                return;
            }
            edit([&](Scene& scene) {
                ParticleInit& p = scene.particles[*particle];
                p.nailed = !p.nailed;
                if (p.nailed) p.velocity.setZero();
            });
            return;
        case Tool::Box:
        case Tool::Sphere:
            if (particle || !point || pickBody(*simulation_, ray)) return;
            gesture_ = {Gesture::Kind::BodySize, tool_, -1, snap(*point), snap(*point), Anchor()};
            gesturePlanePoint_ = gesture_.start;
            return;
        case Tool::Cloth:
            if (particle || !point || pickBody(*simulation_, ray)) return;
            gesture_ = {Gesture::Kind::ClothSize, tool_, -1, snap(*point), snap(*point), Anchor()};
            gesturePlanePoint_ = gesture_.start;
            return;
        case Tool::Hair:
            if (const std::optional<BodyHit> hit = pickBody(*simulation_, ray)) plantHair(ray, *hit);
            else status_ = "Hair grows on bodies: click on one (add a sphere or a box with O or B).";
            return;
        case Tool::Chain: {
            // As a spring's: from what is under the pointer, else from a new particle there.
            const std::optional<Anchor> from = pickAnchor(ray, tolerance);
            if (!from && !point) return;
            const Vec3 at = from ? simulation_->world().anchorPosition(*from) : snap(*point);
            gesture_ = {Gesture::Kind::Chain,   tool_, from && from->isParticle() ? from->index() : -1, at, at,
                        from.value_or(Anchor())};
            chainFromAnchor_ = from.has_value();
            gesturePlanePoint_ = at;
            return;
        }
        case Tool::Select:
            if (particle) {
                // Pressing on a selected particle keeps the selection, so that it all moves.
                if (shift || !selection_.particles.count(*particle)) selectParticle(*particle, shift);
                if (!playing_) beginMove(*particle, simulation_->world().position(*particle));
                return;
            }
            // Thin things first: a spring or a rod drawn over a body is picked where it lies.
            if (const auto spring = pickSpring(*simulation_, ray, tolerance)) {
                if (!shift) selection_.clear();
                selection_.springs.insert(*spring);
                return;
            }
            if (const auto rod = pickRod(*simulation_, ray, tolerance)) {
                if (!shift) selection_.clear();
                selection_.constraints.insert(*rod);
                return;
            }
            if (const auto body = pickBody(*simulation_, ray)) {
                // As a particle: pressing on a selected body keeps the selection, so that it all moves.
                if (!selection_.bodies.count(body->body) || shift) {
                    if (!shift) selection_.clear();
                    if (shift && selection_.bodies.count(body->body)) selection_.bodies.erase(body->body);
                    else selection_.bodies.insert(body->body);
                }
                if (!playing_) beginMove(Anchor::onBody(body->body, Vec3::Zero()), body->point);
                return;
            }
            if (!shift) selection_.clear();
            if (const auto wire = pickWire(scene_.wires, ray, tolerance)) {
                selection_.wires.insert(*wire);
            } else if (point) {
                gesture_ = {Gesture::Kind::RubberBand, tool_, -1, *point, *point, Anchor()};
                gesturePlanePoint_ = *point;
            }
            return;
        case Tool::Grab: return;  // handled above
    }
}

void Editor::pointerRests(const Ray& ray, const PickTolerance& tolerance) {
    hovered_ = pickParticleClothOrHair(scene_, *simulation_, ray, tolerance);
    tuftUnderPointer_.clear();
    if (tool_ == Tool::Hair)
        if (const std::optional<BodyHit> hit = pickBody(*simulation_, ray))
            tuftUnderPointer_ = tuftRoots(*simulation_, ray, *hit, hair_);
}

void Editor::pointerMove(const Ray& ray, const PickTolerance& tolerance) {
    pointerRests(ray, tolerance);
    if (gesture_.kind == Gesture::Kind::None) return;
    const std::optional<Vec3> point = onPlane(ray);
    if (!point) return;
    gesture_.current = madeAtPointer(gesture_.kind) ? snap(*point) : *point;
    if (gesture_.kind == Gesture::Kind::Move) moveTo(*point);
}

void Editor::pointerUp(const Ray& ray, const PickTolerance& tolerance) {
    if (const std::optional<Vec3> point = onPlane(ray); point && gesture_.kind != Gesture::Kind::None)
        gesture_.current = madeAtPointer(gesture_.kind) ? snap(*point) : *point;
    const Gesture gesture = gesture_;
    // Whether the pointer moved, by where it was pressed and released (not by what snapped there).
    const std::optional<Vec3> pressedAt = intersectPlane(pressRay_, gesturePlanePoint_, workNormal_);
    const std::optional<Vec3> releasedAt = onPlane(ray);
    const bool dragged =
        pressedAt && releasedAt &&
        (*releasedAt - *pressedAt).norm() > tolerance.at((gesture.start - ray.origin).dot(ray.direction));
    switch (gesture.kind) {
        case Gesture::Kind::None: return;
        case Gesture::Kind::RubberBand:
            gesture_ = {};
            if (dragged)
                selection_.add(itemsInside(*simulation_, scene_, {gesture.start, gesture.current, workNormal_}));
            return;
        case Gesture::Kind::Chain:
            // A click leaves the chain waiting for a second click; a drag ends it here.
            if (chainWaiting_) return;
            if (dragged) finishChain(ray, tolerance);
            else chainWaiting_ = true;
            return;
        case Gesture::Kind::Connect:
            gesture_ = {};
            connect(gesture.anchor, ray, tolerance);
            return;
        case Gesture::Kind::BodySize: {
            gesture_ = {};
            const auto [shape, at] = sizedBody(gesture.tool, gesture.start, gesture.current, dragged);
            addBody(shape, at);
            return;
        }
        case Gesture::Kind::ClothSize: {
            gesture_ = {};
            const TriangleClothOptions cloth = sizedCloth(gesture.start, gesture.current, dragged);
            edit([&](Scene& scene) { addTriangleCloth(scene, cloth); });
            status_ = "Cloth: " + std::to_string(cloth.columns) + " x " + std::to_string(cloth.rows) + " particles." +
                      stiffnessHint();
            return;
        }
        case Gesture::Kind::WireRadius: {
            gesture_ = {};
            const double radius = (gesture.current - gesture.start).norm();
            if (!dragged || !(radius > 0.0)) return;  // a click, not a drag (or one that snapped back)
            edit([&](Scene& scene) { scene.wires.push_back({gesture.start, radius, workNormal_}); });
            return;
        }
        case Gesture::Kind::Grab: endGrab(); return;
        case Gesture::Kind::Move:
            gesture_ = {};
            if (gestureMoved_ && beforeMove_) {
                // One undoable edit for the whole drag. Nails follow the particles they hold.
                history_.recordBefore({*beforeMove_, branchCut()});
                scene_ = currentScene();
                for (ConstraintSpec& spec : scene_.constraints) {
                    auto* nail = std::get_if<NailSpec>(&spec);
                    if (!nail) continue;
                    if (nail->anchor.isParticle()) nail->point = scene_.particles[nail->anchor.index()].position;
                    else if (movedBodies_.count(nail->anchor.index()))
                        nail->point = simulation_->world().anchorPosition(nail->anchor);
                }
                rebuild();
                changed();
            }
            beforeMove_.reset();
            return;
    }
}

void Editor::finishChain(const Ray& ray, const PickTolerance& tolerance) {
    const Gesture gesture = gesture_;
    const std::optional<Anchor> from = chainFromAnchor_ ? std::optional<Anchor>(gesture.anchor) : std::nullopt;
    gesture_ = {};
    chainWaiting_ = false;
    // The far end as a spring's (connect): what is under the pointer, else a new particle.
    const World& world = simulation_->world();
    const Vec3 start = from ? world.anchorPosition(*from) : gesture.start;
    std::optional<Anchor> to = pickAnchor(ray, tolerance);
    if (to && from && to->body == from->body) to.reset();
    std::optional<Vec3> end;
    if (to) end = world.anchorPosition(*to);
    else if ((end = intersectPlane(ray, start, workNormal_))) end = snap(*end);
    if (!end || (*end - start).norm() <= tolerance.at((start - ray.origin).dot(ray.direction))) return;
    const int count = std::clamp(chain_.particles, 1, ChainSettings::kMaxParticles);
    const double length = std::max(chain_.slack, 1.0) * (*end - start).norm();
    const std::vector<Vec3> joints =
        hangingRope(start, *end, count, length, simulation_->settings().gravity, workNormal_);
    const bool rods = chain_.rods;
    edit([&](Scene& scene) {
        const auto addParticle = [&](const Vec3& x) {
            scene.particles.push_back({x, Vec3::Zero(), newElements_.particleMass, false});
            return Anchor(static_cast<Index>(scene.particles.size()) - 1);
        };
        std::vector<Anchor> rope = {from ? *from : addParticle(start)};
        for (const Vec3& x : joints) rope.push_back(addParticle(x));
        rope.push_back(to ? *to : addParticle(*end));
        const double rest = length / (count + 1);
        for (std::size_t k = 0; k + 1 < rope.size(); ++k) {
            if (rods) scene.constraints.push_back(RodSpec{rope[k], rope[k + 1], rest});
            else
                scene.springs.push_back(
                    {rope[k], rope[k + 1], newElements_.springStiffness, newElements_.springDamping, rest});
        }
    });
}

void Editor::plantHair(const Ray& ray, const BodyHit& hit) {
    const std::vector<StrandRoot> roots = tuftRoots(*simulation_, ray, hit, hair_);
    if (roots.empty()) return;
    HairOptions options = hairOptions(hair_);
    if (simulation_->world().planar()) options.curl = 0.0;  // a helix would leave the plane
    const RigidBodies& bodies = simulation_->world().rigidBodies();
    const bool pinned = !bodies.isFixed(hit.body);
    const RigidBodySpec spec = bodies.currentSpec(hit.body);
    edit([&](Scene& scene) {
        const Index first = addStrands(scene, roots, options);
        if (!pinned) return;
        // Held by the moving body instead of nailed: each root particle pinned to the body's
        // point where it is.
        for (std::size_t strand = 0; strand < roots.size(); ++strand)
            for (int k = 0; k < options.rootParticles; ++k) {
                const Index i = first + static_cast<Index>(strand) * options.length + k;
                ParticleInit& particle = scene.particles[i];
                particle.nailed = false;
                scene.constraints.push_back(PinSpec{
                    Anchor(i),
                    Anchor::onBody(hit.body, spec.orientation.conjugate() * (particle.position - spec.position))});
            }
    });
    status_ = "Hair: " + std::to_string(roots.size()) + " strands of " + std::to_string(options.length) +
              " particles." + stiffnessHint();
}

std::string Editor::stiffnessHint() const {
    const std::string& integrator = simulation_->settings().integrator;
    if (integratorKind(integrator).has(IntegratorCapability::StableOnStiffSprings)) return "";
    std::string stable;
    for (const IntegratorKind* kind : integratorKinds())
        if (kind->has(IntegratorCapability::StableOnStiffSprings))
            stable += (stable.empty() ? "" : " and ") + std::string(kind->name);
    return " It is stiff: " + stable + " run it at this dt, " + integrator + " only with many substeps.";
}

std::vector<Vec3> Editor::chainBeingLaid() const {
    if (gesture_.kind != Gesture::Kind::Chain) return {};
    const Vec3 start = chainFromAnchor_ ? simulation_->world().anchorPosition(gesture_.anchor) : gesture_.start;
    const int count = std::clamp(chain_.particles, 1, ChainSettings::kMaxParticles);
    const double length = std::max(chain_.slack, 1.0) * (gesture_.current - start).norm();
    std::vector<Vec3> rope = {start};
    for (const Vec3& x :
         hangingRope(start, gesture_.current, count, length, simulation_->settings().gravity, workNormal_))
        rope.push_back(x);
    rope.push_back(gesture_.current);
    return rope;
}

std::optional<PlaneRectangle> Editor::rubberBand() const {
    if (gesture_.kind != Gesture::Kind::RubberBand) return std::nullopt;
    return PlaneRectangle{gesture_.start, gesture_.current, workNormal_};
}

void Editor::cancelGesture() {
    if (gesture_.kind != Gesture::Kind::Chain && gesture_.kind != Gesture::Kind::RubberBand) return;
    gesture_ = {};
    chainWaiting_ = false;
}

std::optional<Anchor> Editor::pickAnchor(const Ray& ray, const PickTolerance& tolerance) const {
    if (const std::optional<Index> particle = pickParticleClothOrHair(scene_, *simulation_, ray, tolerance))
        return Anchor(*particle);
    const std::optional<BodyHit> hit = pickBody(*simulation_, ray);
    if (!hit) return std::nullopt;
    const RigidBodySpec spec = simulation_->world().rigidBodies().currentSpec(hit->body);
    return Anchor::onBody(hit->body, spec.orientation.conjugate() * (hit->point - spec.position));
}

void Editor::toggleBodyNail(const BodyHit& hit, const PickTolerance& tolerance, const Ray& ray) {
    // A nail of this body near the click comes out; otherwise one goes in at the click.
    const double near = tolerance.at((hit.point - ray.origin).dot(ray.direction));
    for (std::size_t k = 0; k < scene_.constraints.size(); ++k) {
        const auto* nail = std::get_if<NailSpec>(&scene_.constraints[k]);
        if (nail && nail->anchor.isRigid() && nail->anchor.index() == hit.body &&
            (simulation_->world().anchorPosition(nail->anchor) - hit.point).norm() <= 2.0 * near) {
            edit([&](Scene& scene) {
                scene.constraints.erase(scene.constraints.begin() + static_cast<std::ptrdiff_t>(k));
            });
            return;
        }
    }
    const RigidBodySpec spec = simulation_->world().rigidBodies().currentSpec(hit.body);
    const Anchor anchor = Anchor::onBody(hit.body, spec.orientation.conjugate() * (hit.point - spec.position));
    edit([&](Scene& scene) { scene.constraints.push_back(NailSpec{anchor, hit.point}); });
}

void Editor::connect(const Anchor& from, const Ray& ray, const PickTolerance& tolerance) {
    const World& system = simulation_->world();
    const Vec3 start = system.anchorPosition(from);
    std::optional<Anchor> to = pickAnchor(ray, tolerance);
    std::optional<Vec3> end;
    if (to && to->body == from.body) to.reset();
    if (to) {
        end = system.anchorPosition(*to);
    } else {
        end = intersectPlane(ray, start, workNormal_);
        if (end) end = snap(*end);
        if (!end || (*end - start).norm() <= tolerance.at((start - ray.origin).dot(ray.direction))) return;
    }
    const double length = (*end - start).norm();
    if (length < 1e-9) return;
    const Tool tool = tool_;
    edit([&](Scene& scene) {
        Anchor target;
        if (to) {
            target = *to;
        } else {
            scene.particles.push_back({*end, Vec3::Zero(), newElements_.particleMass, false});
            target = static_cast<Index>(scene.particles.size()) - 1;
        }
        if (tool == Tool::Rod) scene.constraints.push_back(RodSpec{from, target, length});
        else scene.springs.push_back({from, target, newElements_.springStiffness, newElements_.springDamping, length});
    });
}

void Editor::threadBead(Index particle) {
    if (scene_.wires.empty()) {
        status_ = "No wire to thread the bead on: press at a centre and drag the radius first.";
        return;
    }
    // The wire whose circle passes nearest the particle.
    const Vec3 x = simulation_->world().position(particle);
    std::size_t nearest = 0;
    double best = INFINITY;
    for (std::size_t k = 0; k < scene_.wires.size(); ++k) {
        const Wire& w = scene_.wires[k];
        const Vec3 d = x - w.center;
        const Vec3 inPlane = d - d.dot(w.normal) * w.normal;
        const double distance = std::hypot(d.dot(w.normal), inPlane.norm() - w.radius);
        if (distance < best) {
            best = distance;
            nearest = k;
        }
    }
    const Wire wire = scene_.wires[nearest];
    edit([&](Scene& scene) {
        // Put the bead on the wire and keep only its velocity along the wire, so that the
        // constraint holds from the start instead of yanking the bead onto the wire.
        ParticleInit& p = scene.particles[particle];
        Vec3 radial = p.position - wire.center;
        radial -= radial.dot(wire.normal) * wire.normal;
        if (radial.norm() < 1e-9 * wire.radius) {
            Vec3 w;
            orthonormalComplement(wire.normal, radial, w);
        }
        radial.normalize();
        p.position = wire.center + wire.radius * radial;
        p.velocity -= p.velocity.dot(wire.normal) * wire.normal + p.velocity.dot(radial) * radial;
        scene.constraints.push_back(WireSpec{particle, wire.center, wire.radius, wire.normal});
    });
}

// --- Grab and move ---------------------------------------------------------------------

NailConstraint* Editor::nailConstraintOn(Index particle) {
    for (const auto& c : simulation_->world().constraints())
        if (auto* nail = dynamic_cast<NailConstraint*>(c.get()))
            if (std::get<NailSpec>(nail->spec()).anchor == Anchor(particle)) return nail;
    return nullptr;
}

void Editor::beginGrab(Index particle, const Vec3& at) {
    gesture_ = {Gesture::Kind::Grab, tool_, particle, at, at, Anchor(particle)};
    gesturePlanePoint_ = at;
    grabTargetBefore_ = at;
    World& system = simulation_->world();
    if (system.isNailed(particle) || nailConstraintOn(particle)) return;  // moved kinematically in updateGrab
    const GrabSpringParameters p =
        grabSpringParameters(system, Anchor(particle), simulation_->settings().gravity.norm());
    auto spring = std::make_unique<MouseSpring>(particle, p.stiffness, p.damping, p.maxForce);
    spring->setTarget(at);
    grabSpring_ = &static_cast<MouseSpring&>(system.addForce(std::move(spring)));
}

void Editor::addBody(const Shape& shape, const Vec3& at) {
    edit([&](Scene& scene) {
        RigidBodySpec body;
        body.shape = shape;
        body.mass = newElements_.bodyMass;
        body.position = at;
        scene.bodies.push_back(body);
    });
}

std::pair<Shape, Vec3> Editor::sizedBody(Tool tool, const Vec3& start, const Vec3& end, bool dragged) const {
    if (tool == Tool::Sphere)
        return {SphereShape{dragged ? std::max((end - start).norm(), kSmallestBodySize) : newElements_.sphereRadius},
                start};
    if (!dragged) return {BoxShape{Vec3::Constant(newElements_.boxSize)}, start};
    // The edges in the work plane span the drag; the edge across it is the default edge.
    Vec3 size = (end - start).cwiseAbs().cwiseMax(kSmallestBodySize);
    Index across;
    workNormal_.cwiseAbs().maxCoeff(&across);
    size[across] = newElements_.boxSize;
    return {BoxShape{size}, 0.5 * (start + end)};
}

TriangleClothOptions Editor::sizedCloth(const Vec3& start, const Vec3& end, bool dragged) const {
    ClothSettings settings = cloth_;
    settings.particles = std::clamp(settings.particles, 2, ClothSettings::kMaxParticles);
    PlaneRectangle rectangle{start, end, workNormal_};
    const std::array<Vec3, 4> corners = rectangle.corners();
    // A click, or a drag along one axis only, lays the default square.
    if (!dragged || (corners[1] - corners[0]).norm() < kSmallestBodySize ||
        (corners[3] - corners[0]).norm() < kSmallestBodySize)
        rectangle = squareAround(start, workNormal_, std::max(settings.size, kSmallestBodySize));
    return clothOver(rectangle, settings);
}

std::optional<TriangleClothOptions> Editor::clothBeingLaid() const {
    if (gesture_.kind != Gesture::Kind::ClothSize) return std::nullopt;
    return sizedCloth(gesture_.start, gesture_.current, (gesture_.current - gesture_.start).norm() > 0.0);
}

std::optional<std::pair<Shape, Vec3>> Editor::bodyBeingSized() const {
    if (gesture_.kind != Gesture::Kind::BodySize) return std::nullopt;
    return sizedBody(gesture_.tool, gesture_.start, gesture_.current, (gesture_.current - gesture_.start).norm() > 0.0);
}

void Editor::beginBodyGrab(Index body, const Vec3& at) {
    World& system = simulation_->world();
    const RigidBodies& bodies = system.rigidBodies();
    if (bodies.isFixed(body)) return;
    const RigidBodySpec spec = bodies.currentSpec(body);
    const Anchor anchor = Anchor::onBody(body, spec.orientation.conjugate() * (at - spec.position));
    gesture_ = {Gesture::Kind::Grab, tool_, -1, at, at, anchor};
    gesturePlanePoint_ = at;
    grabTargetBefore_ = at;
    const GrabSpringParameters p = grabSpringParameters(system, anchor, simulation_->settings().gravity.norm());
    auto spring = std::make_unique<MouseSpring>(anchor, p.stiffness, p.damping, p.maxForce);
    spring->setTarget(at);
    grabSpring_ = &static_cast<MouseSpring&>(system.addForce(std::move(spring)));
}

void Editor::setBodyMass(Index body, double mass) {
    if (!(mass > 0.0)) return;
    edit([&](Scene& scene) {
        scene.bodies[body].mass = mass;
        scene.bodies[body].density = 0.0;
    });
}

std::string Editor::setBodyShape(Index body, const Shape& shape) {
    if (std::string why = shapeError(shape); !why.empty()) return why;
    edit([&](Scene& scene) { scene.bodies[body].shape = shape; });
    return {};
}

void Editor::setBodySurface(Index body, double friction, double restitution) {
    if (!(friction >= 0.0 && restitution >= 0.0 && restitution <= 1.0)) return;
    edit([&](Scene& scene) {
        scene.bodies[body].friction = friction;
        scene.bodies[body].restitution = restitution;
    });
}

void Editor::setBodyFixed(Index body, bool fixed) {
    edit([&](Scene& scene) {
        scene.bodies[body].fixed = fixed;
        if (fixed) scene.bodies[body].velocity = scene.bodies[body].angularVelocity = Vec3::Zero();
    });
}

void Editor::updateGrab(double dt) {
    const Vec3 target = gesture_.current;
    const Vec3 velocity = (target - grabTargetBefore_) / dt;
    grabTargetBefore_ = target;
    simulation_->drivenByInput();
    World& system = simulation_->world();
    if (grabSpring_) {
        grabSpring_->setTarget(target, velocity);
    } else if (gesture_.particle >= 0 && system.isNailed(gesture_.particle)) {
        system.moveNailed(gesture_.particle, target, dt);
    } else if (NailConstraint* nail = nailConstraintOn(gesture_.particle)) {
        nail->setPoint(target, velocity);
    }
}

void Editor::endGrab() {
    if (gesture_.kind != Gesture::Kind::Grab) return;
    World& system = simulation_->world();
    if (grabSpring_) system.removeForce(grabSpring_);
    else if (gesture_.particle >= 0 && system.isNailed(gesture_.particle))
        system.setVelocity(gesture_.particle, Vec3::Zero());
    grabSpring_ = nullptr;
    gesture_ = {};
}

void Editor::beginMove(const Anchor& pressed, const Vec3& at) {
    gesture_ = {Gesture::Kind::Move, tool_, pressed.isParticle() ? pressed.index() : -1, at, at, pressed};
    gesturePlanePoint_ = at;
    moveAnchor_ = at;
    const World& world = simulation_->world();
    moveReference_ =
        pressed.isParticle() ? world.position(pressed.index()) : world.rigidBodies().position(pressed.index());
    gestureMoved_ = false;
    beforeMove_ = currentScene();
}

void Editor::moveTo(const Vec3& point) {
    // What was pressed follows the pointer; with the select tool, so does the rest of the
    // selection when the pressed particle or body is part of it. On the grid, the pressed
    // particle or body's centre of mass lands on grid points, and the rest keeps its place
    // relative to it.
    const Vec3 delta = snap(moveReference_ + point - moveAnchor_) - moveReference_;
    const Anchor& pressed = gesture_.anchor;
    std::set<Index> particles, bodies;
    (pressed.isParticle() ? particles : bodies).insert(pressed.index());
    const bool inSelection = pressed.isParticle() ? selection_.particles.count(pressed.index()) > 0
                                                  : selection_.bodies.count(pressed.index()) > 0;
    if (gesture_.tool == Tool::Select && inSelection) {
        particles = selection_.particles;
        bodies = selection_.bodies;
    }
    World& system = simulation_->world();
    for (Index i : particles) {
        system.setPosition(i, beforeMove_->particles[i].position + delta);
        system.setVelocity(i, Vec3::Zero());
    }
    RigidBodies& rigid = system.rigidBodies();
    for (Index k : bodies) {
        const RigidBodySpec& before = beforeMove_->bodies[k];
        rigid.setPosition(k, before.position + before.orientation * rigid.centerOfMassInShapeFrame(k) + delta);
        rigid.setVelocity(k, Vec3::Zero(), Vec3::Zero());
    }
    movedBodies_ = bodies;
    simulation_->stateEdited();
    gestureMoved_ = gestureMoved_ || delta.norm() > 0.0;
}

// --- Selection and inspector -----------------------------------------------------------

void Editor::selectParticle(Index particle, bool add) {
    if (!add) selection_.clear();
    if (add && selection_.particles.count(particle)) selection_.particles.erase(particle);
    else selection_.particles.insert(particle);
}

void Editor::selectAll() {
    selection_.clear();
    const auto all = [](std::set<Index>& set, std::size_t count) {
        for (std::size_t i = 0; i < count; ++i) set.insert(static_cast<Index>(i));
    };
    all(selection_.particles, scene_.particles.size());
    all(selection_.bodies, scene_.bodies.size());
    all(selection_.springs, scene_.springs.size());
    all(selection_.constraints, scene_.constraints.size());
    all(selection_.wires, scene_.wires.size());
}

void Editor::selectConnected() {
    const World& world = simulation_->world();
    const std::vector<Index> labels = componentLabels(world);
    const Index n = world.particleCount();
    const auto node = [&](const Anchor& a) { return componentNode(world, a); };
    std::set<Index> pieces;
    for (const Index i : selection_.particles) pieces.insert(labels[i]);
    for (const Index k : selection_.bodies) pieces.insert(labels[n + k]);
    for (const Index k : selection_.springs)
        for (const Anchor& a : {world.springs()[k].a, world.springs()[k].b}) pieces.insert(labels[node(a)]);
    for (const Index k : selection_.constraints)
        forEachAnchor(world.constraints()[k]->spec(), [&](const Anchor& a) { pieces.insert(labels[node(a)]); });
    const auto inPiece = [&](const Anchor& a) { return pieces.count(labels[node(a)]) > 0; };
    for (Index i = 0; i < n; ++i)
        if (pieces.count(labels[i])) selection_.particles.insert(i);
    for (Index k = 0; k < world.rigidBodyCount(); ++k)
        if (pieces.count(labels[n + k])) selection_.bodies.insert(k);
    for (Index k = 0; k < static_cast<Index>(world.springs().size()); ++k)
        if (inPiece(world.springs()[k].a)) selection_.springs.insert(k);
    for (Index k = 0; k < static_cast<Index>(world.constraints().size()); ++k) {
        bool joined = false;
        forEachAnchor(world.constraints()[k]->spec(), [&](const Anchor& a) { joined = joined || inPiece(a); });
        if (joined) selection_.constraints.insert(k);
    }
}

void Editor::copySelection() {
    if (selection_.empty()) return;
    clipboard_ = copyItems(currentScene(), selection_);
    pastes_ = 0;
}

void Editor::cutSelection() {
    copySelection();
    deleteSelection();
}

void Editor::paste() {
    // Each paste one step further down and to the right of the original, so that copies
    // pasted one after another do not hide each other; on the grid, whole grid steps.
    constexpr double kPasteStep = 0.5;  // m
    const double step =
        grid_.enabled && grid_.spacing > 0.0 ? grid_.spacing * std::ceil(kPasteStep / grid_.spacing) : kPasteStep;
    Vec3 u = Vec3::UnitX() - workNormal_.x() * workNormal_;  // the work plane's right and down
    if (u.norm() < 1e-6) u = Vec3::UnitY() - workNormal_.y() * workNormal_;
    u.normalize();
    const Vec3 v = workNormal_.cross(u);
    pasteWithOffset((pastes_ + 1) * step * (u - v));
    ++pastes_;
}

void Editor::pasteAt(const Ray& ray) {
    const std::optional<Vec3> point = intersectPlane(ray, workPoint_, workNormal_);
    if (!point) return;
    pasteWithOffset(snap(*point - fragmentCentre(clipboard_)));
}

void Editor::pasteWithOffset(const Vec3& offset) {
    if (clipboard_.empty() || gesture_.kind != Gesture::Kind::None) return;
    Selection added;
    edit([&](Scene& scene) { added = pasteItems(scene, clipboard_, offset); });
    selection_ = added;
}

void Editor::deleteSelection() {
    if (selection_.empty()) return;
    const Selection doomed = selection_;
    edit([&](Scene& scene) {
        std::vector<Index> renumber(scene.particles.size(), -1);
        std::vector<ParticleInit> particles;
        for (std::size_t i = 0; i < scene.particles.size(); ++i)
            if (!doomed.particles.count(static_cast<Index>(i))) {
                renumber[i] = static_cast<Index>(particles.size());
                particles.push_back(scene.particles[i]);
            }
        scene.particles = std::move(particles);
        std::vector<Index> renumberBody(scene.bodies.size(), -1);
        std::vector<RigidBodySpec> bodies;
        for (std::size_t k = 0; k < scene.bodies.size(); ++k)
            if (!doomed.bodies.count(static_cast<Index>(k))) {
                renumberBody[k] = static_cast<Index>(bodies.size());
                bodies.push_back(scene.bodies[k]);
            }
        scene.bodies = std::move(bodies);
        // An anchor on a deleted particle or body goes with it; the others are renumbered.
        const auto renumberAnchor = [&](Anchor& a) {
            const Index to = a.isParticle() ? renumber[a.index()] : renumberBody[a.index()];
            if (to < 0) return false;
            a.body.index = to;
            return true;
        };
        std::vector<DampedSpring> springs;
        for (std::size_t k = 0; k < scene.springs.size(); ++k) {
            DampedSpring s = scene.springs[k];
            bool keep = !doomed.springs.count(static_cast<Index>(k));
            for (Anchor* end : {&s.a, &s.b}) keep = keep && renumberAnchor(*end);
            if (keep) springs.push_back(s);
        }
        scene.springs = std::move(springs);
        std::vector<ConstraintSpec> constraints;
        for (std::size_t k = 0; k < scene.constraints.size(); ++k) {
            ConstraintSpec spec = scene.constraints[k];
            bool keep = !doomed.constraints.count(static_cast<Index>(k));
            forEachAnchor(spec, [&](Anchor& a) { keep = keep && renumberAnchor(a); });
            if (keep) constraints.push_back(spec);
        }
        scene.constraints = std::move(constraints);
        std::vector<Wire> wires;
        for (std::size_t k = 0; k < scene.wires.size(); ++k)
            if (!doomed.wires.count(static_cast<Index>(k))) wires.push_back(scene.wires[k]);
        scene.wires = std::move(wires);
        // A cloth's or a hair's deleted particles become missing places, holes in the cloth's
        // grid or cuts in the strands: the rest stays, renumbered (deletions keep its particles
        // contiguous). One left with no element (a triangle, a segment) goes, its particles
        // staying, free.
        const auto cut = [&](auto& group, int places) {
            std::vector<int> missing;
            Index first = -1;
            for (int place = 0; place < places; ++place) {
                const Index p = group.particleAt(place);
                if (p < 0 || renumber[p] < 0) missing.push_back(place);
                else if (first < 0) first = renumber[p];
            }
            group.missing = std::move(missing);
            group.firstParticle = first;
            return first >= 0;
        };
        std::vector<ClothSpec> cloths;
        for (ClothSpec c : scene.cloths) {
            if (cut(c, c.placeCount()) && c.hasTriangle()) cloths.push_back(std::move(c));
        }
        scene.cloths = std::move(cloths);
        std::vector<HairSpec> hair;
        for (HairSpec h : scene.hair) {
            if (!h.restShape.empty()) {  // one point per particle: the deleted ones' go
                std::vector<Vec3> rest;
                for (Index k = 0; k < h.particleCount(); ++k)
                    if (renumber[h.firstParticle + k] >= 0) rest.push_back(h.restShape[k]);
                h.restShape = std::move(rest);
            }
            if (cut(h, h.placeCount()) && h.hasSegment()) hair.push_back(std::move(h));
        }
        scene.hair = std::move(hair);
    });
    selection_.clear();
}

void Editor::setToolSettings(ToolSettings tools) {
    clampSettings(tools);
    newElements_ = tools.newElements;
    grid_ = tools.grid;
    chain_ = tools.chain;
    cloth_ = tools.cloth;
    hair_ = tools.hair;
}

void Editor::setParticleMass(Index particle, double mass) {
    if (!(mass > 0.0)) return;
    edit([&](Scene& scene) { scene.particles[particle].mass = mass; });
}

void Editor::setSpring(Index spring, double stiffness, double damping, double restLength) {
    if (stiffness < 0.0 || damping < 0.0 || restLength < 0.0) return;
    edit([&](Scene& scene) {
        DampedSpring& s = scene.springs[spring];
        s.stiffness = stiffness;
        s.damping = damping;
        s.restLength = restLength;
    });
}

namespace {

// The group (a cloth, a hair) whose particles include `particle`.
template <class Group>
std::optional<Index> groupOf(const std::vector<Group>& groups, Index particle) {
    for (std::size_t k = 0; k < groups.size(); ++k)
        if (particle >= groups[k].firstParticle && particle < groups[k].firstParticle + groups[k].particleCount())
            return static_cast<Index>(k);
    return std::nullopt;
}

}  // namespace

std::optional<Index> Editor::clothOf(Index particle) const { return groupOf(scene_.cloths, particle); }

std::optional<Index> Editor::hairOf(Index particle) const { return groupOf(scene_.hair, particle); }

std::string Editor::setClothMaterial(Index cloth, const ClothMaterial& material) {
    if (cloth < 0 || cloth >= static_cast<Index>(scene_.cloths.size())) return "no cloth " + std::to_string(cloth);
    if (std::string why = parametersError(clothMaterialParameters(), material); !why.empty()) return why;
    edit([&](Scene& scene) { scene.cloths[cloth].material = material; });
    return {};
}

std::string Editor::setHairMaterial(Index hair, const HairMaterial& material) {
    if (hair < 0 || hair >= static_cast<Index>(scene_.hair.size())) return "no hair " + std::to_string(hair);
    if (std::string why = parametersError(hairMaterialParameters(), material); !why.empty()) return why;
    edit([&](Scene& scene) { scene.hair[hair].material = material; });
    return {};
}

std::string Editor::setForceField(const ForceFieldSpec& field) {
    if (std::string why = forceFieldError(field); !why.empty()) return why;
    const ForceFieldKind& kind = forceFieldKind(field);
    if (const ForceFieldSpec* current = scene_.field(kind); current && *current == field) return {};
    edit([&](Scene& scene) {
        // In the kinds' order: the model's forces, and the file's keys, come in that order.
        const auto place = std::find_if(scene.fields.begin(), scene.fields.end(),
                                        [&](const ForceFieldSpec& f) { return f.index() >= field.index(); });
        if (place != scene.fields.end() && place->index() == field.index()) *place = field;
        else scene.fields.insert(place, field);
    });
    return {};
}

void Editor::removeForceField(const ForceFieldKind& kind) {
    if (!scene_.field(kind)) return;
    edit([&](Scene& scene) {
        std::erase_if(scene.fields, [&](const ForceFieldSpec& f) { return &forceFieldKind(f) == &kind; });
    });
}

std::string Editor::setConstraintParameter(Index constraint, const ConstraintParameter& parameter, double value) {
    if (constraint < 0 || static_cast<std::size_t>(constraint) >= scene_.constraints.size())
        return "no constraint " + std::to_string(constraint);
    const ConstraintSpec& spec = scene_.constraints[constraint];
    const ConstraintKind& kind = constraintKind(spec);
    if (std::none_of(kind.parameters.begin(), kind.parameters.end(),
                     [&](const ConstraintParameter& p) { return &p == &parameter; }))
        return "a " + std::string(kind.name) + " has no " + std::string(parameter.label);
    if (const std::string why = parameter.rangeError(value); !why.empty())
        return "the " + std::string(kind.name) + "'s " + std::string(parameter.label) + " " + why;
    if (parameter.get(spec) == value) return {};
    edit([&](Scene& scene) { parameter.set(scene.constraints[constraint], value); });
    return {};
}

// --- Live settings ---------------------------------------------------------------------

void Editor::setIntegrator(const std::string& name) {
    simulation_->setIntegrator(name);
    scene_.settings = simulation_->settings();
}

void Editor::setContactModel(const std::string& name) {
    simulation_->setContactModel(name);
    scene_.settings = simulation_->settings();
}

void Editor::setContactModelSettings(const ContactModelSettings& contact) {
    simulation_->setContactModelSettings(contact);
    scene_.settings = simulation_->settings();
}

double Editor::toggleSelfCollision() {
    ContactModelSettings contact = simulation_->settings().contact;
    if (contact.selfCollisionThickness > 0.0) {
        contact.selfCollisionThickness = 0.0;
    } else {
        const double suggested = suggestedThickness(simulation_->world());
        contact.selfCollisionThickness = suggested > 0.0 ? suggested : kLooseParticleThickness;
    }
    setContactModelSettings(contact);
    return contact.selfCollisionThickness;
}

void Editor::setTimeStep(double dt, int substeps) {
    simulation_->setTimeStep(dt, std::clamp(substeps, 1, SimulationSettings::kMaxSubsteps));
    scene_.settings = simulation_->settings();
}

void Editor::setGravity(const Vec3& g) {
    simulation_->setGravity(g);
    scene_.settings = simulation_->settings();
}

void Editor::setPlanar(bool planar) {
    simulation_->setPlanar(planar);
    scene_.settings = simulation_->settings();
    atFrame_ = false;  // pressed into the plane
}

void Editor::setDrag(double kd) {
    simulation_->setDrag(kd);
    scene_.settings = simulation_->settings();
}

std::string Editor::setSolverSettings(const IntegratorSettings& solver) {
    for (const IntegratorKind* kind : integratorKinds())
        if (const std::string why = parametersError(kind->parameters, solver); !why.empty())
            return std::string(kind->name) + "'s " + why;
    simulation_->setSolverSettings(solver);
    scene_.settings = simulation_->settings();
    return {};
}

void Editor::setConstraintSettings(const ConstraintSettings& constraints) {
    simulation_->setConstraintSettings(constraints);
    scene_.settings = simulation_->settings();
}

}  // namespace tinkerbox
