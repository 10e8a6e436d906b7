#pragma once
// How stiff the user's mouse spring (MouseSpring.h) is for what it holds: a spring of
// 20 rad/s for the whole piece the grabbed particle or body belongs to (everything joined to
// it by springs, constraints or force elements: Connectivity.h), damped critically for what
// the grabbed point itself weighs (a body's effective mass at that point), its pull capped
// at 3 g for the piece. The editor's grab and compare mode's pull on every run use the same
// numbers.
#include "core/bodies/Anchor.h"
#include "core/dynamics/World.h"

namespace tinkerbox {

struct GrabSpringParameters {
    double stiffness = 0.0;  // N/m
    double damping = 0.0;    // N s/m
    double maxForce = 0.0;   // N
};

// gravity: the magnitude of the model's gravity (at least that of the Earth is used).
// The anchor's particle is not nailed and its body is not fixed.
GrabSpringParameters grabSpringParameters(const World& world, const Anchor& anchor, double gravity);

}  // namespace tinkerbox
