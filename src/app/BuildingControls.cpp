#include "app/BuildingControls.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/Tooltip.h"
#include "core/integrators/Integrator.h"

namespace tinkerbox {

namespace {

std::string gridLine(const Editor& editor) {
    char line[64];
    std::snprintf(line, sizeof line, "Snap to grid: %s (%.3g m)", editor.grid().enabled ? "on" : "off",
                  editor.grid().spacing);
    return line;
}

}  // namespace

std::optional<std::string> handleBuildingKey(Editor& editor, int key, int action, int mods,
                                             const std::optional<Ray>& pointer) {
    if (action != GLFW_PRESS || !(mods & GLFW_MOD_CONTROL) || (mods & GLFW_MOD_SHIFT)) return std::nullopt;
    switch (key) {
        case GLFW_KEY_A:
            editor.selectAll();
            return "Selected everything";
        case GLFW_KEY_C:
            if (editor.selection().empty()) return "Nothing selected to copy";
            editor.copySelection();
            return "Copied the selection";
        case GLFW_KEY_X:
            if (editor.selection().empty()) return "Nothing selected to cut";
            editor.cutSelection();
            return "Cut the selection";
        case GLFW_KEY_V:
            if (!editor.canPaste()) return "Nothing to paste: copy a selection first (Ctrl+C)";
            if (pointer) editor.pasteAt(*pointer);
            else editor.paste();
            return "Pasted";
        case GLFW_KEY_G:
            editor.grid().enabled = !editor.grid().enabled;
            return gridLine(editor);
        default:
            return std::nullopt;
    }
}

void drawBuildingMenuItems(Editor& editor) {
    const bool selected = !editor.selection().empty();
    if (ImGui::MenuItem("Cut", "Ctrl+X", false, selected)) editor.cutSelection();
    if (ImGui::MenuItem("Copy", "Ctrl+C", false, selected)) editor.copySelection();
    if (ImGui::MenuItem("Paste", "Ctrl+V", false, editor.canPaste())) editor.paste();
    if (ImGui::MenuItem("Select all", "Ctrl+A")) editor.selectAll();
    if (ImGui::MenuItem("Snap to grid", "Ctrl+G", editor.grid().enabled)) editor.grid().enabled = !editor.grid().enabled;
}

void drawBuildingSettings(Editor& editor) {
    if (!ImGui::CollapsingHeader("grid and chain")) return;
    SnapGrid& grid = editor.grid();
    ImGui::Checkbox("snap to grid", &grid.enabled);
    itemTooltip("Ctrl+G. New particles, the ends of new springs, rods and chains, bodies, and whatever a drag moves "
            "land on grid points; the 2D view draws the grid.");
    ImGui::InputDouble("grid spacing (m)", &grid.spacing, 0.05, 0.5, "%.3f");
    itemTooltip("The distance between grid points.");
    grid.spacing = std::max(grid.spacing, 1e-3);
    ChainSettings& chain = editor.chain();
    ImGui::InputInt("chain particles", &chain.particles);
    itemTooltip("How many particles the chain tool (L) puts between the two ends; the links are one more.");
    chain.particles = std::clamp(chain.particles, 1, ChainSettings::kMaxParticles);
    int links = chain.rods ? 1 : 0;
    ImGui::RadioButton("springs", &links, 0);
    itemTooltip("The links are damped springs, with the stiffness and damping of new springs.");
    ImGui::SameLine();
    ImGui::RadioButton("rods", &links, 1);
    itemTooltip("The links are rods: hard distance constraints that never stretch.");
    chain.rods = links == 1;
    ImGui::InputDouble("chain slack", &chain.slack, 0.05, 0.5, "%.2f");
    itemTooltip("The rope's length over the distance between the two clicks: 1 is taut; above 1 it hangs as a "
            "catenary, and starts at rest in that shape.");
    chain.slack = std::clamp(chain.slack, 1.0, 10.0);
}

void drawKeyList() {
    // Bullets whose text wraps at a readable width, in a window that sizes itself to them.
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 55.0f);
    const auto line = [](const std::string& text) {
        ImGui::Bullet();
        ImGui::TextUnformatted(text.c_str());
    };
    ImGui::TextUnformatted("Tools");
    for (const ToolInfo& t : kTools) line(std::string(1, t.key) + "  " + std::string(t.name) + ": " + std::string(t.help));
    ImGui::Separator();
    ImGui::TextUnformatted("Editing");
    line("Click selects, Shift+click adds; with the Select tool, a drag on empty space selects what is inside a "
         "rectangle (Shift+drag adds), and a drag on the selection moves it");
    line("Ctrl+A select all   Ctrl+C copy   Ctrl+X cut   Ctrl+V paste (at the pointer)   Delete  remove the "
         "selection and what hangs on it");
    line("Ctrl+G  snap to grid on / off (its spacing, and the chain's settings, under 'grid and chain' in the "
         "Solver panel)");
    line("Ctrl+Z undo   Ctrl+Shift+Z / Ctrl+Y redo   Escape  drop a chain waiting for its second click, dismiss "
         "the divergence banner");
    ImGui::Separator();
    ImGui::TextUnformatted("Running");
    line("Space  play / pause   .  one step   Backspace  back to before play");
    std::string integrators = "Integrators: ";
    for (std::size_t i = 0; i < integratorNames().size(); ++i)
        integrators += (i ? ", " : "") + std::to_string(i + 1) + " " + std::string(integratorNames()[i]);
    line(integrators);
    line("Ctrl+K  compare mode: the model under 2 to 4 integrators at once (Space, '.' and Backspace then drive "
         "the runs, a drag pulls every run)   Ctrl+Shift+K  ghosts / split views");
    ImGui::Separator();
    ImGui::TextUnformatted("View and files");
    line("Wheel zooms about the cursor, middle-drag pans, right-drag grabs with any tool");
    line("C  2D / 3D view; in 3D, left-drag on empty space (or Alt+drag) orbits   Home  frame the model");
    line("A  each body's axes and angular velocity   K  contact points and normals   F1  this window");
    line("Ctrl+N new   Ctrl+O open (or drop a .json file)   Ctrl+S save   Ctrl+Shift+S save as   F12 screenshot   "
         "Ctrl+Q quit");
    line("Springs, rods, nails and chains attach to the clicked point of a body");
    ImGui::PopTextWrapPos();
}

}  // namespace tinkerbox
