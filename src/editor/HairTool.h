#pragma once
// The hair tool's tuft: a click on a body grows strands of hair from its surface about the
// clicked point, each along the surface's outward normal there, as the hair examples' strands
// grow from their ball.
#include <vector>

#include "editor/Picking.h"
#include "scene/ExampleScenes.h"

namespace tinkerbox {

struct HairSettings {
    int strands = 24;
    int particles = 12;     // per strand
    double segment = 0.02;  // m between a strand's particles
    double radius = 0.1;    // m: the tuft's, about the click
    double curl = 0.0;      // m: the radius of each strand's helix, 0 straight
    HairMaterial material;  // the hair examples'

    // At most 64k particles in a tuft, as in the largest cloth the cloth tool lays.
    static constexpr int kMaxStrands = 512;
    static constexpr int kMaxParticles = 128;
};

// The examples' strands with these settings: two particles at each root held, 0.1 g per
// particle.
HairOptions hairOptions(const HairSettings& settings);

// The tuft's roots. In 3D, rays parallel to the clicked one, through the points of a
// sunflower (Vogel, A Better Way to Construct the Sunflower Head, Math. Biosci. 44, 1979) of
// the tuft's radius about it, on the plane across it. In a planar model, whose hair must lie
// in z = 0, rays in that plane toward the body's centre, side by side across the tuft's
// width, from beyond the body on the side of the click. Each ray whose first body is the
// clicked one gives a root where it enters, growing along the surface's normal from 2 mm off.
std::vector<StrandRoot> tuftRoots(const Simulation& simulation, const Ray& clicked, const BodyHit& hit,
                                  const HairSettings& settings);

}  // namespace tinkerbox
