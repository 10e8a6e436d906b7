#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>

#include "app/Panels.h"

#include "app/AppSettings.h"
#include "app/BuildingControls.h"
#include "app/CompareMode.h"
#include "app/Document.h"
#include "app/FileDialogs.h"
#include "app/FrameStepper.h"
#include "app/Notice.h"
#include "app/SceneView.h"
#include "app/ViewRecording.h"
#include "app/Tooltip.h"
#include "app/TimelineBar.h"
#include "core/bodies/ShapeKind.h"
#include "core/constraints/ConstraintKind.h"
#include "core/contact/ContactModel.h"
#include "core/forces/Cloth.h"
#include "core/forces/ForceFieldKind.h"
#include "core/integrators/Integrator.h"
#include "scene/BenchmarkScenes.h"
#include "scene/ExampleScenes.h"

namespace tinkerbox {

namespace {

// Where the Stats panel starts under the menu bar, and its height; compare mode's panel
// takes its place while comparing.
constexpr float kStatsTop = 240.0f, kStatsHeight = 360.0f;

// "particle 3", or "body 2 (0.5, 0, 0)": an end of a spring or a rod, for the inspector.
std::string describe(const Anchor& a) {
    if (a.isParticle()) return "particle " + std::to_string(a.index());
    char point[64];
    std::snprintf(point, sizeof point, " (%.3g, %.3g, %.3g)", a.point.x(), a.point.y(), a.point.z());
    return "body " + std::to_string(a.index()) + point;
}

std::filesystem::path assetScenes() { return std::filesystem::path(TINKERBOX_ASSET_DIR) / "scenes"; }

bool inputDouble(const char* label, double& value, double step, const char* format) {
    return ImGui::InputDouble(label, &value, step, step * 10.0, format);
}

// An example's description for its tooltip, read off the scene the first time it is asked for.
const std::string& exampleDescription(const ExampleScene& example) {
    static std::map<std::string_view, std::string> descriptions;
    const auto [it, added] = descriptions.try_emplace(example.name);
    if (added) {
        it->second = example.make().description;
        if (it->second.empty()) it->second = "Open the example " + std::string(example.name) + ".";
    }
    return it->second;
}

// A kind's parameters as fields (IntegratorKind, ContactModelKind, ConstraintKind,
// ForceFieldKind, ShapeKind, the cloth and hair materials): a value
// typed into one that is in its range is applied. A Real is shown with realFormat; with
// onRelease it is applied when the user leaves the field (one edit to undo), not at each keystroke.
// current is a copy: an edit replaces the scene it was read from, the loop goes on reading it.
template <class Settings, class Apply>
void drawParameters(std::span<const Parameter<Settings>> parameters, const Settings current, Apply apply,
                    const char* realFormat = "%.1e", bool onRelease = false) {
    for (const Parameter<Settings>& p : parameters) {
        double value = p.get(current);
        const std::string label(p.label);
        bool changed = false;
        if (p.type == ParameterType::Flag) {
            bool on = value != 0.0;
            changed = ImGui::Checkbox(label.c_str(), &on);
            value = on ? 1.0 : 0.0;
        } else if (p.type == ParameterType::Count) {
            int count = static_cast<int>(value);
            changed = ImGui::InputInt(label.c_str(), &count);
            value = count;
        } else {
            changed = inputDouble(label.c_str(), value, value / 10.0, realFormat);
            if (onRelease) changed = ImGui::IsItemDeactivatedAfterEdit();
        }
        itemTooltip(std::string(p.help).c_str());
        if (changed && p.accepts(value)) {
            Settings next = current;
            p.set(next, value);
            apply(next);
        }
    }
}

void helpMarker(const char* text) {
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    itemTooltip(text);
}

}  // namespace

Panels::Panels(AppActions& app, const AppParts& parts)
    : app_(app),
      recording_(parts.recording),
      compare_(parts.compare),
      editor_(parts.editor),
      document_(parts.document),
      dialogs_(parts.dialogs),
      stepper_(parts.stepper),
      camera_(parts.camera),
      viewOptions_(parts.viewOptions),
      settings_(parts.settings),
      notice_(parts.notice) {}

void Panels::draw() {
    drawMenu();
    drawToolbar();
    drawSolverPanel();
    drawScenesPanel();
    drawInspector();
    CompareMode& compare = compare_;
    if (!compare.active()) {
        drawStats();
        // The timeline under the view, above the status line (the editor's: hidden while comparing).
        const ImVec2 display = ImGui::GetIO().DisplaySize;
        const TimelineBarRequests timeline =
            drawTimelineBar(editor_, settings_.timelineMegabytes, {recording_.on(), recording_.frames()},
                            kSideWidth + 10.0f, display.x - 2.0f * kSideWidth - 20.0f, display.y - 40.0f);
        if (timeline.step) stepper_.requestStep();
        if (timeline.toggleRecording) app_.toggleRecording();
    }
    compare.drawPanel(editor_, ImGui::GetIO().DisplaySize.x - kSideWidth, ImGui::GetFrameHeight() + kStatsTop,
                      kSideWidth, kStatsHeight);
    drawBanners();
    dialogs_.draw();
    if (showHelp_) drawHelp();
}

void Panels::drawMenu() {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("New", "Ctrl+N"))
            dialogs_.unlessUnsaved("start a new scene", [this] { document_.newScene(); });
        if (ImGui::MenuItem("Open...", "Ctrl+O"))
            dialogs_.unlessUnsaved("open another scene", [this] { dialogs_.requestOpen(); });
        if (ImGui::BeginMenu("Open recent", !settings_.recentFiles.empty())) {
            for (const std::string& file : settings_.recentFiles)
                if (ImGui::MenuItem(file.c_str()))
                    dialogs_.unlessUnsaved("open " + file, [this, file] { document_.openFile(file); });
            ImGui::EndMenu();
        }
        if (ImGui::MenuItem("Save", "Ctrl+S")) app_.save();
        if (ImGui::MenuItem("Save as...", "Ctrl+Shift+S")) dialogs_.requestSaveAs();
        if (ImGui::MenuItem("Screenshot", "F12")) app_.screenshot("");
        if (ImGui::MenuItem(recording_.on() ? "Stop the video" : "Record a video", "Ctrl+R")) app_.toggleRecording();
        ImGui::Separator();
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) app_.requestQuit();
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Edit")) {
        if (ImGui::MenuItem("Undo", "Ctrl+Z", false, editor_.canUndo())) editor_.undo();
        if (ImGui::MenuItem("Redo", "Ctrl+Shift+Z", false, editor_.canRedo())) editor_.redo();
        if (ImGui::MenuItem("Delete selection", "Delete", false, !editor_.selection().empty()))
            editor_.deleteSelection();
        drawBuildingMenuItems(editor_);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Simulation")) {
        if (ImGui::MenuItem(editor_.playing() ? "Pause" : "Play", "Space")) editor_.togglePlaying();
        if (ImGui::MenuItem("Step", ".", false, !editor_.playing())) stepper_.requestStep();
        if (ImGui::MenuItem("Back to before play", "Backspace", false, editor_.canRewind())) editor_.rewind();
        if (ImGui::MenuItem("Self collision", "Shift+K",
                            editor_.simulation().settings().contact.selfCollisionThickness > 0.0))
            app_.toggleSelfCollision();
        ImGui::Separator();
        int key = 1;
        for (const IntegratorKind* kind : integratorKinds()) {
            const std::string shortcut = key <= 9 ? std::to_string(key++) : std::string();
            const std::string name(kind->name);
            if (ImGui::MenuItem(name.c_str(), shortcut.c_str(), editor_.simulation().settings().integrator == name))
                app_.chooseIntegrator(name);
            itemTooltip(std::string(kind->summary).c_str());
        }
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        if (ImGui::MenuItem("3D orbit view", "C", camera_.mode() == Camera::Mode::ThreeD))
            camera_.setMode(camera_.mode() == Camera::Mode::TwoD ? Camera::Mode::ThreeD : Camera::Mode::TwoD);
        if (ImGui::MenuItem("Frame the model", "Home")) app_.frameView();
        if (ImGui::MenuItem("Body axes and spin", "A", viewOptions_.bodyAxes))
            viewOptions_.bodyAxes = !viewOptions_.bodyAxes;
        if (ImGui::MenuItem("Shaded cloth and hair", "F", viewOptions_.shadedClothAndHair))
            viewOptions_.shadedClothAndHair = !viewOptions_.shadedClothAndHair;
        if (ImGui::MenuItem("Contact points and normals", "K", viewOptions_.contacts))
            viewOptions_.contacts = !viewOptions_.contacts;
        if (ImGui::MenuItem("Keys and mouse", "F1", showHelp_)) showHelp_ = !showHelp_;
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

