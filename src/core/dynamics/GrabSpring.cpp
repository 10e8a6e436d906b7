#include "core/dynamics/GrabSpring.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/dynamics/Connectivity.h"

namespace tinkerbox {

namespace {

constexpr double kGrabFrequency = 20.0;  // rad/s: the spring's stiffness is m omega^2

}  // namespace

GrabSpringParameters grabSpringParameters(const World& world, const Anchor& anchor, double gravity) {
    const std::vector<Index> labels = componentLabels(world);
    const RigidBodies& bodies = world.rigidBodies();
    const Index node = anchor.isParticle() ? anchor.index() : world.particleCount() + anchor.index();
    double mass = 0.0;
    for (Index i = 0; i < world.particleCount(); ++i)
        if (labels[i] == labels[node] && !world.isNailed(i)) mass += world.mass(i);
    if (!anchor.isParticle())
        for (Index k = 0; k < bodies.count(); ++k)
            if (labels[world.particleCount() + k] == labels[node] && !bodies.isFixed(k)) mass += bodies.mass(k);
    // What the grabbed point weighs along the pull.
    const double pointMass =
        anchor.isParticle() ? world.mass(anchor.index()) : 1.0 / world.effectiveInverseMass(anchor, Vec3::UnitY());
    mass = anchor.isParticle() ? std::max(mass, pointMass) : mass;
    GrabSpringParameters p;
    p.stiffness = mass * kGrabFrequency * kGrabFrequency;
    p.damping = 2.0 * std::sqrt(p.stiffness * std::min(pointMass, mass));
    p.maxForce = 3.0 * std::max(gravity, 9.81) * mass;
    return p;
}

}  // namespace tinkerbox
