// tinkerbox-sim as a user runs it: exit codes, CSV layout, messages.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <regex>
#include <sstream>
#include <utility>

#include "scene/SceneJson.h"

namespace tinkerbox {
namespace {

namespace fs = std::filesystem;

const fs::path kScenes = fs::path(TINKERBOX_SOURCE_DIR) / "assets" / "scenes";

struct Result {
    int exitCode;
    std::string out;
    std::string err;
};

std::string readFile(const fs::path& file) {
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

class TinkerboxSim : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("tinkerbox-cli-" + std::to_string(::getpid()) + "-" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    Result sim(const std::string& args) const {
        const std::string command = std::string(TINKERBOX_SIM) + " " + args + " > " + (dir_ / "out").string() + " 2> " +
                                    (dir_ / "err").string();
        const int status = std::system(command.c_str());
        return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, readFile(dir_ / "out"), readFile(dir_ / "err")};
    }

    fs::path dir_;
};

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::vector<double> fields(const std::string& line) {
    std::vector<double> out;
    std::istringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');) out.push_back(std::stod(cell));
    return out;
}

TEST_F(TinkerboxSim, RunWritesTheDocumentedCsv) {
    const Result r = sim("run " + (kScenes / "spring-oscillator.json").string() + " --steps 30 --every 10");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = lines(r.out);
    ASSERT_EQ(rows.size(), 1u + 4u);  // header, t = 0, then every 10 of 30 steps
    EXPECT_EQ(rows[0].rfind("t,kinetic,potential,energy,constraint_error,p0_x,p0_y,p0_z,p1_x,", 0), 0u);
    EXPECT_EQ(lines(r.out)[0].find("p4_x"), std::string::npos);  // 4 particles: p0..p3
    // No rigid bodies: after the particles come the frame's contacts and the momenta of everything.
    const std::string momenta =
        ",p3_z,contacts,max_penetration,linear_momentum_x,linear_momentum_y,linear_momentum_z,"
        "angular_momentum_x,angular_momentum_y,angular_momentum_z";
    EXPECT_EQ(rows[0].size() - rows[0].rfind(momenta), momenta.size()) << rows[0];
    const auto first = fields(rows[1]);
    const auto last = fields(rows.back());
    ASSERT_EQ(first.size(), 5u + 3u * 4u + 2u + 6u);
    for (std::size_t c = 17; c < 25; ++c) EXPECT_EQ(first[c], 0.0) << c;  // no contacts; released at rest
    EXPECT_EQ(last[17], 0.0);                                             // nothing to touch
    EXPECT_EQ(first[0], 0.0);
    EXPECT_NEAR(last[0], 30.0 / 60.0, 1e-12);
    EXPECT_NEAR(first[3], first[1] + first[2], 1e-12);  // energy = kinetic + potential
    EXPECT_EQ(first[4], 0.0);                           // no constraints yet
    EXPECT_EQ(last[5], first[5]);                       // p0 is nailed
    EXPECT_NE(last[9], first[9]);                       // p1 moves (its y)
}

TEST_F(TinkerboxSim, RunOptionsOverrideTheScene) {
    const Result r = sim("run " + (kScenes / "hanging-chain.json").string() +
                         " --integrator verlet --dt 0.01 --duration 0.5 --out " + (dir_ / "run.csv").string());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(r.out.empty());
    const auto rows = lines(readFile(dir_ / "run.csv"));
    EXPECT_EQ(rows.size(), 1u + 51u);
    EXPECT_NEAR(fields(rows.back())[0], 0.5, 1e-9);
    EXPECT_NE(r.err.find("verlet"), std::string::npos);
}

TEST_F(TinkerboxSim, AdaptiveLogsTheStepsItTook) {
    const Result r =
        sim("run " + (kScenes / "stiff-spring.json").string() + " --integrator adaptive --duration 1 --step-log " +
            (dir_ / "steps.csv").string() + " --out " + (dir_ / "run.csv").string());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = lines(readFile(dir_ / "steps.csv"));
    ASSERT_GT(rows.size(), 61u);  // more internal steps than frames on a stiff spring
    EXPECT_EQ(rows[0], "t,h");
    double sum = 0.0, smallest = 1.0, largest = 0.0;
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const double h = fields(rows[i])[1];
        sum += h;
        smallest = std::min(smallest, h);
        largest = std::max(largest, h);
    }
    EXPECT_NEAR(sum, 1.0, 1e-9);
    EXPECT_NEAR(fields(rows.back())[0], 1.0, 1e-9);
    EXPECT_LT(smallest, largest);
}

TEST_F(TinkerboxSim, DivergenceStopsWithExitCodeOneAndAdvice) {
    const Result r = sim("run " + (kScenes / "stiff-spring.json").string() + " --integrator euler --duration 2");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("euler diverged"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("dt = 0.0166667"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("implicit-euler"), std::string::npos) << r.err;
}

// Slow growth (explicit Euler gains 2 % of the energy per step on this undamped spring)
// used to run to 6e39 J and exit 0; the energy budget stops it early.
TEST_F(TinkerboxSim, SteadyDivergenceStopsWithExitCodeOne) {
    std::ofstream(dir_ / "spring.json") << R"({"format": "tinkerbox-scene", "version": 1,
 "particles": [{"position": [0, 0, 0], "nailed": true}, {"position": [0.5, 0, 0], "velocity": [1, 0, 0], "mass": 0.5}],
 "springs": [{"a": 0, "b": 1, "stiffness": 1e4, "rest_length": 0.5}]})";
    const Result r = sim("run " + (dir_ / "spring.json").string() + " --integrator euler --dt 1e-3 --duration 5");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("euler diverged at t = "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("dt = 0.001"), std::string::npos) << r.err;
    for (const auto& row : lines(r.out))
        if (row[0] != 't') {
            const auto f = fields(row);
            ASSERT_LT(f[3], 1e3) << row;  // the energy (0.25 J at the start) never got far
        }
}

