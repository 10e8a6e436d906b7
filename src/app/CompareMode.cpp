#include "app/CompareMode.h"

#include <GLFW/glfw3.h>
#include <glad/gl.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "app/SceneView.h"
#include "app/Tooltip.h"
#include "app/ViewColors.h"
#include "core/constraints/ConstraintKind.h"
#include "core/contact/ContactModel.h"
#include "core/integrators/Integrator.h"
#include "editor/Picking.h"
#include "render/Renderer.h"

namespace tinkerbox {

namespace {

constexpr std::array<Color, CompareMode::kMaxRuns> kRunColors = {{{1.00f, 0.60f, 0.20f, 1.0f},
                                                                  {0.35f, 0.65f, 1.00f, 1.0f},
                                                                  {0.45f, 0.88f, 0.45f, 1.0f},
                                                                  {0.92f, 0.45f, 0.92f, 1.0f}}};
constexpr Color kDivergedGrey{0.45f, 0.45f, 0.47f, 1.0f};
constexpr Color kHighlight{1.0f, 1.0f, 1.0f, 1.0f};
constexpr std::size_t kPlotFrames = 600;  // ten seconds at 60 frames per second

Color faded(Color c, float alpha) {
    c.a = alpha;
    return c;
}

ImU32 imColor(const Color& c) {
    return IM_COL32(static_cast<int>(255 * c.r), static_cast<int>(255 * c.g), static_cast<int>(255 * c.b), 255);
}

}  // namespace

void addCompareRun(const Comparison::Run& run, const Scene& scene, const CompareRunStyle& style, RenderFrame& frame) {
    const World& s = run.simulation->world();
    const Color color = style.color;
    const float alpha = run.diverged ? 0.35f : 1.0f;
    const Color line = faded(color, alpha);
    if (style.first) {
        double ground = INFINITY;
        for (const Plane& p : s.planes()) {
            frame.planes.push_back({p.point, p.normal, kPlaneColor});
            if (p.normal.y() > 0.9) ground = std::min(ground, p.point.y());
        }
        frame.groundLevel = std::isfinite(ground) ? ground : 0.0;
        for (const Wire& w : scene.wires) frame.circles.push_back({w.center, w.normal, w.radius, 2.0f, kWireColor});
    }
    const RigidBodies& bodies = s.rigidBodies();
    for (Index k = 0; k < bodies.count(); ++k) {
        BodyInstance b = bodyInstance(bodies, k);
        if (!b.fixed) {
            b.fill = faded(color, run.diverged ? 0.3f : 0.6f);
            b.outline = line;
        }
        frame.bodies.push_back(std::move(b));
    }
    for (Index i = 0; i < s.beadCount(); ++i) {
        const ParametricBead b = s.beads().bead(i);
        frame.circles.push_back({b.center, b.normal, b.radius, 2.0f, kWireColor});
        frame.discs.push_back({s.beads().position(i), 5.0f, line, kOutlineColor, 1.0f});
    }
    for (const DampedSpring& spring : s.springs().springs())
        frame.segments.push_back({s.anchorPosition(spring.a), s.anchorPosition(spring.b), 1.5f, line});
    const auto edge = [&](Index a, Index b) {
        if (a < s.particleCount() && b < s.particleCount())
            frame.segments.push_back({s.position(a), s.position(b), 1.0f, line});
    };
    std::vector<char> onSurface(s.particleCount(), 0);  // particles drawn as a surface or a strand
    // Shaded, in the run's colour; the surfaces are opaque, so a run that diverged is greyed.
    const Color shade = run.diverged ? mix(color, kDivergedGrey, 0.6f) : color;
    for (const ClothSpec& c : scene.cloths) {
        if (c.firstParticle < 0 || c.firstParticle + c.particleCount() > s.particleCount()) continue;
        if (!style.shaded) {
            c.forEachGridEdge([&](Index a, Index b, double) { edge(a, b); });
            continue;
        }
        SurfaceInstance surface = clothSurface(s, c);
        surface.front = shade;
        surface.back = mix(shade, kOutlineColor, 0.35f);
        for (const auto& triangle : surface.triangles)
            for (const int corner : triangle) onSurface[c.firstParticle + corner] = 1;
        frame.surfaces.push_back(std::move(surface));
    }
    StrandInstance whole;
    whole.root = mix(shade, kOutlineColor, 0.5f);
    whole.tip = mix(shade, kHighlight, 0.3f);
    for (const HairSpec& h : scene.hair) {
        if (h.firstParticle < 0 || h.firstParticle + h.particleCount() > s.particleCount()) continue;
        for (const StrandRun& piece : h.runs()) {
            if (!style.shaded) {
                for (Index p = piece.first; p + 1 < piece.first + piece.length; ++p) edge(p, p + 1);
                continue;
            }
            if (piece.length < 2) continue;
            frame.strands.push_back(hairStrand(s, h, piece.first, piece.length, whole));
            std::fill_n(onSurface.begin() + piece.first, piece.length, 1);
        }
    }
    // Shaded, a strand's root is drawn as its start, not as particles, nor its pins.
    const HeldParticles marks = heldParticles(s, scene);
    const auto root = [&](const Anchor& a) { return style.shaded && a.isParticle() && marks.strandRoot[a.index()]; };
    for (const auto& c : s.constraints()) {
        const ConstraintSpec spec = c->spec();
        const ConstraintKind& kind = constraintKind(spec);
        if (anyAnchor(spec, root) && kind.has(ConstraintCapability::MakesAnchorsCoincide)) continue;
        const ConstraintFigure figure = kind.figure(spec);
        const bool rod = figure.link == ConstraintFigure::Link::Rod;
        forEachAnchorLink(spec, [&](const Anchor& a, const Anchor& b) {
            frame.segments.push_back({s.anchorPosition(a), s.anchorPosition(b), rod ? 3.0f : 2.0f, line});
        });
        if (const auto& wire = figure.circle; wire && style.first)
            frame.circles.push_back({wire->center, wire->normal, wire->radius, 2.0f, kWireColor});
        if (const auto& pivot = figure.pivot) {
            forEachAnchor(spec, [&](const Anchor& a) {
                frame.segments.push_back({*pivot, s.anchorPosition(a), 2.0f, kNailedColor});
            });
            if (style.first) frame.discs.push_back({*pivot, 3.0f, kNailedColor, kOutlineColor, 1.0f});
        }
    }
    if (style.pull) {
        frame.segments.push_back({s.anchorPosition(*style.pull), style.pullTarget, 2.0f, kPullColor, true});
        if (style.first) frame.discs.push_back({style.pullTarget, 3.5f, kPullColor, kOutlineColor, 1.0f});
    }
    // Of a surface's or a strand's particles, only those held in place, and not a strand's root.
    const float radius = s.particleCount() > 1000 ? 2.0f : s.particleCount() > 100 ? 3.0f : 5.0f;
    for (Index i = 0; i < s.particleCount(); ++i) {
        if (onSurface[i] && (!marks.held[i] || marks.strandRoot[i])) continue;
        if (s.isNailed(i)) frame.discs.push_back({s.position(i), radius + 1.0f, kNailedColor, kOutlineColor, 1.0f});
        else frame.discs.push_back({s.position(i), radius, line, kOutlineColor, 1.0f});
    }
}

namespace {

// The runs' recent values of one quantity, overlaid in their colours on one scale.
void plotRuns(const char* title, const Comparison& comparison, double ComparisonSample::*value, const char* unit) {
    float low = INFINITY, high = -INFINITY;
    for (std::size_t r = 0; r < comparison.size(); ++r) {
        const auto& samples = comparison.run(r).samples;
        for (std::size_t i = samples.size() - std::min(samples.size(), kPlotFrames); i < samples.size(); ++i) {
            const float v = static_cast<float>(samples[i].*value);
            if (std::isfinite(v)) {
                low = std::min(low, v);
                high = std::max(high, v);
            }
        }
    }
    ImGui::Text("%s", title);
    if (!(low <= high)) return;
    if (high - low < 1e-6f * std::max(1.0f, std::abs(high))) {
        low -= 0.5f * std::max(1e-6f, std::abs(low));
        high += 0.5f * std::max(1e-6f, std::abs(high));
    }
    const ImVec2 size(ImGui::GetContentRegionAvail().x, 80.0f);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(origin, ImVec2(origin.x + size.x, origin.y + size.y), IM_COL32(20, 22, 26, 255));
    // The same time axis for every run: the last kPlotFrames frames of the longest one.
    std::size_t longest = 0;
    for (std::size_t r = 0; r < comparison.size(); ++r) longest = std::max(longest, comparison.run(r).samples.size());
    const std::size_t first = longest - std::min(longest, kPlotFrames);
    const float span = static_cast<float>(std::max<std::size_t>(std::min(longest, kPlotFrames), 2) - 1);
    for (std::size_t r = 0; r < comparison.size(); ++r) {
        const auto& samples = comparison.run(r).samples;
        std::vector<ImVec2> points;
        for (std::size_t i = std::max(first, std::size_t{1}); i < samples.size(); ++i) {
            const float v = static_cast<float>(samples[i].*value);
            if (!std::isfinite(v)) continue;
            points.emplace_back(origin.x + size.x * static_cast<float>(i - first) / span,
                                origin.y + size.y * (1.0f - (v - low) / (high - low)));
        }
        if (points.size() >= 2)
            draw->AddPolyline(points.data(), static_cast<int>(points.size()), imColor(compareRunColor(r)), 0, 1.5f);
        if (comparison.run(r).diverged && !points.empty())  // where it stopped
            draw->AddCircleFilled(points.back(), 3.5f, IM_COL32(255, 60, 60, 255));
    }
    char label[48];
    std::snprintf(label, sizeof label, "%.3g %s", high, unit);
    draw->AddText(ImVec2(origin.x + 3.0f, origin.y + 1.0f), IM_COL32(150, 150, 150, 255), label);
    std::snprintf(label, sizeof label, "%.3g %s", low, unit);
    draw->AddText(ImVec2(origin.x + 3.0f, origin.y + size.y - ImGui::GetFontSize() - 1.0f),
                  IM_COL32(150, 150, 150, 255), label);
    ImGui::Dummy(size);
}

}  // namespace

Color compareRunColor(std::size_t run) { return kRunColors[run % kRunColors.size()]; }

std::string CompareMode::toggle(Editor& editor) {
    if (active()) {
        comparison_.reset();
        return "Compare mode off: back to the model as it was";
    }
    editor.setPlaying(false);
    chooseDefaults(editor);
    revision_ = editor.revision();
    try {
        start(editor.currentScene());
    } catch (const std::exception& e) {
        return std::string("Cannot compare: ") + e.what();
    }
    std::string names;
    for (const std::string& name : integrators_) names += (names.empty() ? "" : ", ") + name;
    return "Comparing " + names + " (Ctrl+K to stop)";
}

void CompareMode::chooseDefaults(const Editor& editor) {
    if (chosen_) return;
    if (!editor.scene().compare.empty()) {
        integrators_ = editor.scene().compare;
    } else {
        integrators_ = {editor.simulation().settings().integrator};
        for (const char* name : {"euler", "verlet", "rk4"})
            if (integrators_.size() < 3 && name != integrators_[0]) integrators_.push_back(name);
    }
    contactModels_.assign(integrators_.size(), "");
}

void CompareMode::start(const Scene& scene) {
    std::vector<ComparisonChoice> choices;
    for (std::size_t k = 0; k < integrators_.size(); ++k) choices.push_back({integrators_[k], contactModels_[k], 0});
    comparison_.emplace(scene, choices);
    startPoints_ = trackedPoints(comparison_->run(0).simulation->world());
    frames_ = 0;
    framePending_ = false;
    playing_ = true;
    stepRequested_ = false;
}

std::string CompareMode::toggleSplit() {
    split_ = !split_;
    return split_ ? "Compare: split views" : "Compare: ghosts";
}

bool CompareMode::onKey(int key) {
    if (!active()) return false;
    switch (key) {
        case GLFW_KEY_SPACE: playing_ = !playing_; return true;
        case GLFW_KEY_PERIOD: stepRequested_ = !playing_; return true;
        case GLFW_KEY_BACKSPACE: start(comparison_->scene()); return true;
        default: return false;
    }
}

CompareMode::Pane CompareMode::pane(std::size_t index) const {
    if (paneCount() == 1) return {0, width_};
    // Split views share the part of the window between the side panels.
    const int left = static_cast<int>(insetLeft_), right = width_ - static_cast<int>(insetRight_);
    const int span = std::max(right - left, static_cast<int>(paneCount()));
    const int each = span / static_cast<int>(paneCount());
    return {left + static_cast<int>(index) * each, each};
}

std::size_t CompareMode::paneAt(double x) const {
    for (std::size_t p = 0; p < paneCount(); ++p)
        if (x < pane(p).x + pane(p).width) return p;
    return paneCount() - 1;
}

Camera CompareMode::paneCamera(const Camera& camera, std::size_t index) const {
    Camera c = camera;
    const Pane p = pane(index);
    c.setViewport(p.width, height_);
    // A split view shows across its width what the whole view shows between the panels.
    if (paneCount() > 1)
        c.zoomAbout(0.5 * p.width, 0.5 * height_, p.width / std::max(width_ - insetLeft_ - insetRight_, 1.0));
    return c;
}

std::optional<Vec3> CompareMode::pullPoint(const Camera& camera, double x, double y) const {
    const Camera c = paneCamera(camera, pullPane_);
    const Camera::Ray r = c.ray(x - pane(pullPane_).x, y);
    return intersectPlane({r.origin, r.direction}, pullPlanePoint_, pullPlaneNormal_);
}

bool CompareMode::pointerDown(const Camera& camera, double x, double y, double pickPixels) {
    if (!active()) return false;
    pullPane_ = paneAt(x);
    std::size_t picked = pullPane_;
    if (paneCount() == 1) {  // ghosts: the first run still going
        picked = 0;
        while (picked + 1 < comparison_->size() && comparison_->run(picked).diverged) ++picked;
    }
    const Simulation& simulation = *comparison_->run(picked).simulation;
    const Camera c = paneCamera(camera, pullPane_);
    const Camera::Ray r = c.ray(x - pane(pullPane_).x, y);
    const Ray ray{r.origin, r.direction};
    const PickTolerance tolerance{pickPixels * c.pixelSize(0.0), pickPixels * c.pixelSizePerDistance()};
    std::optional<Anchor> anchor;
    Vec3 point = Vec3::Zero();
    if (const std::optional<Index> particle =
            pickParticleClothOrHair(comparison_->scene(), simulation, ray, tolerance)) {
        anchor = Anchor(*particle);
        point = simulation.world().position(*particle);
    } else if (const std::optional<BodyHit> hit = pickBody(simulation, ray)) {
        const RigidBodySpec spec = simulation.world().rigidBodies().currentSpec(hit->body);
        anchor = Anchor::onBody(hit->body, spec.orientation.conjugate() * (hit->point - spec.position));
        point = hit->point;
    }
    if (!anchor) return false;
    pullPlanePoint_ = point;
    pullPlaneNormal_ = camera.mode() == Camera::Mode::TwoD ? Vec3::UnitZ() : Vec3(-camera.forward());
    pullTarget_ = point;
    return comparison_->beginPull(*anchor, point);
}

void CompareMode::pointerMove(const Camera& camera, double x, double y) {
    if (!active() || !comparison_->pulling()) return;
    if (const std::optional<Vec3> target = pullPoint(camera, x, y)) pullTarget_ = *target;
}

void CompareMode::pointerUp() {
    if (active()) comparison_->endPull();
}

void CompareMode::advance() {
    if (!active() || !(playing_ || stepRequested_) || !comparison_->anyRunning()) return;
    // One frame per drawn frame, on the editor's time budget: a frame that takes longer goes on
    // in the next drawn frames (Comparison::advance ends it bitwise the same), so that the
    // window keeps responding while a slow integrator works.
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + kSimulationBudget;
    do {
        // The pointer is read at a frame's start, as the editor's grab reads it.
        if (!framePending_ && comparison_->pulling())
            comparison_->movePull(pullTarget_, comparison_->scene().settings.dt);
        framePending_ = true;
        const auto callStart = Clock::now();
        if (comparison_->advance(chunk_.size)) {
            framePending_ = false;
            stepRequested_ = false;
            ++frames_;
            return;
        }
        chunk_.adapt(1e3 * std::chrono::duration<double>(Clock::now() - callStart).count());
    } while (Clock::now() < deadline);
}

void CompareMode::draw(Renderer& renderer, const Camera& camera, int width, int height, double insetLeft,
                       double insetRight, bool shadedClothAndHair) {
    width_ = std::max(width, 1);
    height_ = std::max(height, 1);
    insetLeft_ = insetLeft;
    insetRight_ = insetRight;
    const Comparison& comparison = *comparison_;
    const std::optional<Anchor>& pull = comparison.pullAnchor();
    if (!split_) {
        // Ghosts: the last run first, so that the first is drawn over the others.
        frame_.clear();
        for (std::size_t r = comparison.size(); r-- > 0;)
            addCompareRun(comparison.run(r), comparison.scene(),
                          {compareRunColor(r), r + 1 == comparison.size(), false, pull, pullTarget_}, frame_);
        glViewport(0, 0, width_, height_);
        renderer.draw(frame_, camera);
        return;
    }
    glViewport(0, 0, width_, height_);
    glClearColor(frame_.background.r, frame_.background.g, frame_.background.b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    // Each view clears and draws only its own part of the window.
    glEnable(GL_SCISSOR_TEST);
    for (std::size_t r = 0; r < comparison.size(); ++r) {
        const Pane p = pane(r);
        frame_.clear();
        addCompareRun(comparison.run(r), comparison.scene(),
                      {compareRunColor(r), true, shadedClothAndHair, pull, pullTarget_}, frame_);
        glScissor(p.x, 0, p.width, height_);
        glViewport(p.x, 0, p.width, height_);
        renderer.draw(frame_, paneCamera(camera, r));
    }
    glDisable(GL_SCISSOR_TEST);
    glViewport(0, 0, width_, height_);
}

void CompareMode::drawPanel(Editor& editor, float x, float y, float width, float height) {
    if (active() && editor.revision() != revision_) comparison_.reset();
    // Two windows of one title, so that each keeps where the user put it.
    ImGui::SetNextWindowPos(ImVec2(x, active() ? y : y + height), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(width, active() ? height + 180.0f : 0.0f), ImGuiCond_FirstUseEver);
    ImGui::Begin(active() ? "Compare###compare-runs" : "Compare###compare-choice");
    if (!active()) chooseDefaults(editor);
    if (ImGui::Button(active() ? "Stop comparing" : "Compare", ImVec2(-1.0f, 0.0f))) toggle(editor);
    itemTooltip(
        "Ctrl+K. Run the model as it stands under 2 to 4 integrators at once, from the same start. Drag to "
        "pull every run alike. Stopping goes back to the model as it was.");
    // The integrators (and, for a model with bodies, the contact models): a change while
    // comparing starts the runs again from the start.
    bool changed = false;
    const bool bodies = editor.simulation().world().rigidBodyCount() > 0;
    const float contactWidth = bodies ? 70.0f : 0.0f, removeWidth = integrators_.size() > kMinRuns ? 30.0f : 0.0f;
    for (std::size_t k = 0; k < integrators_.size(); ++k) {
        ImGui::PushID(static_cast<int>(k));
        ImGui::ColorButton("##color", ImVec4(compareRunColor(k).r, compareRunColor(k).g, compareRunColor(k).b, 1.0f),
                           ImGuiColorEditFlags_NoTooltip);
        ImGui::SameLine();
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - contactWidth - removeWidth);
        if (ImGui::BeginCombo("##integrator", integrators_[k].c_str())) {
            for (const IntegratorKind* kind : integratorKinds()) {
                const std::string_view name = kind->name;
                if (ImGui::Selectable(std::string(name).c_str(), integrators_[k] == name)) {
                    changed = integrators_[k] != name;
                    integrators_[k] = std::string(name);
                }
            }
            ImGui::EndCombo();
        }
        itemTooltip("The integrator of this run, drawn and plotted in its colour.");
        if (bodies) {
            ImGui::SameLine();
            ImGui::SetNextItemWidth(contactWidth - ImGui::GetStyle().ItemSpacing.x);
            const std::string& shown =
                contactModels_[k].empty() ? editor.simulation().settings().contactModel : contactModels_[k];
            if (ImGui::BeginCombo("##contact", shown.c_str())) {
                for (const ContactModelKind* kind : contactModelKinds()) {
                    const std::string name(kind->name);
                    if (ImGui::Selectable(name.c_str(), shown == name)) {
                        changed = shown != name;
                        contactModels_[k] = name;
                    }
                }
                ImGui::EndCombo();
            }
            itemTooltip("The contact model of this run.");
        }
        if (integrators_.size() > kMinRuns) {
            ImGui::SameLine();
            const bool remove = ImGui::Button("x");
            itemTooltip("Take this run out.");
            if (remove) {
                integrators_.erase(integrators_.begin() + static_cast<long>(k));
                contactModels_.erase(contactModels_.begin() + static_cast<long>(k));
                changed = true;
                ImGui::PopID();
                break;
            }
        }
        ImGui::PopID();
    }
    if (integrators_.size() < kMaxRuns) {
        if (ImGui::Button("+ integrator")) {
            integrators_.push_back("rk4");
            contactModels_.emplace_back();
            changed = true;
        }
        itemTooltip("Another run (up to 4).");
    }
    chosen_ = chosen_ || changed;
    if (changed && active()) start(comparison_->scene());
    if (!active()) {
        ImGui::End();
        return;
    }
    ImGui::Checkbox("Split views", &split_);
    itemTooltip("Ctrl+Shift+K. Each run in a view of its own, side by side; else all drawn over each other.");
    ImGui::SameLine();
    if (ImGui::Button(playing_ ? "Pause" : "Play")) playing_ = !playing_;
    itemTooltip("Space. While paused, '.' steps every run one frame.");
    ImGui::SameLine();
    if (ImGui::Button("Restart")) start(comparison_->scene());
    itemTooltip("Backspace. Every run again from the same start.");
    const Comparison& comparison = *comparison_;
    if (ImGui::BeginTable("runs", 4, ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("run");
        ImGui::TableSetupColumn("energy (J)");
        ImGui::TableSetupColumn("error");
        ImGui::TableSetupColumn("ms/step");
        ImGui::TableHeadersRow();
        for (std::size_t r = 0; r < comparison.size(); ++r) {
            const Comparison::Run& run = comparison.run(r);
            const Color c = compareRunColor(r);
            const ComparisonSample& last = run.samples.back();
            const double ms =
                run.integratorSteps > 0 ? 1e3 * run.stepSeconds / static_cast<double>(run.integratorSteps) : 0.0;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextColored(ImVec4(c.r, c.g, c.b, 1.0f), "%s", run.choice.integrator.c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%.6g", last.energy);
            ImGui::TableNextColumn();
            ImGui::Text("%.1e", last.constraintError);
            ImGui::TableNextColumn();
            ImGui::Text("%.3f", ms);
        }
        ImGui::EndTable();
    }
    for (std::size_t r = 0; r < comparison.size(); ++r) {
        const Comparison::Run& run = comparison.run(r);
        if (!run.diverged) continue;
        ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.35f, 1.0f), "%s diverged at t = %.3f s", run.choice.integrator.c_str(),
                           run.samples.back().time);
        itemTooltip(run.divergence.c_str());
    }
    ImGui::Text("t = %.3f s  %s", comparison.run(0).samples.back().time, playing_ ? "running" : "paused");
    plotRuns("total energy", comparison, &ComparisonSample::energy, "J");
    plotRuns("constraint error", comparison, &ComparisonSample::constraintError, "");
    plotRuns("time per step", comparison, &ComparisonSample::msPerStep, "ms");
    ImGui::End();

    // Each split view says whose it is.
    if (split_) {
        ImDrawList* draw = ImGui::GetBackgroundDrawList();
        const float top = ImGui::GetFrameHeight() + 96.0f;  // under the tool bar (two rows in a narrow window)
        for (std::size_t r = 0; r < comparison.size(); ++r) {
            const Pane p = pane(r);
            const Comparison::Run& run = comparison.run(r);
            const std::string label = run.choice.integrator + (run.diverged ? "  DIVERGED" : "");
            draw->AddText(ImVec2(static_cast<float>(p.x) + 8.0f, top),
                          run.diverged ? IM_COL32(255, 80, 80, 255) : imColor(compareRunColor(r)), label.c_str());
            if (r > 0)
                draw->AddLine(ImVec2(static_cast<float>(p.x), 0.0f),
                              ImVec2(static_cast<float>(p.x), static_cast<float>(height_)), IM_COL32(90, 95, 105, 255),
                              2.0f);
        }
    }
}

std::string CompareMode::status() const {
    std::ostringstream out;
    out.precision(17);
    std::string runs;
    for (std::size_t r = 0; r < (active() ? comparison_->size() : integrators_.size()); ++r)
        runs += (runs.empty() ? "" : " ") + (active() ? comparison_->run(r).choice.integrator : integrators_[r]);
    std::string contactModels;
    for (std::size_t r = 0; active() && r < comparison_->size(); ++r)
        contactModels += (contactModels.empty() ? "" : " ") + comparison_->run(r).choice.contactModel;
    out << "compare " << (active() ? "on" : "off") << "\ncompare_playing " << (active() && playing_ ? 1 : 0)
        << "\ncompare_view " << (split_ ? "split" : "ghosts") << "\ncompare_runs " << runs
        << "\ncompare_contact_models " << contactModels;
    std::string diverged;
    for (std::size_t r = 0; active() && r < comparison_->size(); ++r)
        if (comparison_->run(r).diverged)
            diverged += (diverged.empty() ? "" : " ") + comparison_->run(r).choice.integrator;
    out << "\ncompare_frames " << frames_ << "\ncompare_diverged " << diverged;
    // How far the first run has moved from the start, and how far the others are from it.
    double moved = 0.0, spread = 0.0;
    if (active()) {
        const World& first = comparison_->run(0).simulation->world();
        const std::vector<Vec3> now = trackedPoints(first);
        for (std::size_t i = 0; i < now.size(); ++i) moved = std::max(moved, (now[i] - startPoints_[i]).norm());
        for (std::size_t r = 1; r < comparison_->size(); ++r)
            spread = std::max(spread, maxPointDistance(first, comparison_->run(r).simulation->world()));
    }
    out << "\ncompare_pulling " << (active() && comparison_->pulling() ? 1 : 0) << "\ncompare_moved " << moved
        << "\ncompare_spread " << spread << '\n';
    return out.str();
}

}  // namespace tinkerbox
