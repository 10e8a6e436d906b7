#pragma once
// The chain tool's rope: particles between two ends, joined by springs or rods, laid out
// as the rope would hang, so that it starts at rest instead of falling into shape.
#include <vector>

#include "core/math/Types.h"

namespace tinkerbox {

struct ChainSettings {
    int particles = 8;   // between the two ends
    bool rods = false;   // the links: rods, else springs (the new springs' stiffness and damping)
    double slack = 1.1;  // the rope's length over the distance between its ends (at least 1)

    static constexpr int kMaxParticles = 1000;
};

// The `count` joints of a rope of `length` hanging from a to b, equally spaced along it
// (length / (count + 1) apart along the curve). The rope hangs as a catenary in the plane
// through a and b that holds gravity; with no gravity, or ends one above the other, it
// sags sideways in the work plane (of normal planeNormal) instead. A rope no longer than
// the distance between its ends is the straight segment.
std::vector<Vec3> hangingRope(const Vec3& a, const Vec3& b, int count, double length, const Vec3& gravity,
                              const Vec3& planeNormal);

}  // namespace tinkerbox