void Panels::drawToolbar() {
    const float top = ImGui::GetFrameHeight();
    ImGui::SetNextWindowPos(ImVec2(kSideWidth + 10.0f, top + 6.0f), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.85f);
    ImGui::Begin("Tools", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoSavedSettings);
    // The tools wrap onto more rows where the window is too narrow for them between the side panels.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float right = ImGui::GetIO().DisplaySize.x - kSideWidth - 10.0f;
    for (const ToolInfo& t : kTools) {
        const std::string label = std::string(1, t.key) + " " + std::string(t.name);
        if (&t != &kTools.front()) {
            const float width = ImGui::CalcTextSize(label.c_str()).x + 2.0f * style.FramePadding.x;
            if (ImGui::GetItemRectMax().x + style.ItemSpacing.x + width + style.WindowPadding.x <= right)
                ImGui::SameLine();
        }
        const bool active = editor_.tool() == t.tool;
        if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        if (ImGui::Button(label.c_str())) editor_.setTool(t.tool);
        if (active) ImGui::PopStyleColor();
        itemTooltip(std::string(t.help).c_str());
    }
    // The run's buttons on a row of their own.
    if (ImGui::Button(editor_.playing() ? "Pause (Space)" : "Play (Space)")) editor_.togglePlaying();
    itemTooltip("Run the model or pause it. While it runs the tool is Grab; the one you had comes back at the pause.");
    ImGui::SameLine();
    if (ImGui::Button("Step (.)")) stepper_.requestStep();
    itemTooltip("One frame (dt) while paused.");
    ImGui::SameLine();
    if (ImGui::Button("Back (Bksp)")) editor_.rewind();
    itemTooltip("Back to the state before the last play (undoable).");
    ImGui::End();
}

