#include "scene/SceneJson.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <numbers>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>

#include "core/constraints/Constraint.h"
#include "core/contact/ContactModel.h"
#include "scene/ExampleScenes.h"
#include "scene/SceneBuilder.h"

namespace tinkerbox {
namespace {

// A small valid scene, with a hole ($) where a test puts the text under test.
std::string sceneWith(const std::string& particles, const std::string& springs = "[]", const std::string& extra = "") {
    return R"({
  "format": "tinkerbox-scene",
  "version": 1,)" +
           extra + R"(
  "particles": )" +
           particles + R"(,
  "springs": )" +
           springs + R"(
})";
}

const std::string kThreeParticles = R"([
    {"position": [0, 0, 0], "mass": 1},
    {"position": [1, 0, 0], "mass": 2},
    {"position": [1, 1]}
  ])";

SceneError errorOf(const std::string& text) {
    try {
        parseScene(text, "test.json");
    } catch (const SceneError& e) {
        return e;
    }
    ADD_FAILURE() << "no error for:\n" << text;
    return SceneError("", 0, 0, "", "");
}

TEST(SceneJson, ReadsAValidSceneWithDefaults) {
    const Scene s = parseScene(sceneWith(kThreeParticles, R"([{"a": 0, "b": 2, "stiffness": 10}])"));
    ASSERT_EQ(s.particles.size(), 3u);
    EXPECT_EQ(s.particles[1].mass, 2.0);
    EXPECT_EQ(s.particles[2].mass, 1.0);                // default mass
    EXPECT_EQ(s.particles[2].position, Vec3(1, 1, 0));  // [x, y] means z = 0
    EXPECT_EQ(s.particles[0].velocity, Vec3::Zero());   // default velocity
    EXPECT_FALSE(s.particles[0].nailed);                // default
    ASSERT_EQ(s.springs.size(), 1u);
    EXPECT_DOUBLE_EQ(s.springs[0].restLength, std::sqrt(2.0));  // rest length defaults to the current distance
    EXPECT_EQ(s.springs[0].damping, 0.0);
    EXPECT_EQ(s.settings, SimulationSettings{});  // settings default
}

TEST(SceneJson, MalformedJsonNamesLineAndColumn) {
    const SceneError e = errorOf(
        "{\n  \"format\": \"tinkerbox-scene\",\n  \"version\": 1,\n  \"particles\": [ {\"position\": [0, 0, 0]}, ]\n}");
    EXPECT_EQ(e.line(), 4);
    EXPECT_GT(e.column(), 30);
    EXPECT_NE(e.message().find("malformed JSON"), std::string::npos);
    EXPECT_EQ(std::string(e.what()).rfind("test.json:4:", 0), 0u) << e.what();
}

TEST(SceneJson, EmptyFileIsMalformed) { EXPECT_NE(errorOf("").message().find("malformed JSON"), std::string::npos); }

TEST(SceneJson, UnknownKeySuggestsTheNearestOne) {
    const SceneError e = errorOf(sceneWith(R"([{"position": [0, 0, 0]}, {"position": [1, 0, 0], "mas": 2}])"));
    EXPECT_EQ(e.path(), "particles[1].mas");
    EXPECT_NE(e.message().find("unknown key"), std::string::npos);
    EXPECT_NE(e.message().find("did you mean 'mass'"), std::string::npos);
    EXPECT_GT(e.line(), 0);
}

TEST(SceneJson, UnknownTopLevelKeyListsTheValidOnes) {
    const SceneError e = errorOf(sceneWith("[]", "[]", R"( "wibble": 3,)"));
    EXPECT_EQ(e.path(), "wibble");
    EXPECT_NE(e.message().find("expected one of"), std::string::npos);
}

TEST(SceneJson, WrongTypeIsNamed) {
    const SceneError e = errorOf(sceneWith(kThreeParticles, R"([{"a": 0, "b": 1, "stiffness": "stiff"}])"));
    EXPECT_EQ(e.path(), "springs[0].stiffness");
    EXPECT_EQ(e.message(), "expected a number, got a string");
}

TEST(SceneJson, NonFiniteNumberIsRejected) {
    const SceneError e = errorOf(sceneWith(R"([{"position": [0, 1e999, 0]}])"));
    EXPECT_EQ(e.path(), "particles[0].position[1]");
    EXPECT_EQ(e.message(), "must be a finite number (it overflows a double)");
    EXPECT_EQ(e.line(), 4);
}

TEST(SceneJson, ZeroOrNegativeMassIsRejected) {
    EXPECT_EQ(errorOf(sceneWith(R"([{"position": [0, 0, 0], "mass": 0}])")).message(), "must be positive (got 0)");
    const SceneError e = errorOf(sceneWith(R"([{"position": [0, 0, 0]}, {"position": [0, 0, 0], "mass": -2}])"));
    EXPECT_EQ(e.path(), "particles[1].mass");
    EXPECT_EQ(e.message(), "must be positive (got -2)");
}

TEST(SceneJson, IndexOutOfRangeNamesTheSpringAndTheCount) {
    const std::string springs = R"([{"a": 0, "b": 1, "stiffness": 1}, {"a": 1, "b": 2, "stiffness": 1},
    {"a": 2, "b": 0, "stiffness": 1}, {"a": 0, "b": 12, "stiffness": 1}])";
    const SceneError e = errorOf(sceneWith(kThreeParticles, springs));
    EXPECT_EQ(e.path(), "springs[3].b");
    EXPECT_EQ(e.message(), "particle 12 out of range (3 particles)");
    EXPECT_NE(std::string(e.what()).find("springs[3].b: particle 12 out of range (3 particles)"), std::string::npos);
    EXPECT_EQ(e.line(), 10);  // the line of the 12
}

TEST(SceneJson, SpringToItselfIsRejected) {
    const SceneError e = errorOf(sceneWith(kThreeParticles, R"([{"a": 2, "b": 2, "stiffness": 1}])"));
    EXPECT_EQ(e.path(), "springs[0]");
    EXPECT_EQ(e.message(), "spring joins particle 2 to itself");
}

TEST(SceneJson, MissingRequiredFieldIsReportedAtItsObject) {
    const SceneError e = errorOf(sceneWith(kThreeParticles, R"([{"a": 0, "stiffness": 1}])"));
    EXPECT_EQ(e.path(), "springs[0].b");
    EXPECT_EQ(e.message(), "missing");
    EXPECT_GT(e.line(), 0);  // located at springs[0]
}

TEST(SceneJson, FormatAndVersionAreChecked) {
    EXPECT_NE(errorOf(R"({"particles": []})").message().find("not a Tinkerbox scene"), std::string::npos);
    EXPECT_EQ(errorOf(R"({"format": "obj", "version": 1})").path(), "format");
    const SceneError v = errorOf(R"({"format": "tinkerbox-scene", "version": 7})");
    EXPECT_EQ(v.path(), "version");
    EXPECT_NE(v.message().find("unsupported version 7"), std::string::npos);
}

TEST(SceneJson, SettingsAreValidated) {
    const auto settingsError = [](const std::string& settings) {
        return errorOf(sceneWith("[]", "[]", R"( "settings": )" + settings + ","));
    };
    const SceneError integrator = settingsError(R"({"integrator": "rk5"})");
    EXPECT_EQ(integrator.path(), "settings.integrator");
    EXPECT_NE(integrator.message().find(
                  "euler, midpoint, rk4, implicit-euler, adaptive, symplectic-euler, verlet, projective"),
              std::string::npos);
    EXPECT_EQ(settingsError(R"({"dt": 0})").path(), "settings.dt");
    EXPECT_EQ(settingsError(R"({"substeps": 0})").path(), "settings.substeps");
    EXPECT_EQ(settingsError(R"({"substeps": 1.5})").message(), "expected an integer, got a number");
    EXPECT_EQ(settingsError(R"({"drag": -1})").path(), "settings.drag");
    EXPECT_EQ(settingsError(R"({"implicit": {"cg_tolerance": -1}})").path(), "settings.implicit.cg_tolerance");
    EXPECT_EQ(settingsError(R"({"adaptive": {"tol": 1}})").path(), "settings.adaptive.tol");
    EXPECT_EQ(settingsError(R"({"projective": {"iterations": 0}})").path(), "settings.projective.iterations");
    EXPECT_EQ(settingsError(R"({"projective": {"iterations": 2.5}})").message(), "expected an integer, got a number");
    const Scene projective = parseScene(sceneWith("[]", "[]", R"( "settings": {"projective": {"iterations": 25}},)"));
    EXPECT_EQ(projective.settings.solver.projectiveIterations, 25);
    EXPECT_EQ(parseScene(serializeScene(projective)).settings.solver.projectiveIterations, 25);
    EXPECT_EQ(settingsError(R"({"gravity": [0, -9.81, 0, 1]})").message(),
              "expected [x, y, z] or [x, y], got an array of 4");
    EXPECT_EQ(settingsError(R"({"implicit": {"cg_max_iterations": 0}})").message(),
              "must be between 1 and 1000000 (got 0)");
}