// A duration that dt does not divide ends at the duration, with one shorter last frame;
// the t column is frame * dt (a product, not a running sum).
TEST_F(TinkerboxSim, RunEndsAtTheDurationAndCountsTimeExactly) {
    const Result r = sim("run " + (kScenes / "spring-oscillator.json").string() + " --dt 0.03 --duration 1");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = lines(r.out);
    ASSERT_EQ(rows.size(), 1u + 1u + 34u);  // header, t = 0, 33 frames of 0.03 and one of 0.01
    for (std::size_t k = 0; k + 1 < rows.size() - 1; ++k) EXPECT_EQ(fields(rows[1 + k])[0], k * 0.03) << rows[1 + k];
    EXPECT_NEAR(fields(rows.back())[0], 1.0, 1e-15);
    const Result tenths = sim("run " + (kScenes / "spring-oscillator.json").string() + " --dt 0.1 --duration 1");
    ASSERT_EQ(lines(tenths.out).size(), 1u + 1u + 10u);  // 1 / 0.1 rounds to 9.999...: still ten frames
    EXPECT_EQ(fields(lines(tenths.out).back())[0], 10 * 0.1);
}

// Solver options reach the solve they name, and are refused where no such solve runs.
TEST_F(TinkerboxSim, SolverOptionsApplyToTheirIntegratorOnly) {
    const std::string pendulum = (kScenes / "double-pendulum.json").string();
    const Result cg = sim("run " + pendulum + " --integrator rk4 --cg-tolerance 1e-3");
    EXPECT_EQ(cg.exitCode, 2);
    EXPECT_NE(cg.err.find("--cg-tolerance sets implicit-euler's CG tolerance, but this run uses rk4"),
              std::string::npos)
        << cg.err;
    EXPECT_NE(cg.err.find("--constraint-tolerance"), std::string::npos) << cg.err;
    EXPECT_EQ(sim("run " + pendulum + " --integrator verlet --cg-max-iterations 3").exitCode, 2);
    EXPECT_EQ(sim("run " + pendulum + " --integrator rk4 --tolerance 1e-3").exitCode, 2);
    EXPECT_EQ(sim("run " + pendulum + " --integrator implicit-euler --cg-tolerance 1e-3 --duration 0.1").exitCode, 0);
    EXPECT_EQ(sim("run " + pendulum + " --integrator rk4 --projective-iterations 5").exitCode, 2);
    EXPECT_EQ(sim("run " + pendulum + " --integrator projective --projective-iterations 5 --duration 0.1").exitCode, 0);

    // A loose multiplier solve lets the rods drift; the default keeps them.
    const auto lastError = [&](const std::string& options) {
        const Result r = sim("run " + pendulum + " --integrator rk4 --duration 2 " + options);
        EXPECT_EQ(r.exitCode, 0) << r.err;
        return fields(lines(r.out).back())[4];
    };
    EXPECT_GT(lastError("--constraint-tolerance 0.5"), 100.0 * lastError(""));
    const Result noConstraints =
        sim("run " + (kScenes / "spring-oscillator.json").string() + " --constraint-tolerance 1e-3 --steps 1");
    EXPECT_EQ(noConstraints.exitCode, 0);
    EXPECT_NE(noConstraints.err.find("no constraints: --constraint-tolerance changes nothing"), std::string::npos)
        << noConstraints.err;
}

// Same scene, same integrator, same build: the same bits, for every integrator.
TEST_F(TinkerboxSim, RunsAreBitwiseRepeatable) {
    for (const char* integrator :
         {"euler", "midpoint", "rk4", "implicit-euler", "adaptive", "symplectic-euler", "verlet", "projective"}) {
        const std::string run =
            "run " + (kScenes / "triple-pendulum.json").string() + " --duration 1 --integrator " + integrator;
        const Result a = sim(run), b = sim(run);
        ASSERT_EQ(a.exitCode, 0) << a.err;
        EXPECT_GT(lines(a.out).size(), 60u);
        EXPECT_TRUE(a.out == b.out) << integrator;
    }
}

TEST_F(TinkerboxSim, ValidateSummarizesOrNamesTheError) {
    const Result good = sim("validate " + (kScenes / "cloth.json").string());
    EXPECT_EQ(good.exitCode, 0);
    EXPECT_NE(good.out.find("400 particles, 2202 springs"), std::string::npos) << good.out;
    EXPECT_EQ(lines(good.out).size(), 1u);
    const Result wire = sim("validate " + (kScenes / "bead-on-wire.json").string());
    EXPECT_NE(wire.out.find("3 particles, 1 springs, 1 constraints, 1 wires, 1 parametric beads, 0 planes, 0 bodies"),
              std::string::npos)
        << wire.out;
    const Result seesaw = sim("validate " + (kScenes / "seesaw.json").string());
    EXPECT_NE(seesaw.out.find("1 particles, 4 springs, 1 constraints, 0 wires, 0 parametric beads, 0 planes, 4 bodies"),
              std::string::npos)
        << seesaw.out;
    EXPECT_NE(seesaw.out.find("integrator rk4, contact model baraff, dt "), std::string::npos) << seesaw.out;

    std::ofstream(dir_ / "bad.json") << R"({"format": "tinkerbox-scene", "version": 1,
 "particles": [{"position": [0, 0, 0]}, {"position": [1, 0, 0], "mass": -1}]})";
    const Result bad = sim("validate " + (dir_ / "bad.json").string());
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_NE(bad.err.find("bad.json:2:"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("particles[1].mass: must be positive (got -1)"), std::string::npos) << bad.err;
}

