#pragma once
// The colours the editor's view (SceneView) and compare mode draw the same things in.
#include "render/RenderFrame.h"

namespace tinkerbox {

inline constexpr Color kPlaneColor{0.35f, 0.40f, 0.48f, 1.0f};
inline constexpr Color kWireColor{0.55f, 0.75f, 0.55f, 1.0f};
inline constexpr Color kNailedColor{1.00f, 0.60f, 0.15f, 1.0f};
inline constexpr Color kOutlineColor{0.05f, 0.05f, 0.06f, 1.0f};  // round particles and pins
inline constexpr Color kPullColor{1.00f, 0.35f, 0.35f, 0.9f};     // a mouse spring and its target

}  // namespace tinkerbox
