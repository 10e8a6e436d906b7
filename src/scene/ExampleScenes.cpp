#include "scene/ExampleScenes.h"

#include <array>
#include <cmath>
#include <numbers>
#include <string>

#include "core/bodies/RigidBodies.h"
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
        "The stiff test equation x' = -kx of the SIGGRAPH 2001 notes made a spring: a 50 g mass on a 2000 N/m spring "
        "(period 31 ms) beside a "
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
        s.particles[deck[i]].velocity =
            Vec3(0.0, 1.5 * std::sin(std::numbers::pi * (x + 3.0) / 6.0) * (1.0 + x / 6.0), 0.0);
    }
    for (int i = 0; i < segments; ++i) {
        addRod(s, cable[i], cable[i + 1]);
        addRod(s, deck[i], deck[i + 1]);
    }
    for (Index end : {cable.front(), cable.back(), deck.front(), deck.back()}) addNail(s, end);
    for (int i = 1; i < segments; ++i) addSpring(s, cable[i], deck[i], 300.0, 1.0);
    // Rods do not stretch: keep the part of the push they allow (J v = 0, Witkin, Constrained Dynamics, SIGGRAPH 2001
    // notes).
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

Index addBody(Scene& scene, const RigidBodySpec& body) {
    scene.bodies.push_back(body);
    return static_cast<Index>(scene.bodies.size()) - 1;
}

// A point of a body, in world coordinates, as the scene places it.
Vec3 worldPoint(const Scene& scene, const Anchor& a) {
    if (a.isParticle()) return scene.particles[a.index()].position;
    const RigidBodySpec& b = scene.bodies[a.index()];
    return b.position + b.orientation * a.point;
}

// A spring at its rest length where the scene places its ends.
void addSpring(Scene& scene, const Anchor& a, const Anchor& b, double stiffness, double damping) {
    scene.springs.push_back({a, b, stiffness, damping, (worldPoint(scene, a) - worldPoint(scene, b)).norm()});
}

// A rotation about z, made unit the way the loader makes it, so that a saved scene
// loads back bit for bit.
Quat turnAboutZ(double angle) { return Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ())).normalized(); }

Scene tumblingBox() {
    Scene s;
    s.name = "Tumbling box";
    s.description =
        "A 1 x 2 x 3 box without gravity, spun about its intermediate axis (the 2 m edge) with a little spin about "
        "the others: the spin is unstable and the box flips over and back again and again (the Dzhanibekov "
        "effect), while its angular momentum and energy stay constant.";
    s.settings.gravity = Vec3::Zero();
    s.settings.integrator = "rk4";
    s.settings.substeps = 4;
    RigidBodySpec box;
    box.shape = BoxShape{Vec3(1.0, 2.0, 3.0)};
    box.mass = 1.0;
    box.position = Vec3(0.0, 0.5, 0.0);
    // About y at 4 rad/s: the perturbation grows as exp(lambda t), lambda = 4 sqrt((I1 - I2)(I2 - I3) / (I1 I3))
    // = 1.9 /s for moments 13/12, 10/12, 5/12 (Landau and Lifshitz, Mechanics, section 37): the first flip
    // comes after about 3 s, then one every 8 s or so.
    box.angularVelocity = Vec3(0.01, 4.0, 0.01);
    addBody(s, box);
    return s;
}

Scene spinningTop() {
    Scene s;
    s.name = "Spinning top";
    s.description =
        "A top (the convex hull of a cone and a cap) on a ball joint at its tip, spinning fast, tilted 20 degrees: "
        "gravity's torque turns its angular momentum, so the top precesses about the vertical instead of falling.";
    s.settings.integrator = "rk4";
    s.settings.substeps = 8;
    s.settings.integratorSubsteps = {{"euler", 256}};
    RigidBodySpec pedestal;
    std::get<BoxShape>(pedestal.shape).size = Vec3(0.3, 0.3, 0.3);  // the default shape is a box
    pedestal.position = Vec3(0.0, -0.15, 0.0);
    pedestal.fixed = true;
    const Index base = addBody(s, pedestal);

    // The tip is the shape frame's origin; the axis of symmetry is y.
    ConvexShape hull{{Vec3::Zero(), Vec3(0.0, 0.5, 0.0)}};
    constexpr int kAround = 12;
    for (int i = 0; i < kAround; ++i) {
        const double phi = 2.0 * std::numbers::pi * i / kAround;
        const Vec3 around(std::cos(phi), 0.0, std::sin(phi));
        hull.points.push_back(Vec3(0.0, 0.35, 0.0) + 0.25 * around);
        hull.points.push_back(Vec3(0.0, 0.45, 0.0) + 0.17 * around);
    }
    RigidBodySpec top;
    top.shape = hull;
    top.mass = 0.5;
    top.orientation = turnAboutZ(-0.35);
    const Vec3 axis = top.orientation * Vec3::UnitY();
    // Spin about the axis, plus the slow precession of a fast top, Omega = m g d / (I3 omega)
    // (Goldstein, Classical Mechanics, 3rd ed., section 5.7, the heavy symmetrical top), so that it
    // starts close to steady precession and nutates little.
    const RigidBodyMass mass = rigidBodyMass(top);
    const double spin = 150.0;
    const double precession = mass.mass * 9.81 * mass.centerOfMass.norm() / (mass.inertia(1, 1) * spin);
    top.angularVelocity = spin * axis + precession * Vec3::UnitY();
    const Index topBody = addBody(s, top);
    s.constraints.push_back(PinSpec{Anchor::onBody(topBody, Vec3::Zero()), Anchor::onBody(base, Vec3(0.0, 0.15, 0.0))});
    // The tip stays put: the centre of mass moves with omega x (its offset from the tip).
    s.bodies[topBody].velocity = top.angularVelocity.cross(top.orientation * mass.centerOfMass);
    return s;
}