// Every integrator's parameters are read and written through its kind: each, at either end of
// its range, comes back from a saved file; a step past the end is refused with its place.
TEST(SceneJson, EveryIntegratorParameterIsSavedAndRangeChecked) {
    for (const IntegratorKind* kind : integratorKinds())
        for (const IntegratorParameter& p : kind->parameters) {
            SCOPED_TRACE(std::string(kind->section) + "." + std::string(p.key));
            for (const double value : {p.min, p.max}) {
                Scene scene;
                p.set(scene.settings.solver, value);
                EXPECT_EQ(p.get(parseScene(serializeScene(scene)).settings.solver), value);
            }
            if (p.type == ParameterType::Flag) continue;
            const std::string tooBig = p.type == ParameterType::Count
                                           ? std::to_string(static_cast<long long>(p.max) + 1)
                                           : std::to_string(p.max * 2.0);
            const SceneError error = errorOf(sceneWith("[]", "[]",
                                                       R"( "settings": {")" + std::string(kind->section) + R"(": {")" +
                                                           std::string(p.key) + "\": " + tooBig + "}},"));
            EXPECT_EQ(error.path(), "settings." + std::string(kind->section) + "." + std::string(p.key));
            EXPECT_NE(error.message().find("must be between"), std::string::npos) << error.message();
        }
    // ... and every contact model's, at either end of its range.
    for (const ContactModelKind* kind : contactModelKinds())
        for (const ContactModelParameter& p : kind->parameters)
            for (const double value : {p.min, p.max}) {
                SCOPED_TRACE(std::string(p.key));
                Scene scene;
                p.set(scene.settings.contact, value);
                EXPECT_EQ(p.get(parseScene(serializeScene(scene)).settings.contact), value);
            }
}

TEST(SceneJson, PlanesAreValidated) {
    const auto planeError = [](const std::string& plane) {
        return errorOf(sceneWith("[]", "[]", R"( "planes": [)" + plane + "],"));
    };
    EXPECT_EQ(planeError(R"({"normal": [0, 0, 0]})").message(), "must not be zero");
    EXPECT_EQ(planeError(R"({"normal": [0, 1, 0], "restitution": 1.5})").path(), "planes[0].restitution");
    EXPECT_EQ(planeError(R"({"point": [0, 0, 0]})").path(), "planes[0].normal");
    const Scene s = parseScene(sceneWith("[]", "[]", R"( "planes": [{"normal": [0, 2, 0]}],)"));
    EXPECT_EQ(s.planes[0].normal, Vec3::UnitY());  // normalized
}

TEST(SceneJson, SaveThenLoadIsLossless) {
    for (const ExampleScene& example : exampleScenes()) {
        const Scene original = example.make();
        const Scene reloaded = parseScene(serializeScene(original), std::string(example.name));
        EXPECT_EQ(reloaded, original) << example.name;
    }
    // Awkward doubles survive too (1e50: the largest magnitude a scene may hold).
    Scene s;
    s.particles.push_back({Vec3(0.1, 1.0 / 3.0, -1e-300), Vec3(1e50, -0.0, 5e-324), 0.30000000000000004, true});
    s.settings.dt = 1.0 / 3.0;
    EXPECT_EQ(parseScene(serializeScene(s)), s);
}

TEST(SceneJson, SaveIsAtomicAndLeavesNoTemporaryFile) {
    const auto dir = std::filesystem::temp_directory_path() / ("tinkerbox-save-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto file = dir / "scene.json";
    const Scene first = findExampleScene("spring-oscillator")->make();
    saveScene(first, file);
    Scene second = first;
    second.name = "changed";
    saveScene(second, file);
    EXPECT_EQ(loadScene(file), second);
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator{}), 1);
    // A save that cannot be written throws and leaves the old file intact.
    EXPECT_THROW(saveScene(first, dir / "missing-dir" / "scene.json"), std::runtime_error);
    EXPECT_EQ(loadScene(file), second);
    std::filesystem::remove_all(dir);
}

// JSON has no inf or NaN: a scene holding one (a state that diverged, were it ever kept) is
// refused with the number's place, and the file saved before stays as it was.
TEST(SceneJson, ANumberThatIsNotFiniteIsNotSavedAndItsPlaceNamed) {
    const auto dir = std::filesystem::temp_directory_path() / ("tinkerbox-nonfinite-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto file = dir / "scene.json";
    const Scene good = findExampleScene("spring-oscillator")->make();
    saveScene(good, file);
    Scene bad = good;
    bad.particles.at(1).position.y() = std::numeric_limits<double>::quiet_NaN();
    try {
        saveScene(bad, file);
        ADD_FAILURE() << "a NaN was saved";
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "the scene cannot be saved: particles[1].position[1] is not a finite number");
    }
    bad = good;
    bad.settings.drag = std::numeric_limits<double>::infinity();
    EXPECT_THROW(serializeScene(bad), std::invalid_argument);
    EXPECT_EQ(loadScene(file), good);
    std::filesystem::remove_all(dir);
}

TEST(SceneJson, MissingFileIsAClearError) {
    try {
        loadScene("/nonexistent/scene.json");
        FAIL();
    } catch (const SceneError& e) {
        EXPECT_EQ(e.source(), "/nonexistent/scene.json");
        EXPECT_NE(e.message().find("cannot open"), std::string::npos);
    }
}

// ---- Constraints and parametric beads ----

std::string constraintScene(const std::string& constraints, const std::string& extra = "") {
    return sceneWith(kThreeParticles, "[]", R"( "constraints": )" + constraints + "," + extra);
}

SceneError constraintError(const std::string& constraints) { return errorOf(constraintScene(constraints)); }

TEST(SceneJson, EveryConstraintTypeRoundTrips) {
    Scene s;
    s.particles = {{Vec3(0, 1, 0), Vec3::Zero(), 1.0, false},
                   {Vec3(1, 1, 0), Vec3(0.5, 0, 0), 2.0, false},
                   {Vec3(1.5, -0.2, 0.3), Vec3::Zero(), 0.5, false},
                   {Vec3(-1, 0, 0), Vec3::Zero(), 1.0, false},
                   {Vec3(-1, 0, 0), Vec3::Zero(), 1.0, false}};
    s.constraints = {NailSpec{0, Vec3(0, 1.1, 0)}, RodSpec{0, 1, 1.0 / 3.0},
                     WireSpec{2, Vec3(0.1, 0.2, 0.3), 0.7, Vec3(0, 0.6, 0.8)},
                     SliderSpec{3, Vec3(-1, 0, 0), Vec3(0.6, -0.8, 0)}, PinSpec{3, 4}};
    s.parametricBeads = {{Vec3(2, 0, 0), 0.9, Vec3(0, 0, 1), 1.5, -0.25, 3.0},
                         {Vec3(0, 0, 4), 1.1, Vec3(0.6, 0, 0.8), 0.2, 2.0, -1.0}};
    s.settings.constraints = {123.0, 4.5, {1e-9, 77}, false};
    EXPECT_EQ(parseScene(serializeScene(s)), s);
    // Through a file, and into a simulation that holds the same constraints.
    const auto file =
        std::filesystem::temp_directory_path() / ("tinkerbox-constraints-" + std::to_string(::getpid()) + ".json");
    saveScene(s, file);
    const Scene loaded = loadScene(file);
    std::filesystem::remove(file);
    EXPECT_EQ(loaded, s);
    const auto sim = buildSimulation(loaded);
    ASSERT_EQ(sim->world().constraints().size(), s.constraints.size());
    for (std::size_t k = 0; k < s.constraints.size(); ++k)
        EXPECT_EQ(sim->world().constraints()[k]->spec(), s.constraints[k]);
    EXPECT_EQ(sim->world().beadCount(), 2);
    EXPECT_EQ(sim->settings().constraints, s.settings.constraints);
}