TEST_F(TinkerboxSim, UsageErrorsExitWithCodeTwo) {
    const std::string scene = (kScenes / "spring-oscillator.json").string();
    const Result unknownIntegrator = sim("run " + scene + " --integrator rk5");
    EXPECT_EQ(unknownIntegrator.exitCode, 2);
    EXPECT_NE(unknownIntegrator.err.find(
                  "unknown integrator 'rk5' (choose one of: euler, midpoint, rk4, implicit-euler, adaptive, "
                  "symplectic-euler, verlet, projective)"),
              std::string::npos)
        << unknownIntegrator.err;
    EXPECT_EQ(sim("run " + scene + " --frobnicate").exitCode, 2);
    EXPECT_EQ(sim("run " + scene + " --duration 1 --steps 5").exitCode, 2);
    EXPECT_EQ(sim("run " + scene + " --dt -1").exitCode, 2);
    EXPECT_EQ(sim("run").exitCode, 2);
    EXPECT_EQ(sim("").exitCode, 2);
    EXPECT_EQ(sim("bench --scene cloth-7").exitCode, 2);
}

TEST_F(TinkerboxSim, HelpListsCommandsAndIntegratorsInOrder) {
    const Result r = sim("--help");
    EXPECT_EQ(r.exitCode, 0);
    for (const char* word : {"run", "compare", "validate", "bench", "examples", "example"})
        EXPECT_NE(r.out.find(word), std::string::npos) << word;
    EXPECT_NE(r.out.find("euler, midpoint, rk4, implicit-euler, adaptive, symplectic-euler, verlet"),
              std::string::npos);
}

TEST_F(TinkerboxSim, BenchPrintsTheDocumentedCsv) {
    const Result r = sim("bench --scene cloth-32 --integrator implicit-euler --contact baraff --seconds 0.2");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = lines(r.out);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(
        rows[0],
        "scene,integrator,contact_model,freezing,particles,bodies,springs,dt,ms_per_step,cg_iterations,constraints,"
        "ms_per_constraint_solve,constraint_cg_iterations,warm_start,max_constraint_error,contacts,max_penetration,"
        "ms_per_contact_solve,contact_iterations");
    EXPECT_EQ(rows[1].rfind("cloth-32,implicit-euler,baraff,,1024,0,5826,0.016666666666666666,", 0), 0u) << rows[1];
}

// The cells of a CSV row.
std::vector<std::string> cells(const std::string& line) {
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');) out.push_back(cell);
    return out;
}

// The example cloth heap (self collision on) at its own 4 substeps of a 1/60 s frame: 32 x 32
// particles, no springs (triangle energies), every column of the header.
TEST_F(TinkerboxSim, BenchMeasuresTheClothHeap) {
    const Result r = sim("bench --scene cloth-heap --integrator implicit-euler --contact baraff --seconds 0.05");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = lines(r.out);
    ASSERT_EQ(rows.size(), 2u) << r.out;
    EXPECT_EQ(rows[1].rfind("cloth-heap,implicit-euler,baraff,,1024,0,0,0.004166666666666667,", 0), 0u) << rows[1];
    EXPECT_EQ(cells(rows[1]).size(), cells(rows[0]).size()) << rows[1];
}

// The contact scenes: 10 unit cubes and 5,050 in a planar world at 4 substeps of a 1/60 s
// frame, 210 at one step per frame (as the game engines it is compared with step it); a row
// per contact model asked for.
TEST_F(TinkerboxSim, BenchMeasuresTheContactScenes) {
    const Result r =
        sim("bench --scene stack-10 --scene pyramid-20 --scene large-pyramid-100 --integrator "
            "symplectic-euler --contact baraff --seconds 0.05");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = lines(r.out);
    ASSERT_EQ(rows.size(), 4u) << r.out;
    const std::string dt = ",0.004166666666666667,";  // (1/60) / 4
    EXPECT_EQ(rows[1].rfind("stack-10,symplectic-euler,baraff,,0,10,0" + dt, 0), 0u) << rows[1];
    EXPECT_EQ(rows[2].rfind("pyramid-20,symplectic-euler,baraff,,0,210,0,0.016666666666666666,", 0), 0u) << rows[2];
    EXPECT_EQ(rows[3].rfind("large-pyramid-100,symplectic-euler,baraff,,0,5050,0" + dt, 0), 0u) << rows[3];
    for (std::size_t i = 1; i < rows.size(); ++i) {  // every column of the header, warm_start empty (no constraints)
        EXPECT_EQ(std::count(rows[i].begin(), rows[i].end(), ','), std::count(rows[0].begin(), rows[0].end(), ','));
        EXPECT_NE(rows[i].find(",,"), std::string::npos) << rows[i];
    }
    const Result unknown = sim("bench --scene stack-10 --contact springs");
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_NE(unknown.err.find("unknown contact model 'springs' (choose one of: baraff"), std::string::npos)
        << unknown.err;
}

