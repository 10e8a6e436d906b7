#pragma once
// Snapping to a grid, as in a drawing program: when it is on, new particles, the ends of
// new springs, rods and chains, and whatever a move drags land on grid points.
#include <cmath>

#include "core/math/Types.h"

namespace tinkerbox {

struct SnapGrid {
    bool enabled = false;
    double spacing = 0.25;  // m

    // The grid point nearest p in the work plane of unit normal `normal`: the two world
    // coordinates across the normal's main axis are rounded, the one along it is kept, so
    // that a point on the 2D view's plane z = 0 stays on it. Unchanged when the grid is off.
    Vec3 snap(const Vec3& p, const Vec3& normal) const {
        if (!enabled || !(spacing > 0.0)) return p;
        Index across;
        normal.cwiseAbs().maxCoeff(&across);
        Vec3 snapped = p;
        for (Index k = 0; k < 3; ++k)
            if (k != across) snapped[k] = spacing * std::round(p[k] / spacing);
        return snapped;
    }
};

}  // namespace tinkerbox