// Lengths, radii and points default to where the particles are; directions are normalized.
TEST(SceneJson, ConstraintDefaultsComeFromTheParticles) {
    const Scene s = parseScene(
        constraintScene(R"([
    {"type": "nail", "particle": 1},
    {"type": "rod", "a": 0, "b": 2},
    {"type": "wire", "particle": 2, "center": [1, 0]},
    {"type": "slider", "particle": 1, "direction": [0, 2, 0]},
    {"type": "pin", "a": 0, "b": 1}
  ])",
                        R"( "parametric_beads": [{"center": [0, 0, 0], "radius": 2, "normal": [0, 0, -3]}],)"));
    ASSERT_EQ(s.constraints.size(), 5u);
    EXPECT_EQ(std::get<NailSpec>(s.constraints[0]), (NailSpec{1, Vec3(1, 0, 0)}));
    EXPECT_DOUBLE_EQ(std::get<RodSpec>(s.constraints[1]).length, std::sqrt(2.0));
    EXPECT_EQ(std::get<WireSpec>(s.constraints[2]), (WireSpec{2, Vec3(1, 0, 0), 1.0, Vec3::UnitZ()}));
    EXPECT_EQ(std::get<SliderSpec>(s.constraints[3]), (SliderSpec{1, Vec3(1, 0, 0), Vec3::UnitY()}));
    EXPECT_EQ(std::get<PinSpec>(s.constraints[4]), (PinSpec{0, 1}));
    ASSERT_EQ(s.parametricBeads.size(), 1u);
    EXPECT_EQ(s.parametricBeads[0], (ParametricBead{Vec3::Zero(), 2.0, -Vec3::UnitZ(), 1.0, 0.0, 0.0}));
}

// Degenerate constraints are refused with the place named (and a line to go to).
TEST(SceneJson, DegenerateConstraintsNameThePlace) {
    const std::string at = R"({"position": [0, 0, 0]}, {"position": [0, 0, 0]}, {"position": [1, 0, 0]})";
    const SceneError zeroRod =
        errorOf(sceneWith("[" + at + "]", "[]", R"( "constraints": [{"type": "rod", "a": 0, "b": 1}],)"));
    EXPECT_EQ(zeroRod.path(), "constraints[0]");
    EXPECT_EQ(zeroRod.message(), "zero-length rod: particle 0 and particle 1 are at the same place (give a length)");
    EXPECT_GT(zeroRod.line(), 0);
    // The same particles with a length given are fine (the rod pushes them apart).
    EXPECT_NO_THROW(parseScene(
        sceneWith("[" + at + "]", "[]", R"( "constraints": [{"type": "rod", "a": 0, "b": 1, "length": 0.5}],)")));

    const SceneError rodToItself =
        constraintError(R"([{"type": "nail", "particle": 0}, {"type": "rod", "a": 2, "b": 2}])");
    EXPECT_EQ(rodToItself.path(), "constraints[1]");
    EXPECT_EQ(rodToItself.message(), "rod joins particle 2 to itself");
    EXPECT_GT(rodToItself.line(), 0);

    const SceneError pinToItself = constraintError(R"([{"type": "pin", "a": 1, "b": 1}])");
    EXPECT_EQ(pinToItself.path(), "constraints[0]");
    EXPECT_EQ(pinToItself.message(), "pin joins particle 1 to itself");

    const SceneError beadAtCentre =
        constraintError(R"([{"type": "wire", "particle": 1, "center": [1, 0, 0], "radius": 1}])");
    EXPECT_EQ(beadAtCentre.path(), "constraints[0]");
    EXPECT_EQ(beadAtCentre.message(), "the bead (particle 1) is at its wire's centre");

    const SceneError zeroDirection = constraintError(R"([{"type": "slider", "particle": 0, "direction": [0, 0, 0]}])");
    EXPECT_EQ(zeroDirection.path(), "constraints[0].direction");
    EXPECT_EQ(zeroDirection.message(), "must not be zero");

    const SceneError zeroNormal =
        constraintError(R"([{"type": "wire", "particle": 0, "center": [1, 1], "normal": [0, 0, 0]}])");
    EXPECT_EQ(zeroNormal.path(), "constraints[0].normal");
    EXPECT_EQ(zeroNormal.message(), "must not be zero");

    const SceneError badRadius = constraintError(R"([{"type": "wire", "particle": 0, "center": [1, 1], "radius": 0}])");
    EXPECT_EQ(badRadius.path(), "constraints[0].radius");
    EXPECT_EQ(badRadius.message(), "must be positive (got 0)");

    const SceneError badLength = constraintError(R"([{"type": "rod", "a": 0, "b": 1, "length": -2}])");
    EXPECT_EQ(badLength.path(), "constraints[0].length");
    EXPECT_EQ(badLength.message(), "must be positive (got -2)");

    const SceneError missingCentre = constraintError(R"([{"type": "wire", "particle": 0}])");
    EXPECT_EQ(missingCentre.path(), "constraints[0].center");
    EXPECT_EQ(missingCentre.message(), "missing");
}

TEST(SceneJson, UnknownConstraintTypeListsTheTypes) {
    const SceneError e = constraintError(R"([{"type": "weld", "a": 0, "b": 1}])");
    EXPECT_EQ(e.path(), "constraints[0].type");
    EXPECT_EQ(e.message(), "unknown constraint type 'weld' (choose one of: nail, rod, wire, slider, pin, hinge)");
    EXPECT_GT(e.line(), 0);
    EXPECT_EQ(constraintError(R"([{"a": 0, "b": 1}])").path(), "constraints[0].type");  // no type at all
    // Keys of another type are unknown keys.
    EXPECT_EQ(constraintError(R"([{"type": "pin", "a": 0, "b": 1, "length": 1}])").path(), "constraints[0].length");
}

// Version 2: one particle and the given bodies, constraints and springs.
std::string bodyScene(const std::string& bodies, const std::string& constraints = "[]",
                      const std::string& springs = "[]", const std::string& extra = "") {
    return R"({
  "format": "tinkerbox-scene",
  "version": 2,)" +
           extra + R"(
  "particles": [{"position": [0, 3, 0]}],
  "bodies": )" +
           bodies + R"(,
  "springs": )" +
           springs + R"(,
  "constraints": )" +
           constraints + R"(
})";
}

const std::string kTwoBoxes = R"([
    {"shape": {"box": {"size": [1, 2, 3]}}},
    {"shape": {"box": {"size": [1, 1, 1]}}, "position": [2, 0, 0]}
  ])";

// Every shape, mass and density, anchors on body points, a ball joint (a pin between body
// points) and a hinge survive a save and a load, and build.
TEST(SceneJson, RigidBodiesAnchorsAndHingesRoundTrip) {
    Scene s;
    s.particles.push_back({Vec3(0, 3, 0), Vec3::Zero(), 1.0, false});
    RigidBodySpec box;
    box.shape = BoxShape{Vec3(1, 2, 3)};
    box.mass = 2.0;
    box.position = Vec3(1, 2, 3);
    box.orientation = Quat(0.5, 0.5, 0.5, 0.5);  // exactly unit: 120 degrees about (1, 1, 1)
    box.velocity = Vec3(0.25, 0, -1);
    box.angularVelocity = Vec3(0, 4, 0.125);
    RigidBodySpec ball;
    ball.shape = SphereShape{0.2};
    ball.mass = 0.0;
    ball.density = 500.0;
    ball.position = Vec3(-1, 0, 0);
    RigidBodySpec tetrahedron;
    tetrahedron.shape = ConvexShape{{Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()}};
    tetrahedron.position = Vec3(0, -2, 0);
    tetrahedron.fixed = true;
    s.bodies = {box, ball, tetrahedron};
    s.springs.push_back({Anchor(0), Anchor::onBody(1, Vec3(0, 0.2, 0)), 10.0, 0.5, 3.0});
    s.constraints = {
        PinSpec{Anchor::onBody(0, Vec3(0.5, 1, 1.5)), Anchor::onBody(1, Vec3(0, -0.2, 0))},
        HingeSpec{Anchor::onBody(0, Vec3(0, -1, 0)), Anchor::onBody(2, Vec3(0, 0, 1)), Vec3::UnitX(), Vec3::UnitY()},
        NailSpec{Anchor::onBody(1, Vec3(0.2, 0, 0)), Vec3(-0.8, 0, 0)},
        RodSpec{Anchor(0), Anchor::onBody(2, Vec3::UnitX()), 2.5}};
    const std::string text = serializeScene(s);
    EXPECT_NE(text.find("\"version\": 2"), std::string::npos);
    EXPECT_NE(text.find(R"({"body": 1, "point": [0.0, 0.2, 0.0]})"), std::string::npos) << text;
    const Scene loaded = parseScene(text);
    EXPECT_EQ(loaded, s);

    const auto sim = buildSimulation(loaded);
    const RigidBodies& bodies = sim->world().rigidBodies();
    ASSERT_EQ(bodies.count(), 3);
    EXPECT_EQ(bodies.mass(0), 2.0);
    EXPECT_NEAR(bodies.mass(1), 500.0 * 4.0 / 3.0 * std::numbers::pi * 0.008, 1e-12);  // density x volume
    EXPECT_TRUE(bodies.isFixed(2));
    // `position` is the shape frame's origin: the tetrahedron's centre of mass is a quarter
    // of the way along each axis from it.
    EXPECT_TRUE(bodies.position(2).isApprox(Vec3(0.25, -1.75, 0.25), 1e-14));
    // A body point anchors where the body's orientation puts it: (x, y, z) -> (z, x, y).
    EXPECT_TRUE(sim->world().anchorPosition(Anchor::onBody(0, Vec3(0.5, 1, 1.5))).isApprox(Vec3(2.5, 2.5, 4), 1e-14));
    ASSERT_EQ(sim->world().constraints().size(), 4u);
    for (std::size_t k = 0; k < s.constraints.size(); ++k)
        EXPECT_EQ(sim->world().constraints()[k]->spec(), s.constraints[k]);
}