void Panels::drawSolverPanel() {
    const float top = ImGui::GetFrameHeight();
    ImGui::SetNextWindowPos(ImVec2(0.0f, top), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(kSideWidth, 430.0f), ImGuiCond_FirstUseEver);
    ImGui::Begin("Solver");
    ImGui::PushItemWidth(-130.0f);  // room for the labels on the right
    SimulationSettings s = editor_.simulation().settings();

    const auto kinds = integratorKinds();
    if (ImGui::BeginCombo("integrator", s.integrator.c_str())) {
        for (std::size_t i = 0; i < kinds.size(); ++i) {
            const std::string label =
                (i < 9 ? std::to_string(i + 1) + "  " : std::string("   ")) + std::string(kinds[i]->name);
            if (ImGui::Selectable(label.c_str(), kinds[i]->name == s.integrator))
                app_.chooseIntegrator(std::string(kinds[i]->name));
            itemTooltip(std::string(kinds[i]->summary).c_str());
        }
        ImGui::EndCombo();
    }
    const std::string integratorHelp =
        "How the model is advanced in time (keys 1 to " + std::to_string(std::min<std::size_t>(kinds.size(), 9)) +
        "); it continues from where it is. Each one's cost and failings: docs/integrators.md.";
    itemTooltip(integratorHelp.c_str());
    if (ImGui::BeginCombo("contact", s.contactModel.c_str())) {
        for (const ContactModelKind* kind : contactModelKinds()) {
            const std::string name(kind->name);
            if (ImGui::Selectable(name.c_str(), name == s.contactModel)) app_.chooseContactModel(name);
            itemTooltip(std::string(kind->summary).c_str());
        }
        ImGui::EndCombo();
    }
    itemTooltip("How bodies are kept from passing through each other and through planes; K shows the contacts.");
    bool selfCollision = s.contact.selfCollisionThickness > 0.0;
    if (ImGui::Checkbox("self collision", &selfCollision)) app_.toggleSelfCollision();
    itemTooltip(
        "Shift+K. Particles collide with each other, a cloth with itself and hair with hair, as spheres of "
        "the thickness below, except those a spring, a triangle, a hinge or a constraint joins. On, it starts "
        "at 0.8 of the distance between neighbouring particles.");
    if (selfCollision) {
        ContactModelSettings contact = s.contact;
        double millimetres = 1e3 * contact.selfCollisionThickness;
        if (inputDouble("thickness (mm)", millimetres, 1.0, "%.1f") && millimetres > 0.0) {
            contact.selfCollisionThickness =
                std::min(1e-3 * millimetres, ContactModelSettings::kMaxSelfCollisionThickness);
            editor_.setContactModelSettings(contact);
        }
        itemTooltip(
            "The particles' diameter in self collision, at most 1000 mm. About a cloth's spacing keeps its "
            "layers apart; much less lets a particle slip through the gaps between others.");
    }
    drawParameters(contactModelKind(s.contactModel).parameters, s.contact,
                   [&](const ContactModelSettings& next) { editor_.setContactModelSettings(next); });
    double dt = s.dt;
    int substeps = editor_.simulation().substeps();
    if (inputDouble("dt (s)", dt, 0.001, "%.5f") && dt > 0.0) editor_.setTimeStep(dt, substeps);
    itemTooltip("Simulated time per drawn frame (1/60 s runs in real time at 60 frames per second).");
    if (ImGui::InputInt("substeps", &substeps) && substeps >= 1) editor_.setTimeStep(s.dt, substeps);
    itemTooltip("Integrator steps per frame, each dt / substeps long: more are more accurate and stable, and slower.");
    float scale = static_cast<float>(stepper_.timeScale());
    if (ImGui::SliderFloat("time scale", &scale, 0.05f, 1.0f, "%.2f")) stepper_.setTimeScale(scale);
    itemTooltip("Slow motion: simulated time per frame, as a fraction of dt.");
    helpMarker("Slow motion: simulated time per frame, as a fraction of dt.");
    float gravity[3] = {static_cast<float>(s.gravity.x()), static_cast<float>(s.gravity.y()),
                        static_cast<float>(s.gravity.z())};
    if (ImGui::DragFloat3("gravity", gravity, 0.05f)) editor_.setGravity(Vec3(gravity[0], gravity[1], gravity[2]));
    itemTooltip("The acceleration of gravity (m/s^2), x, y and z; drag a number or double-click to type it.");
    bool planar = s.planar;
    if (ImGui::Checkbox("planar (2D)", &planar)) editor_.setPlanar(planar);
    itemTooltip("Every particle and body stays in the z = 0 plane and turns about z only.");
    double drag = s.drag;
    if (inputDouble("drag", drag, 0.01, "%.3f") && drag >= 0.0) editor_.setDrag(drag);
    itemTooltip("Air resistance: a force -drag v on every particle (N s/m), which takes energy out of the model.");

    // Each integrator's own settings, drawn from its kind's parameters; the running one's open.
    for (const IntegratorKind* kind : kinds) {
        if (kind->parameters.empty()) continue;
        const std::string header(kind->name);
        ImGui::SetNextItemOpen(kind->name == s.integrator, ImGuiCond_Appearing);
        if (!ImGui::CollapsingHeader(header.c_str())) continue;
        ImGui::PushID(header.c_str());
        drawParameters(kind->parameters, s.solver,
                       [&](const IntegratorSettings& next) { editor_.setSolverSettings(next); });
        ImGui::PopID();
    }
    if (ImGui::CollapsingHeader("constraints", ImGuiTreeNodeFlags_DefaultOpen)) {
        ConstraintSettings c = s.constraints;
        bool changed = inputDouble("feedback ks", c.ks, 10.0, "%.1f");
        itemTooltip("How hard a drifting constraint is pulled back (the ks C term).");
        changed |= inputDouble("feedback kd", c.kd, 1.0, "%.1f");
        itemTooltip("How the pull back is damped (the kd Cdot term).");
        helpMarker(
            "Feedback that pulls drifting constraints back: the ks C + kd Cdot terms inside the "
            "multiplier solve (Witkin, Constrained Dynamics, SIGGRAPH 2001 notes).");
        changed |= inputDouble("solve tolerance", c.solver.tolerance, 1e-7, "%.1e");
        itemTooltip("The multiplier solve's relative residual; 0: automatic.");
        changed |= ImGui::InputInt("solve max iter.", &c.solver.maxIterations);
        itemTooltip("The multiplier solve's iteration cap.");
        helpMarker(
            "The Lagrange multipliers solve J W J^T lambda = -Jdot qdot - J W Q - ks C - kd Cdot with "
            "conjugate gradients, to this relative residual. 0: automatic, as tight as the integrator "
            "needs (its truncation error, or a tenth of adaptive's tolerance; never looser than 1e-6).");
        changed |= ImGui::Checkbox("warm start", &c.warmStart);
        itemTooltip(
            "Start each multiplier solve from the last step's multipliers: fewer iterations when the model moves "
            "smoothly.");
        if (changed && c.ks >= 0.0 && c.kd >= 0.0 && c.solver.tolerance >= 0.0 && c.solver.maxIterations > 0)
            editor_.setConstraintSettings(c);
    }
    // Each force field under its own header, drawn from its kind: a switch, then its settings.
    for (const ForceFieldKind* kind : forceFieldKinds()) {
        const std::string header(kind->name);
        if (!ImGui::CollapsingHeader(header.c_str())) continue;
        ImGui::PushID(header.c_str());
        bool on = editor_.scene().field(*kind) != nullptr;
        if (ImGui::Checkbox(std::string(kind->label).c_str(), &on)) {
            if (on) editor_.setForceField(kind->example());
            else editor_.removeForceField(*kind);
        }
        itemTooltip((std::string(kind->summary) + " An undoable edit of the scene.").c_str());
        if (const ForceFieldSpec* current = editor_.scene().field(*kind)) {
            const ForceFieldSpec field = *current;  // a copy: the edits below replace *current
            for (const ForceFieldVector& v : kind->vectors) {
                const Vec3 value = v.get(field);
                float xyz[3] = {static_cast<float>(value.x()), static_cast<float>(value.y()),
                                static_cast<float>(value.z())};
                ImGui::InputFloat3(std::string(v.label).c_str(), xyz, "%.2f");
                itemTooltip(std::string(v.help).c_str());
                if (ImGui::IsItemDeactivatedAfterEdit()) {
                    ForceFieldSpec next = field;
                    v.set(next, Vec3(xyz[0], xyz[1], xyz[2]));
                    editor_.setForceField(next);
                }
            }
            drawParameters(
                kind->parameters, field, [&](const ForceFieldSpec& next) { editor_.setForceField(next); }, "%.2f",
                true);
        }
        ImGui::PopID();
    }
    if (ImGui::CollapsingHeader("new springs and particles")) {
        NewElementSettings& n = editor_.newElements();
        inputDouble("particle mass", n.particleMass, 0.1, "%.3f");
        itemTooltip("The mass (kg) of particles the Particle, Spring, Rod and Chain tools make.");
        inputDouble("spring stiffness", n.springStiffness, 10.0, "%.1f");
        itemTooltip("The stiffness (N/m) of springs the Spring and Chain tools make.");
        inputDouble("spring damping", n.springDamping, 0.1, "%.2f");
        itemTooltip("The damping (N s/m) of springs the Spring and Chain tools make.");
        inputDouble("body mass", n.bodyMass, 0.1, "%.3f");
        itemTooltip("The mass (kg) of boxes and spheres the Box and Sphere tools make.");
        inputDouble("box edge", n.boxSize, 0.1, "%.3f");
        itemTooltip("The edge (m) of a box made by a click (a drag sizes it instead).");
        inputDouble("sphere radius", n.sphereRadius, 0.05, "%.3f");
        itemTooltip("The radius (m) of a sphere made by a click (a drag sizes it instead).");
        clampSettings(n);
    }
    drawBuildingSettings(editor_);
    ImGui::PopItemWidth();
    ImGui::End();
}

