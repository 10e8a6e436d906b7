#include "editor/ToolSettings.h"

#include <algorithm>

#include "editor/TypedNumber.h"

namespace tinkerbox {

namespace {
void clampTo(double& x, double low, double high) { x = clampTyped(x, low, high); }
}  // namespace

void clampSettings(NewElementSettings& n) {
    clampTo(n.particleMass, 1e-6, 1e9);
    clampTo(n.springStiffness, 0.0, 1e12);
    clampTo(n.springDamping, 0.0, 1e12);
    clampTo(n.bodyMass, 1e-6, 1e9);
    clampTo(n.boxSize, 1e-3, 1e3);
    clampTo(n.sphereRadius, 1e-3, 1e3);
}

void clampSettings(SnapGrid& grid) { clampTo(grid.spacing, 1e-3, 1e3); }

void clampSettings(ChainSettings& chain) {
    chain.particles = std::clamp(chain.particles, 1, ChainSettings::kMaxParticles);
    clampTo(chain.slack, 1.0, 10.0);
}

void clampSettings(ClothSettings& cloth) {
    cloth.particles = std::clamp(cloth.particles, 2, ClothSettings::kMaxParticles);
    clampTo(cloth.size, 0.05, 100.0);
    clampTo(cloth.density, 1e-4, 1e3);
    for (double* constant : {&cloth.material.stretch, &cloth.material.shear, &cloth.material.bend})
        clampTo(*constant, 0.0, 1e9);
}

void clampSettings(HairSettings& hair) {
    hair.strands = std::clamp(hair.strands, 1, HairSettings::kMaxStrands);
    hair.particles = std::clamp(hair.particles, 3, HairSettings::kMaxParticles);
    clampTo(hair.segment, 1e-3, 10.0);
    clampTo(hair.radius, 0.0, 100.0);
    clampTo(hair.curl, 0.0, 10.0);
    for (double* constant : {&hair.material.bend, &hair.material.twist}) clampTo(*constant, 0.0, 1e9);
}

void clampSettings(ToolSettings& tools) {
    clampSettings(tools.newElements);
    clampSettings(tools.grid);
    clampSettings(tools.chain);
    clampSettings(tools.cloth);
    clampSettings(tools.hair);
}

}  // namespace tinkerbox
