#pragma once
// The editor's tools and the keys that choose them (the "Create, Attach, Drag, Nail" of Witkin's Constrained Dynamics,
// SIGGRAPH 2001 notes).
#include <array>
#include <optional>
#include <string_view>

namespace tinkerbox {

enum class Tool {
    Particle,  // P: click on empty space adds a particle
    Spring,    // S: press on a particle, drag, release on another (or on empty space: a new particle)
    Rod,       // R: the same gesture makes a rod
    Wire,      // W: press at the centre and drag the radius; click a particle to thread it as a bead
    Nail,      // N: click a particle to toggle its nail
    Grab,      // G: press on a particle to pull it with a mouse spring (the default while running)
    Select,    // V: click selects, drag moves while paused, drag on empty space selects a rectangle
    Box,       // B: click on empty space adds a box (a rigid body)
    Sphere,    // O: click on empty space adds a sphere (a rigid body)
    Chain,     // L: a rope of particles joined by springs or rods, between two clicks (or a drag)
    Cloth,     // T: drag a rectangle (or click): a cloth of triangle energies in the work plane
    Hair,      // H: click on a body: a tuft of hair strands grows from its surface there
};

struct ToolInfo {
    Tool tool;
    char key;
    std::string_view name;
    std::string_view help;
};

inline constexpr std::array<ToolInfo, 12> kTools = {{
    {Tool::Particle, 'P', "Particle", "Click on empty space to add a particle."},
    {Tool::Spring, 'S', "Spring", "Drag from a particle to another (or to empty space for a new one)."},
    {Tool::Rod, 'R', "Rod", "Drag from a particle to another: a rod that never stretches."},
    {Tool::Wire, 'W', "Wire", "Press at a centre and drag the radius; then click particles to thread them."},
    {Tool::Nail, 'N', "Nail", "Click a particle to nail it in place or free it."},
    {Tool::Grab, 'G', "Grab", "Drag a particle with a mouse spring (right-drag grabs with any tool)."},
    {Tool::Select, 'V', "Select",
     "Click to select (Shift adds), drag on empty space to select a rectangle, drag the selection to move it "
     "(paused). Ctrl+C, X, V copy, cut, paste; Delete removes."},
    {Tool::Box, 'B', "Box", "Click on empty space to add a box; springs, rods and the grab attach to its points."},
    {Tool::Sphere, 'O', "Sphere", "Click on empty space to add a sphere (a rigid ball)."},
    {Tool::Chain, 'L', "Chain",
     "Click (or press) at one end and click (or release) at the other: a rope of particles joined by springs or "
     "rods, hanging from what the ends were on."},
    {Tool::Cloth, 'T', "Cloth",
     "Drag a rectangle on empty space (or click): a cloth of triangle energies. Settings: grid, chain, cloth and "
     "hair."},
    {Tool::Hair, 'H', "Hair",
     "Click on a body: a tuft of hair grows there. Settings under grid, chain, cloth and hair."},
}};

inline const ToolInfo& toolInfo(Tool tool) { return kTools[static_cast<std::size_t>(tool)]; }

inline std::optional<Tool> toolForKey(char key) {
    for (const ToolInfo& t : kTools)
        if (t.key == key) return t.tool;
    return std::nullopt;
}

}  // namespace tinkerbox