void Panels::drawScenesPanel() {
    const float top = ImGui::GetFrameHeight();
    ImGui::SetNextWindowPos(ImVec2(0.0f, top + 440.0f), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(kSideWidth, 330.0f), ImGuiCond_FirstUseEver);
    ImGui::Begin("Scenes");
    std::map<std::string_view, std::vector<const ExampleScene*>> byCategory;
    for (const ExampleScene& e : exampleScenes()) byCategory[e.category].push_back(&e);
    for (const auto& [category, examples] : byCategory) {
        if (!ImGui::TreeNodeEx(std::string(category).c_str(), ImGuiTreeNodeFlags_DefaultOpen)) continue;
        for (const ExampleScene* e : examples) {
            if (ImGui::Selectable(std::string(e->name).c_str(), document_.label() == e->name))
                dialogs_.unlessUnsaved("open " + std::string(e->name),
                                       [this, name = std::string(e->name)] { document_.openBuiltIn(name); });
            if (ImGui::IsItemHovered()) itemTooltip(exampleDescription(*e).c_str());  // built only when hovered
        }
        ImGui::TreePop();
    }
    // What `tinkerbox-sim bench` measures, to watch it (cloth-128 is 16k particles: slow).
    if (ImGui::TreeNode("Benchmark")) {
        for (const std::string& name : benchmarkSceneNames()) {
            if (ImGui::Selectable(name.c_str(), document_.label() == name))
                dialogs_.unlessUnsaved("open " + name, [this, name] { document_.openBuiltIn(name); });
            itemTooltip("A scene tinkerbox-sim bench times; the big ones run slower than real time.");
        }
        ImGui::TreePop();
    }
    if (ImGui::TreeNode("Files in assets/scenes")) {
        // Read the folder every 2 s while the list shows, not every frame.
        if (glfwGetTime() >= assetFilesReadAt_ + 2.0) {
            assetFilesReadAt_ = glfwGetTime();
            assetFiles_.clear();
            std::error_code error;
            for (const auto& entry : std::filesystem::directory_iterator(assetScenes(), error))
                if (entry.path().extension() == ".json") assetFiles_.push_back(entry.path());
            std::sort(assetFiles_.begin(), assetFiles_.end());
        }
        for (const auto& file : assetFiles_) {
            if (ImGui::Selectable(file.filename().string().c_str()))
                dialogs_.unlessUnsaved("open " + file.filename().string(), [this, file] { document_.openFile(file); });
            itemTooltip("A scene file shipped in assets/scenes (tinkerbox-sim example writes them).");
        }
        ImGui::TreePop();
    }
    ImGui::End();
}

