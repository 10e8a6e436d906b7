#pragma once
// What the building tools make, as the user set it in the panels: the new elements' masses,
// stiffnesses and sizes, the snap grid, and the chain, cloth and hair tools' settings. The app
// remembers them between runs (AppSettings).
#include "editor/Chain.h"
#include "editor/ClothTool.h"
#include "editor/HairTool.h"
#include "editor/SnapGrid.h"

namespace tinkerbox {

struct NewElementSettings {
    double particleMass = 1.0;
    double springStiffness = 100.0;  // N/m
    double springDamping = 1.0;      // N s/m
    double bodyMass = 1.0;           // kg
    double boxSize = 1.0;            // m, edge
    double sphereRadius = 0.5;       // m
};

struct ToolSettings {
    NewElementSettings newElements;
    SnapGrid grid;
    ChainSettings chain;
    ClothSettings cloth;
    HairSettings hair;
};

// Each setting brought into the range the panels allow, a number that is not one ("nan" typed
// into a field, or read from a file) to the range's low end.
void clampSettings(NewElementSettings& settings);
void clampSettings(SnapGrid& grid);
void clampSettings(ChainSettings& settings);
void clampSettings(ClothSettings& settings);
void clampSettings(HairSettings& settings);
void clampSettings(ToolSettings& settings);

}  // namespace tinkerbox
