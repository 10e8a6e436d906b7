#pragma once
// Where to look: the camera that shows all the model can reach, between the app's panels.
#include "editor/Editor.h"
#include "render/Camera.h"

namespace tinkerbox {

// Frames the model's particles, bodies, wires and beads, the planes' anchors beside them, and,
// around each nail or fixed body, as far as what hangs on it can swing. A flat model in the
// z = 0 plane is shown head-on in 2D, anything else in 3D.
void frameModel(const Editor& editor, Camera& camera, const ViewInsets& insets);

}  // namespace tinkerbox
