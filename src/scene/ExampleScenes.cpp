#include "scene/ExampleScenes.h"

#include <array>
#include <cmath>
#include <numbers>
#include <string>

#include "scene/SceneBuilder.h"

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
        "The stiff test equation x' = -kx of the SIGGRAPH 2001 notes made a spring: a 50 g mass on a 2000 N/m spring (period 31 ms) beside a "
        "soft one, at dt = 1/60. Explicit Euler blows up at this dt; implicit Euler does not.";
    s.settings.integrator = "implicit-euler";
    s.particles = {{{-0.5, 1, 0}, {0, 0, 0}, 0.05, true},
                   {{-0.5, 0.3, 0}, {0, 0, 0}, 0.05, false},
                   {{0.5, 1, 0}, {0, 0, 0}, 0.05, true},
                   {{0.5, 0.3, 0}, {0, 0, 0}, 0.05, false}};
    s.springs = {{0, 1, 2000.0, 0.0, 0.5}, {2, 3, 2.0, 0.0, 0.5}};
    return s;
}

Index addParticle(Scene& scene, const Vec3& position, double mass = 1.0) {
    scene.particles.push_back({position, Vec3::Zero(), mass, false});
    return static_cast<Index>(scene.particles.size()) - 1;
}

void addRod(Scene& scene, Index a, Index b) {
    scene.constraints.push_back(RodSpec{a, b, (scene.particles[a].position - scene.particles[b].position).norm()});
}

void addNail(Scene& scene, Index p) { scene.constraints.push_back(NailSpec{p, scene.particles[p].position}); }

Scene beadOnWire() {
    Scene s;
    s.name = "Bead on a wire";
    s.description =
        "Three ways to keep a bead on a circular wire, released alike: a constraint force (Lagrange "
        "multiplier, left), generalized coordinates (the parametric bead, middle), and a penalty spring (right), "
        "which lets the bead wander off the wire.";
    s.settings.integrator = "rk4";
    s.settings.substeps = 4;
    s.settings.integratorSubsteps = {{"euler", 64}};  // at 4, explicit Euler's bead drifts 13 % of the radius off
    const double angle = 0.5;
    const Vec3 offset(std::cos(angle), std::sin(angle), 0.0);
    const Vec3 left(-2.5, 0.0, 0.0), middle(0.0, 0.0, 0.0), right(2.5, 0.0, 0.0);
    const Index bead = addParticle(s, left + offset);
    s.constraints.push_back(WireSpec{bead, left, 1.0, Vec3::UnitZ()});
    s.parametricBeads.push_back({middle, 1.0, Vec3::UnitZ(), 1.0, angle, 0.0});
    const Index centre = addParticle(s, right);
    s.particles[centre].nailed = true;
    const Index penalty = addParticle(s, right + offset);
    s.springs.push_back({centre, penalty, 200.0, 0.5, 1.0});
    s.wires.push_back({right, 1.0, Vec3::UnitZ()});  // drawn only: the wire the penalty bead should follow
    return s;
}

// A chain of rods from a nailed pivot at (0, 1), released horizontal.
Scene pendulum(int links) {
    Scene s;
    s.settings.integrator = "rk4";
    s.settings.substeps = 8;
    Index previous = addParticle(s, {0.0, 1.0, 0.0});
    addNail(s, previous);
    for (int i = 1; i <= links; ++i) {
        const Index next = addParticle(s, {static_cast<double>(i), 1.0, 0.0});
        addRod(s, previous, next);
        previous = next;
    }
    return s;
}

Scene doublePendulum() {
    Scene s = pendulum(2);
    s.name = "Double pendulum";
    s.description =
        "Two rods from a nail, released horizontal: chaotic motion, rods that never stretch. Explicit Euler gains "
        "energy on every swing, so the scene gives it 1024 substeps instead of 8.";
    s.settings.integratorSubsteps = {{"euler", 1024}};
    return s;
}

Scene triplePendulum() {
    Scene s = pendulum(3);
    s.name = "Triple pendulum";
    s.description = "Three rods from a nail, released horizontal (explicit Euler gets 2048 substeps).";
    s.settings.integratorSubsteps = {{"euler", 2048}};
    return s;
}

Scene sliderPendulum() {
    Scene s;
    s.name = "Slider pendulum";
    s.description = "A pendulum hanging from a cart that slides freely along a horizontal line.";
    s.settings.integrator = "rk4";
    s.settings.substeps = 4;
    s.settings.integratorSubsteps = {{"euler", 64}};  // as on the bead's wire: explicit Euler drifts at 4
    const Index cart = addParticle(s, {0.0, 1.0, 0.0}, 2.0);
    s.constraints.push_back(SliderSpec{cart, {0.0, 1.0, 0.0}, Vec3::UnitX()});
    const Index bob = addParticle(s, {1.0, 1.0, 0.0});
    addRod(s, cart, bob);
    return s;
}

