#pragma once
// Which particles move together: those joined, directly or through others, by springs or
// constraints. The editor scales a grab to the mass it pulls; the app frames the reach of
// what swings about a nail.
#include <vector>

#include "core/dynamics/ParticleSystem.h"

namespace tinkerbox {

// labels[i] == labels[j] exactly when particles i and j are joined. Labels run from 0 in
// order of each component's lowest particle index.
std::vector<Index> componentLabels(const ParticleSystem& system);

}  // namespace tinkerbox