void Panels::drawInspector() {
    ImGuiIO& io = ImGui::GetIO();
    const float top = ImGui::GetFrameHeight();
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - kSideWidth, top), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(kSideWidth, 230.0f), ImGuiCond_FirstUseEver);
    ImGui::Begin("Inspector");
    const Selection& sel = editor_.selection();
    const Scene& scene = editor_.scene();
    if (sel.empty()) {
        ImGui::TextWrapped("Select with V: a particle, a body, a spring, a rod or a wire.");
    }
    if (sel.particles.size() == 1) {
        const Index i = *sel.particles.begin();
        const World& s = editor_.simulation().world();
        ImGui::Text("Particle %ld", static_cast<long>(i));
        const Vec3 x = s.position(i), v = s.velocity(i);
        ImGui::Text("position %.3f %.3f %.3f", x.x(), x.y(), x.z());
        ImGui::Text("velocity %.3f %.3f %.3f", v.x(), v.y(), v.z());
        double mass = scene.particles[i].mass;
        inputDouble("mass (kg)", mass, 0.1, "%.4f");
        if (ImGui::IsItemDeactivatedAfterEdit()) editor_.setParticleMass(i, mass);
        itemTooltip("The particle's mass; the change is made when you leave the field (undoable).");
        ImGui::Text(s.isNailed(i) ? "nailed (the N tool frees it)" : "free (the N tool nails it)");
    } else if (sel.particles.size() > 1) {
        ImGui::Text("%zu particles selected", sel.particles.size());
    }
    // The cloth or the hair of the selected particles, when they are all of one.
    const auto commonGroup = [&](auto&& groupOf) {
        std::optional<Index> group = sel.particles.empty() ? std::nullopt : groupOf(*sel.particles.begin());
        for (Index i : sel.particles)
            if (groupOf(i) != group) return std::optional<Index>();
        return group;
    };
    // Their materials, drawn from the materials' parameters (the loader's ranges).
    if (const std::optional<Index> cloth = commonGroup([&](Index i) { return editor_.clothOf(i); })) {
        const ClothSpec& c = scene.cloths[*cloth];
        ImGui::Text("Cloth %ld (%d x %d particles, %.3g x %.3g m)", static_cast<long>(*cloth), c.columns, c.rows,
                    c.width, c.height);
        if (!c.missing.empty()) ImGui::Text("holes: %zu of its particles deleted", c.missing.size());
        drawParameters(
            clothMaterialParameters(), c.material,
            [&](const ClothMaterial& next) { editor_.setClothMaterial(*cloth, next); }, "%.4g", true);
    }
    if (const std::optional<Index> hair = commonGroup([&](Index i) { return editor_.hairOf(i); })) {
        const HairSpec& h = scene.hair[*hair];
        ImGui::Text("Hair %ld (%d strands of %d particles)", static_cast<long>(*hair), h.strands, h.length);
        if (!h.missing.empty()) ImGui::Text("cut: %zu of its particles deleted", h.missing.size());
        drawParameters(
            hairMaterialParameters(), h.material,
            [&](const HairMaterial& next) { editor_.setHairMaterial(*hair, next); }, "%.4g", true);
    }
    if (sel.springs.size() + sel.constraints.size() + sel.bodies.size() + sel.wires.size() > 1)
        ImGui::Text("%zu springs, %zu constraints, %zu bodies, %zu wires selected", sel.springs.size(),
                    sel.constraints.size(), sel.bodies.size(), sel.wires.size());
    if (sel.springs.size() == 1) {
        const Index k = *sel.springs.begin();
        DampedSpring spring = scene.springs[k];
        ImGui::Text("Spring %ld (%s - %s)", static_cast<long>(k), describe(spring.a).c_str(),
                    describe(spring.b).c_str());
        bool done = false;
        inputDouble("stiffness (N/m)", spring.stiffness, 10.0, "%.2f");
        done |= ImGui::IsItemDeactivatedAfterEdit();
        itemTooltip("ks: the force per metre of stretch.");
        inputDouble("damping (N s/m)", spring.damping, 0.1, "%.3f");
        done |= ImGui::IsItemDeactivatedAfterEdit();
        itemTooltip("kd: the force per metre per second of stretching, along the spring.");
        inputDouble("rest length (m)", spring.restLength, 0.05, "%.4f");
        done |= ImGui::IsItemDeactivatedAfterEdit();
        itemTooltip("The length at which the spring pulls and pushes nothing.");
        if (done) editor_.setSpring(k, spring.stiffness, spring.damping, spring.restLength);
    }
    if (sel.constraints.size() == 1) {
        const Index k = *sel.constraints.begin();
        const ConstraintSpec spec = scene.constraints[k];  // a copy: an edit below replaces the scene
        const ConstraintKind& kind = constraintKind(spec);
        std::string anchors;
        forEachAnchor(spec, [&](const Anchor& a) { anchors += (anchors.empty() ? "" : " - ") + describe(a); });
        ImGui::Text("%.*s %ld (%s)", static_cast<int>(kind.name.size()), kind.name.data(), static_cast<long>(k),
                    anchors.c_str());
        itemTooltip(std::string(kind.summary).c_str());
        drawParameters(
            kind.parameters, spec,
            [&](const ConstraintSpec& edited) {
                for (const ConstraintParameter& p : kind.parameters)
                    if (const std::string refused = editor_.setConstraintParameter(k, p, p.get(edited));
                        !refused.empty())
                        notice_.show("Not changed: " + refused, glfwGetTime(), 4.0);
            },
            "%.4g", true);
    }
    if (sel.bodies.size() == 1) {
        const Index k = *sel.bodies.begin();
        const RigidBodies& bodies = editor_.simulation().world().rigidBodies();
        const RigidBodySpec spec = scene.bodies[k];  // a copy: an edit below replaces the scene
        ImGui::Text("Body %ld (%s)", static_cast<long>(k), std::string(shapeName(spec.shape)).c_str());
        itemTooltip(std::string(shapeKind(spec.shape).summary).c_str());
        const Vec3 x = bodies.position(k), w = bodies.angularVelocity(k);
        ImGui::Text("centre of mass %.3f %.3f %.3f", x.x(), x.y(), x.z());
        ImGui::Text("angular velocity %.3f %.3f %.3f", w.x(), w.y(), w.z());
        double mass = bodies.mass(k);
        inputDouble("mass (kg)", mass, 0.1, "%.4f");
        if (ImGui::IsItemDeactivatedAfterEdit()) editor_.setBodyMass(k, mass);
        itemTooltip("The body's mass; its inertia follows from its shape, of uniform density.");
        // The shape's numbers, drawn from its kind (none for a convex hull).
        drawParameters(
            shapeKind(spec.shape).parameters, spec.shape, [&](const Shape& next) { editor_.setBodyShape(k, next); },
            "%.4f", true);
        bool fixed = spec.fixed;
        if (ImGui::Checkbox("fixed (infinite mass)", &fixed)) editor_.setBodyFixed(k, fixed);
        itemTooltip("A fixed body never moves: a floor, a wall, a peg for others to hang from or land on.");
        double friction = spec.friction, restitution = spec.restitution;
        inputDouble("friction", friction, 0.05, "%.3f");
        bool surface = ImGui::IsItemDeactivatedAfterEdit();
        itemTooltip("Coulomb coefficient; at a contact, the geometric mean of the two surfaces'.");
        inputDouble("restitution", restitution, 0.05, "%.3f");
        surface |= ImGui::IsItemDeactivatedAfterEdit();
        itemTooltip("0: no bounce, 1: elastic; at a contact, the larger of the two surfaces'.");
        if (surface) editor_.setBodySurface(k, friction, restitution);
    }
    if (sel.wires.size() == 1) {
        const Wire& w = scene.wires[*sel.wires.begin()];
        ImGui::Text("Wire: radius %.3f m", w.radius);
    }
    if (!sel.empty()) {
        if (ImGui::Button("Delete (Del)")) editor_.deleteSelection();
        itemTooltip("Remove the selection, and the springs and constraints that hang on it (undoable).");
        ImGui::SameLine();
        if (ImGui::Button("Copy (Ctrl+C)")) editor_.copySelection();
        itemTooltip("Copy the selection with its springs and constraints; Ctrl+V pastes it at the pointer.");
    }
    ImGui::End();
}

