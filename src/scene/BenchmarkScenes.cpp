#include "scene/BenchmarkScenes.h"

#include <stdexcept>

#include "scene/ExampleScenes.h"

namespace tinkerbox {

namespace {

constexpr double kSpacing = 0.02;        // m
constexpr double kParticleMass = 0.001;  // kg

Scene cloth(int n) {
    ClothOptions o;
    o.n = n;
    o.size = kSpacing * (n - 1);
    o.totalMass = kParticleMass * n * n;
    o.structuralStiffness = 500.0;
    o.shearStiffness = 100.0;
    o.bendStiffness = 20.0;
    o.damping = 0.01;
    return makeCloth(o);
}

Scene chain(int links) {
    ChainOptions o;
    o.links = links;
    o.length = kSpacing * links;
    o.totalMass = kParticleMass * links;
    o.stiffness = 500.0;
    o.damping = 0.01;
    return makeHangingChain(o);
}

Scene byName(const std::string& name) {
    if (name == "cloth-32") return cloth(32);
    if (name == "cloth-64") return cloth(64);
    if (name == "cloth-128") return cloth(128);
    if (name == "chain-1000") return chain(1000);
    throw std::invalid_argument("unknown benchmark scene '" + name +
                                "' (choose cloth-32, cloth-64, cloth-128, chain-1000)");
}

}  // namespace

std::vector<std::string> benchmarkSceneNames() { return {"cloth-32", "cloth-64", "cloth-128", "chain-1000"}; }

Scene makeBenchmarkScene(const std::string& name, const IntegratorSettings& solver) {
    Scene s = byName(name);
    s.settings.dt = 1.0 / 60.0;
    s.settings.substeps = 1;
    s.settings.solver = solver;
    return s;
}

}  // namespace tinkerbox