// Body b's hinge axis defaults to body a's axis as a world line, in b's frame; a body
// point defaults to the body's origin.
TEST(SceneJson, HingeAxisAndAnchorPointDefaults) {
    const Scene s = parseScene(bodyScene(
        R"([
    {"shape": {"sphere": {"radius": 1}}},
    {"shape": {"sphere": {"radius": 1}}, "orientation": [0.5, 0.5, 0.5, 0.5]}
  ])",
        R"([{"type": "hinge", "a": {"body": 0, "point": [1, 0, 0]}, "b": {"body": 1}, "axis_a": [0, 0, 2]}])"));
    const auto& hinge = std::get<HingeSpec>(s.constraints.at(0));
    EXPECT_EQ(hinge.axisA, Vec3::UnitZ());  // normalized
    EXPECT_TRUE(hinge.axisB.isApprox(Vec3::UnitY(), 1e-15))
        << hinge.axisB.transpose();  // z seen from a frame turned x->y->z->x
    EXPECT_EQ(hinge.b.point, Vec3::Zero());
    EXPECT_EQ(
        std::get<HingeSpec>(parseScene(bodyScene(kTwoBoxes, R"([{"type": "hinge", "a": {"body": 0}, "b": {"body": 1},
      "axis_a": [1, 0, 0], "axis_b": [0, 1, 0]}])"))
                                .constraints[0])
            .axisB,
        Vec3::UnitY());  // given
    const SceneError noAxis =
        errorOf(bodyScene(kTwoBoxes, R"([{"type": "hinge", "a": {"body": 0}, "b": {"body": 1}}])"));
    EXPECT_EQ(noAxis.path(), "constraints[0].axis_a");
    EXPECT_EQ(noAxis.message(), "missing");
}

// Bad bodies are refused with their place and a line to go to.
TEST(SceneJson, BadBodiesNameThePlace) {
    const auto bodyError = [](const std::string& body) { return errorOf(bodyScene("[" + body + "]")); };
    struct Case {
        std::string body, path, message;
    };
    const Case cases[] = {
        {R"({"shape": {"box": {"size": [1, 1, 1]}}, "orientation": [1, 1, 0, 0]})", "bodies[0].orientation",
         "must be a unit quaternion [w, x, y, z] (its length is 1.41421)"},
        {R"({"shape": {"box": {"size": [1, 1, 1]}}, "orientation": [1, 0, 0]})", "bodies[0].orientation",
         "expected a unit quaternion [w, x, y, z]"},
        {R"({"shape": {"box": {"size": [1, 0, 1]}}})", "bodies[0].shape.box.size",
         "edge lengths must be positive (got 0)"},
        {R"({"shape": {"box": {"size": [1, 1, -2]}}})", "bodies[0].shape.box.size",
         "edge lengths must be positive (got -2)"},
        {R"({"shape": {"sphere": {"radius": 0}}})", "bodies[0].shape.sphere.radius", "must be positive (got 0)"},
        {R"({"shape": {"convex": {"points": [[0, 0, 0], [1, 0, 0], [0, 1, 0]]}}})", "bodies[0].shape.convex.points",
         "a convex hull needs at least 4 points, got 3"},
        {R"({"shape": {"convex": {"points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [0.5, 0.2, 0]]}}})",
         "bodies[0].shape.convex.points", "all points lie in one plane"},
        {R"({"shape": {"box": {"size": [1, 1, 1]}, "sphere": {"radius": 1}}})", "bodies[0].shape",
         "give one of box, sphere, convex, not several"},
        {R"({"shape": {}})", "bodies[0].shape", "expected one of: box, sphere, convex"},
        {R"({"shape": {"box": {"size": [1, 1, 1]}}, "mass": 1, "density": 2})", "bodies[0].density",
         "give mass or density, not both"},
        {R"({"shape": {"box": {"size": [1, 1, 1]}}, "mass": 0})", "bodies[0].mass", "must be positive (got 0)"},
        {R"({"position": [0, 0, 0]})", "bodies[0].shape", "missing"},
    };
    for (const Case& c : cases) {
        const SceneError e = bodyError(c.body);
        EXPECT_EQ(e.path(), c.path) << c.body;
        EXPECT_EQ(e.message(), c.message) << c.body;
        EXPECT_GT(e.line(), 0) << c.body;
    }
    // A quaternion within 1e-6 of unit length is accepted and normalized.
    const Scene nearlyUnit =
        parseScene(bodyScene(R"([{"shape": {"sphere": {"radius": 1}}, "orientation": [1.0000001, 0, 0, 0]}])"));
    EXPECT_EQ(nearlyUnit.bodies[0].orientation.coeffs(), Quat::Identity().coeffs());
}

// Anchors name bodies that exist; a hinge joins two bodies.
TEST(SceneJson, BadAnchorsAndHingesNameThePlace) {
    const SceneError outOfRange =
        errorOf(bodyScene(kTwoBoxes, R"([{"type": "nail", "anchor": {"body": 2, "point": [0, 1, 0]}}])"));
    EXPECT_EQ(outOfRange.path(), "constraints[0].anchor.body");
    EXPECT_EQ(outOfRange.message(), "body 2 out of range (2 bodies)");
    EXPECT_GT(outOfRange.line(), 0);
    const SceneError springEnd =
        errorOf(bodyScene(kTwoBoxes, "[]", R"([{"a": 0, "b": {"body": -1}, "stiffness": 1}])"));
    EXPECT_EQ(springEnd.path(), "springs[0].b.body");
    EXPECT_EQ(springEnd.message(), "body -1 out of range (2 bodies)");

    const SceneError onParticle = errorOf(bodyScene(
        kTwoBoxes, R"([{"type": "hinge", "a": 0, "b": {"body": 1, "point": [0, 0, 0]}, "axis_a": [0, 0, 1]}])"));
    EXPECT_EQ(onParticle.path(), "constraints[0].a");
    EXPECT_EQ(onParticle.message(),
              R"(a hinge joins points of rigid bodies: expected {"body": i, "point": [x, y, z]})");
    EXPECT_GT(onParticle.line(), 0);
    const SceneError toItself = errorOf(bodyScene(
        kTwoBoxes,
        R"([{"type": "hinge", "a": {"body": 1}, "b": {"body": 1, "point": [1, 0, 0]}, "axis_a": [0, 0, 1]}])"));
    EXPECT_EQ(toItself.path(), "constraints[0]");
    EXPECT_EQ(toItself.message(), "hinge joins body 1 to itself");
    const SceneError ballToItself =
        errorOf(bodyScene(kTwoBoxes, R"([{"type": "pin", "a": {"body": 0}, "b": {"body": 0, "point": [0, 1, 0]}}])"));
    EXPECT_EQ(ballToItself.message(), "pin joins body 0 to itself");
    const SceneError badPoint =
        errorOf(bodyScene(kTwoBoxes, R"([{"type": "pin", "a": {"body": 0, "point": [0, 1, 0, 2]}, "b": 0}])"));
    EXPECT_EQ(badPoint.path(), "constraints[0].a.point");
}

// Version 1 files (particles only) still load, as they always did; rigid bodies need version 2.
TEST(SceneJson, VersionOneStillLoadsAndRefusesBodies) {
    const std::string v1 =
        sceneWith(kThreeParticles, R"([{"a": 0, "b": 2, "stiffness": 10}])",
                  R"( "constraints": [{"type": "nail", "particle": 0}, {"type": "rod", "a": 1, "b": 2}],)");
    const Scene one = parseScene(v1);
    std::string v2 = v1;
    v2.replace(v2.find("\"version\": 1"), 12, "\"version\": 2");
    EXPECT_EQ(one, parseScene(v2));
    EXPECT_EQ(one.particles.size(), 3u);
    EXPECT_EQ(one.constraints.size(), 2u);
    EXPECT_NE(serializeScene(one).find("\"version\": 2"), std::string::npos);  // saved as the current version

    const SceneError bodies =
        errorOf(sceneWith(kThreeParticles, "[]", R"( "bodies": [{"shape": {"sphere": {"radius": 1}}}],)"));
    EXPECT_EQ(bodies.path(), "bodies");
    EXPECT_EQ(bodies.message(), "rigid bodies need version 2");
    EXPECT_GT(bodies.line(), 0);
}