Scene boxChain() {
    BoxChainOptions o;
    o.angle = 0.25 * std::numbers::pi;
    Scene s = makeBoxChain(o);
    s.name = "Box chain";
    s.description =
        "Eight boxes joined end to end by ball joints, hanging from a nail, released 45 degrees from the vertical with "
        "a "
        "push out of the plane: the chain swings and folds in 3D.";
    s.settings.integrator = "rk4";
    s.settings.substeps = 8;
    s.settings.integratorSubsteps = {{"euler", 256}};  // explicit Euler gains 1 % of the energy in 20 s at 256
    // The push: the straight chain turning rigidly about the vertical through the nail,
    // which every joint allows.
    const Vec3 push(0.0, 0.5, 0.0);
    for (RigidBodySpec& b : s.bodies) {
        b.velocity = push.cross(b.position - o.pivot);
        b.angularVelocity = push;
    }
    return s;
}

Scene wreckingBall() {
    Scene s;
    s.name = "Wrecking ball";
    s.description =
        "A 540 kg sphere (density 2000 kg/m^3) on a 2.5 m rod from a fixed beam, pulled 60 degrees aside and "
        "pushed sideways: it swings as a spherical pendulum, turning as it goes.";
    s.settings.integrator = "rk4";
    s.settings.substeps = 4;
    s.settings.integratorSubsteps = {{"euler", 256}};
    RigidBodySpec beam;
    beam.shape = BoxShape{Vec3(2.0, 0.2, 0.2)};
    beam.position = Vec3(0.0, 3.0, 0.0);
    beam.fixed = true;
    const Index beamBody = addBody(s, beam);
    const Anchor hook = Anchor::onBody(beamBody, Vec3(0.0, -0.1, 0.0));
    constexpr double kRod = 2.5, kRadius = 0.4, kAngle = std::numbers::pi / 3.0;
    RigidBodySpec ball;
    ball.shape = SphereShape{kRadius};
    ball.density = 2000.0;
    ball.mass = 0.0;
    // Turned so that the point the rod holds, the top of the sphere in its own frame, faces the hook.
    ball.orientation = turnAboutZ(kAngle);
    const Vec3 down(std::sin(kAngle), -std::cos(kAngle), 0.0);
    ball.position = worldPoint(s, hook) + (kRod + kRadius) * down;
    ball.velocity = Vec3(0.0, 0.0, 2.0);
    const Index ballBody = addBody(s, ball);
    s.constraints.push_back(RodSpec{hook, Anchor::onBody(ballBody, Vec3(0.0, kRadius, 0.0)), kRod});
    return s;
}

Scene seesaw() {
    Scene s;
    s.name = "Seesaw";
    s.description =
        "A planar seesaw: a plank on a hinge at the tip of a fixed wedge, a box hanging on a spring from one end "
        "and a lighter particle from the other, and soft springs to the ground under both ends. Released with "
        "every spring at its rest length, the weights bounce and the plank rocks.";
    s.settings.planar = true;
    s.settings.integrator = "rk4";
    s.settings.substeps = 4;
    s.settings.integratorSubsteps = {{"euler", 64}};
    ConvexShape prism;
    for (double z : {-0.2, 0.2})
        for (const Vec3& p : {Vec3(-0.4, -0.8, z), Vec3(0.4, -0.8, z), Vec3(0.0, 0.0, z)}) prism.points.push_back(p);
    // Made with its shape (GCC 12 warns of an uninitialized vector when a default-made body's
    // shape is assigned a hull).
    const Index wedgeBody = addBody(s, RigidBodySpec{.shape = std::move(prism), .fixed = true});
    RigidBodySpec ground;
    ground.shape = BoxShape{Vec3(5.0, 0.2, 0.4)};
    ground.position = Vec3(0.0, -0.9, 0.0);
    ground.fixed = true;
    const Index groundBody = addBody(s, ground);
    RigidBodySpec plank;
    plank.shape = BoxShape{Vec3(4.0, 0.1, 0.4)};
    plank.mass = 4.0;
    const Index plankBody = addBody(s, plank);
    s.constraints.push_back(HingeSpec{Anchor::onBody(plankBody, Vec3::Zero()), Anchor::onBody(wedgeBody, Vec3::Zero()),
                                      Vec3::UnitZ(), Vec3::UnitZ()});
    RigidBodySpec weight;
    weight.shape = BoxShape{Vec3(0.3, 0.3, 0.3)};
    weight.mass = 1.5;
    weight.position = Vec3(-1.8, -0.35, 0.0);
    const Index weightBody = addBody(s, weight);
    addSpring(s, Anchor::onBody(plankBody, Vec3(-1.8, -0.05, 0.0)), Anchor::onBody(weightBody, Vec3(0.0, 0.15, 0.0)),
              60.0, 0.2);
    const Index particle = addParticle(s, Vec3(1.8, -0.3, 0.0));
    addSpring(s, Anchor::onBody(plankBody, Vec3(1.8, -0.05, 0.0)), particle, 60.0, 0.2);
    for (double x : {-1.95, 1.95})
        addSpring(s, Anchor::onBody(plankBody, Vec3(x, -0.05, 0.0)), Anchor::onBody(groundBody, Vec3(x, 0.1, 0.0)),
                  40.0, 0.5);
    return s;
}

