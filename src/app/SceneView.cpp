#include "app/SceneView.h"

#include <algorithm>
#include <cmath>

#include "app/ViewColors.h"
#include "core/bodies/ConvexHull.h"
#include "core/bodies/ShapeKind.h"
#include "core/constraints/ConstraintKind.h"
#include "core/forces/Cloth.h"
#include "render/BodyOverlays.h"

namespace tinkerbox {

namespace {

constexpr Color kParticle{0.86f, 0.88f, 0.92f, 1.0f};
constexpr Color kHover{0.40f, 0.85f, 1.00f, 1.0f};
constexpr Color kSelected{1.00f, 0.90f, 0.20f, 1.0f};
constexpr Color kRod{0.95f, 0.95f, 0.80f, 1.0f};
constexpr Color kSlider{0.55f, 0.55f, 0.75f, 0.8f};
constexpr Color kBead{0.75f, 0.45f, 0.95f, 1.0f};
constexpr Color kGesture{0.40f, 0.85f, 1.00f, 0.9f};
constexpr Color kBody{0.45f, 0.62f, 0.85f, 1.0f};
constexpr Color kFixedBody{0.50f, 0.52f, 0.56f, 1.0f};
constexpr Color kFrozenBody{0.70f, 0.88f, 0.98f, 1.0f};  // frozen by the contact model oba: icy
constexpr double kContactNormalLength = 0.2;             // m

// The shape of a body as the renderer draws it, from its solid (ShapeKind.h); a hull from the
// body's hull (built once), or, for a shape not yet a body's, one built here.
void setShape(BodyInstance& b, const Shape& shape, const ConvexHull* hull) {
    const ShapeKind& kind = shapeKind(shape);
    std::shared_ptr<const ConvexHull> made;
    if (!hull && kind.hull && kind.check(shape).empty()) {
        made = kind.hull(shape);
        hull = made.get();
    }
    const ShapeSolid solid = kind.solid(shape, hull);
    switch (solid.geometry) {
        case ShapeSolid::Geometry::Box:
            b.shape = BodyInstance::Shape::Box;
            b.size = 2.0 * solid.halfSize;
            break;
        case ShapeSolid::Geometry::Ball:
            b.shape = BodyInstance::Shape::Sphere;
            b.radius = solid.radius;
            break;
        case ShapeSolid::Geometry::Hull:
            b.shape = BodyInstance::Shape::Mesh;
            if (solid.hull) b.mesh = makeBodyMesh(solid.hull->vertices, solid.hull->triangles);
            break;
    }
}

}  // namespace

// A body as the renderer draws it: its shape frame's origin and orientation (the shape is
// given in that frame), and the shape.
BodyInstance bodyInstance(const RigidBodies& bodies, Index k) {
    const RigidBodySpec spec = bodies.currentSpec(k);
    BodyInstance b;
    b.position = spec.position;
    b.orientation = spec.orientation;
    b.fixed = bodies.isFixed(k);
    b.fill = b.fixed ? kFixedBody : kBody;
    b.outline = kOutlineColor;
    setShape(b, spec.shape, bodies.hull(k));
    return b;
}

Color strainColor(double strain) {
    constexpr Color compressed{0.25f, 0.55f, 1.00f, 1.0f};
    constexpr Color rest{0.60f, 0.62f, 0.66f, 1.0f};
    constexpr Color stretched{1.00f, 0.30f, 0.25f, 1.0f};
    const float t = static_cast<float>(std::clamp(strain / 0.2, -1.0, 1.0));
    return t < 0.0f ? mix(rest, compressed, -t) : mix(rest, stretched, t);
}

SurfaceInstance clothSurface(const World& world, const ClothSpec& cloth) {
    SurfaceInstance surface;
    surface.vertices.reserve(cloth.particleCount());
    for (Index p = 0; p < cloth.particleCount(); ++p)
        surface.vertices.push_back(world.position(cloth.firstParticle + p));
    cloth.forEachTriangle([&](Index a, Index b, Index c) {
        surface.triangles.push_back({static_cast<int>(a - cloth.firstParticle),
                                     static_cast<int>(b - cloth.firstParticle),
                                     static_cast<int>(c - cloth.firstParticle)});
    });
    surface.normals = vertexNormals(surface.vertices, surface.triangles);
    surface.lift = 0.25 * std::min(cloth.width / (cloth.columns - 1), cloth.height / (cloth.rows - 1));
    return surface;
}

StrandInstance hairStrand(const World& world, const HairSpec& hair, Index root, Index length,
                          const StrandInstance& whole) {
    StrandInstance piece = whole;
    piece.points.clear();
    if (const int place = hair.placeOf(root) % hair.length; place > 0 || length < hair.length) {
        const float last = static_cast<float>(hair.length - 1);
        piece.root = mix(whole.root, whole.tip, static_cast<float>(place) / last);
        piece.tip = mix(whole.root, whole.tip, static_cast<float>(place + length - 1) / last);
    }
    for (Index p = root; p < root + length; ++p) piece.points.push_back(world.position(p));
    return piece;
}

HeldParticles heldParticles(const World& world, const Scene& scene) {
    HeldParticles marks;
    marks.held.assign(world.particleCount(), 0);
    marks.strandRoot.assign(world.particleCount(), 0);
    std::vector<char> pinnedToBody(world.particleCount(), 0);
    for (Index i = 0; i < world.particleCount(); ++i) marks.held[i] = world.isNailed(i) ? 1 : 0;
    for (const auto& c : world.constraints()) {
        const ConstraintSpec spec = c->spec();
        const ConstraintKind& kind = constraintKind(spec);
        // Held to a fixed point (a nail), or made to coincide with a body's point (a pin).
        const bool held = kind.figure(spec).pivot.has_value();
        const bool pinned = kind.has(ConstraintCapability::MakesAnchorsCoincide) &&
                            anyAnchor(spec, [](const Anchor& a) { return a.isRigid(); });
        forEachAnchor(spec, [&](const Anchor& a) {
            if (!a.isParticle()) return;
            if (held) marks.held[a.index()] = 1;
            if (pinned) pinnedToBody[a.index()] = 1;
        });
    }
    for (const HairSpec& h : scene.hair) {
        if (h.firstParticle < 0 || h.firstParticle + h.particleCount() > world.particleCount()) continue;
        for (const auto& [root, length] : h.runs())
            for (Index p = root; length >= 2 && p < root + length && (marks.held[p] || pinnedToBody[p]); ++p)
                marks.strandRoot[p] = 1;
    }
    return marks;
}

void buildRenderFrame(const Editor& editor, RenderFrame& frame, const SceneViewOptions& options) {
    frame.clear();
    const Simulation& simulation = editor.simulation();
    const World& s = simulation.world();
    const Selection& selection = editor.selection();

    // The 3D grid lies on the lowest upward-facing plane, else just under the model.
    double ground = INFINITY;
    for (const Plane& p : s.planes()) {
        frame.planes.push_back({p.point, p.normal, kPlaneColor});
        if (p.normal.y() > 0.9) ground = std::min(ground, p.point.y());
    }
    if (!std::isfinite(ground)) {
        ground = 0.0;
        for (Index i = 0; i < s.particleCount(); ++i) ground = std::min(ground, s.position(i).y() - 0.5);
    }
    const RigidBodies& bodies = s.rigidBodies();
    if (!(ground < INFINITY) && bodies.count() > 0) {
        ground = 0.0;
        for (Index k = 0; k < bodies.count(); ++k)
            ground =
                std::min(ground, bodies.position(k).y() -
                                     boundingRadius(bodies.spec(k).shape, bodies.centerOfMassInShapeFrame(k)) - 0.5);
    }
    frame.groundLevel = ground;
    frame.snapSpacing = editor.grid().enabled ? editor.grid().spacing : 0.0;
    for (Index k = 0; k < bodies.count(); ++k) {
        BodyInstance b = bodyInstance(bodies, k);
        if (simulation.contactModel().isFrozen(k)) b.fill = kFrozenBody;
        b.selected = selection.bodies.count(k) > 0;
        if (b.selected) b.outline = kSelected;
        frame.bodies.push_back(std::move(b));
        addCentreOfMass(frame, bodies.position(k));
        if (options.bodyAxes) {
            const double size = boundingRadius(bodies.spec(k).shape, bodies.centerOfMassInShapeFrame(k));
            addBodyAxes(frame, bodies.position(k), bodies.orientation(k), size);
            addAngularVelocity(frame, bodies.position(k), bodies.angularVelocity(k), 0.1 * size, 0.5 * size);
        }
    }
    if (options.contacts) addContacts(frame, simulation.contactModel().manifolds(), kContactNormalLength);
    for (std::size_t k = 0; k < editor.scene().wires.size(); ++k) {
        const Wire& w = editor.scene().wires[k];
        frame.circles.push_back({w.center, w.normal, w.radius,
                                 selection.wires.count(static_cast<Index>(k)) ? 3.5f : 2.0f,
                                 selection.wires.count(static_cast<Index>(k)) ? kSelected : kWireColor});
    }
    for (Index i = 0; i < s.beadCount(); ++i) {
        const ParametricBead b = s.beads().bead(i);
        frame.circles.push_back({b.center, b.normal, b.radius, 2.0f, kWireColor});
    }

    const auto& springs = s.springs().springs();
    for (std::size_t k = 0; k < springs.size(); ++k) {
        const DampedSpring& spring = springs[k];
        const Vec3 a = s.anchorPosition(spring.a), b = s.anchorPosition(spring.b);
        const double strain = spring.restLength > 0.0 ? (a - b).norm() / spring.restLength - 1.0 : 0.0;
        const bool selected = selection.springs.count(static_cast<Index>(k)) > 0;
        frame.segments.push_back({a, b, selected ? 3.5f : 1.5f, selected ? kSelected : strainColor(strain)});
    }
    // Cloths' grid lines and hair strands as lines, coloured by their strain like springs.
    const auto addEdge = [&](Index a, Index b, double rest) {
        if (a >= s.particleCount() || b >= s.particleCount()) return;
        const double strain = rest > 0.0 ? (s.position(a) - s.position(b)).norm() / rest - 1.0 : 0.0;
        frame.segments.push_back({s.position(a), s.position(b), 1.0f, strainColor(strain)});
    };
    const Scene& scene = editor.scene();
    std::vector<char> onSurface(s.particleCount(), 0);  // particles drawn as a cloth's surface or a strand
    const auto& constraints = s.constraints();
    const HeldParticles marks = heldParticles(s, scene);
    const std::vector<char>& held = marks.held;
    // Shaded, a strand's root is drawn as its start, not as particles, nor its pins.
    const std::vector<char> noRoots(s.particleCount(), 0);
    const std::vector<char>& strandRoot = options.shadedClothAndHair ? marks.strandRoot : noRoots;
    for (const ClothSpec& c : scene.cloths) {
        const Index count = c.particleCount();
        if (c.firstParticle < 0 || c.firstParticle + count > s.particleCount()) continue;
        if (options.shadedClothAndHair) {
            // A particle that holes have cut off from every triangle is drawn as a particle.
            frame.surfaces.push_back(clothSurface(s, c));
            for (const auto& triangle : frame.surfaces.back().triangles)
                for (const int corner : triangle) onSurface[c.firstParticle + corner] = 1;
            continue;
        }
        c.forEachGridEdge(addEdge);
    }
    for (const HairSpec& h : scene.hair) {
        if (h.firstParticle < 0 || h.firstParticle + h.particleCount() > s.particleCount() ||
            h.firstParticle + h.particleCount() > static_cast<Index>(scene.particles.size()))
            continue;
        if (options.shadedClothAndHair) {
            // Each strand, or each piece of a cut one, which keeps the colours it had on the
            // whole strand; a particle cut off on both sides is drawn as a particle.
            for (const auto& [root, length] : h.runs()) {
                if (length < 2) continue;
                frame.strands.push_back(hairStrand(s, h, root, length, StrandInstance{}));
                std::fill_n(onSurface.begin() + root, length, 1);
            }
            continue;
        }
        for (const StrandRun& run : h.runs())
            for (Index p = run.first; p + 1 < run.first + run.length; ++p)
                addEdge(p, p + 1, (scene.particles[p + 1].position - scene.particles[p].position).norm());
    }
    for (std::size_t k = 0; k < constraints.size(); ++k) {
        const bool selected = selection.constraints.count(static_cast<Index>(k)) > 0;
        const ConstraintSpec spec = constraints[k]->spec();
        const ConstraintKind& kind = constraintKind(spec);
        // A strand's root is drawn as its start, its pins too.
        const bool atStrandRoot =
            anyAnchor(spec, [&](const Anchor& a) { return a.isParticle() && strandRoot[a.index()]; });
        if (atStrandRoot && !selected && kind.has(ConstraintCapability::MakesAnchorsCoincide)) continue;
        // Every constraint joining anchors is drawn between them: a rod as a rod, the
        // others (pins, ball joints, hinges) thin.
        const ConstraintFigure figure = kind.figure(spec);
        const bool rod = figure.link == ConstraintFigure::Link::Rod;
        forEachAnchorLink(spec, [&](const Anchor& a, const Anchor& b) {
            frame.segments.push_back({s.anchorPosition(a), s.anchorPosition(b), rod ? (selected ? 5.0f : 3.5f) : 2.0f,
                                      selected ? kSelected
                                      : rod    ? kRod
                                               : kNailedColor});
        });
        if (const auto& c = figure.circle)
            frame.circles.push_back({c->center, c->normal, c->radius, 2.0f, selected ? kSelected : kWireColor});
        if (const auto& line = figure.guide) {
            const double reach = 1000.0;
            frame.segments.push_back({line->point - reach * line->direction, line->point + reach * line->direction,
                                      1.5f, selected ? kSelected : kSlider, true});
        }
        if (const auto& pivot = figure.pivot) {
            forEachAnchor(spec, [&](const Anchor& a) {
                frame.segments.push_back({*pivot, s.anchorPosition(a), 2.0f, kNailedColor});
            });
            frame.discs.push_back({*pivot, 3.0f, kNailedColor, kOutlineColor, 1.0f});
        }
    }

    // Gestures, under the particles.
    const Gesture& g = editor.gesture();
    switch (g.kind) {
        case Gesture::Kind::Connect:
            frame.segments.push_back({s.anchorPosition(g.anchor), g.current, g.tool == Tool::Rod ? 3.5f : 1.5f,
                                      kGesture, g.tool != Tool::Rod});
            break;
        case Gesture::Kind::WireRadius:
            frame.circles.push_back(
                {g.start, Vec3::UnitZ(), std::max((g.current - g.start).norm(), 1e-9), 2.0f, kGesture});
            break;
        case Gesture::Kind::Grab:
            frame.segments.push_back({s.anchorPosition(g.anchor), g.current, 2.0f, kPullColor, true});
            frame.discs.push_back({g.current, 3.5f, kPullColor, kOutlineColor, 1.0f});
            break;
        case Gesture::Kind::BodySize:
            if (const auto body = editor.bodyBeingSized()) {
                BodyInstance b;
                b.position = body->second;
                b.fill = {kGesture.r, kGesture.g, kGesture.b, 0.35f};
                b.outline = kGesture;
                setShape(b, body->first, nullptr);
                frame.bodies.push_back(b);
            }
            break;
        case Gesture::Kind::RubberBand:
            if (const auto band = editor.rubberBand()) {
                const auto corners = band->corners();
                for (std::size_t k = 0; k < corners.size(); ++k)
                    frame.segments.push_back({corners[k], corners[(k + 1) % corners.size()], 1.5f, kGesture, true});
            }
            break;
        case Gesture::Kind::ClothSize:
            // The cloth it would lay: its grid lines, thin, inside its outline.
            if (const auto cloth = editor.clothBeingLaid()) {
                const Vec3 du = cloth->u / (cloth->columns - 1), dv = cloth->v / (cloth->rows - 1);
                for (int i = 0; i < cloth->columns; ++i) {
                    const bool edge = i == 0 || i + 1 == cloth->columns;
                    frame.segments.push_back({cloth->corner + i * du, cloth->corner + i * du + cloth->v,
                                              edge ? 1.5f : 1.0f, kGesture, edge});
                }
                for (int j = 0; j < cloth->rows; ++j) {
                    const bool edge = j == 0 || j + 1 == cloth->rows;
                    frame.segments.push_back({cloth->corner + j * dv, cloth->corner + j * dv + cloth->u,
                                              edge ? 1.5f : 1.0f, kGesture, edge});
                }
            }
            break;
        case Gesture::Kind::Chain: {
            // The rope as it would drop now: its links and its joints.
            const std::vector<Vec3> rope = editor.chainBeingLaid();
            for (std::size_t k = 0; k + 1 < rope.size(); ++k)
                frame.segments.push_back(
                    {rope[k], rope[k + 1], editor.chain().rods ? 3.5f : 1.5f, kGesture, !editor.chain().rods});
            for (std::size_t k = 1; k + 1 < rope.size(); ++k)
                frame.discs.push_back({rope[k], 3.5f, kGesture, kOutlineColor, 1.0f});
            break;
        }
        case Gesture::Kind::Move:
        case Gesture::Kind::None: break;
    }

    // The hair tool's tuft under the pointer: each strand's line from its root, straight.
    if (editor.tool() == Tool::Hair) {
        const double length = editor.hair().segment * (editor.hair().particles - 1);
        for (const StrandRoot& root : editor.tuftUnderPointer())
            frame.segments.push_back({root.origin + root.start * root.direction,
                                      root.origin + (root.start + length) * root.direction, 1.0f, kGesture});
    }

    // Dense models (a cloth) get smaller particles; particles held in place look nailed.
    const float radius = s.particleCount() > 1000 ? 2.0f : s.particleCount() > 100 ? 3.0f : 5.0f;
    const std::optional<Index> hovered = editor.hovered();
    for (Index i = 0; i < s.particleCount(); ++i) {
        const bool selected = selection.particles.count(i) > 0;
        const bool isHovered = hovered && *hovered == i;
        const bool nailed = s.isNailed(i) || held[i];
        if (onSurface[i] && !selected && !isHovered && (!nailed || strandRoot[i])) continue;
        DiscInstance disc{s.position(i), nailed ? radius + 1.0f : radius, nailed ? kNailedColor : kParticle,
                          kOutlineColor, 1.0f};
        if (selected) {
            disc.outline = kSelected;
            disc.outlineWidth = 2.5f;
            disc.radius += 1.5f;
        } else if (isHovered) {
            disc.outline = kHover;
            disc.outlineWidth = 2.0f;
            disc.radius += 1.0f;
        }
        frame.discs.push_back(disc);
    }
    for (Index i = 0; i < s.beadCount(); ++i)
        frame.discs.push_back({s.beads().position(i), 5.0f, kBead, kOutlineColor, 1.0f});
}

}  // namespace tinkerbox
