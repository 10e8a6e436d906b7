#include "scene/SceneJson.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "scene/ExampleScenes.h"

namespace tinkerbox {
namespace {

// A small valid scene, with a hole ($) where a test puts the text under test.
std::string sceneWith(const std::string& particles, const std::string& springs = "[]", const std::string& extra = "") {
    return R"({
  "format": "tinkerbox-scene",
  "version": 1,)" + extra + R"(
  "particles": )" + particles + R"(,
  "springs": )" + springs + R"(
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
    EXPECT_EQ(s.particles[2].mass, 1.0);                        // default mass
    EXPECT_EQ(s.particles[2].position, Vec3(1, 1, 0));          // [x, y] means z = 0
    EXPECT_EQ(s.particles[0].velocity, Vec3::Zero());           // default velocity
    EXPECT_FALSE(s.particles[0].nailed);                        // default
    ASSERT_EQ(s.springs.size(), 1u);
    EXPECT_DOUBLE_EQ(s.springs[0].restLength, std::sqrt(2.0));  // rest length defaults to the current distance
    EXPECT_EQ(s.springs[0].damping, 0.0);
    EXPECT_EQ(s.settings, SimulationSettings{});                // settings default
}

TEST(SceneJson, MalformedJsonNamesLineAndColumn) {
    const SceneError e = errorOf("{\n  \"format\": \"tinkerbox-scene\",\n  \"version\": 1,\n  \"particles\": [ {\"position\": [0, 0, 0]}, ]\n}");
    EXPECT_EQ(e.line(), 4);
    EXPECT_GT(e.column(), 30);
    EXPECT_NE(e.message().find("malformed JSON"), std::string::npos);
    EXPECT_EQ(std::string(e.what()).rfind("test.json:4:", 0), 0u) << e.what();
}

TEST(SceneJson, EmptyFileIsMalformed) {
    EXPECT_NE(errorOf("").message().find("malformed JSON"), std::string::npos);
}

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
    EXPECT_NE(integrator.message().find("euler, midpoint, rk4, implicit-euler, adaptive, symplectic-euler, verlet"),
              std::string::npos);
    EXPECT_EQ(settingsError(R"({"dt": 0})").path(), "settings.dt");
    EXPECT_EQ(settingsError(R"({"substeps": 0})").path(), "settings.substeps");
    EXPECT_EQ(settingsError(R"({"substeps": 1.5})").message(), "expected an integer, got a number");
    EXPECT_EQ(settingsError(R"({"drag": -1})").path(), "settings.drag");
    EXPECT_EQ(settingsError(R"({"implicit": {"cg_tolerance": -1}})").path(), "settings.implicit.cg_tolerance");
    EXPECT_EQ(settingsError(R"({"adaptive": {"tol": 1}})").path(), "settings.adaptive.tol");
    EXPECT_EQ(settingsError(R"({"gravity": [0, -9.81, 0, 1]})").message(), "expected [x, y, z] or [x, y], got an array of 4");
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
    // Awkward doubles survive too.
    Scene s;
    s.particles.push_back({Vec3(0.1, 1.0 / 3.0, -1e-300), Vec3(1e300, -0.0, 5e-324), 0.30000000000000004, true});
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

TEST(SceneJson, MissingFileIsAClearError) {
    try {
        loadScene("/nonexistent/scene.json");
        FAIL();
    } catch (const SceneError& e) {
        EXPECT_EQ(e.source(), "/nonexistent/scene.json");
        EXPECT_NE(e.message().find("cannot open"), std::string::npos);
    }
}

}  // namespace
}  // namespace tinkerbox