// The thesis scenes of the contact model oba: a row with freezing and one without, baraff's
// with the freezing column empty.
TEST_F(TinkerboxSim, BenchRunsObaWithAndWithoutFreezing) {
    const Result r = sim("bench --scene cube-stack-10 --integrator symplectic-euler --seconds 0.05");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = lines(r.out);
    ASSERT_EQ(rows.size(), 4u) << r.out;
    const std::string dt = ",0.016666666666666666,";
    EXPECT_EQ(rows[1].rfind("cube-stack-10,symplectic-euler,baraff,,0,10,0" + dt, 0), 0u) << rows[1];
    EXPECT_EQ(rows[2].rfind("cube-stack-10,symplectic-euler,oba,yes,0,10,0" + dt, 0), 0u) << rows[2];
    EXPECT_EQ(rows[3].rfind("cube-stack-10,symplectic-euler,oba,no,0,10,0" + dt, 0), 0u) << rows[3];
    const Result one =
        sim("bench --scene pendulum-6 --integrator symplectic-euler --contact oba --oba-freezing false "
            "--oba-hop-fix false --seconds 0.05");
    ASSERT_EQ(one.exitCode, 0) << one.err;
    ASSERT_EQ(lines(one.out).size(), 3u) << one.out;  // header, with and without warm start
    EXPECT_EQ(lines(one.out)[1].rfind("pendulum-6,symplectic-euler,oba,no,0,6,0" + dt, 0), 0u) << one.out;
}

// --contact chooses the run's contact model; the contacts and max_penetration columns
// report what it did in each frame.
TEST_F(TinkerboxSim, RunChoosesTheContactModelAndReportsContacts) {
    const std::string stack = (kScenes / "box-stack.json").string();
    const Result r = sim("run " + stack + " --contact baraff --steps 10");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = lines(r.out);
    ASSERT_EQ(rows.size(), 1u + 11u);
    const std::string header = rows[0];
    const std::string columns = ",r9_qz,contacts,max_penetration,linear_momentum_x,";
    EXPECT_NE(header.find(columns), std::string::npos) << header;
    const std::size_t contactsColumn = 5 + 7 * 10;
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const auto f = fields(rows[i]);
        ASSERT_EQ(f.size(), contactsColumn + 2u + 6u) << rows[i];
        EXPECT_GE(f[contactsColumn], 0.0) << rows[i];
        EXPECT_EQ(f[contactsColumn], std::floor(f[contactsColumn])) << rows[i];  // a count
        EXPECT_GE(f[contactsColumn + 1], 0.0) << rows[i];                        // a depth
    }
    EXPECT_EQ(fields(rows[1])[contactsColumn], 0.0);  // t = 0: no frame has run

    // oba and its choices.
    const Result oba = sim("run " + stack + " --contact oba --oba-freezing false --oba-hop-fix true --steps 10");
    ASSERT_EQ(oba.exitCode, 0) << oba.err;
    EXPECT_EQ(lines(oba.out).size(), 1u + 11u);
    EXPECT_EQ(sim("run " + stack + " --contact oba --oba-freezing maybe --steps 1").exitCode, 2);

    const Result unknown = sim("run " + stack + " --contact penalty");
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_NE(unknown.err.find("unknown contact model 'penalty' (choose one of: baraff"), std::string::npos)
        << unknown.err;
    const Result help = sim("run --help");
    EXPECT_NE(help.out.find("--contact"), std::string::npos) << help.out;
}

// Two particles closing at 3 m/s along x: with --self-collision they stop a thickness apart
// (columns p0_x and p1_x) and the contacts column counts them; with 0, the scene's setting
// is turned off and they pass through each other.
TEST_F(TinkerboxSim, SelfCollisionOptionOverridesTheScene) {
    const fs::path scene = dir_ / "approach.json";
    std::ofstream(scene) << R"({"format": "tinkerbox-scene", "version": 2, "name": "approach",
        "settings": {"gravity": [0, 0, 0], "integrator": "symplectic-euler", "substeps": 4,
                     "self_collision_thickness": 0.1},
        "particles": [{"position": [-0.3, 0, 0], "velocity": [2, 0, 0], "mass": 1},
                      {"position": [0.3, 0, 0], "velocity": [-1, 0, 0], "mass": 3}]})";
    const std::size_t p0x = 5, p1x = 8, contacts = 11;
    for (const std::string option : {"", " --self-collision 0.1"}) {
        const Result r = sim("run " + scene.string() + option + " --steps 30");
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const auto rows = lines(r.out);
        ASSERT_EQ(rows.size(), 1u + 31u);
        const auto last = fields(rows.back());
        EXPECT_NEAR(last[p1x] - last[p0x], 0.1, 1e-4) << option;
        double touching = 0.0;
        for (std::size_t i = 1; i < rows.size(); ++i) touching += fields(rows[i])[contacts];
        EXPECT_GT(touching, 0.0) << option;
    }
    const Result off = sim("run " + scene.string() + " --self-collision 0 --steps 30");
    ASSERT_EQ(off.exitCode, 0) << off.err;
    const auto last = fields(lines(off.out).back());
    EXPECT_LT(last[p1x], last[p0x]);  // passed through
    EXPECT_EQ(last[contacts], 0.0);
    EXPECT_EQ(sim("run " + scene.string() + " --self-collision -0.1 --steps 1").exitCode, 2);
    EXPECT_EQ(sim("run " + scene.string() + " --self-collision 2 --steps 1").exitCode, 2);  // over a metre
}

