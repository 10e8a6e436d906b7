#pragma once
// Rubber-band selection: the select tool's drag on empty space draws a rectangle in the
// work plane, and what lies inside it is selected.
#include <array>

#include "core/pipeline/Simulation.h"
#include "editor/Selection.h"
#include "scene/Scene.h"

namespace tinkerbox {

// A plane's axes: world x projected onto the plane (world y when the normal is near x),
// and the normal's cross product with it.
void planeAxes(const Vec3& normal, Vec3& u, Vec3& v);

// A rectangle in the plane through `from` with unit normal `normal`, with corners `from`
// and `to` and edges along the plane's axes (x and y in the 2D view, where the normal is z).
// A point is inside when its projection onto the plane along the normal is.
struct PlaneRectangle {
    Vec3 from = Vec3::Zero();
    Vec3 to = Vec3::Zero();
    Vec3 normal = Vec3::UnitZ();

    bool contains(const Vec3& p) const;
    std::array<Vec3, 4> corners() const;  // in order around it, from `from`
};

// Everything inside the rectangle: particles by their positions, bodies by their centres of
// mass, wires by their centres, springs and constraints when every anchor they hold is
// (particles, or the points of bodies they attach to). Positions are the simulation's now.
Selection itemsInside(const Simulation& simulation, const Scene& scene, const PlaneRectangle& rectangle);

}  // namespace tinkerbox