void Panels::drawStats() {
    ImGuiIO& io = ImGui::GetIO();
    const float top = ImGui::GetFrameHeight();
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - kSideWidth, top + kStatsTop), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(kSideWidth, kStatsHeight), ImGuiCond_FirstUseEver);
    ImGui::Begin("Stats");
    Simulation& sim = editor_.simulation();
    const World& s = sim.world();
    ImGui::Text("t = %.3f s   %s", sim.time(), editor_.playing() ? "running" : "paused");
    if (s.rigidBodyCount() > 0)
        ImGui::Text("%ld particles, %ld bodies, %ld springs", static_cast<long>(s.particleCount()),
                    static_cast<long>(s.rigidBodyCount()), static_cast<long>(s.springs().size()));
    else
        ImGui::Text("%ld particles, %ld springs", static_cast<long>(s.particleCount()),
                    static_cast<long>(s.springs().size()));
    // A frame still in progress that has already taken longer than the average shows its time so far.
    ImGui::Text("sim %.2f ms  draw %.2f ms  %.0f fps", std::max(stepper_.stats().simulationMs, stepper_.frameWorkMs()),
                stepper_.stats().renderMs, stepper_.stats().fps);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Per frame: simulating (all substeps, however many drawn frames they take), drawing (model and panels), "
            "frames per second.");
    ImGui::Text("speed %.3g x real time", stepper_.stats().speed);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Simulated seconds per second. Below 1 when dt is shorter than a drawn frame, in slow motion, or when the "
            "frames take longer than a drawn frame may spend.");
    const FrameReport& r = stepper_.stats().last;
    if (integratorKind(sim.settings().integrator).has(IntegratorCapability::ConjugateGradientSolve)) {
        ImGui::Text("CG %d iterations (residual %.1e)", r.integrator.linearSolve.iterations,
                    r.integrator.linearSolve.relativeResidual);
        itemTooltip("Implicit Euler's conjugate gradient iterations in the last step, and the residual it stopped at.");
    }
    if (!s.constraints().empty()) {
        const ConstraintSolveStats& c = s.constraintSolver().stats();
        ImGui::Text("%zu constraints, error %.2e", s.constraints().size(), sim.constraintError());
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "The largest |C|: relative to the length of rods and the radius of wires; in metres for nails, pins "
                "and sliders.");
        ImGui::Text("multipliers: %.1f CG iterations/solve",
                    c.solves ? static_cast<double>(c.iterations) / c.solves : 0.0);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Averaged over the %ld solves since the model was built.", c.solves);
    }
    if (!r.integrator.stepSizes.empty()) {
        const auto [low, high] = std::minmax_element(r.integrator.stepSizes.begin(), r.integrator.stepSizes.end());
        ImGui::Text("adaptive: %zu steps, h %.2e .. %.2e", r.integrator.stepSizes.size(), *low, *high);
    }
    if (r.contact.contacts > 0 || s.rigidBodyCount() > 0) {
        ImGui::Text("%d contacts, max penetration %.2f mm", r.contact.contacts, 1e3 * r.contact.maxPenetration);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "Contact points found in the last frame (summed over its substeps) and the deepest overlap among "
                "them.");
        ImGui::Text("contact solve %.2f ms, %ld iterations", 1e3 * r.contact.seconds, r.contact.iterations);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("The contact model's detection and solve in the last frame (%s).",
                              sim.settings().contactModel.c_str());
    }

    // Energy: kinetic, potential and total on one scale.
    ImGui::Separator();
    ImGui::Text("energy (J), last %zu frames", stepper_.total().size());
    if (!stepper_.total().empty()) {
        float low = INFINITY, high = -INFINITY;
        for (const auto* series : {&stepper_.kinetic(), &stepper_.potential(), &stepper_.total()})
            for (float v : *series) {
                low = std::min(low, v);
                high = std::max(high, v);
            }
        if (high - low < 1e-6f) {
            low -= 0.5f;
            high += 0.5f;
        }
        const ImVec2 size(ImGui::GetContentRegionAvail().x, 120.0f);
        const ImVec2 origin = ImGui::GetCursorScreenPos();
        ImDrawList* draw = ImGui::GetWindowDrawList();
        draw->AddRectFilled(origin, ImVec2(origin.x + size.x, origin.y + size.y), IM_COL32(20, 22, 26, 255));
        const auto plot = [&](const std::vector<float>& series, ImU32 color) {
            if (series.size() < 2) return;
            std::vector<ImVec2> points;
            for (std::size_t i = 0; i < series.size(); ++i)
                points.emplace_back(origin.x + size.x * static_cast<float>(i) /
                                                   static_cast<float>(std::max<std::size_t>(series.size(), 2) - 1),
                                    origin.y + size.y * (1.0f - (series[i] - low) / (high - low)));
            draw->AddPolyline(points.data(), static_cast<int>(points.size()), color, 0, 1.5f);
        };
        plot(stepper_.kinetic(), IM_COL32(255, 120, 90, 255));
        plot(stepper_.potential(), IM_COL32(90, 170, 255, 255));
        plot(stepper_.total(), IM_COL32(235, 235, 235, 255));
        // The vertical scale, at the corners.
        char label[32];
        std::snprintf(label, sizeof label, "%.3g", high);
        draw->AddText(ImVec2(origin.x + 3.0f, origin.y + 1.0f), IM_COL32(150, 150, 150, 255), label);
        std::snprintf(label, sizeof label, "%.3g", low);
        draw->AddText(ImVec2(origin.x + 3.0f, origin.y + size.y - ImGui::GetFontSize() - 1.0f),
                      IM_COL32(150, 150, 150, 255), label);
        ImGui::Dummy(size);
        ImGui::TextColored(ImVec4(1.0f, 0.47f, 0.35f, 1.0f), "kinetic %.4g", stepper_.kinetic().back());
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(0.35f, 0.67f, 1.0f, 1.0f), "potential %.4g", stepper_.potential().back());
        // The energies of cloth and hair, one line per kind (summed over the cloths and strands).
        std::map<std::string, double> energies;
        for (const auto& force : s.forces())
            if (!force->label().empty()) energies[force->label()] += force->potentialEnergy(s);
        for (const auto& [label, energy] : energies) ImGui::Text("  %s %.4g", label.c_str(), energy);
        ImGui::Text("total %.6g, drift %+.3g", stepper_.total().back(),
                    stepper_.total().back() - stepper_.total().front());
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "Drift: how much the total changed over the plotted frames. Zero for an exact\n"
                "integrator without drag or damping; damping and drag lower it.");
    }
    ImGui::End();
}