// settings.planar: every body and particle stays in the z = 0 plane.
TEST(SceneJson, PlanarSettingRoundTripsAndBuilds) {
    const Scene s = parseScene(bodyScene(R"([{"shape": {"box": {"size": [1, 1, 1]}}, "velocity": [1, 0, 5],
      "angular_velocity": [3, 0, 1]}])",
                                         "[]", "[]", R"( "settings": {"planar": true},)"));
    ASSERT_TRUE(s.settings.planar);
    EXPECT_EQ(parseScene(serializeScene(s)), s);
    const auto sim = buildSimulation(s);
    EXPECT_EQ(sim->world().rigidBodies().velocity(0), Vec3(1, 0, 0));
    EXPECT_EQ(sim->world().rigidBodies().angularVelocity(0), Vec3(0, 0, 1));
    EXPECT_FALSE(parseScene(bodyScene("[]")).settings.planar);  // the default
}

// A body's surface (friction, restitution) and the contact model round-trip; defaults apply
// when the file leaves them out; out-of-range values are refused at their place.
TEST(SceneJson, ContactModelAndSurfacesRoundTripAndAreValidated) {
    const Scene defaults = parseScene(bodyScene(R"([{"shape": {"box": {"size": [1, 1, 1]}}}])"));
    EXPECT_EQ(defaults.bodies[0].friction, 0.5);
    EXPECT_EQ(defaults.bodies[0].restitution, 0.2);
    EXPECT_EQ(defaults.settings.contactModel, "baraff");

    const Scene s = parseScene(bodyScene(R"([{"shape": {"box": {"size": [1, 1, 1]}}, "friction": 0.75,
      "restitution": 1}, {"shape": {"sphere": {"radius": 0.5}}, "friction": 0, "restitution": 0}])",
                                         "[]", "[]", R"( "settings": {"contact_model": "baraff"},)"));
    EXPECT_EQ(s.bodies[0].friction, 0.75);
    EXPECT_EQ(s.bodies[0].restitution, 1.0);
    EXPECT_EQ(s.bodies[1].friction, 0.0);
    EXPECT_EQ(s.bodies[1].restitution, 0.0);
    const std::string text = serializeScene(s);
    EXPECT_NE(text.find(R"("contact_model": "baraff")"), std::string::npos) << text;
    EXPECT_NE(text.find(R"("friction": 0.75, "restitution": 1.0)"), std::string::npos) << text;
    EXPECT_EQ(parseScene(text), s);
    EXPECT_EQ(buildSimulation(s)->contactModel().name(), "baraff");

    // oba's choices: on by default and not written then; off, written and read back.
    EXPECT_TRUE(defaults.settings.contact.freezing);
    EXPECT_TRUE(defaults.settings.contact.hopFix);
    EXPECT_EQ(serializeScene(defaults).find("oba_"), std::string::npos);
    const Scene oba = parseScene(bodyScene(
        "[]", "[]", "[]", R"( "settings": {"contact_model": "oba", "oba_freezing": false, "oba_hop_fix": false},)"));
    EXPECT_EQ(oba.settings.contactModel, "oba");
    EXPECT_FALSE(oba.settings.contact.freezing);
    EXPECT_FALSE(oba.settings.contact.hopFix);
    EXPECT_EQ(parseScene(serializeScene(oba)), oba);
    EXPECT_EQ(buildSimulation(oba)->contactModel().name(), "oba");
    EXPECT_EQ(errorOf(sceneWith("[]", "[]", R"( "settings": {"oba_freezing": 1},)")).path(), "settings.oba_freezing");

    // Self collision: off (0) by default and not written then; a thickness, written and read back.
    EXPECT_EQ(defaults.settings.contact.selfCollisionThickness, 0.0);
    EXPECT_EQ(serializeScene(defaults).find("self_collision"), std::string::npos);
    const Scene self = parseScene(bodyScene("[]", "[]", "[]", R"( "settings": {"self_collision_thickness": 0.025},)"));
    EXPECT_EQ(self.settings.contact.selfCollisionThickness, 0.025);
    EXPECT_EQ(parseScene(serializeScene(self)), self);
    EXPECT_EQ(buildSimulation(self)->settings().contact.selfCollisionThickness, 0.025);
    const SceneError negative = errorOf(sceneWith("[]", "[]", R"( "settings": {"self_collision_thickness": -1},)"));
    EXPECT_EQ(negative.path(), "settings.self_collision_thickness");
    EXPECT_NE(std::string(negative.what()).find("must be at least 0"), std::string::npos) << negative.what();
    const SceneError thick = errorOf(sceneWith("[]", "[]", R"( "settings": {"self_collision_thickness": 1.5},)"));
    EXPECT_EQ(thick.path(), "settings.self_collision_thickness");
    EXPECT_NE(std::string(thick.what()).find("must be at most 1 m (got 1.5)"), std::string::npos) << thick.what();

    // implicit-euler's contact filter: on by default (and written, as every parameter of an
    // integrator is); off, written and read back.
    EXPECT_TRUE(defaults.settings.solver.contactFilter);
    EXPECT_NE(serializeScene(defaults).find(R"("contact_filter": true)"), std::string::npos);
    const Scene unfiltered =
        parseScene(bodyScene("[]", "[]", "[]", R"( "settings": {"implicit": {"contact_filter": false}},)"));
    EXPECT_FALSE(unfiltered.settings.solver.contactFilter);
    EXPECT_EQ(parseScene(serializeScene(unfiltered)), unfiltered);
    EXPECT_FALSE(buildSimulation(unfiltered)->settings().solver.contactFilter);
    EXPECT_EQ(errorOf(sceneWith("[]", "[]", R"( "settings": {"implicit": {"contact_filter": 1}},)")).path(),
              "settings.implicit.contact_filter");

    struct Case {
        std::string body, path, message;
    };
    const Case cases[] = {
        {R"({"shape": {"sphere": {"radius": 1}}, "friction": -0.1})", "bodies[0].friction",
         "must be at least 0 (got -0.1)"},
        {R"({"shape": {"sphere": {"radius": 1}}, "restitution": 1.5})", "bodies[0].restitution",
         "must be between 0 and 1 (got 1.5)"},
        {R"({"shape": {"sphere": {"radius": 1}}, "restitution": -1})", "bodies[0].restitution",
         "must be at least 0 (got -1)"},
        {R"({"shape": {"sphere": {"radius": 1}}, "friction": "high"})", "bodies[0].friction",
         "expected a number, got a string"},
    };
    for (const Case& c : cases) {
        const SceneError e = errorOf(bodyScene("[" + c.body + "]"));
        EXPECT_EQ(e.path(), c.path) << c.body;
        EXPECT_EQ(e.message(), c.message) << c.body;
        EXPECT_GT(e.line(), 0) << c.body;
    }
    const std::string names = contactModelNameList();
    const SceneError model = errorOf(sceneWith("[]", "[]", R"( "settings": {"contact_model": "penalty"},)"));
    EXPECT_EQ(model.path(), "settings.contact_model");
    EXPECT_EQ(model.message(), "unknown contact model 'penalty' (choose one of: " + names + ")");
    EXPECT_EQ(errorOf(sceneWith("[]", "[]", R"( "settings": {"contact_model": 1},)")).message(),
              "expected a string, got a number");
}

TEST(SceneJson, CompareListRoundTripsAndIsValidated) {
    const Scene s = parseScene(sceneWith(kThreeParticles, "[]", R"( "compare": ["euler", "verlet", "rk4"],)"));
    EXPECT_EQ(s.compare, (std::vector<std::string>{"euler", "verlet", "rk4"}));
    EXPECT_EQ(parseScene(serializeScene(s)), s);
    EXPECT_EQ(captureScene(*buildSimulation(s), s).compare, s.compare);
    const Scene without = parseScene(sceneWith(kThreeParticles));
    EXPECT_TRUE(without.compare.empty());
    EXPECT_EQ(serializeScene(without).find("compare"), std::string::npos);

    const SceneError one = errorOf(sceneWith("[]", "[]", R"( "compare": ["euler"],)"));
    EXPECT_EQ(one.path(), "compare");
    EXPECT_NE(one.message().find("expected 2 to 4 integrators (got 1)"), std::string::npos) << one.message();
    EXPECT_NE(errorOf(sceneWith("[]", "[]", R"( "compare": ["euler", "euler", "rk4", "rk4", "verlet"],)"))
                  .message()
                  .find("(got 5)"),
              std::string::npos);
    const SceneError unknown = errorOf(sceneWith("[]", "[]", R"( "compare": ["euler", "rk5"],)"));
    EXPECT_EQ(unknown.path(), "compare[1]");
    EXPECT_NE(unknown.message().find("unknown integrator 'rk5' (choose one of: euler, midpoint,"), std::string::npos)
        << unknown.message();
    EXPECT_EQ(errorOf(sceneWith("[]", "[]", R"( "compare": "rk4",)")).path(), "compare");
}

