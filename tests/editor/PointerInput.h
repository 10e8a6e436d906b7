#pragma once
// Synthetic pointer input for the editor tests, in world coordinates: a 2D pointer at (x, y)
// is a ray straight down the z axis.
#include "editor/Editor.h"

namespace tinkerbox::test {

inline Ray at(double x, double y) { return {Vec3(x, y, 10.0), -Vec3::UnitZ()}; }
inline const PickTolerance kTolerance{0.1, 0.0};

inline void click(Editor& e, double x, double y, PointerButton button = PointerButton::Left, bool shift = false) {
    e.pointerDown(at(x, y), kTolerance, button, shift);
    e.pointerUp(at(x, y), kTolerance);
}

// From one point to another in four moves.
inline void drag(Editor& e, Vec3 from, Vec3 to, PointerButton button = PointerButton::Left) {
    e.pointerDown(at(from.x(), from.y()), kTolerance, button);
    for (int k = 1; k <= 4; ++k) {
        const Vec3 p = from + (to - from) * k / 4.0;
        e.pointerMove(at(p.x(), p.y()), kTolerance);
    }
    e.pointerUp(at(to.x(), to.y()), kTolerance);
}

}  // namespace tinkerbox::test