// The divergence banner's cures that change the step: another integrator (or, for implicit
// Euler, a tighter solve) and more substeps.
void Panels::offerStepRemedies() {
    // A method stable on stiff springs is the remedy for the others; for one that solves with
    // conjugate gradients, a tighter solve.
    const IntegratorKind& stable = stiffStableIntegratorKind();
    if (!integratorKind(editor_.simulation().settings().integrator).has(IntegratorCapability::ConjugateGradientSolve)) {
        const bool switchTo = ImGui::Button(("Switch to " + std::string(stable.name)).c_str());
        itemTooltip(std::string(stable.summary).c_str());
        if (switchTo) {
            app_.chooseIntegrator(std::string(stable.name));
            editor_.dismissDivergence();
        }
    } else {
        const bool tighten = ImGui::Button("Tighten the CG tolerance");
        itemTooltip("Divide implicit Euler's CG tolerance by 10: each step's solve comes closer to the exact one.");
        if (tighten) {
            IntegratorSettings solver = editor_.simulation().settings().solver;
            solver.implicitSolver.tolerance /= 10.0;
            if (const std::string refused = editor_.setSolverSettings(solver); !refused.empty())
                notice_.show("Not tightened: " + refused, glfwGetTime(), 4.0);
            editor_.dismissDivergence();
        }
    }
    ImGui::SameLine();
    const bool doubleSubsteps = ImGui::Button("Double the substeps");
    itemTooltip("Halve the step the integrator takes, keeping dt: the usual cure for an explicit integrator.");
    if (doubleSubsteps) {
        const SimulationSettings& s = editor_.simulation().settings();
        editor_.setTimeStep(s.dt, editor_.simulation().substeps() * 2);
        editor_.dismissDivergence();
    }
    ImGui::SameLine();  // the banner's Dismiss follows on this line
}