TEST(SceneJson, ConstraintParticleOutOfRangeNamesTheIndexAndTheCount) {
    const SceneError e = constraintError(R"([{"type": "rod", "a": 0, "b": 1},
    {"type": "pin", "a": 0, "b": 5}])");
    EXPECT_EQ(e.path(), "constraints[1].b");
    EXPECT_EQ(e.message(), "particle 5 out of range (3 particles)");
    EXPECT_EQ(e.line(), 4);  // the line of the 5
    EXPECT_EQ(constraintError(R"([{"type": "nail", "particle": -1}])").message(),
              "particle -1 out of range (3 particles)");
    EXPECT_EQ(constraintError(R"([{"type": "wire", "particle": 3, "center": [0, 0]}])").path(),
              "constraints[0].particle");
    EXPECT_EQ(constraintError(R"([{"type": "slider", "particle": 9, "direction": [1, 0]}])").path(),
              "constraints[0].particle");
}

TEST(SceneJson, ParametricBeadsAreValidated) {
    const auto beadError = [](const std::string& bead) {
        return errorOf(sceneWith("[]", "[]", R"( "parametric_beads": [)" + bead + "],"));
    };
    const SceneError zeroRadius = beadError(R"({"center": [0, 0, 0], "radius": 0})");
    EXPECT_EQ(zeroRadius.path(), "parametric_beads[0].radius");
    EXPECT_EQ(zeroRadius.message(), "must be positive (got 0)");
    EXPECT_GT(zeroRadius.line(), 0);
    EXPECT_EQ(beadError(R"({"center": [0, 0, 0], "radius": 1, "mass": -1})").path(), "parametric_beads[0].mass");
    EXPECT_EQ(beadError(R"({"center": [0, 0, 0], "radius": 1, "normal": [0, 0, 0]})").path(),
              "parametric_beads[0].normal");
    EXPECT_EQ(beadError(R"({"radius": 1})").path(), "parametric_beads[0].center");
    EXPECT_EQ(beadError(R"({"center": [0, 0, 0], "radius": 1, "angel": 1})").path(), "parametric_beads[0].angel");
}

// Six particles: a 3 x 2 cloth grid, or two strands of three.
const std::string kSixParticles = R"([
    {"position": [0, 0, 0]}, {"position": [0.5, 0, 0]}, {"position": [1, 0, 0]},
    {"position": [0, 0, 1]}, {"position": [0.5, 0.1, 1]}, {"position": [1, 0.3, 1.2]}
  ])";

