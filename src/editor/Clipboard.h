#pragma once
// Copy and paste: a selection cut loose from its scene, with what joins it, and put back
// into a scene (the same or another) anywhere.
#include <vector>

#include "editor/Selection.h"
#include "scene/Scene.h"

namespace tinkerbox {

// A piece of a scene on its own: its anchors, cloths and hair count its particles and
// bodies from 0, as a scene's do.
struct SceneFragment {
    std::vector<ParticleInit> particles;
    std::vector<RigidBodySpec> bodies;
    std::vector<DampedSpring> springs;
    std::vector<ConstraintSpec> constraints;
    std::vector<Wire> wires;
    std::vector<ClothSpec> cloths;
    std::vector<HairSpec> hair;

    bool empty() const { return particles.empty() && bodies.empty() && wires.empty(); }
    bool operator==(const SceneFragment&) const = default;
};

// The selected particles, bodies and wires, with every spring and constraint whose anchors
// are all among them (selected or not: a nail, a rod or a spring inside the selection
// comes along), and of each cloth or hair the piece among them: a cloth over the smallest
// grid around its selected places, the others missing (hair: the strands with a selected
// particle, the unselected places missing), when a triangle (a segment) is left. A selected
// spring or constraint with an end outside the selection stays behind: it cannot go without
// its end.
SceneFragment copyItems(const Scene& scene, const Selection& selection);

// Appends the fragment to the scene, moved by offset (its particles, bodies, wires, and the
// points of its nails, sliders and beads' wires), and returns what was added.
Selection pasteItems(Scene& scene, const SceneFragment& fragment, const Vec3& offset);

// The centre of the box around the fragment's particles, bodies' positions and wires' centres.
Vec3 fragmentCentre(const SceneFragment& fragment);

}  // namespace tinkerbox