Scene ropeBridge() {
    Scene s;
    s.name = "Rope bridge";
    s.description =
        "A deck of rods hanging from a cable of rods by springs, both nailed at the banks. The deck starts with a "
        "bounce; drag it to make it sway.";
    s.settings.integrator = "rk4";
    s.settings.substeps = 4;
    s.settings.integratorSubsteps = {{"euler", 16}};  // the 300 N/m hangers blow explicit Euler up at 4
    s.settings.drag = 0.05;
    constexpr int segments = 12;
    std::array<Index, segments + 1> cable{}, deck{};
    for (int i = 0; i <= segments; ++i) {
        const double x = -3.0 + 6.0 * i / segments;
        const double sag = 1.0 - (x / 3.0) * (x / 3.0);
        cable[i] = addParticle(s, {x, 1.0 - 0.6 * sag, 0.0}, 0.2);
        deck[i] = addParticle(s, {x, -0.5 - 0.2 * sag, 0.0}, 0.5);
        // A push up in the deck's first mode, off centre so that it also rocks.
        s.particles[deck[i]].velocity = Vec3(0.0, 1.5 * std::sin(std::numbers::pi * (x + 3.0) / 6.0) * (1.0 + x / 6.0), 0.0);
    }
    for (int i = 0; i < segments; ++i) {
        addRod(s, cable[i], cable[i + 1]);
        addRod(s, deck[i], deck[i + 1]);
    }
    for (Index end : {cable.front(), cable.back(), deck.front(), deck.back()}) addNail(s, end);
    for (int i = 1; i < segments; ++i) addSpring(s, cable[i], deck[i], 300.0, 1.0);
    // Rods do not stretch: keep the part of the push they allow (J v = 0, Witkin, Constrained Dynamics, SIGGRAPH 2001 notes).
    const auto model = buildSimulation(s);
    model->world().constrainVelocities();
    for (Index i = 0; i < model->world().particleCount(); ++i) s.particles[i].velocity = model->world().velocity(i);
    return s;
}

Scene truss() {
    Scene s;
    s.name = "Tinkertoy crane";
    s.description =
        "A truss of rods: a tower nailed to the ground and a boom, holding a load on a rope of rods that swings. "
        "The triangulated truss stays rigid; its base rod and nails are redundant constraints.";
    s.settings.integrator = "rk4";
    s.settings.substeps = 4;
    s.settings.integratorSubsteps = {{"euler", 64}};  // explicit Euler blows up at 4 and bends the truss at 16
    constexpr int levels = 4;
    std::array<Index, levels + 1> left{}, right{};
    for (int k = 0; k <= levels; ++k) {
        left[k] = addParticle(s, {-0.5, -2.0 + k, 0.0}, 0.5);
        right[k] = addParticle(s, {0.5, -2.0 + k, 0.0}, 0.5);
        addRod(s, left[k], right[k]);
        if (k > 0) {
            addRod(s, left[k - 1], left[k]);
            addRod(s, right[k - 1], right[k]);
            addRod(s, left[k - 1], right[k]);
        }
    }
    addNail(s, left[0]);
    addNail(s, right[0]);
    // The boom: a lower chord from the tower's top right corner and an upper chord above it.
    std::array<Index, 4> lower{right[levels], 0, 0, 0};
    std::array<Index, 3> upper{};
    for (int i = 0; i < 3; ++i) upper[i] = addParticle(s, {0.5 + i, 2.6, 0.0}, 0.5);
    for (int i = 1; i < 4; ++i) lower[i] = addParticle(s, {0.5 + i, 2.0, 0.0}, 0.5);
    addRod(s, upper[0], left[levels]);
    for (int i = 0; i < 3; ++i) {
        addRod(s, lower[i], lower[i + 1]);
        addRod(s, lower[i], upper[i]);
        addRod(s, upper[i], lower[i + 1]);
        if (i + 1 < 3) addRod(s, upper[i], upper[i + 1]);
    }
    // The load: a rope of rods from the boom's tip, pulled aside.
    Index previous = lower[3];
    for (int i = 1; i <= 4; ++i) {
        const Index next = addParticle(s, {3.5 + 0.25 * i, 2.0 - 0.45 * i, 0.0}, i == 4 ? 3.0 : 0.2);
        addRod(s, previous, next);
        previous = next;
    }
    return s;
}

constexpr std::array kExamples = {
    ExampleScene{"Springs", "spring-oscillator", springOscillator},
    ExampleScene{"Springs", "hanging-chain", hangingChain},
    ExampleScene{"Springs", "stiff-spring", stiffSpring},
    ExampleScene{"Cloth", "cloth", cloth},
    ExampleScene{"Contact", "bouncing-particles", bouncingParticles},
    ExampleScene{"Constraints", "bead-on-wire", beadOnWire},
    ExampleScene{"Constraints", "double-pendulum", doublePendulum},
    ExampleScene{"Constraints", "triple-pendulum", triplePendulum},
    ExampleScene{"Constraints", "slider-pendulum", sliderPendulum},
    ExampleScene{"Constraints", "rope-bridge", ropeBridge},
    ExampleScene{"Constraints", "truss", truss},
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