// Contact scenes step with symplectic Euler: one force evaluation per substep, and the
// contact model corrects velocities after each step, which it keeps as it left them.
void useContactSettings(Scene& s, int substeps) {
    s.settings.integrator = "symplectic-euler";
    s.settings.dt = 1.0 / 60.0;
    s.settings.substeps = substeps;
}

// A ground at y = 0 that does not bounce.
Plane ground(double friction = 0.5) { return Plane{Vec3::Zero(), Vec3::UnitY(), 0.0, friction}; }

RigidBodySpec boxBody(const Vec3& size, const Vec3& position, double mass = 1.0) {
    RigidBodySpec b;
    b.shape = BoxShape{size};
    b.mass = mass;
    b.position = position;
    return b;
}

RigidBodySpec fixedBox(const Vec3& size, const Vec3& position, double angle = 0.0) {
    RigidBodySpec b = boxBody(size, position);
    b.orientation = turnAboutZ(angle);
    b.fixed = true;
    return b;
}

RigidBodySpec sphereBody(double radius, const Vec3& position, double mass) {
    RigidBodySpec b;
    b.shape = SphereShape{radius};
    b.mass = mass;
    b.position = position;
    return b;
}

Scene boxStack() {
    Scene s = makeBoxStack(10);
    s.name = "Box stack";
    s.description =
        "Ten unit cubes stacked on the ground, at rest: resting contact must carry the weight of everything "
        "above each box without the stack sinking, jittering or sliding apart.";
    return s;
}

Scene pyramid() {
    Scene s = makePyramid(PyramidOptions{});
    s.name = "Pyramid";
    s.description =
        "210 unit cubes in a pyramid standing on the ground (rows of 20 down to 1, each row offset by half a box): "
        "many simultaneous resting contacts; the pyramid should stand still.";
    return s;
}

Scene dominoes() {
    Scene s;
    s.name = "Dominoes";
    s.description =
        "Fifteen thin tall boxes in a row, the first tipped 15 degrees onto its front edge, past the point where "
        "it falls: each one knocks over the next, and the row falls in a wave.";
    useContactSettings(s, 4);
    s.planes.push_back(ground());
    constexpr int kCount = 15;
    constexpr double kSpacing = 0.4, kThickness = 0.08, kHeight = 0.8, kWidth = 0.4;
    const Vec3 size(kThickness, kHeight, kWidth);
    for (int i = 0; i < kCount; ++i) addBody(s, boxBody(size, Vec3(i * kSpacing, 0.5 * kHeight, 0.0), 0.2));
    // The first one turned clockwise about its front bottom edge, which stays on the ground.
    constexpr double kTip = 15.0 * std::numbers::pi / 180.0;
    RigidBodySpec& first = s.bodies.front();
    first.orientation = turnAboutZ(-kTip);
    const Vec3 frontEdge(0.5 * kThickness, 0.0, 0.0);
    first.position = frontEdge + first.orientation * Vec3(-0.5 * kThickness, 0.5 * kHeight, 0.0);
    return s;
}

Scene newtonsCradle() {
    Scene s;
    s.name = "Newton's cradle";
    s.description =
        "Five balls touching in a row, each hung on two rods from a fixed beam so that it swings in one plane, "
        "with restitution 1 and no friction. The first is pulled out 40 degrees and let go: on impact the "
        "momentum passes through the row and the last ball flies out.";
    useContactSettings(s, 8);
    constexpr double kRadius = 0.1, kHang = 1.0, kSpread = 0.3, kPull = 40.0 * std::numbers::pi / 180.0;
    const Index beam = addBody(s, fixedBox(Vec3(1.4, 0.05, 2.0 * kSpread + 0.1), Vec3(0.0, kHang + 0.025, 0.0)));
    for (int i = 0; i < 5; ++i) {
        const double x = 2.0 * kRadius * (i - 2);
        // Each ball turns about the line through its two suspension points (x, kHang, +-kSpread).
        const double angle = i == 0 ? kPull : 0.0;
        RigidBodySpec ball =
            sphereBody(kRadius, Vec3(x - kHang * std::sin(angle), kHang - kHang * std::cos(angle), 0.0), 0.5);
        ball.friction = 0.0;
        ball.restitution = 1.0;
        const Index k = addBody(s, ball);
        for (double z : {-kSpread, kSpread}) {
            const Anchor top = Anchor::onBody(beam, Vec3(x, -0.025, z));
            const Anchor centre = Anchor::onBody(k, Vec3::Zero());
            s.constraints.push_back(RodSpec{top, centre, (worldPoint(s, top) - worldPoint(s, centre)).norm()});
        }
    }
    return s;
}

