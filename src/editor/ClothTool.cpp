#include "editor/ClothTool.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace tinkerbox {

PlaneRectangle squareAround(const Vec3& centre, const Vec3& normal, double size) {
    Vec3 u, v;
    planeAxes(normal, u, v);
    const Vec3 half = 0.5 * size * (u + v);
    return {centre - half, centre + half, normal};
}

TriangleClothOptions clothOver(const PlaneRectangle& rectangle, const ClothSettings& settings) {
    const std::array<Vec3, 4> corners = rectangle.corners();
    TriangleClothOptions o;
    o.corner = corners[0];
    o.u = corners[1] - corners[0];
    o.v = corners[3] - corners[0];
    if (o.u.cross(o.v).dot(rectangle.normal) < 0.0) std::swap(o.u, o.v);  // the front toward the normal
    const double longer = std::max(o.u.norm(), o.v.norm());
    const int cells = std::max(settings.particles, 2) - 1;  // along the longer side
    const auto count = [&](double side) {
        return longer > 0.0 ? std::max(2, static_cast<int>(std::lround(cells * side / longer)) + 1) : 2;
    };
    o.columns = count(o.u.norm());
    o.rows = count(o.v.norm());
    o.material = settings.material;
    o.density = settings.density;
    return o;
}

}  // namespace tinkerbox