TEST_F(TinkerboxSim, ExampleWritesALoadableScene) {
    const Result list = sim("examples");
    EXPECT_NE(list.out.find("cloth"), std::string::npos);
    ASSERT_EQ(sim("example bouncing-particles -o " + (dir_ / "b.json").string()).exitCode, 0);
    EXPECT_EQ(loadScene(dir_ / "b.json").planes.size(), 3u);
    EXPECT_EQ(sim("example no-such-scene").exitCode, 1);
    // Benchmark scenes too, to open in the app what bench measures.
    EXPECT_NE(list.out.find("Benchmark\tcloth-64\n"), std::string::npos) << list.out;
    ASSERT_EQ(sim("example cloth-32 -o " + (dir_ / "c.json").string()).exitCode, 0);
    EXPECT_EQ(loadScene(dir_ / "c.json").particles.size(), 32u * 32u);
}

// A constrained scene: the constraint_error column is the model's (nonzero, small), and the
// parametric beads get b<i>_x,b<i>_y,b<i>_z columns after the particles'.
TEST_F(TinkerboxSim, RunOnAConstrainedSceneWritesConstraintErrorAndBeadColumns) {
    const Result r = sim("run " + (kScenes / "bead-on-wire.json").string() + " --duration 2 --every 6");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = lines(r.out);
    ASSERT_EQ(rows.size(), 1u + 21u);  // header, t = 0, then every 6 of 120 steps
    const std::string header = rows[0];
    EXPECT_EQ(header.rfind("t,kinetic,potential,energy,constraint_error,p0_x,", 0), 0u) << header;
    // 3 particles, then the bead, then the momenta (no rigid bodies).
    const std::string beadColumns = ",p2_x,p2_y,p2_z,b0_x,b0_y,b0_z,contacts,max_penetration,linear_momentum_x,";
    EXPECT_NE(header.find(beadColumns), std::string::npos) << header;
    EXPECT_EQ(header.find(",r0_x"), std::string::npos) << header;
    double largestError = 0.0;
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const auto f = fields(rows[i]);
        ASSERT_EQ(f.size(), 5u + 3u * 3u + 3u + 2u + 6u) << rows[i];
        const Vec3 constrained(f[5] + 2.5, f[6], f[7]);  // particle 0 on the wire centred at (-2.5, 0, 0)
        const Vec3 parametric(f[14], f[15], f[16]);      // the parametric bead, centred at the origin
        EXPECT_NEAR(parametric.norm(), 1.0, 1e-12) << rows[i];
        EXPECT_LT((constrained - parametric).norm(), 1e-4) << rows[i];
        EXPECT_LT(f[4], 1e-4) << rows[i];
        largestError = std::max(largestError, f[4]);
    }
    EXPECT_GT(largestError, 0.0);
    const auto first = fields(rows[1]);
    EXPECT_NEAR(first[14], std::cos(0.5), 1e-15);
    EXPECT_NEAR(first[15], std::sin(0.5), 1e-15);
}

// A body's columns follow the particles and beads: its centre of mass and its orientation.
// The tumbling box is torque-free: its angular momentum stays I omega(0) =
// (13/12 0.01, 10/12 4, 5/12 0.01) and its energy 1/2 omega . I omega, while it flips over
// (the Dzhanibekov effect: spin about the intermediate axis is unstable).
TEST_F(TinkerboxSim, RunOnARigidBodyWritesItsPoseAndConservesItsMomenta) {
    const Result r = sim("run " + (kScenes / "tumbling-box.json").string() + " --duration 10 --every 6");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = lines(r.out);
    ASSERT_EQ(rows.size(), 1u + 101u);
    EXPECT_EQ(rows[0],
              "t,kinetic,potential,energy,constraint_error,r0_x,r0_y,r0_z,r0_qw,r0_qx,r0_qy,r0_qz,"
              "contacts,max_penetration,linear_momentum_x,linear_momentum_y,linear_momentum_z,angular_momentum_x,"
              "angular_momentum_y,"
              "angular_momentum_z");
    const Vec3 L(13.0 / 12.0 * 0.01, 10.0 / 12.0 * 4.0, 5.0 / 12.0 * 0.01);
    const double energy = 0.5 * (L.x() * 0.01 + L.y() * 4.0 + L.z() * 0.01);
    double lowestY = 1.0;  // the y component of the box's y axis
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const auto f = fields(rows[i]);
        ASSERT_EQ(f.size(), 20u) << rows[i];
        EXPECT_NEAR(f[3], energy, 1e-9 * energy) << rows[i];
        EXPECT_EQ(Vec3(f[5], f[6], f[7]), Vec3(0.0, 0.5, 0.0)) << rows[i];  // at rest
        const Quat q(f[8], f[9], f[10], f[11]);
        EXPECT_NEAR(q.norm(), 1.0, 1e-14) << rows[i];
        EXPECT_EQ(f[12], 0.0) << rows[i];  // alone in space: no contacts
        EXPECT_EQ(Vec3(f[14], f[15], f[16]), Vec3::Zero()) << rows[i];
        EXPECT_LT((Vec3(f[17], f[18], f[19]) - L).norm(), 1e-14) << rows[i];
        lowestY = std::min(lowestY, (q * Vec3::UnitY()).y());
    }
    EXPECT_LT(lowestY, -0.99);  // turned upside down
}

TEST_F(TinkerboxSim, RunOnThePendulumReportsItsSmallConstraintError) {
    const Result r = sim("run " + (kScenes / "double-pendulum.json").string() + " --duration 3 --every 30");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = lines(r.out);
    ASSERT_EQ(rows.size(), 1u + 7u);
    EXPECT_EQ(rows[0].find("b0_x"), std::string::npos);  // no parametric beads
    for (std::size_t i = 2; i < rows.size(); ++i) {
        const double error = fields(rows[i])[4];
        EXPECT_GT(error, 0.0) << rows[i];
        EXPECT_LT(error, 1e-4) << rows[i];
    }
}