Scene slidingBox() {
    Scene s;
    s.name = "Sliding box";
    s.description =
        "A unit cube sent along the ground at 1 m/s, friction 0.3 on both surfaces: Coulomb friction decelerates "
        "it at 0.3 g, so it stops after v^2 / (2 mu g) = 0.17 m, in v / (mu g) = 0.34 s.";
    useContactSettings(s, 4);
    s.planes.push_back(ground(0.3));
    RigidBodySpec box = boxBody(Vec3::Ones(), Vec3(0.0, 0.5, 0.0));
    box.velocity = Vec3(1.0, 0.0, 0.0);
    box.friction = 0.3;
    box.restitution = 0.0;
    addBody(s, box);
    return s;
}

Scene incline() {
    Scene s;
    s.name = "Box on an incline";
    s.description =
        "A box at rest on a 30 degree slope (a fixed box), friction 0.7 on both: static friction holds it, "
        "since tan 30 = 0.58 < 0.7. Lower the friction below 0.58 and it slides.";
    useContactSettings(s, 4);
    s.planes.push_back(Plane{Vec3(0.0, -2.0, 0.0), Vec3::UnitY(), 0.0, 0.5});
    constexpr double kAngle = 30.0 * std::numbers::pi / 180.0, kThickness = 0.4, kBox = 0.5;
    RigidBodySpec slope = fixedBox(Vec3(6.0, kThickness, 2.0), Vec3::Zero(), kAngle);
    slope.friction = 0.7;
    addBody(s, slope);
    const Vec3 along = slope.orientation * Vec3::UnitX(), up = slope.orientation * Vec3::UnitY();
    RigidBodySpec box = boxBody(Vec3::Constant(kBox), (0.5 * kThickness + 0.5 * kBox) * up + 1.0 * along);
    box.orientation = slope.orientation;
    box.friction = 0.7;
    box.restitution = 0.0;
    addBody(s, box);
    return s;
}

Scene marbles() {
    Scene s;
    s.name = "Marbles";
    s.description =
        "Twenty balls and thirty particles poured into an open box made of five fixed boxes: they bounce off the "
        "walls and each other and settle in a heap.";
    useContactSettings(s, 4);
    s.planes.push_back(ground());
    constexpr double kInside = 1.6, kWall = 0.1, kHeight = 0.8;
    addBody(s, fixedBox(Vec3(kInside + 2.0 * kWall, kWall, kInside + 2.0 * kWall), Vec3(0.0, 0.5 * kWall, 0.0)));
    const double wallY = kWall + 0.5 * kHeight, offset = 0.5 * (kInside + kWall);
    addBody(s, fixedBox(Vec3(kWall, kHeight, kInside + 2.0 * kWall), Vec3(-offset, wallY, 0.0)));
    addBody(s, fixedBox(Vec3(kWall, kHeight, kInside + 2.0 * kWall), Vec3(offset, wallY, 0.0)));
    addBody(s, fixedBox(Vec3(kInside, kHeight, kWall), Vec3(0.0, wallY, -offset)));
    addBody(s, fixedBox(Vec3(kInside, kHeight, kWall), Vec3(0.0, wallY, offset)));
    // A stream falling from above the box, spread on a slanted grid so that nothing starts
    // on top of anything else.
    for (int i = 0; i < 50; ++i) {
        const double angle = 2.39996 * i;  // the golden angle: an even, non-repeating spread
        const double r = 0.1 + 0.5 * std::sqrt(i / 50.0);
        const Vec3 at(r * std::cos(angle), 1.5 + 0.12 * i, r * std::sin(angle));
        if (i % 5 < 2) {
            RigidBodySpec ball = sphereBody(0.1, at, 0.2);
            ball.restitution = 0.5;
            addBody(s, ball);
        } else {
            s.particles.push_back({at, Vec3::Zero(), 0.05, false});
        }
    }
    return s;
}

