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
        case GLFW_KEY_A: editor.selectAll(); return "Selected everything";
        case GLFW_KEY_L: {
            if (editor.selection().empty()) return "Select something first: Ctrl+L adds what is joined to it";
            editor.selectConnected();
            const Selection& s = editor.selection();
            return "Selected what is joined to it: " + std::to_string(s.particles.size()) + " particles, " +
                   std::to_string(s.bodies.size()) + " bodies";
        }
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
        case GLFW_KEY_G: editor.grid().enabled = !editor.grid().enabled; return gridLine(editor);
        default: return std::nullopt;
    }
}

void drawBuildingMenuItems(Editor& editor) {
    const bool selected = !editor.selection().empty();
    if (ImGui::MenuItem("Cut", "Ctrl+X", false, selected)) editor.cutSelection();
    if (ImGui::MenuItem("Copy", "Ctrl+C", false, selected)) editor.copySelection();
    if (ImGui::MenuItem("Paste", "Ctrl+V", false, editor.canPaste())) editor.paste();
    if (ImGui::MenuItem("Select all", "Ctrl+A")) editor.selectAll();
    if (ImGui::MenuItem("Select connected", "Ctrl+L", false, selected)) editor.selectConnected();
    if (ImGui::MenuItem("Snap to grid", "Ctrl+G", editor.grid().enabled))
        editor.grid().enabled = !editor.grid().enabled;
}

void drawBuildingSettings(Editor& editor) {
    if (!ImGui::CollapsingHeader("grid, chain, cloth and hair")) return;
    SnapGrid& grid = editor.grid();
    ImGui::Checkbox("snap to grid", &grid.enabled);
    itemTooltip(
        "Ctrl+G. New particles, the ends of new springs, rods and chains, bodies, and whatever a drag moves "
        "land on grid points; the 2D view draws the grid.");
    ImGui::InputDouble("grid spacing (m)", &grid.spacing, 0.05, 0.5, "%.3f");
    itemTooltip("The distance between grid points.");
    clampSettings(grid);
    ChainSettings& chain = editor.chain();
    ImGui::InputInt("chain particles", &chain.particles);
    itemTooltip("How many particles the chain tool (L) puts between the two ends; the links are one more.");
    int links = chain.rods ? 1 : 0;
    ImGui::RadioButton("springs", &links, 0);
    itemTooltip("The links are damped springs, with the stiffness and damping of new springs.");
    ImGui::SameLine();
    ImGui::RadioButton("rods", &links, 1);
    itemTooltip("The links are rods: hard distance constraints that never stretch.");
    chain.rods = links == 1;
    ImGui::InputDouble("chain slack", &chain.slack, 0.05, 0.5, "%.2f");
    itemTooltip(
        "The rope's length over the distance between the two clicks: 1 is taut; above 1 it hangs as a "
        "catenary, and starts at rest in that shape.");
    clampSettings(chain);
    ClothSettings& cloth = editor.cloth();
    ImGui::InputInt("cloth particles", &cloth.particles);
    itemTooltip(
        "How many particles the cloth tool (T) puts along the longer side of the rectangle; the cells are as "
        "square as whole counts allow.");
    ImGui::InputDouble("clicked cloth (m)", &cloth.size, 0.1, 1.0, "%.2f");
    itemTooltip("The side of the square cloth a click (not a drag) lays, centred where you clicked.");
    ImGui::InputDouble("cloth density", &cloth.density, 0.01, 0.1, "%.3f");
    itemTooltip("kg/m^2: a third of each triangle's mass goes to each of its corners.");
    ClothMaterial& m = cloth.material;
    ImGui::InputDouble("stretch", &m.stretch, 10.0, 100.0, "%.1f");
    itemTooltip(
        "N/m: the energy stretch/2 (S_u^2 + S_v^2) per unit area, S the strain along the cloth's two "
        "directions (Baraff & Witkin 1998). Cotton 200.");
    ImGui::InputDouble("shear", &m.shear, 1.0, 10.0, "%.1f");
    itemTooltip("N/m: the energy shear/2 (w_u . w_v)^2 per unit area. Cotton 20.");
    ImGui::InputDouble("bend", &m.bend, 1e-5, 1e-4, "%.1e");
    itemTooltip(
        "N m: the energy bend/2 kappa^2 per unit area across each inner edge. Cotton 2e-4; more is stiffer, "
        "like leather.");
    clampSettings(cloth);
    HairSettings& hair = editor.hair();
    ImGui::InputInt("hair strands", &hair.strands);
    itemTooltip(
        "How many strands the hair tool (H) grows in a tuft; those whose roots would miss the clicked body "
        "are left out.");
    ImGui::InputInt("hair particles", &hair.particles);
    itemTooltip(
        "Particles per strand, the first two held at the root: nailed on a fixed body, pinned to a moving one.");
    ImGui::InputDouble("hair segment (m)", &hair.segment, 0.005, 0.05, "%.3f");
    itemTooltip("The distance between a strand's particles.");
    ImGui::InputDouble("tuft radius (m)", &hair.radius, 0.01, 0.1, "%.3f");
    itemTooltip("The tuft's roots spread over a disc of this radius about the click, seen from the view.");
    ImGui::InputDouble("hair curl (m)", &hair.curl, 0.005, 0.02, "%.3f");
    itemTooltip(
        "Each strand a helix of this radius about its root's normal, 8 particles a turn, which it keeps: "
        "its joints' rest angles are its shape. 0: straight.");
    HairMaterial& h = hair.material;
    ImGui::InputDouble("hair bend", &h.bend, 1e-6, 1e-5, "%.1e");
    itemTooltip(
        "N m^2: a joint between segments of mean length l is an angular spring of stiffness bend / l "
        "(E = k/2 theta^2). The examples' hair 1e-5.");
    ImGui::InputDouble("hair twist", &h.twist, 1e-6, 1e-5, "%.1e");
    itemTooltip("N m^2: the twist between two consecutive bent joints, k = twist / l; what keeps a curl in its plane.");
    clampSettings(hair);
}

}  // namespace tinkerbox
