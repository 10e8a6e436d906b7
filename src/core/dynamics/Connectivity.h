#pragma once
// Which particles and rigid bodies move together: those joined, directly or through
// others, by springs, constraints or the elements of forces (a cloth's triangles and
// hinges, a hair's joints). The editor scales a grab to the mass it pulls; the app frames
// the reach of what swings about a nail.
#include <vector>

#include "core/dynamics/World.h"

namespace tinkerbox {

// One label per particle, then one per rigid body (body k at particleCount() + k):
// labels[i] == labels[j] exactly when they are joined. Labels run from 0 in order of each
// component's lowest index.
std::vector<Index> componentLabels(const World& world);
// An anchor's place among those labels: its particle's, or its body's.
inline Index componentNode(const World& world, const Anchor& a) {
    return a.isParticle() ? a.index() : world.particleCount() + a.index();
}

}  // namespace tinkerbox
