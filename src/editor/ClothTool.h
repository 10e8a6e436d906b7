#pragma once
// The cloth tool's cloth: a rectangle dragged out in the work plane (or clicked: a square
// of the default size centred there) becomes a cloth of triangle energies (Cloth.h) with
// square cells, as many particles along its longer side as the settings say.
#include "core/forces/Cloth.h"
#include "editor/RubberBand.h"
#include "scene/ExampleScenes.h"

namespace tinkerbox {

struct ClothSettings {
    int particles = 16;    // along the longer side
    double size = 1.0;     // m: the side of a clicked (not dragged) cloth
    double density = 0.2;  // kg/m^2
    ClothMaterial material = cotton();

    static constexpr int kMaxParticles = 256;
};

// The square of side `size` centred on `centre` in the plane of normal `normal`, its edges
// along the plane's axes (PlaneRectangle).
PlaneRectangle squareAround(const Vec3& centre, const Vec3& normal, double size);

// The cloth over the rectangle: corner `from`, its columns along one edge (u) and its rows
// along the other (v), taken so that u x v is along the rectangle's normal: the cloth's
// front (Cloth.h's counter-clockwise (u, v)) faces the side the normal points to, the
// viewer's for the work plane. The cells are as square as whole counts allow, with
// settings.particles along the longer side and at least 2 along each.
TriangleClothOptions clothOver(const PlaneRectangle& rectangle, const ClothSettings& settings);

}  // namespace tinkerbox