// Hostile files of every kind a tester tries: each is refused by validate and run with
// exit code 1 and a message that says where (file:line:column), and nothing crashes.
TEST_F(TinkerboxSim, HostileFilesAreRefusedWithAPlace) {
    const std::string chain = readFile(kScenes / "hanging-chain.json");
    const std::string head = R"({"format": "tinkerbox-scene", "version": 1, )";
    std::string binary;
    for (int i = 0; i < 512; ++i) binary.push_back(static_cast<char>((i * 37) & 0xFF));
    std::string manyParticles = head + "\"particles\": [";
    for (int i = 0; i < 1000000; ++i) manyParticles += "{\"position\": [0, 0]},\n";
    manyParticles += "{\"position\": [0, 0], \"mass\": 0}]}";
    const std::pair<std::string, std::string> files[] = {
        {"truncated", chain.substr(0, chain.size() / 2)},
        {"binary", binary},
        {"deep", std::string(100000, '[') + std::string(100000, ']')},
        {"nan", head + R"("particles": [{"position": [NaN, 0]}]})"},
        {"infinity", head + R"("particles": [{"position": [0, -Infinity]}]})"},
        {"overflow", head + R"("particles": [{"position": [0, 1e999]}]})"},
        {"huge-velocity", head + R"("particles": [{"position": [0, 0], "velocity": [1e200, 0]}]})"},
        {"index-2-63",
         head +
             R"("particles": [{"position": [0, 0]}], "constraints": [{"type": "nail", "particle": 9223372036854775808}]})"},
        {"duplicate-key", head + R"("particles": [{"position": [0, 0]}], "particles": []})"},
        {"bom-then-garbage", "\xEF\xBB\xBF" + binary},
    };
    const std::regex place(R"(^error: .*\.json:[0-9]+:[0-9]+: )");
    for (const auto& [name, text] : files) {
        const fs::path file = dir_ / (name + ".json");
        std::ofstream(file, std::ios::binary) << text;
        for (const char* command : {"validate ", "run --duration 0.1 "}) {
            const Result r = sim(command + file.string());
            EXPECT_EQ(r.exitCode, 1) << command << name << ": " << r.err;
            EXPECT_TRUE(std::regex_search(r.err, place)) << command << name << ": " << r.err;
            EXPECT_EQ(lines(r.err).size(), 1u) << command << name << ": " << r.err;
        }
    }
    // 10^6 particles, read once (a second, ten under the sanitizers; run reads them as validate
    // does): the error is at their end, and its place is exact.
    const fs::path many = dir_ / "many-particles.json";
    std::ofstream(many, std::ios::binary) << manyParticles;
    const Result r = sim("validate " + many.string());
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find("many-particles.json:1000001:30: particles[1000000].mass: must be positive (got 0)"),
              std::string::npos)
        << r.err;
}

// duration / dt frames beyond a long used to wrap (undefined behaviour) into a run of no frames.
TEST_F(TinkerboxSim, RunsTooLongToCountAreRefused) {
    const Result r = sim("run --duration 1e300 " + (kScenes / "spring-oscillator.json").string());
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(
        r.err.find("spring-oscillator.json: a run of 1e+300 s at dt 0.0166667 s would take more than 1e15 frames"),
        std::string::npos)
        << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

// compare: one row per integrator, in the documented columns.
constexpr const char* kCompareHeader =
    "integrator,dt,substeps,steps,ms_per_step,max_energy_drift,max_constraint_error,max_position_error_vs_finest";

TEST_F(TinkerboxSim, CompareWritesOneRowPerIntegrator) {
    const Result r = sim("compare " + (kScenes / "triple-pendulum.json").string() +
                         " --integrator euler --integrator rk4 --integrator verlet --duration 1");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = lines(r.out);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[0], kCompareHeader);
    const char* names[] = {"euler", "rk4", "verlet"};
    for (int k = 0; k < 3; ++k) {
        const auto row = cells(rows[1 + k]);
        ASSERT_EQ(row.size(), 8u) << rows[1 + k];
        EXPECT_EQ(row[0], names[k]);
        EXPECT_EQ(std::stod(row[1]), 1.0 / 60.0);
        const long substeps = std::stol(row[2]);
        EXPECT_EQ(std::stol(row[3]), 60 * substeps) << "one second of frames";
        EXPECT_GT(std::stod(row[4]), 0.0);
        for (int c = 5; c < 8; ++c) EXPECT_GE(std::stod(row[c]), 0.0) << rows[1 + k];
    }
    // Fourth order against first: rk4 is far closer to the reference and keeps the energy better.
    const auto euler = fields(rows[1].substr(rows[1].find(',') + 1));
    const auto rk4 = fields(rows[2].substr(rows[2].find(',') + 1));
    EXPECT_LT(rk4[6], 0.01 * euler[6]);
    EXPECT_LT(rk4[4], euler[4]);
}

