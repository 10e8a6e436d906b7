#include "editor/HairTool.h"

#include <cmath>
#include <numbers>

#include "core/bodies/ShapeKind.h"

namespace tinkerbox {

HairOptions hairOptions(const HairSettings& settings) {
    HairOptions o;
    o.length = settings.particles;
    o.segment = settings.segment;
    o.curl = settings.curl;
    o.material = settings.material;
    return o;
}

std::vector<StrandRoot> tuftRoots(const Simulation& simulation, const Ray& clicked, const BodyHit& hit,
                                  const HairSettings& settings) {
    std::vector<StrandRoot> roots;
    const auto root = [&](const std::optional<BodyHit>& entry) {
        if (entry && entry->body == hit.body) roots.push_back({entry->point, entry->normal, 0.002});
    };
    const int n = settings.strands;
    if (simulation.world().planar()) {
        // Rays in the plane from beyond the body towards its centre: only the body itself
        // counts (a neighbour they cross on the way, such as the beam on a fulcrum, does not
        // hide its outline, which the view shows whole).
        const RigidBodies& bodies = simulation.world().rigidBodies();
        const Vec3 centre = bodies.position(hit.body);
        Vec3 out(hit.point.x() - centre.x(), hit.point.y() - centre.y(), 0.0);
        out = out.norm() > 1e-9 ? Vec3(out.normalized()) : Vec3(Vec3::UnitY());
        const Vec3 across = Vec3::UnitZ().cross(out);
        const double beyond =
            2.0 * boundingRadius(bodies.spec(hit.body).shape, bodies.centerOfMassInShapeFrame(hit.body));
        for (int k = 0; k < n; ++k) {
            const double offset = n == 1 ? 0.0 : settings.radius * (2.0 * k / (n - 1) - 1.0);
            const Vec3 from = Vec3(centre.x(), centre.y(), 0.0) + beyond * out + offset * across;
            root(rayHitsBody(simulation, {from, -out}, hit.body));
        }
        return roots;
    }
    const Vec3 d = clicked.direction;
    const Vec3 u = d.unitOrthogonal(), w = d.cross(u);
    const double goldenAngle = std::numbers::pi * (3.0 - std::sqrt(5.0));
    for (int k = 0; k < n; ++k) {
        const double r = settings.radius * std::sqrt((k + 0.5) / n), angle = goldenAngle * k;
        root(pickBody(simulation, {clicked.origin + r * (std::cos(angle) * u + std::sin(angle) * w), d}));
    }
    return roots;
}

}  // namespace tinkerbox