Scene tinkertoyCar() {
    Scene s;
    s.name = "Tinkertoy car";
    s.description =
        "A flat car: a box on two wheels (spheres on hinges about z) set on a 15 degree slope made of a fixed box. "
        "Friction turns the wheels, and the car rolls down onto the ground.";
    useContactSettings(s, 8);
    s.settings.planar = true;
    s.planes.push_back(Plane{Vec3(0.0, -1.6, 0.0), Vec3::UnitY(), 0.0, 0.8});
    constexpr double kAngle = -15.0 * std::numbers::pi / 180.0, kThickness = 0.4, kRadius = 0.25;
    const RigidBodySpec slope = fixedBox(Vec3(8.0, kThickness, 1.0), Vec3::Zero(), kAngle);
    addBody(s, slope);
    const Vec3 along = slope.orientation * Vec3::UnitX(), up = slope.orientation * Vec3::UnitY();
    // The car's frame: on the slope, 2.5 m up it from the middle.
    const Vec3 axle = (0.5 * kThickness + kRadius) * up - 2.5 * along;
    const Vec3 chassisOffset(0.0, 0.2, 0.0);
    RigidBodySpec chassis = boxBody(Vec3(1.2, 0.2, 0.4), axle + slope.orientation * chassisOffset, 2.0);
    chassis.orientation = slope.orientation;
    const Index body = addBody(s, chassis);
    for (double x : {-0.45, 0.45}) {
        RigidBodySpec wheel = sphereBody(kRadius, axle + x * along, 0.5);
        wheel.friction = 1.0;
        wheel.restitution = 0.0;
        const Index w = addBody(s, wheel);
        s.constraints.push_back(HingeSpec{Anchor::onBody(body, Vec3(x, 0.0, 0.0) - chassisOffset),
                                          Anchor::onBody(w, Vec3::Zero()), Vec3::UnitZ(), Vec3::UnitZ()});
    }
    return s;
}

// Cloth and hair made of energies: triangles with stretch, shear and bend (Baraff and
// Witkin, Large Steps in Cloth Simulation), strands with angular springs. A cloth's
// material constants are per unit area, so the same material at another resolution
// behaves the same.

void useClothSettings(Scene& s, int substeps) {
    s.settings.integrator = "implicit-euler";
    s.settings.dt = 1.0 / 60.0;
    s.settings.substeps = substeps;
}

Scene clothDrape() {
    Scene s;
    s.name = "Cloth drape";
    s.description =
        "A 64 x 64 triangle cloth (stretch, shear and bending energies) falls on a fixed ball and drapes over it "
        "onto the ground; the ball and the ground push the cloth's particles out with the contact model.";
    useClothSettings(s, 2);
    s.planes.push_back(ground());
    RigidBodySpec ball = sphereBody(0.45, Vec3(0.0, 0.45, 0.0), 1.0);
    ball.fixed = true;
    addBody(s, ball);
    TriangleClothOptions o;
    o.columns = o.rows = 64;
    o.corner = Vec3(-0.8, 1.2, -0.8);
    o.u = Vec3(1.6, 0.0, 0.0);
    o.v = Vec3(0.0, 0.0, 1.6);
    o.material = cotton();
    addTriangleCloth(s, o);
    return s;
}

Scene flag() {
    Scene s;
    s.name = "Flag";
    s.description =
        "A flag of triangle energies nailed along its edge at the pole, in an 8 m/s wind with turbulence: drag on "
        "each triangle from the air's velocity relative to it, strong along its normal, weak along its face.";
    useClothSettings(s, 2);
    TriangleClothOptions o;
    o.columns = 36;
    o.rows = 24;
    o.corner = Vec3(-0.9, 1.2, 0.0);
    o.u = Vec3(1.5, 0.0, 0.0);
    o.v = Vec3(0.0, 1.0, 0.0);
    o.material = cotton();
    o.density = 0.15;
    const Index first = addTriangleCloth(s, o);
    // A slight ripple across the wind, so that the flag starts out of its plane (and the app shows it in 3D).
    for (int j = 0; j < o.rows; ++j)
        for (int i = 0; i < o.columns; ++i)
            s.particles[first + j * o.columns + i].position.z() = 0.02 * std::sin(std::numbers::pi * i / 6.0);
    for (int j = 0; j < o.rows; ++j) s.particles[first + j * o.columns].nailed = true;
    WindSettings wind;
    wind.velocity = Vec3(8.0, 0.0, 0.0);
    wind.turbulence = 3.0;
    wind.drag = 1.0;
    wind.tangentialDrag = 0.3;
    wind.scale = 1.0;
    wind.frequency = 1.5;
    wind.seed = 7;
    s.fields.push_back(wind);
    return s;
}

// A cotton cloth standing in the z = 0 plane, width x height, centred on x = 0 with its
// lower edge at height `bottom`.
TriangleClothOptions uprightCotton(int columns, int rows, double width, double height, double bottom) {
    TriangleClothOptions o;
    o.columns = columns;
    o.rows = rows;
    o.corner = Vec3(-0.5 * width, bottom, 0.0);
    o.u = Vec3(width, 0.0, 0.0);
    o.v = Vec3(0.0, height, 0.0);
    o.material = cotton();
    return o;
}