// The position error against the reference falls with the step as the method's order says:
// halving the step of a p-th order method divides its global error by about 2^p (Hairer,
// Norsett and Wanner, Solving Ordinary Differential Equations I, section II.3). The
// reference's own error, 16^4 times below rk4's, does not show.
TEST_F(TinkerboxSim, ComparePositionErrorsFallWithTheOrderOfEachMethod) {
    const auto errors = [&](int substeps) {
        const Result r = sim("compare " + (kScenes / "spring-oscillator.json").string() +
                             " --integrator euler --integrator midpoint --integrator rk4 --duration 1 --substeps " +
                             std::to_string(substeps));
        EXPECT_EQ(r.exitCode, 0) << r.err;
        const auto rows = lines(r.out);
        std::vector<double> out;
        for (std::size_t k = 1; k < rows.size(); ++k) out.push_back(std::stod(cells(rows[k])[7]));
        return out;
    };
    const std::vector<double> coarse = errors(8), fine = errors(16);
    ASSERT_EQ(coarse.size(), 3u);
    ASSERT_EQ(fine.size(), 3u);
    EXPECT_NEAR(coarse[0] / fine[0], 2.0, 0.3) << "euler, order 1";
    EXPECT_NEAR(coarse[1] / fine[1], 4.0, 0.6) << "midpoint, order 2";
    EXPECT_NEAR(coarse[2] / fine[2], 16.0, 3.0) << "rk4, order 4";
}

TEST_F(TinkerboxSim, CompareFreezesADivergedRunAndGoesOnWithTheOthers) {
    const Result r = sim("compare " + (kScenes / "stiff-spring.json").string() +
                         " --integrator euler --integrator implicit-euler --duration 2 --reference implicit-euler");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("euler diverged"), std::string::npos) << r.err;
    const auto rows = lines(r.out);
    ASSERT_EQ(rows.size(), 3u) << r.out;
    const auto euler = cells(rows[1]), implicit = cells(rows[2]);
    EXPECT_EQ(euler[0], "euler");
    EXPECT_LT(std::stol(euler[3]), 120) << "euler stopped before the end";
    for (int c = 5; c < 8; ++c) EXPECT_EQ(euler[c], "inf") << "no bound on a diverged run's errors";
    EXPECT_EQ(implicit[0], "implicit-euler");
    EXPECT_EQ(std::stol(implicit[3]), 120) << "implicit Euler ran the whole 2 s";
}

// The PNG's size, from its IHDR chunk (PNG specification, section 11.2.2: width and height
// big-endian right after the signature, the chunk length and "IHDR").
std::pair<int, int> pngSize(const std::string& png) {
    const auto at = [&](std::size_t i) {
        return (static_cast<unsigned char>(png[i]) << 24) | (static_cast<unsigned char>(png[i + 1]) << 16) |
               (static_cast<unsigned char>(png[i + 2]) << 8) | static_cast<unsigned char>(png[i + 3]);
    };
    if (png.size() < 24 || png.compare(1, 3, "PNG") != 0 || png.compare(12, 4, "IHDR") != 0) return {0, 0};
    return {at(16), at(20)};
}

TEST_F(TinkerboxSim, ComparePlotWritesAPngOfTheDocumentedSize) {
    const fs::path plot = dir_ / "compare.png";
    const Result r = sim("compare " + (kScenes / "double-pendulum.json").string() +
                         " --integrator midpoint --integrator symplectic-euler --integrator rk4 --duration 2 --plot " +
                         plot.string() + " --out " + (dir_ / "compare.csv").string());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(r.out.empty());
    EXPECT_EQ(lines(readFile(dir_ / "compare.csv")).size(), 4u);
    const std::string png = readFile(plot);
    EXPECT_EQ(pngSize(png), std::make_pair(960, 720));
    // A copy to look at.
    fs::copy_file(plot, fs::path(TINKERBOX_BINARY_DIR) / "compare-double-pendulum.png",
                  fs::copy_options::overwrite_existing);
    EXPECT_NE(sim("compare " + (kScenes / "double-pendulum.json").string() +
                  " --integrator rk4 --duration 0.1 --plot " + (dir_ / "missing" / "x.png").string())
                  .exitCode,
              0);
}

// Without --integrator, the scene's "compare" list.
TEST_F(TinkerboxSim, CompareRunsTheScenesCompareList) {
    Scene scene = loadScene(kScenes / "double-pendulum.json");
    scene.compare = {"midpoint", "verlet"};
    saveScene(scene, dir_ / "listed.json");
    const Result r = sim("compare " + (dir_ / "listed.json").string() + " --steps 10");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto rows = lines(r.out);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(cells(rows[1])[0], "midpoint");
    EXPECT_EQ(cells(rows[2])[0], "verlet");
    const Result flag = sim("compare " + (dir_ / "listed.json").string() + " --steps 10 --integrator euler");
    ASSERT_EQ(lines(flag.out).size(), 2u) << "--integrator replaces the list";
    EXPECT_EQ(cells(lines(flag.out)[1])[0], "euler");
}

TEST_F(TinkerboxSim, CompareUsageErrorsExitWithCodeTwo) {
    const std::string scene = (kScenes / "spring-oscillator.json").string();
    const Result none = sim("compare " + scene);
    EXPECT_EQ(none.exitCode, 2) << "no integrator, none in the scene";
    EXPECT_NE(none.err.find("nothing to compare"), std::string::npos) << none.err;
    EXPECT_EQ(sim("compare " + scene + " --integrator rk5").exitCode, 2);
    EXPECT_EQ(sim("compare " + scene + " --integrator rk4 --reference rk5").exitCode, 2);
    EXPECT_EQ(sim("compare " + scene + " --integrator rk4 --duration 1 --steps 5").exitCode, 2);
}