TEST(SceneJson, ClothsHairAndWindRoundTripAndBuild) {
    const Scene s = parseScene(sceneWith(kSixParticles, "[]", R"(
  "cloths": [{"columns": 3, "rows": 2, "width": 1, "height": 1, "stretch": 50, "bend_damping": 0.5}],
  "hair": [{"first_particle": 0, "strands": 2, "length": 3, "bend": 0.25}],
  "wind": {"velocity": [1, 0, 2], "turbulence": 0.5, "seed": 9},)"));
    ASSERT_EQ(s.cloths.size(), 1u);
    EXPECT_EQ(s.cloths[0].columns, 3);
    EXPECT_EQ(s.cloths[0].material.stretch, 50.0);
    EXPECT_EQ(s.cloths[0].material.bendDamping, 0.5);
    EXPECT_EQ(s.cloths[0].material.shear, ClothMaterial{}.shear);  // the rest default
    ASSERT_EQ(s.hair.size(), 1u);
    EXPECT_EQ(s.hair[0].material.bend, 0.25);
    ASSERT_EQ(s.fields.size(), 1u);
    const WindSettings& wind = std::get<WindSettings>(s.fields[0]);
    EXPECT_EQ(wind.seed, 9u);
    EXPECT_EQ(wind.velocity, Vec3(1.0, 0.0, 2.0));
    EXPECT_EQ(wind.drag, WindSettings{}.drag);  // the rest default
    EXPECT_EQ(parseScene(serializeScene(s)), s);
    // Built: stretch and shear, bending, wind, and the hair's segments and joints, each labelled.
    const auto sim = buildSimulation(s);
    std::set<std::string> labels;
    for (const auto& force : sim->world().forces())
        if (!force->label().empty()) labels.insert(force->label());
    // (No twist: a strand of three particles has no four consecutive ones.)
    EXPECT_EQ(labels,
              (std::set<std::string>{"cloth stretch and shear", "cloth bending", "hair stretch", "hair bending"}));
}

// Every force field's kind, switched on with its example and every setting away from its
// default, is written and read back as it was; its keys are in the fuzzer's dictionary, so
// that the fuzzer reaches its reader.
TEST(SceneJson, EveryForceFieldRoundTripsAndItsKeysAreInTheFuzzDictionary) {
    std::ifstream file(std::filesystem::path(TINKERBOX_SOURCE_DIR) / "tests" / "fuzz" / "scene.dict");
    const std::string dictionary((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(dictionary.empty());
    const auto inDictionary = [&](std::string_view key) {
        return dictionary.find("\"\\\"" + std::string(key) + "\\\"\"") != std::string::npos;
    };
    Scene scene = parseScene(sceneWith(kSixParticles, "[]", ""));
    for (const ForceFieldKind* kind : forceFieldKinds()) {
        SCOPED_TRACE(std::string(kind->name));
        EXPECT_TRUE(inDictionary(kind->name));
        ForceFieldSpec field = kind->example();
        for (const ForceFieldVector& v : kind->vectors) {
            EXPECT_TRUE(inDictionary(v.key)) << v.key;
            v.set(field, v.get(field) + Vec3(0.5, -0.25, 1.0));
        }
        for (const ForceFieldParameter& p : kind->parameters) {
            EXPECT_TRUE(inDictionary(p.key)) << p.key;
            p.set(field, p.type == ParameterType::Flag ? 1.0 - p.get(field) : p.get(field) + 1.0);
        }
        ASSERT_EQ(forceFieldError(field), "");
        scene.fields.push_back(field);
    }
    EXPECT_EQ(parseScene(serializeScene(scene)), scene);
}

TEST(SceneJson, ClothsHairAndWindAreValidated) {
    const auto error = [](const std::string& extra) { return errorOf(sceneWith(kSixParticles, "[]", extra)); };
    const SceneError tooMany = error(R"( "cloths": [{"columns": 3, "rows": 3, "width": 1, "height": 1}],)");
    EXPECT_EQ(tooMany.path(), "cloths[0]");
    EXPECT_EQ(tooMany.message(), "needs particles 0 to 8 (6 particles)");
    EXPECT_EQ(error(R"( "cloths": [{"columns": 1, "rows": 2, "width": 1, "height": 1}],)").path(), "cloths[0].columns");
    EXPECT_EQ(error(R"( "cloths": [{"columns": 3, "rows": 2, "width": 0, "height": 1}],)").path(), "cloths[0].width");
    EXPECT_EQ(error(R"( "cloths": [{"columns": 3, "rows": 2, "width": 1, "height": 1, "shear": -1}],)").path(),
              "cloths[0].shear");
    EXPECT_EQ(
        error(R"( "cloths": [{"columns": 3, "rows": 2, "width": 1e-30, "height": 1e-30, "stretch": 1e40}],)").path(),
        "cloths[0]");
    EXPECT_EQ(error(R"( "hair": [{"strands": 2, "length": 3, "first_particle": 1}],)").path(), "hair[0]");
    EXPECT_EQ(error(R"( "hair": [{"strands": 0, "length": 3}],)").path(), "hair[0].strands");
    EXPECT_EQ(error(R"( "hair": [{"strands": 1, "length": 3, "twist": -2}],)").path(), "hair[0].twist");
    EXPECT_EQ(error(R"( "wind": {"scale": 0},)").path(), "wind.scale");
    EXPECT_EQ(error(R"( "wind": {"seed": -1},)").path(), "wind.seed");
    EXPECT_EQ(error(R"( "wind": {"seed": 2.5},)").path(), "wind.seed");
    EXPECT_EQ(error(R"( "wind": {"velocity": [1, 0, 0, 0]},)").path(), "wind.velocity");
    EXPECT_EQ(error(R"( "wind": {"gust": 1},)").path(), "wind.gust");
    const SceneError together = errorOf(sceneWith(R"([{"position": [0, 0, 0]}, {"position": [0, 0, 0]}])", "[]",
                                                  R"( "hair": [{"strands": 1, "length": 2}],)"));
    EXPECT_EQ(together.path(), "hair[0]");
    EXPECT_EQ(together.message(), "particles 0 and 1 of a strand are at the same place at rest");
    const SceneError shape = error(R"( "hair": [{"strands": 1, "length": 3, "rest_shape": [[0, 0, 0], [1, 0, 0]]}],)");
    EXPECT_EQ(shape.path(), "hair[0].rest_shape");
    EXPECT_EQ(shape.message(), "expected 3 points (strands x length), got 2");
    // A rest shape of its own: the particles may then start anywhere, even on one another.
    const Scene s =
        parseScene(sceneWith(R"([{"position": [0, 0, 0]}, {"position": [0, 0, 0]}])", "[]",
                             R"( "hair": [{"strands": 1, "length": 2, "rest_shape": [[0, 0, 0], [0, 1, 0]]}],)"));
    ASSERT_EQ(s.hair[0].restShape.size(), 2u);
    EXPECT_EQ(s.hair[0].restShape[1], Vec3(0, 1, 0));
    EXPECT_EQ(parseScene(serializeScene(s)), s);
}

// A cloth with holes: a 3 x 3 grid missing places 2, 4 and 8 lays its other six places on the
// six particles, in order. The holes round-trip; a hole outside the grid, out of order, repeated,
// or one too many is reported at its place in the list, and too few holes as a particle range.
TEST(SceneJson, AClothsHolesRoundTripAndAreValidated) {
    const Scene s = parseScene(sceneWith(kSixParticles, "[]", R"(
  "cloths": [{"columns": 3, "rows": 3, "width": 1, "height": 1, "missing": [2, 4, 8]}],)"));
    ASSERT_EQ(s.cloths.size(), 1u);
    EXPECT_EQ(s.cloths[0].missing, (std::vector<int>{2, 4, 8}));
    EXPECT_EQ(s.cloths[0].particleCount(), 6);
    EXPECT_EQ(s.cloths[0].particleAt(3), 2);  // after the hole at 2
    EXPECT_EQ(s.cloths[0].particleAt(5), 3);
    EXPECT_EQ(s.cloths[0].particleAt(4), -1);
    EXPECT_EQ(parseScene(serializeScene(s)), s);
    EXPECT_TRUE(serializeScene(s).find("\"missing\"") != std::string::npos);

    const auto error = [](const std::string& missing) {
        return errorOf(sceneWith(
            kSixParticles, "[]",
            R"( "cloths": [{"columns": 3, "rows": 3, "width": 1, "height": 1, "missing": )" + missing + "}],"));
    };
    const SceneError outside = error("[2, 4, 9]");
    EXPECT_EQ(outside.path(), "cloths[0].missing[2]");
    EXPECT_EQ(outside.message(), "place 9 is not in the grid (0 to 8)");
    const SceneError order = error("[4, 2, 8]");
    EXPECT_EQ(order.path(), "cloths[0].missing[1]");
    EXPECT_EQ(order.message(), "places must be in ascending order without repeats (2 after 4)");
    EXPECT_EQ(error("[2, 2, 8]").path(), "cloths[0].missing[1]");
    EXPECT_EQ(error("[0, 1, 2, 3, 4, 5, 6, 7, 8]").path(), "cloths[0].missing");
    const SceneError few = error("[4, 8]");  // 7 particles needed
    EXPECT_EQ(few.path(), "cloths[0]");
    EXPECT_EQ(few.message(), "needs particles 0 to 6 (6 particles)");
}

// A cut hair: two strands of four places missing places 1 and 6 lay the other six places on the
// six particles; its rest shape has a point per particle, and the runs are the pieces.
TEST(SceneJson, AHairsCutsRoundTripAndAreValidated) {
    const std::string rest = "[[0, 0, 0], [0, 2, 0], [0, 3, 0], [1, 0, 0], [1, 1, 0], [1, 3, 0]]";
    const Scene s =
        parseScene(sceneWith(kSixParticles, "[]", R"( "hair": [{"strands": 2, "length": 4, "missing": [1, 6],
      "rest_shape": )" + rest + "}],"));
    ASSERT_EQ(s.hair.size(), 1u);
    EXPECT_EQ(s.hair[0].missing, (std::vector<int>{1, 6}));
    const std::vector<StrandRun> runs = s.hair[0].runs();
    ASSERT_EQ(runs.size(), 4u);  // place 0; places 2 and 3; places 4 and 5; place 7
    EXPECT_EQ(runs[1].first, 1);
    EXPECT_EQ(runs[1].length, 2);
    EXPECT_EQ(runs[3].first, 5);
    EXPECT_EQ(runs[3].length, 1);
    // Each particle's place, the inverse of particleAt; also past holes side by side.
    for (const int place : {0, 2, 3, 4, 5, 7}) EXPECT_EQ(s.hair[0].placeOf(s.hair[0].particleAt(place)), place);
    HairSpec holes;
    holes.firstParticle = 10;
    holes.strands = 3;
    holes.length = 4;
    holes.missing = {0, 1, 2, 5, 9, 11};
    for (const int place : {3, 4, 6, 7, 8, 10}) EXPECT_EQ(holes.placeOf(holes.particleAt(place)), place) << place;
    EXPECT_EQ(parseScene(serializeScene(s)), s);
    const auto sim = buildSimulation(s);
    Index segments = -1;
    for (const auto& force : sim->world().forces())
        if (force->label() == "hair stretch") segments = dynamic_cast<const DampedSpringSet&>(*force).size();
    EXPECT_EQ(segments, 2);  // one in each piece of two

    const auto error = [](const std::string& hair) { return errorOf(sceneWith(kSixParticles, "[]", hair)); };
    const SceneError shape =
        error(R"( "hair": [{"strands": 2, "length": 4, "missing": [1, 6], "rest_shape": [[0, 0, 0]]}],)");
    EXPECT_EQ(shape.path(), "hair[0].rest_shape");
    EXPECT_EQ(shape.message(), "expected 6 points (strands x length, less the missing places), got 1");
    const SceneError outside = error(R"( "hair": [{"strands": 2, "length": 4, "missing": [1, 8]}],)");
    EXPECT_EQ(outside.path(), "hair[0].missing[1]");
    EXPECT_EQ(outside.message(), "place 8 is not in the strands (0 to 7)");
    // The pieces' segments must have a length at rest; across a cut there is no segment.
    const SceneError together = error(R"( "hair": [{"strands": 2, "length": 4, "missing": [1, 6],
      "rest_shape": [[0, 0, 0], [0, 2, 0], [0, 2, 0], [1, 0, 0], [1, 1, 0], [1, 3, 0]]}],)");
    EXPECT_EQ(together.message(), "particles 1 and 2 of a strand are at the same place at rest");
    EXPECT_NO_THROW(
        parseScene(sceneWith(kSixParticles, "[]", R"( "hair": [{"strands": 2, "length": 4, "missing": [1, 6],
      "rest_shape": [[0, 0, 0], [0, 0, 0], [0, 3, 0], [1, 0, 0], [1, 1, 0], [1, 3, 0]]}],)")));
}

TEST(SceneJson, ConstraintSettingsAreValidated) {
    const auto settingsError = [](const std::string& constraints) {
        return errorOf(sceneWith("[]", "[]", R"( "settings": {"constraints": )" + constraints + "},"));
    };
    EXPECT_EQ(settingsError(R"({"ks": -1})").path(), "settings.constraints.ks");
    EXPECT_EQ(settingsError(R"({"kd": -1})").path(), "settings.constraints.kd");
    EXPECT_EQ(settingsError(R"({"cg_tolerance": 0})").path(), "settings.constraints.cg_tolerance");
    EXPECT_EQ(settingsError(R"({"cg_max_iterations": 0})").path(), "settings.constraints.cg_max_iterations");
    EXPECT_EQ(settingsError(R"({"warm_start": 1})").message(), "expected true or false, got a number");
    const SceneError substeps = errorOf(sceneWith("[]", "[]", R"( "settings": {"integrator_substeps": {"rk5": 2}},)"));
    EXPECT_EQ(substeps.path(), "settings.integrator_substeps.rk5");
    const Scene s = parseScene(
        sceneWith("[]", "[]", R"( "settings": {"integrator_substeps": {"euler": 512}, "constraints": {"ks": 100}},)"));
    EXPECT_EQ(s.settings.integratorSubsteps.at("euler"), 512);
    EXPECT_EQ(s.settings.constraints.ks, 100.0);
    EXPECT_EQ(s.settings.constraints.kd, ConstraintSettings{}.kd);  // the rest default
}

// What the loader accepts, the core accepts: every constraint of every shipped scene builds.
TEST(SceneJson, EveryLoadedConstraintBuilds) {
    for (const ExampleScene& example : exampleScenes()) {
        const Scene scene = parseScene(serializeScene(example.make()));
        for (const ConstraintSpec& c : scene.constraints) EXPECT_NO_THROW(makeConstraint(c)) << example.name;
        EXPECT_NO_THROW(buildSimulation(scene)) << example.name;
    }
}

// Wires are scene geometry (the editor threads beads on them): saved, loaded and validated.
TEST(SceneJson, WiresRoundTripAndAreValidated) {
    Scene s;
    s.wires = {{Vec3(1, 2, 0), 0.5, Vec3::UnitZ()}, {Vec3(0, 0, 3), 2.0, Vec3(0.6, 0, 0.8)}};
    EXPECT_EQ(parseScene(serializeScene(s)), s);
    const Scene defaults = parseScene(sceneWith("[]", "[]", R"( "wires": [{"center": [1, 1], "radius": 2}],)"));
    ASSERT_EQ(defaults.wires.size(), 1u);
    EXPECT_EQ(defaults.wires[0], (Wire{Vec3(1, 1, 0), 2.0, Vec3::UnitZ()}));
    const auto wireError = [](const std::string& wire) {
        return errorOf(sceneWith("[]", "[]", R"( "wires": [{"center": [0, 0], "radius": 1}, )" + wire + "],"));
    };
    const SceneError radius = wireError(R"({"center": [0, 0], "radius": -1})");
    EXPECT_EQ(radius.path(), "wires[1].radius");
    EXPECT_EQ(radius.message(), "must be positive (got -1)");
    EXPECT_GT(radius.line(), 0);
    EXPECT_EQ(wireError(R"({"center": [0, 0], "radius": 1, "normal": [0, 0, 0]})").path(), "wires[1].normal");
    EXPECT_EQ(wireError(R"({"radius": 1})").path(), "wires[1].center");
    EXPECT_EQ(wireError(R"({"center": [0, 0], "radius": 1, "colour": 3})").path(), "wires[1].colour");
}

// ---- Hostile input ----

// What the loader accepts, the simulation builds and steps: a direction whose norm
// overflows a double is still a direction, and a plane normal stays a unit normal.
TEST(SceneJson, HugeDirectionsLoadAsUnitVectorsAndBuild) {
    const Scene s = parseScene(
        constraintScene(R"([
    {"type": "slider", "particle": 0, "direction": [1e300, 0]},
    {"type": "wire", "particle": 1, "center": [0, 0], "normal": [0, 0, 1e300]}
  ])",
                        R"( "parametric_beads": [{"center": [0, 0, 0], "radius": 1, "normal": [0, 0, -1e300]}],
  "planes": [{"point": [0, -1], "normal": [0, 1e300]}], "wires": [{"center": [0, 0], "radius": 1, "normal": [1e-300, 0]}],)"));
    EXPECT_EQ(std::get<SliderSpec>(s.constraints[0]).direction, Vec3::UnitX());
    EXPECT_EQ(std::get<WireSpec>(s.constraints[1]).normal, Vec3::UnitZ());
    EXPECT_EQ(s.parametricBeads[0].normal, -Vec3::UnitZ());
    EXPECT_EQ(s.planes[0].normal, Vec3::UnitY());
    EXPECT_EQ(s.wires[0].normal, Vec3::UnitX());
    const auto sim = buildSimulation(s);
    EXPECT_FALSE(sim->step().diverged);
    EXPECT_TRUE(std::isfinite(sim->totalEnergy()));
    EXPECT_NEAR(sim->world().position(0).y(), 0.0, 1e-9);  // on its slider, the x axis

    // A particle falling onto that plane bounces instead of passing through.
    const auto drop =
        buildSimulation(parseScene(sceneWith(R"([{"position": [0, -0.99], "velocity": [0, -10]}])", "[]",
                                             R"( "planes": [{"point": [0, -1], "normal": [0, 1e300]}],)")));
    drop->step();
    EXPECT_GE(drop->world().position(0).y(), -1.0);
    EXPECT_GT(drop->world().velocity(0).y(), 0.0);
}