void Panels::drawBanners() {
    ImGuiIO& io = ImGui::GetIO();
    // Divergence: the run is paused and rolled back; say what happened and offer fixes.
    if (!editor_.divergence().empty()) {
        ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, 80.0f), ImGuiCond_Always, ImVec2(0.5f, 0.0f));
        ImGui::SetNextWindowSize(ImVec2(std::min(680.0f, io.DisplaySize.x - 40.0f), 0.0f), ImGuiCond_Always);
        ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.45f, 0.08f, 0.08f, 0.95f));
        ImGui::Begin("##divergence", nullptr,
                     ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
        ImGui::TextWrapped("Paused: %s", editor_.divergence().c_str());
        ImGui::TextWrapped("The model is back at its last good state.");
        if (editor_.divergenceCuredByTheStep()) offerStepRemedies();
        if (ImGui::Button("Dismiss (Esc)")) editor_.dismissDivergence();
        itemTooltip("Close this banner; the model stays paused at its last good state.");
        ImGui::End();
        ImGui::PopStyleColor();
    }
    // Slow: the frames take longer than the time budget per drawn frame (App::simulate).
    if (stepper_.slow(glfwGetTime()) && editor_.divergence().empty()) {
        const Simulation& sim = editor_.simulation();
        ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, 80.0f), ImGuiCond_Always, ImVec2(0.5f, 0.0f));
        ImGui::SetNextWindowSize(ImVec2(std::min(560.0f, io.DisplaySize.x - 40.0f), 0.0f), ImGuiCond_Always);
        ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.40f, 0.30f, 0.05f, 0.90f));
        ImGui::Begin("##slow", nullptr,
                     ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                         ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoInputs);
        ImGui::TextWrapped("%s", stepper_.slowNotice(glfwGetTime()).c_str());
        char progress[64];
        std::snprintf(progress, sizeof progress, "this frame: %d of %d substeps", sim.substepsDone(), sim.substeps());
        ImGui::ProgressBar(static_cast<float>(sim.substepsDone()) / static_cast<float>(sim.substeps()),
                           ImVec2(-1.0f, 0.0f), progress);
        const std::string stable(stiffStableIntegratorKind().name);
        ImGui::TextWrapped("%s", sim.settings().integrator == stable
                                     ? ("Fewer substeps run faster: " + stable + " is stable with one.").c_str()
                                     : ("Fewer substeps run faster; " + stable + " is stable with few.").c_str());
        ImGui::End();
        ImGui::PopStyleColor();
    }
    // Status line: the tool's help, or a transient message.
    const std::string status = notice_.showing(glfwGetTime()) ? notice_.text
                               : !editor_.status().empty()    ? editor_.status()
                                                              : std::string(toolInfo(editor_.tool()).help);
    ImGui::SetNextWindowPos(ImVec2(kSideWidth + 10.0f, io.DisplaySize.y - 8.0f), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.6f);
    ImGui::Begin("##status", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                     ImGuiWindowFlags_NoInputs);
    ImGui::Text("%s   [%s, %s]", status.c_str(), editor_.simulation().settings().integrator.c_str(),
                camera_.mode() == Camera::Mode::TwoD ? "2D" : "3D");
    ImGui::End();
}

void Panels::drawHelp() {
    ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Appearing,
                            ImVec2(0.5f, 0.5f));
    ImGui::Begin("Keys and mouse", &showHelp_, ImGuiWindowFlags_AlwaysAutoResize);
    // Bullets whose text wraps at a readable width, in a window that sizes itself to them.
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 55.0f);
    const auto line = [](const std::string& text) {
        ImGui::Bullet();
        ImGui::TextUnformatted(text.c_str());
    };
    ImGui::TextUnformatted("Tools");
    for (const ToolInfo& t : kTools)
        line(std::string(1, t.key) + "  " + std::string(t.name) + ": " + std::string(t.help));
    ImGui::Separator();
    ImGui::TextUnformatted("Editing");
    line(
        "Click selects, Shift+click adds; with the Select tool, a drag on empty space selects what is inside a "
        "rectangle (Shift+drag adds), and a drag on the selection moves it");
    line(
        "Ctrl+A select all   Ctrl+L select what is joined to the selection (a whole cloth, strand, chain)   "
        "Ctrl+C copy   Ctrl+X cut   Ctrl+V paste (at the pointer)   Delete  remove the selection and what hangs on it");
    line(
        "Ctrl+G  snap to grid on / off (its spacing, and the chain's, cloth's and hair's settings, under 'grid, "
        "chain, cloth and hair' in the Solver panel)");
    line(
        "Ctrl+Z undo   Ctrl+Shift+Z / Ctrl+Y redo   Escape  drop a chain waiting for its second click, dismiss "
        "the divergence banner");
    ImGui::Separator();
    ImGui::TextUnformatted("Running");
    line("Space  play / pause   .  one step   Backspace  back to before play");
    line(
        "Left / Right  one frame back / forward in the timeline (paused; held, they scrub); its slider under the "
        "view scrubs every frame run, and playing from an earlier frame drops the later ones (Ctrl+Z brings them "
        "back)");
    std::string integrators = "Integrators: ";
    for (std::size_t i = 0; i < integratorKinds().size() && i < 9; ++i)
        integrators += (i ? ", " : "") + std::to_string(i + 1) + " " + std::string(integratorKinds()[i]->name);
    line(integrators);
    line(
        "Ctrl+K  compare mode: the model under 2 to 4 integrators at once (Space, '.' and Backspace then drive "
        "the runs, a drag pulls every run)   Ctrl+Shift+K  ghosts / split views");
    ImGui::Separator();
    ImGui::TextUnformatted("View and files");
    line("Wheel zooms about the cursor, middle-drag pans, right-drag grabs with any tool");
    line("C  2D / 3D view; in 3D, left-drag on empty space (or Alt+drag) orbits   Home  frame the model");
    line(
        "A  each body's axes and angular velocity   K  contact points and normals   F  cloth and hair shaded / as "
        "lines   Shift+K  self collision on / off   F1  this window");
    line(
        "Ctrl+N new   Ctrl+O open (or drop a .json file)   Ctrl+S save   Ctrl+Shift+S save as   F12 screenshot   "
        "Ctrl+R start / stop a video of the view   Ctrl+Q quit");
    line("Springs, rods, nails and chains attach to the clicked point of a body");
    ImGui::PopTextWrapPos();
    ImGui::End();
}

}  // namespace tinkerbox
