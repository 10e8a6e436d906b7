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

}  // namespace tinkerbox