// A magnitude whose square overflows (1e200) would give inf energies at t = 0; the
// message names the field.
TEST(SceneJson, MagnitudesAreBoundedSoThatEnergiesStayFinite) {
    const SceneError velocity = errorOf(sceneWith(R"([{"position": [0, 0], "velocity": [1e200, 0]}])"));
    EXPECT_EQ(velocity.path(), "particles[0].velocity[0]");
    EXPECT_EQ(velocity.message(), "must be at most 1e+50 in magnitude (got 1e+200)");
    EXPECT_EQ(velocity.line(), 4);
    const SceneError radius =
        constraintError(R"([{"type": "wire", "particle": 0, "center": [1, 1], "radius": 1e300}])");
    EXPECT_EQ(radius.path(), "constraints[0].radius");
    EXPECT_EQ(radius.message(), "must be at most 1e+50 in magnitude (got 1e+300)");
    EXPECT_EQ(errorOf(sceneWith(kThreeParticles, R"([{"a": 0, "b": 1, "stiffness": -1e51}])")).path(),
              "springs[0].stiffness");
    EXPECT_EQ(errorOf(sceneWith(R"([{"position": [0, 0], "mass": 1e-300}])")).message(),
              "must be at least 1e-50 (got 1e-300)");  // 1 / mass would overflow
    // The bounds themselves are accepted.
    const Scene edge = parseScene(sceneWith(R"([{"position": [-1e50, 0], "velocity": [0, 1e50], "mass": 1e-50}])"));
    EXPECT_EQ(edge.particles[0].velocity, Vec3(0, 1e50, 0));
    EXPECT_TRUE(std::isfinite(buildSimulation(edge)->totalEnergy()));
}

TEST(SceneJson, IndicesBeyondALongLongAreNamed) {
    const SceneError e = constraintError(R"([{"type": "nail", "particle": 9223372036854775808}])");
    EXPECT_EQ(e.path(), "constraints[0].particle");
    EXPECT_EQ(e.message(), "integer 9223372036854775808 is too large");
    EXPECT_EQ(constraintError(R"([{"type": "nail", "particle": 9223372036854775807}])").message(),
              "particle 9223372036854775807 out of range (3 particles)");
    EXPECT_EQ(constraintError(R"([{"type": "nail", "particle": -9223372036854775808}])").message(),
              "particle -9223372036854775808 out of range (3 particles)");
}

// The last copy used to win while errors pointed at the first: a duplicate is an error
// at the second copy.
TEST(SceneJson, DuplicateKeysAreRejectedAtTheSecondCopy) {
    const SceneError e = errorOf(sceneWith("[{\"position\": [0, 0], \"mass\": -1,\n    \"mass\": 2}]"));
    EXPECT_EQ(e.path(), "particles[0].mass");
    EXPECT_EQ(e.message(), "duplicate key \"mass\" (each key may appear once in an object)");
    EXPECT_EQ(e.line(), 5);
    EXPECT_EQ(e.column(), 5);
    const SceneError top = errorOf(sceneWith("[]", "[]", R"( "version": 1,)"));
    EXPECT_EQ(top.path(), "version");
    EXPECT_EQ(top.line(), 3);
}

// Memory used to grow with the square of the depth (a path string per level).
TEST(SceneJson, NestingIsBoundedAt256Levels) {
    const std::size_t depth = 100000;
    const SceneError e = errorOf("\n " + std::string(depth, '[') + std::string(depth, ']'));
    EXPECT_EQ(e.message(), "nesting deeper than 256 levels of arrays and objects");
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 2 + 256);  // the 257th bracket
    // 256 levels parse (and are then no scene).
    EXPECT_EQ(errorOf(std::string(256, '[') + std::string(256, ']')).message(), "expected an object, got an array");
}

// A UTF-8 byte order mark is accepted (editors on some systems write one); anything else
// before the document is malformed JSON with its place.
TEST(SceneJson, AByteOrderMarkIsAccepted) {
    const Scene s = parseScene("\xEF\xBB\xBF" + sceneWith(R"([{"position": [0, 0]}])"));
    EXPECT_EQ(s.particles.size(), 1u);
    const SceneError truncated = errorOf("\xEF\xBB");
    EXPECT_EQ(truncated.line(), 1);
    EXPECT_NE(truncated.message().find("malformed JSON"), std::string::npos);
}

// The parser stops at a NUL byte as if the text ended there.
TEST(SceneJson, ANulByteIsMalformedEvenAfterAWholeScene) {
    const std::string scene = sceneWith(R"([{"position": [0, 0]}])");
    const SceneError e = errorOf(scene + std::string(1, '\0') + "\x01\x02garbage");
    EXPECT_EQ(e.message(), "malformed JSON: a NUL byte (binary data, not text)");
    EXPECT_EQ(e.line(), 6);  // after the closing brace
    EXPECT_EQ(e.column(), 2);
    EXPECT_EQ(errorOf(std::string("{\"format\": \"tinkerbox-\0scene\"}", 30)).column(), 23);
}

// Every prefix of a scene is either the whole scene or an error with a place; none
// loads half of it.
TEST(SceneJson, TruncatedFilesAreMalformed) {
    const std::string text = sceneWith(kThreeParticles, R"([{"a": 0, "b": 1, "stiffness": 1}])");
    for (std::size_t n = 0; n + 1 < text.size(); ++n) {
        const SceneError e = errorOf(text.substr(0, n));
        EXPECT_GT(e.line(), 0) << n;
        EXPECT_NE(e.message().find("malformed JSON"), std::string::npos) << n;
    }
}

}  // namespace
}  // namespace tinkerbox