Scene curtain() {
    Scene s;
    s.name = "Curtain";
    s.description =
        "A curtain of triangle energies gathered on its rail: its top edge is nailed in folds over 60 % of its "
        "width, and bending keeps the folds soft. A light breeze stirs it.";
    useClothSettings(s, 2);
    s.planes.push_back(ground());
    constexpr double kHeight = 1.8;
    const TriangleClothOptions o = uprightCotton(48, 40, 2.0, kHeight, 2.0 - kHeight);
    const Index first = addTriangleCloth(s, o);
    // Gathered: every column at 60 % of its x, in waves of 8 columns along z.
    for (int j = 0; j < o.rows; ++j)
        for (int i = 0; i < o.columns; ++i) {
            ParticleInit& p = s.particles[first + j * o.columns + i];
            const double phase = 2.0 * std::numbers::pi * i / 8.0;
            p.position.x() *= 0.6;
            p.position.z() = 0.08 * std::sin(phase);
            p.nailed = j == o.rows - 1;
        }
    WindSettings breeze;
    breeze.velocity = Vec3(0.0, 0.0, 0.6);
    breeze.turbulence = 0.8;
    breeze.drag = 0.2;
    breeze.scale = 1.5;
    breeze.frequency = 0.3;
    breeze.seed = 3;
    s.fields.push_back(breeze);
    return s;
}

Scene clothHeap() {
    Scene s;
    s.name = "Cloth heap";
    s.description =
        "A 32 x 32 triangle cloth let fall from upright onto the ground: it folds onto itself in layers, kept "
        "apart by self collision (its particles collide as spheres 3 cm across, except those a triangle or a "
        "hinge joins). Turn self collision off (Shift+K, or the Solver panel) to see the layers pass through each "
        "other.";
    useClothSettings(s, 4);
    s.settings.contact.selfCollisionThickness = 0.03;
    s.planes.push_back(ground());
    const TriangleClothOptions o = uprightCotton(32, 32, 1.2, 1.2, 0.02);
    const Index first = addTriangleCloth(s, o);
    // Waves across it, deeper towards the top, so that it buckles and folds as it lands.
    for (int j = 0; j < o.rows; ++j)
        for (int i = 0; i < o.columns; ++i) {
            const double height = static_cast<double>(j) / (o.rows - 1);
            s.particles[first + j * o.columns + i].position.z() =
                0.06 * height * std::sin(2.0 * std::numbers::pi * i / 13.0) + 0.15 * height * height;
        }
    return s;
}

Scene hairBall(bool curly) {
    Scene s;
    s.settings.integrator = "implicit-euler";
    s.settings.substeps = 2;
    RigidBodySpec head = sphereBody(0.3, Vec3(0.0, 1.0, 0.0), 1.0);
    head.fixed = true;
    addBody(s, head);
    s.planes.push_back(ground());
    HairOptions o;
    o.center = head.position;
    o.radius = 0.3;
    if (curly) {
        o.length = 24;
        o.segment = 0.012;
        o.curl = 0.02;
        o.rootParticles = 3;
        o.material.twist = 4e-5;
        o.material.bend = 4e-5;
    }
    addHair(s, o);
    return s;
}

Scene hair() {
    Scene s = hairBall(false);
    s.name = "Hair";
    s.description =
        "100 strands of 12 particles rooted on a fixed ball, each joint an angular spring: they fall over the ball "
        "and hang, bent at the roots by their weight.";
    return s;
}

Scene curlyHair() {
    Scene s = hairBall(true);
    s.name = "Curly hair";
    s.description =
        "100 curly strands on a fixed ball: the rest angle of every joint and the twist between consecutive joints "
        "keep each helix curled while gravity stretches it.";
    return s;
}

// The scenes of Schmidl, Optimization-Based Animation, PhD thesis, Univ. of Miami 2002,
// chapter 7, under the contact model "oba" at one step of 1/30 s per frame, as there.
void useObaSettings(Scene& s) {
    s.settings.integrator = "symplectic-euler";
    s.settings.contactModel = "oba";
    s.settings.dt = 1.0 / 30.0;
    s.settings.substeps = 1;
}

Scene cubeStack10() {
    Scene s = makeCubeStack(10);
    s.name = "Cube stack (oba)";
    s.description =
        "Ten unit cubes dropped onto each other from 1 cm apart, each turned a little, under the optimization-based "
        "contact model: the position update keeps them apart, and once at rest they freeze (drawn tinted) until "
        "something hits them.";
    return s;
}

Scene cubeJam100() {
    Scene s = makeCubeJam(100);
    s.name = "Cube jam (oba)";
    s.description =
        "A hundred cubes of 0.4 m poured into a box of five fixed boxes under the optimization-based contact "
        "model: they land, jam and settle, and the settled ones freeze.";
    return s;
}

Scene pendulum6() {
    Scene s = makePendulum(6);
    s.name = "Six-link pendulum (oba)";
    s.description =
        "Six boxes pinned end to end, hung from a nail and let go from the horizontal, above a ground they swing "
        "close to, under the optimization-based contact model.";
    return s;
}

