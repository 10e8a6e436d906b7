#include "scene/ExampleScenes.h"

#include <array>
#include <string>

namespace tinkerbox {

namespace {

void addSpring(Scene& scene, Index a, Index b, double stiffness, double damping) {
    const double rest = (scene.particles[a].position - scene.particles[b].position).norm();
    scene.springs.push_back({a, b, stiffness, damping, rest});
}

Scene springOscillator() {
    Scene s;
    s.name = "Spring oscillator";
    s.description =
        "Two masses on springs from nails: the left one undamped, the right one damped. Euler spirals out, "
        "implicit Euler spirals in, symplectic Euler and Verlet keep the amplitude.";
    s.settings.integrator = "rk4";
    // Released 0.5 m below equilibrium (stretch mg/k = 0.49 m): amplitude 0.5 m, period 1.4 s.
    s.particles = {{{-1, 1, 0}, {0, 0, 0}, 1.0, true},
                   {{-1, -0.99, 0}, {0, 0, 0}, 1.0, false},
                   {{1, 1, 0}, {0, 0, 0}, 1.0, true},
                   {{1, -0.99, 0}, {0, 0, 0}, 1.0, false}};
    s.springs = {{0, 1, 20.0, 0.0, 1.0}, {2, 3, 20.0, 1.0, 1.0}};
    return s;
}

Scene hangingChain() {
    Scene s = makeHangingChain(ChainOptions{});
    s.name = "Hanging chain";
    s.description = "Ten springs hanging from a nail, released from the horizontal.";
    return s;
}

Scene cloth() {
    Scene s = makeCloth(ClothOptions{});
    s.name = "Cloth";
    s.description =
        "A 20 x 20 cloth pinned at two corners, with structural, shear and bend springs. Stiff enough that "
        "explicit methods need substeps; implicit Euler takes one step per frame.";
    s.settings.integrator = "implicit-euler";
    s.planes.push_back({Vec3(0, -1.0, 0), Vec3::UnitY(), 0.0, 0.5});
    return s;
}

Scene bouncingParticles() {
    Scene s;
    s.name = "Bouncing particles";
    s.description =
        "Particles thrown into a box: a ground with restitution 0.8 and friction, and two walls. "
        "Slow ones come to rest on the ground; friction stops the sliding.";
    s.settings.integrator = "rk4";
    s.settings.substeps = 4;
    for (int i = 0; i < 8; ++i) {
        const double x = -2.5 + 0.7 * i;
        s.particles.push_back({{x, 1.0 + 0.4 * i, 0}, {2.0 - 0.5 * i, 0.5 * (i % 3), 0}, 1.0, false});
    }
    s.planes = {{Vec3(0, 0, 0), Vec3::UnitY(), 0.8, 0.3},
                {Vec3(-3, 0, 0), Vec3::UnitX(), 0.9, 0.0},
                {Vec3(3, 0, 0), -Vec3::UnitX(), 0.9, 0.0}};
    return s;
}

Scene stiffSpring() {
    Scene s;
    s.name = "Stiff spring";
    s.description =
        "Seed 000's stiff x' = -kx made a spring: a 50 g mass on a 2000 N/m spring (period 31 ms) beside a "
        "soft one, at dt = 1/60. Explicit Euler blows up at this dt; implicit Euler does not.";
    s.settings.integrator = "implicit-euler";
    s.particles = {{{-0.5, 1, 0}, {0, 0, 0}, 0.05, true},
                   {{-0.5, 0.3, 0}, {0, 0, 0}, 0.05, false},
                   {{0.5, 1, 0}, {0, 0, 0}, 0.05, true},
                   {{0.5, 0.3, 0}, {0, 0, 0}, 0.05, false}};
    s.springs = {{0, 1, 2000.0, 0.0, 0.5}, {2, 3, 2.0, 0.0, 0.5}};
    return s;
}

constexpr std::array kExamples = {
    ExampleScene{"Springs", "spring-oscillator", springOscillator},
    ExampleScene{"Springs", "hanging-chain", hangingChain},
    ExampleScene{"Springs", "stiff-spring", stiffSpring},
    ExampleScene{"Cloth", "cloth", cloth},
    ExampleScene{"Contact", "bouncing-particles", bouncingParticles},
};

}  // namespace

std::span<const ExampleScene> exampleScenes() { return kExamples; }

const ExampleScene* findExampleScene(std::string_view name) {
    for (const ExampleScene& e : kExamples)
        if (e.name == name) return &e;
    return nullptr;
}

Scene makeCloth(const ClothOptions& o) {
    Scene s;
    s.name = "Cloth " + std::to_string(o.n) + " x " + std::to_string(o.n);
    const double spacing = o.size / (o.n - 1);
    const double mass = o.totalMass / (o.n * o.n);
    const auto id = [&](int i, int j) { return static_cast<Index>(j * o.n + i); };
    for (int j = 0; j < o.n; ++j)
        for (int i = 0; i < o.n; ++i) {
            const bool pinned = j == 0 && (i == 0 || i == o.n - 1);
            s.particles.push_back({{-0.5 * o.size + i * spacing, o.height, -0.5 * o.size + j * spacing},
                                   Vec3::Zero(), mass, pinned});
        }
    for (int j = 0; j < o.n; ++j)
        for (int i = 0; i < o.n; ++i) {
            if (i + 1 < o.n) addSpring(s, id(i, j), id(i + 1, j), o.structuralStiffness, o.damping);
            if (j + 1 < o.n) addSpring(s, id(i, j), id(i, j + 1), o.structuralStiffness, o.damping);
            if (i + 1 < o.n && j + 1 < o.n) {
                addSpring(s, id(i, j), id(i + 1, j + 1), o.shearStiffness, o.damping);
                addSpring(s, id(i + 1, j), id(i, j + 1), o.shearStiffness, o.damping);
            }
            if (i + 2 < o.n) addSpring(s, id(i, j), id(i + 2, j), o.bendStiffness, o.damping);
            if (j + 2 < o.n) addSpring(s, id(i, j), id(i, j + 2), o.bendStiffness, o.damping);
        }
    return s;
}

Scene makeHangingChain(const ChainOptions& o) {
    Scene s;
    s.name = "Chain of " + std::to_string(o.links);
    s.settings.integrator = "rk4";
    s.settings.substeps = 4;
    const double link = o.length / o.links;
    const double mass = o.totalMass / o.links;
    for (int i = 0; i <= o.links; ++i) s.particles.push_back({{-1.0 + i * link, 1.5, 0}, Vec3::Zero(), mass, i == 0});
    for (int i = 0; i < o.links; ++i) addSpring(s, i, i + 1, o.stiffness, o.damping);
    return s;
}

}  // namespace tinkerbox
