#pragma once
// What the select tool holds: items of a scene by index, of each kind.
#include <set>

#include "core/math/Types.h"

namespace tinkerbox {

struct Selection {
    std::set<Index> particles, springs, constraints, wires, bodies;
    bool empty() const {
        return particles.empty() && springs.empty() && constraints.empty() && wires.empty() && bodies.empty();
    }
    void clear() { *this = {}; }
    void add(const Selection& other) {
        particles.insert(other.particles.begin(), other.particles.end());
        springs.insert(other.springs.begin(), other.springs.end());
        constraints.insert(other.constraints.begin(), other.constraints.end());
        wires.insert(other.wires.begin(), other.wires.end());
        bodies.insert(other.bodies.begin(), other.bodies.end());
    }
    bool operator==(const Selection&) const = default;
};

}  // namespace tinkerbox