constexpr std::array kExamples = {
    ExampleScene{"Springs", "spring-oscillator", springOscillator},
    ExampleScene{"Springs", "hanging-chain", hangingChain},
    ExampleScene{"Springs", "stiff-spring", stiffSpring},
    ExampleScene{"Cloth", "cloth", cloth},
    ExampleScene{"Cloth & hair", "cloth-drape", clothDrape},
    ExampleScene{"Cloth & hair", "flag", flag},
    ExampleScene{"Cloth & hair", "curtain", curtain},
    ExampleScene{"Cloth & hair", "cloth-heap", clothHeap},
    ExampleScene{"Cloth & hair", "hair", hair},
    ExampleScene{"Cloth & hair", "curly-hair", curlyHair},
    ExampleScene{"Contact", "bouncing-particles", bouncingParticles},
    ExampleScene{"Contact", "box-stack", boxStack},
    ExampleScene{"Contact", "pyramid", pyramid},
    ExampleScene{"Contact", "dominoes", dominoes},
    ExampleScene{"Contact", "newtons-cradle", newtonsCradle},
    ExampleScene{"Contact", "sliding-box", slidingBox},
    ExampleScene{"Contact", "incline", incline},
    ExampleScene{"Contact", "marbles", marbles},
    ExampleScene{"Contact", "tinkertoy-car", tinkertoyCar},
    ExampleScene{"Contact", "cube-stack-10", cubeStack10},
    ExampleScene{"Contact", "cube-jam-100", cubeJam100},
    ExampleScene{"Contact", "pendulum-6", pendulum6},
    ExampleScene{"Constraints", "bead-on-wire", beadOnWire},
    ExampleScene{"Constraints", "double-pendulum", doublePendulum},
    ExampleScene{"Constraints", "triple-pendulum", triplePendulum},
    ExampleScene{"Constraints", "slider-pendulum", sliderPendulum},
    ExampleScene{"Constraints", "rope-bridge", ropeBridge},
    ExampleScene{"Constraints", "truss", truss},
    ExampleScene{"Rigid bodies", "tumbling-box", tumblingBox},
    ExampleScene{"Rigid bodies", "spinning-top", spinningTop},
    ExampleScene{"Rigid bodies", "box-chain", boxChain},
    ExampleScene{"Rigid bodies", "wrecking-ball", wreckingBall},
    ExampleScene{"Rigid bodies", "seesaw", seesaw},
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
            s.particles.push_back(
                {{-0.5 * o.size + i * spacing, o.height, -0.5 * o.size + j * spacing}, Vec3::Zero(), mass, pinned});
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

ClothMaterial cotton() {
    return {.stretch = 200.0,
            .shear = 20.0,
            .bend = 2e-4,
            .stretchDamping = 0.5,
            .shearDamping = 0.05,
            .bendDamping = 2e-5};
}

Index addTriangleCloth(Scene& s, const TriangleClothOptions& o) {
    const Index first = static_cast<Index>(s.particles.size());
    const double width = o.u.norm(), height = o.v.norm();
    const double cell = width / (o.columns - 1) * height / (o.rows - 1);
    for (int j = 0; j < o.rows; ++j)
        for (int i = 0; i < o.columns; ++i) {
            s.particles.push_back({o.corner + o.u * (static_cast<double>(i) / (o.columns - 1)) +
                                       o.v * (static_cast<double>(j) / (o.rows - 1)),
                                   Vec3::Zero(), 0.0, false});
        }
    // Lumped masses: a third of each triangle's (density x half a cell) on each corner.
    for (const ClothTriangle& t : gridTriangles(first, o.columns, o.rows, width, height))
        for (const Index p : t.particles) s.particles[p].mass += o.density * 0.5 * cell / 3.0;
    s.cloths.push_back({first, o.columns, o.rows, width, height, o.material, {}});
    return first;
}

Index addHair(Scene& s, const HairOptions& o) {
    std::vector<StrandRoot> roots;
    for (int k = 0; k < o.strands; ++k) {
        // A Fibonacci spiral over the cap y > -0.2 r of the sphere.
        const double y = 1.0 - 1.2 * (k + 0.5) / o.strands;
        const double ring = std::sqrt(std::max(0.0, 1.0 - y * y)), angle = 2.39996 * k;
        roots.push_back({o.center, Vec3(ring * std::cos(angle), y, ring * std::sin(angle)), o.radius + 0.002});
    }
    return addStrands(s, roots, o);
}

Index addStrands(Scene& s, const std::vector<StrandRoot>& roots, const HairOptions& o) {
    const Index first = static_cast<Index>(s.particles.size());
    for (const StrandRoot& root : roots) {
        const Vec3& normal = root.direction;
        // A frame about the normal for the helix.
        const Vec3 side = (std::abs(normal.y()) < 0.9 ? Vec3::UnitY() : Vec3::UnitX()).cross(normal).normalized();
        const Vec3 other = normal.cross(side);
        for (int p = 0; p < o.length; ++p) {
            const double phi = 2.0 * std::numbers::pi * p / o.turn;
            const Vec3 coil = o.curl * (std::cos(phi) * side + std::sin(phi) * other - side);
            const Vec3 x = root.origin + normal * (root.start + o.segment * p) + coil;
            s.particles.push_back({x, Vec3::Zero(), o.particleMass, p < o.rootParticles});
        }
    }
    s.hair.push_back({first, static_cast<int>(roots.size()), o.length, o.material, {}, {}});
    return first;
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

Scene makeBoxChain(const BoxChainOptions& o) {
    Scene s;
    s.name = "Box chain of " + std::to_string(o.links);
    const Quat orientation = turnAboutZ(o.angle);
    const Vec3 down = orientation * -Vec3::UnitY();
    const Vec3 spin = o.spin * Vec3::UnitZ();
    const Vec3 top(0.0, 0.5 * o.linkLength, 0.0), bottom = -top;  // the joints, in a box's frame
    for (int i = 0; i < o.links; ++i) {
        RigidBodySpec box;
        box.shape = BoxShape{Vec3(o.width, o.linkLength, o.width)};
        box.mass = o.linkMass;
        box.orientation = orientation;
        box.position = o.pivot + (i + 0.5) * o.linkLength * down;
        box.velocity = spin.cross(box.position - o.pivot);
        box.angularVelocity = spin;
        const Index k = addBody(s, box);
        if (i == 0) s.constraints.push_back(NailSpec{Anchor::onBody(k, top), o.pivot});
        else s.constraints.push_back(PinSpec{Anchor::onBody(k - 1, bottom), Anchor::onBody(k, top)});
    }
    return s;
}

Scene makeBoxStack(int count) {
    Scene s;
    s.name = "Stack of " + std::to_string(count);
    useContactSettings(s, 4);
    s.planes.push_back(ground());
    for (int i = 0; i < count; ++i) addBody(s, boxBody(Vec3::Ones(), Vec3(0.0, 0.5 + i, 0.0)));
    return s;
}

Scene makeCubeStack(int count) {
    Scene s;
    s.name = "Cube stack of " + std::to_string(count);
    useObaSettings(s);
    s.planes.push_back(ground());
    for (int i = 0; i < count; ++i) {
        RigidBodySpec cube = boxBody(Vec3::Ones(), Vec3(0.0, 0.5 + 1.01 * i, 0.0));
        cube.orientation = Quat(Eigen::AngleAxisd(0.1 * i, Vec3::UnitY())).normalized();
        cube.restitution = 0.1;
        addBody(s, cube);
    }
    return s;
}

Scene makeCubeJam(int count) {
    Scene s;
    s.name = "Cube jam of " + std::to_string(count);
    useObaSettings(s);
    s.planes.push_back(ground());
    constexpr double kInside = 3.0, kWall = 0.2, kHeight = 1.6, kCube = 0.4, kPitch = 0.7;
    addBody(s, fixedBox(Vec3(kInside + 2.0 * kWall, kWall, kInside + 2.0 * kWall), Vec3(0.0, 0.5 * kWall, 0.0)));
    const double wallY = kWall + 0.5 * kHeight, offset = 0.5 * (kInside + kWall);
    addBody(s, fixedBox(Vec3(kWall, kHeight, kInside + 2.0 * kWall), Vec3(-offset, wallY, 0.0)));
    addBody(s, fixedBox(Vec3(kWall, kHeight, kInside + 2.0 * kWall), Vec3(offset, wallY, 0.0)));
    addBody(s, fixedBox(Vec3(kInside, kHeight, kWall), Vec3(0.0, wallY, -offset)));
    addBody(s, fixedBox(Vec3(kInside, kHeight, kWall), Vec3(0.0, wallY, offset)));
    // Poured: layers of 4 x 4 above the box, each cube turned its own way.
    for (int i = 0; i < count; ++i) {
        const int layer = i / 16, row = (i / 4) % 4, column = i % 4;
        const Vec3 at(kPitch * (column - 1.5) + 0.05 * (layer % 2), kWall + 0.5 + kPitch * layer,
                      kPitch * (row - 1.5) - 0.05 * (layer % 2));
        RigidBodySpec cube = boxBody(Vec3::Constant(kCube), at, 0.5);
        cube.orientation = Quat(Eigen::AngleAxisd(0.37 * i, Vec3::Unit(i % 3))).normalized();
        cube.restitution = 0.2;
        addBody(s, cube);
    }
    return s;
}

Scene makePendulum(int links) {
    BoxChainOptions o;
    o.links = links;
    o.linkLength = 0.4;
    o.width = 0.1;
    o.linkMass = 1.0;
    o.pivot = Vec3(0.0, 0.2 + links * o.linkLength, 0.0);
    o.angle = 0.5 * std::numbers::pi;
    Scene s = makeBoxChain(o);
    s.name = "Pendulum of " + std::to_string(links);
    useObaSettings(s);
    // The joints need shorter steps than the thesis's frame: 8 substeps of it (the contact
    // model runs after each).
    s.settings.substeps = 8;
    s.planes.push_back(ground());
    return s;
}

Scene makePyramid(const PyramidOptions& o) {
    Scene s;
    s.name = "Pyramid of " + std::to_string(o.base * (o.base + 1) / 2);
    useContactSettings(s, 4);
    s.settings.planar = o.planar;
    s.planes.push_back(ground());
    const double pitch = 1.0 + o.gap;
    for (int row = 0; row < o.base; ++row) {
        const int count = o.base - row;
        const double left = -0.5 * pitch * (count - 1);  // centred on x = 0; each row offset by half a pitch
        for (int i = 0; i < count; ++i) addBody(s, boxBody(Vec3::Ones(), Vec3(left + pitch * i, 0.5 + row, 0.0)));
    }
    return s;
}

}  // namespace tinkerbox
