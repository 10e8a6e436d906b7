#include "app/ModelFraming.h"

#include <algorithm>
#include <cmath>
#include <variant>
#include <vector>

#include "core/bodies/ShapeKind.h"
#include "core/constraints/ConstraintKind.h"
#include "core/dynamics/Connectivity.h"

namespace tinkerbox {

void frameModel(const Editor& editor, Camera& camera, const ViewInsets& insets) {
    // What the model can reach: its particles, its wires, the planes' anchors, and, around
    // each nail, as far as the farthest particle joined to it (things swing about nails).
    const Simulation& sim = editor.simulation();
    const World& system = sim.world();
    Vec3 low = Vec3::Constant(INFINITY), high = Vec3::Constant(-INFINITY);
    const auto include = [&](const Vec3& p) {
        low = low.cwiseMin(p);
        high = high.cwiseMax(p);
    };
    // A circle of unit normal n reaches r sqrt(1 - n_k^2) from its centre along axis k.
    const auto includeCircle = [&](const Vec3& center, double radius, const Vec3& normal) {
        const Vec3 extent = radius * (Vec3::Ones() - normal.cwiseAbs2()).cwiseMax(0.0).cwiseSqrt();
        include(center - extent);
        include(center + extent);
    };
    struct Pivot {  // a point something swings about, and the node (componentLabels) it holds
        Vec3 point;
        Index node;
    };
    std::vector<Pivot> pivots;
    const auto node = [&](const Anchor& a) { return componentNode(system, a); };
    for (Index i = 0; i < system.particleCount(); ++i) {
        include(system.position(i));
        if (system.isNailed(i)) pivots.push_back({system.position(i), i});
    }
    const RigidBodies& bodies = system.rigidBodies();
    for (Index k = 0; k < bodies.count(); ++k) {
        const double radius = boundingRadius(bodies.spec(k).shape, bodies.centerOfMassInShapeFrame(k));
        include(bodies.position(k) - Vec3::Constant(radius));
        include(bodies.position(k) + Vec3::Constant(radius));
        if (bodies.isFixed(k)) pivots.push_back({bodies.position(k), system.particleCount() + k});
    }
    for (const auto& c : system.constraints()) {
        const ConstraintSpec spec = c->spec();
        const ConstraintFigure figure = constraintKind(spec).figure(spec);
        if (figure.pivot) forEachAnchor(spec, [&](const Anchor& a) { pivots.push_back({*figure.pivot, node(a)}); });
        if (const auto& circle = figure.circle) includeCircle(circle->center, circle->radius, circle->normal);
    }
    // An empty scene counts as flat: what is clicked into it goes on the z = 0 plane.
    const bool empty = !(low.array() <= high.array()).all();
    const bool flat = empty || sim.settings().planar || ((high - low).z() <= 1e-9 && std::abs(low.z()) < 1e-9);
    if (flat) {  // in 2D; a 3D view can be turned to follow the motion instead
        const std::vector<Index> component = componentLabels(system);
        for (const Pivot& pivot : pivots) {
            double reach = 0.0;
            for (Index i = 0; i < system.particleCount(); ++i)
                if (component[i] == component[pivot.node])
                    reach = std::max(reach, (system.position(i) - pivot.point).norm());
            for (Index k = 0; k < bodies.count(); ++k)
                if (component[system.particleCount() + k] == component[pivot.node])
                    reach =
                        std::max(reach, (bodies.position(k) - pivot.point).norm() +
                                            boundingRadius(bodies.spec(k).shape, bodies.centerOfMassInShapeFrame(k)));
            include(pivot.point - Vec3(reach, reach, 0.0));
            include(pivot.point + Vec3(reach, reach, 0.0));
        }
    }
    // A plane's anchor counts beside a model, not alone: a new scene's ground is not a model
    // to zoom in on.
    if (!empty)
        for (const Plane& p : system.planes()) include(p.point);
    for (Index i = 0; i < system.beadCount(); ++i) {
        const ParametricBead b = system.beads().bead(i);
        includeCircle(b.center, b.radius, b.normal);
    }
    for (const Wire& w : editor.scene().wires) includeCircle(w.center, w.radius, w.normal);
    if (!(low.array() <= high.array()).all()) {  // nothing with a place: the default view
        low = Vec3(-4, -3, 0);
        high = Vec3(4, 3, 0);
    }
    // A flat model in the z = 0 plane is shown head-on; anything else in 3D.
    camera.setMode(flat ? Camera::Mode::TwoD : Camera::Mode::ThreeD);
    const Vec3 margin = Vec3(0.25, 0.25, camera.mode() == Camera::Mode::TwoD ? 0.0 : 0.25);
    camera.frame(low - margin, high + margin, insets);
}

}  // namespace tinkerbox