// What validate accepts, run runs: a slider direction whose norm overflows a double used
// to build as a zero direction, and a scene with a UTF-8 byte order mark is a scene.
TEST_F(TinkerboxSim, WhatValidateAcceptsRuns) {
    const std::string slider = R"({"format":"tinkerbox-scene","version":1,"particles":[{"position":[0,0]}],)"
                               R"("constraints":[{"type":"slider","particle":0,"direction":[1e300,0]}]})";
    const std::pair<std::string, std::string> files[] = {{"slider", slider}, {"bom", "\xEF\xBB\xBF" + slider}};
    for (const auto& [name, text] : files) {
        const fs::path file = dir_ / (name + ".json");
        std::ofstream(file, std::ios::binary) << text;
        const Result valid = sim("validate " + file.string());
        EXPECT_EQ(valid.exitCode, 0) << name << ": " << valid.err;
        EXPECT_NE(valid.out.find("1 particles, 0 springs, 1 constraints"), std::string::npos) << valid.out;
        const Result run = sim("run --duration 0.5 " + file.string());
        ASSERT_EQ(run.exitCode, 0) << name << ": " << run.err;
        const auto rows = lines(run.out);
        ASSERT_EQ(rows.size(), 32u);  // header, t = 0 and 30 frames
        const std::vector<double> last = fields(rows.back());
        EXPECT_NEAR(last[6], 0.0, 1e-6) << rows.back();  // p0_y: held on the x axis against gravity
    }
}

// The crashes a hostile tester found in the contact step (segmentation faults under oba, a row
// of NaN under baraff): a box under a drag of 1e50, dominoes joined by a spring damped by 1e50,
// a Newton's cradle with fixed balls; and one the scene fuzzer found in projective (a chain with
// a spring of 1e20 N/m, whose matrix has no factorization, ended the process). Under both contact models and every
// integrator each run ends at its duration (exit 0) or stops saying where it diverged (exit 1), and its CSV holds only
// finite numbers.
TEST_F(TinkerboxSim, ContactCrashScenesRunOrStopAndWriteOnlyFiniteNumbers) {
    const fs::path seeds = fs::path(TINKERBOX_SOURCE_DIR) / "tests" / "fuzz" / "scene-seeds";
    for (const char* scene : {"box-under-a-drag-of-1e50.json", "dominoes-with-a-damping-of-1e50.json",
                              "cradle-with-fixed-balls.json", "chain-with-a-stiffness-of-1e20.json"})
        for (const char* model : {"baraff", "oba"})
            for (const char* integrator : {"euler", "midpoint", "rk4", "implicit-euler", "adaptive", "symplectic-euler",
                                           "verlet", "projective"}) {
                const std::string what = std::string(scene) + " under " + model + " and " + integrator;
                const Result r = sim("run " + (seeds / scene).string() + " --contact " + model + " --integrator " +
                                     integrator + " --duration 1");
                ASSERT_TRUE(r.exitCode == 0 || r.exitCode == 1) << what << ": exit " << r.exitCode << "\n" << r.err;
                if (r.exitCode == 1) {
                    EXPECT_NE(r.err.find(std::string(integrator) + " diverged at t = "), std::string::npos)
                        << what << r.err;
                    EXPECT_NE(r.err.find("dt = "), std::string::npos) << what << r.err;
                }
                const auto rows = lines(r.out);
                ASSERT_GE(rows.size(), 2u) << what;
                for (std::size_t k = 1; k < rows.size(); ++k)
                    for (double value : fields(rows[k])) ASSERT_TRUE(std::isfinite(value)) << what << ", row " << k;
            }
    // The cradle runs its second to the end under both models: its first ball comes back from
    // the fixed second one with the energy it had (restitution 1, no friction).
    for (const char* model : {"baraff", "oba"}) {
        const Result r =
            sim("run " + (seeds / "cradle-with-fixed-balls.json").string() + " --contact " + model + " --duration 1");
        ASSERT_EQ(r.exitCode, 0) << model << ": " << r.err;
        const auto rows = lines(r.out);
        const double start = fields(rows[1])[3], end = fields(rows.back())[3];
        EXPECT_NEAR(end, start, 0.02 * start) << model;
    }
}

// A thousand unit boxes on one spot overlap in 499,500 pairs, two million contact points: the
// run stops at its first frame with exit 1 and says why, within a fraction of a gigabyte,
// under both contact models (it took 6.6 GB within a minute and then aborted).
TEST_F(TinkerboxSim, AThousandBoxesOnOneSpotStopWithinAGigabyte) {
    std::ofstream file(dir_ / "pile.json");
    file
        << R"({"format": "tinkerbox-scene", "version": 2, "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0]}], "bodies": [)";
    for (int k = 0; k < 1000; ++k)
        file << (k > 0 ? ", " : "") << R"({"shape": {"box": {"size": [1, 1, 1]}}, "position": [0, 0.5, 0]})";
    file << "]}";
    file.close();
    for (const char* model : {"baraff", "oba"}) {
        const Result r = sim("run " + (dir_ / "pile.json").string() + " --contact " + model + " --duration 1");
        EXPECT_EQ(r.exitCode, 1) << model << ": " << r.err;
        EXPECT_NE(r.err.find(std::string("the contact step (") + model + ") stopped under rk4 at t = 0.0166667 s"),
                  std::string::npos)
            << r.err;
        EXPECT_NE(r.err.find("contact points at once (bodies piled on one another)"), std::string::npos) << r.err;
        EXPECT_EQ(lines(r.out).size(), 2u) << model;  // the header and the row at t = 0
    }
    // The largest child this test waited for: the runs above (ru_maxrss in kilobytes).
    rusage usage{};
    ASSERT_EQ(getrusage(RUSAGE_CHILDREN, &usage), 0);
    EXPECT_LT(usage.ru_maxrss, 1024L * 1024L);
}

}  // namespace
}  // namespace tinkerbox
