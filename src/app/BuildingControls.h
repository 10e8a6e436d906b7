#pragma once
// The app's side of building by hand (the editor's rubber band, copy and paste, grid and
// chain tool): their keys, their menu items, the panel section that sets the grid and the
// chain, and the help window's list of every key.
#include <optional>
#include <string>

#include "editor/Editor.h"

namespace tinkerbox {

// Ctrl+A select all, Ctrl+C copy, Ctrl+X cut, Ctrl+V paste (centred at the pointer when it
// is over the model, else offset from the original), Ctrl+G the grid. Returns a line for
// the status bar when the key was one of these, nullopt otherwise.
std::optional<std::string> handleBuildingKey(Editor& editor, int key, int action, int mods,
                                             const std::optional<Ray>& pointer);

// Cut, copy, paste, select all and the grid, for the Edit menu.
void drawBuildingMenuItems(Editor& editor);

// The snap grid and the chain tool's settings, a section of the Solver panel.
void drawBuildingSettings(Editor& editor);

// Every key and mouse gesture, grouped, with what it does (the help window, F1).
void drawKeyList();

}  // namespace tinkerbox
