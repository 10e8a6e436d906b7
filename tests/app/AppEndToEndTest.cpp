// The app as a user drives it: a real window on a private Xvfb server the tests start,
// real X input from xdotool, and screenshots read back.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <spawn.h>
#include <stb_image.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <functional>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "PrivateXServer.h"
#include "Shell.h"
#include "editor/Chain.h"
#include "scene/BenchmarkScenes.h"
#include "scene/ExampleScenes.h"
#include "scene/SceneBuilder.h"
#include "scene/SceneJson.h"

extern char** environ;

namespace tinkerbox {
namespace {

namespace fs = std::filesystem;

const fs::path kScenes = fs::path(TINKERBOX_SOURCE_DIR) / "assets" / "scenes";

[[maybe_unused]] const auto* const kXServer = ::testing::AddGlobalTestEnvironment(new PrivateXServer);

// What the app reports after every frame in its --status-file: "key value" lines.
struct Status {
    std::map<std::string, std::string> fields;

    std::string text(const std::string& key) const {
        const auto it = fields.find(key);
        return it == fields.end() ? "" : it->second;
    }
    double number(const std::string& key) const {
        const std::string value = text(key);
        return value.empty() ? NAN : std::stod(value);
    }
    bool cursorAt(double x, double y) const {
        std::istringstream in(text("cursor"));
        double cx = NAN, cy = NAN;
        in >> cx >> cy;
        return cx == x && cy == y;
    }
    std::string describe() const {
        std::string out;
        for (const auto& [key, value] : fields) out += "  " + key + " " + value + "\n";
        return out.empty() ? "  (no status yet)\n" : out;
    }
};

Status readStatus(const fs::path& file) {
    Status status;
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
        const std::size_t space = line.find(' ');
        if (space != std::string::npos) status.fields[line.substr(0, space)] = line.substr(space + 1);
    }
    return status;
}

// Waits bound an app that hangs; they never pace what the test checks, so they are generous.
constexpr double kHang = 120.0;

int sh(const std::string& command) { return std::system(command.c_str()); }

using test::output;
using test::probeVideo;

class App : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("tinkerbox-app-" + std::to_string(::getpid()) + "-" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir_);
        status_ = dir_ / "status.txt";
        // A fresh user: no remembered scene, no autosave to restore.
        ::setenv("XDG_CONFIG_HOME", (dir_ / "config").c_str(), 1);
        ::setenv("XDG_STATE_HOME", (dir_ / "state").c_str(), 1);
        // The app renames each new status into place: that is the event the test waits on.
        watch_ = ::inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
        ASSERT_GE(watch_, 0);
        ASSERT_GE(::inotify_add_watch(watch_, dir_.c_str(), IN_MOVED_TO | IN_CLOSE_WRITE), 0);
    }
    void TearDown() override {
        stop();
        if (watch_ >= 0) ::close(watch_);
        fs::remove_all(dir_);
    }

    void stop() {
        if (pid_ <= 0) return;
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
        closeProcess();
    }

    // Starts the app in the background, reporting its state in status_.
    void start(std::vector<std::string> args) {
        fs::remove(status_);
        args.insert(args.begin(), TINKERBOX_APP);
        args.insert(args.end(), {"--status-file", status_.string()});
        std::vector<char*> argv;
        for (std::string& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        // In the test's own directory: what the app names itself (F12's screenshots, Ctrl+R's
        // videos) goes there, apart from the files of a test running beside this one.
        posix_spawn_file_actions_t actions;
        ::posix_spawn_file_actions_init(&actions);
        ::posix_spawn_file_actions_addchdir_np(&actions, dir_.c_str());
        const int spawned = ::posix_spawn(&pid_, TINKERBOX_APP, &actions, nullptr, argv.data(), environ);
        ::posix_spawn_file_actions_destroy(&actions);
        ASSERT_EQ(spawned, 0);
        process_ = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
        ASSERT_GE(process_, 0);
    }

    // Waits for the app to exit; returns its exit code (-1 if it is still running after `seconds`).
    int wait(double seconds = kHang) {
        pollfd exited{process_, POLLIN, 0};
        if (pid_ <= 0 || ::poll(&exited, 1, static_cast<int>(seconds * 1000)) != 1) return -1;
        int status = 0;
        ::waitpid(pid_, &status, 0);
        closeProcess();
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

    // Runs the app to completion (a screenshot run or a script that quits) and returns its exit code.
    int run(std::vector<std::string> args) {
        start(std::move(args));
        return wait();
    }

    // Runs the app in the test's window on `args` (a scene file, or none: a new scene) with the
    // input script `input`, which ends by quitting, and gives the scene it saved on exit.
    Scene runScript(std::vector<std::string> args, const std::string& input);

    // The app's status once `done` holds for it; fails the test if the app exits or hangs first.
    Status waitFor(const std::function<bool(const Status&)>& done, const std::string& what) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(kHang);
        Status status;
        while (true) {
            status = readStatus(status_);
            if (!status.fields.empty() && done(status)) return status;
            const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
            if (left <= 0.0) break;
            pollfd events[2] = {{watch_, POLLIN, 0}, {process_, POLLIN, 0}};
            ::poll(events, 2, static_cast<int>(left * 1000) + 1);
            if (events[1].revents) {  // the app exited: no status will change any more
                status = readStatus(status_);
                if (done(status)) return status;
                ADD_FAILURE() << "the app exited before " << what << "; its last status:\n" << status.describe();
                return status;
            }
            char buffer[4096];
            while (::read(watch_, buffer, sizeof buffer) > 0) {
            }
        }
        ADD_FAILURE() << "no " << what << " after " << kHang << " s; the app's status:\n" << status.describe();
        return status;
    }

    // Sends one xdotool command and waits until the app shows its effect.
    Status xdotool(const std::string& args, const std::function<bool(const Status&)>& shown) {
        EXPECT_EQ(sh("xdotool " + args), 0) << args;
        return waitFor(shown, "effect of xdotool " + args);
    }
    // Starts the app at 1280 x 800 with --save-on-exit saved, moves the pointer onto the scene
    // area (no panel under it) and empties the scene with Ctrl+N; returns appWindow().
    std::string startEmpty(const fs::path& saved) {
        start({"--save-on-exit", saved.string(), "--width", "1280", "--height", "800"});
        const std::string w = appWindow();
        if (HasFailure()) return w;
        xdotool("mousemove" + w + "640 600", cursor(640, 600, 0));
        xdotool("key" + w + "ctrl+n", [](const Status& s) {
            return s.text("document") == "untitled" && s.number("particles") == 0 && s.number("bodies") == 0;
        });
        return w;
    }
    // " --window ID ": the app's window, for xdotool's commands.
    std::string appWindow() {
        const std::string window = output("xdotool search --sync --onlyvisible --name Tinkerbox | head -1");
        EXPECT_FALSE(window.empty()) << "no Tinkerbox window appeared";
        return " --window " + window + " ";
    }
    // What the status shows after an input: a field's text; a count with the buttons up;
    // the pointer at a place with these buttons down.
    static std::function<bool(const Status&)> field(const char* key, const std::string& value) {
        return [=](const Status& s) { return s.text(key) == value; };
    }
    static std::function<bool(const Status&)> count(const char* key, double value, double buttons = 0) {
        return [=](const Status& s) { return s.number(key) == value && s.number("buttons") == buttons; };
    }
    static std::function<bool(const Status&)> cursor(double px, double py, double buttons) {
        return [=](const Status& s) { return s.cursorAt(px, py) && s.number("buttons") == buttons; };
    }

    fs::path dir_, status_;
    pid_t pid_ = -1;

private:
    void closeProcess() {
        pid_ = -1;
        if (process_ >= 0) ::close(process_);
        process_ = -1;
    }

    int watch_ = -1, process_ = -1;
};

std::string writeFile(const fs::path& file, const std::string& text) {
    std::ofstream(file) << text;
    return file.string();
}

const std::vector<std::string> kWindow = {"--width", "1280", "--height", "800"};
std::vector<std::string> withWindow(std::vector<std::string> args) {
    args.insert(args.end(), kWindow.begin(), kWindow.end());
    return args;
}

Scene App::runScript(std::vector<std::string> args, const std::string& input) {
    const fs::path saved = dir_ / "saved.json";
    args.insert(args.end(), {"--script", writeFile(dir_ / "input.txt", input), "--save-on-exit", saved.string()});
    EXPECT_EQ(run(withWindow(std::move(args))), 0);
    return loadScene(saved);
}

struct Image {
    int width = 0, height = 0;
    std::vector<unsigned char> rgb;
    const unsigned char* at(int x, int y) const { return rgb.data() + 3 * (static_cast<std::size_t>(y) * width + x); }
};

Image load(const fs::path& file) {
    Image image;
    int channels = 0;
    unsigned char* data = stbi_load(file.c_str(), &image.width, &image.height, &channels, 3);
    if (data) {
        image.rgb.assign(data, data + 3 * static_cast<std::size_t>(image.width) * image.height);
        stbi_image_free(data);
    }
    return image;
}

// The part of the window between the side panels, where the model is drawn.
constexpr int kLeft = 330, kRight = 950, kTop = 70, kBottom = 740;

int differingPixels(const Image& a, const Image& b) {
    int count = 0;
    for (int y = kTop; y < kBottom; ++y)
        for (int x = kLeft; x < kRight; ++x) {
            const unsigned char *p = a.at(x, y), *q = b.at(x, y);
            if (std::abs(p[0] - q[0]) + std::abs(p[1] - q[1]) + std::abs(p[2] - q[2]) > 48) ++count;
        }
    return count;
}

// Pixels clearly brighter than the dark background: the model, not the grid.
int brightPixels(const Image& a) {
    int count = 0;
    for (int y = kTop; y < kBottom; ++y)
        for (int x = kLeft; x < kRight; ++x) {
            const unsigned char* p = a.at(x, y);
            if (p[0] + p[1] + p[2] > 330) ++count;
        }
    return count;
}

// Whether anything in the model moves by more than a millimetre in its first frames.
bool movesInFrames(const Scene& scene, int frames) {
    const auto simulation = buildSimulation(scene);
    VecX start, now;
    simulation->world().getState(start);
    for (int f = 0; f < frames; ++f) simulation->step();
    simulation->world().getState(now);
    const Index configuration = simulation->world().configurationDimension();
    return (now.head(configuration) - start.head(configuration)).lpNorm<Eigen::Infinity>() > 1e-3;
}

// One run of each scene: a script's screenshot of its second frame, and --screenshot of its 20th.
TEST_F(App, EveryBuiltInSceneRendersAndMoves) {
    for (const ExampleScene& example : exampleScenes()) {
        const fs::path scene = kScenes / (std::string(example.name) + ".json");
        const fs::path first = dir_ / (std::string(example.name) + "-1.png");
        const fs::path later = dir_ / (std::string(example.name) + "-2.png");
        const fs::path script = dir_ / (std::string(example.name) + ".txt");
        std::ofstream(script) << "1 screenshot " << first.string() << '\n';
        ASSERT_EQ(run({scene.string(), "--play", "--width", "1280", "--height", "800", "--script", script.string(),
                       "--screenshot", later.string(), "--frames", "20"}),
                  0)
            << example.name;
        const Image a = load(first), b = load(later);
        ASSERT_EQ(a.width, 1280) << example.name;
        ASSERT_EQ(a.height, 800) << example.name;
        EXPECT_GT(brightPixels(a), 40) << example.name << ": nothing drawn";
        // Every model that moves must be seen to move. (One built to stand, a stack or a box
        // held by friction on a slope, is left to the contact tests: its picture may still
        // change, by the banner that says a heavy model runs slower than real time.)
        if (movesInFrames(example.make(), 20)) {
            EXPECT_GT(differingPixels(a, b), 40) << example.name << ": the picture did not change while running";
        }
    }
}

// A screenshot a script asks for that cannot be written fails the run (exit status 1), and the
// run goes on to its end: the other pictures are still saved.
TEST_F(App, AScriptedScreenshotThatCannotBeWrittenFailsTheRun) {
    const fs::path script = dir_ / "shots.txt", kept = dir_ / "kept.png", last = dir_ / "last.png";
    std::ofstream(script) << "1 screenshot " << (dir_ / "no such folder" / "lost.png").string() << "\n2 screenshot "
                          << kept.string() << '\n';
    EXPECT_EQ(run({(kScenes / "pendulum-6.json").string(), "--width", "640", "--height", "400", "--script",
                   script.string(), "--screenshot", last.string(), "--frames", "4"}),
              1);
    EXPECT_EQ(load(kept).width, 640);
    EXPECT_EQ(load(last).width, 640);
}

// A dense model (the 64 x 64 benchmark cloth, 23,938 springs) takes the renderer's line path
// for its springs: they are drawn (paused, the picture differs from the particles alone),
// and the cloth moves.
TEST_F(App, ADenseClothRendersItsSpringsAndMoves) {
    const auto shoot = [&](const Scene& scene, const std::string& name, bool play, const char* frames) {
        const fs::path file = dir_ / (name + ".json"), shot = dir_ / (name + ".png");
        saveScene(scene, file);
        std::vector<std::string> args = {file.string(),  "--width",     "1280",     "--height", "800",
                                         "--screenshot", shot.string(), "--frames", frames};
        if (play) args.push_back("--play");
        EXPECT_EQ(run(args), 0) << name;
        return load(shot);
    };
    const Scene cloth = makeBenchmarkScene("cloth-64");
    Scene particlesOnly = cloth;
    particlesOnly.springs.clear();
    const Image still = shoot(cloth, "cloth", false, "2"), bare = shoot(particlesOnly, "particles", false, "2");
    EXPECT_GT(brightPixels(still), 5000);
    // Bright pixels: the springs, not the faint grid (which takes the line path too), seen
    // between the particles drawn over them (about 1,900 of them here).
    EXPECT_GT(brightPixels(still) - brightPixels(bare), 1000) << "the springs are not drawn";
    const Image later = shoot(cloth, "cloth-later", true, "20");
    EXPECT_GT(differingPixels(still, later), 1000) << "the cloth did not move";
}

TEST_F(App, BuildsAModelWithRealInput) {
    // The issue's scenario, through X: start, empty the scene, P and click three points, S and
    // drag from the first to the second, N and click the first, Space, right-drag the third
    // for a moment, 4, wait, Ctrl+Q. After each input the test waits until the app shows its
    // effect, and the moments are measured in simulated time: the machine may be as slow as it likes.
    const fs::path saved = dir_ / "saved.json";
    const std::string w = startEmpty(saved);
    ASSERT_FALSE(HasFailure());
    const auto x = [this](const std::string& args, const std::function<bool(const Status&)>& shown) {
        return xdotool(args, shown);
    };
    x("key" + w + "p", field("tool", "Particle"));
    x("mousemove" + w + "560 400 click 1", count("particles", 1));
    x("mousemove" + w + "720 400 click 1", count("particles", 2));
    x("mousemove" + w + "640 520 click 1", count("particles", 3));
    x("key" + w + "s", field("tool", "Spring"));
    x("mousemove" + w + "560 400 mousedown 1", cursor(560, 400, 1));
    x("mousemove" + w + "640 402", cursor(640, 402, 1));
    x("mousemove" + w + "720 400 mouseup 1", count("springs", 1));
    x("key" + w + "n", field("tool", "Nail"));
    x("mousemove" + w + "560 400 click 1", count("nailed", 1));
    x("key" + w + "space", field("playing", "1"));
    const double pressed = x("mousemove" + w + "640 520 mousedown 3", cursor(640, 520, 2)).number("time");
    x("mousemove" + w + "700 480", cursor(700, 480, 2));
    x("mousemove" + w + "760 450", cursor(760, 450, 2));
    waitFor([&](const Status& s) { return s.number("time") >= pressed + 0.25; }, "a quarter second of dragging");
    x("mouseup 3", count("particles", 3));
    const double switched = x("key" + w + "4", field("integrator", "implicit-euler")).number("time");
    // Long enough for the free particle to fall well clear, and for the damping of implicit
    // Euler to keep the swinging one from coming back up level with the nail.
    waitFor([&](const Status& s) { return s.number("time") >= switched + 5.0; }, "5 s of implicit Euler");
    EXPECT_EQ(sh("xdotool key" + w + "ctrl+q"), 0);
    ASSERT_EQ(wait(), 0) << "the app did not quit on Ctrl+Q";

    const Scene scene = loadScene(saved);
    ASSERT_EQ(scene.particles.size(), 3u);
    ASSERT_EQ(scene.springs.size(), 1u);
    EXPECT_EQ(scene.springs[0].a, 0);
    EXPECT_EQ(scene.springs[0].b, 1);
    EXPECT_TRUE(scene.particles[0].nailed);
    EXPECT_FALSE(scene.particles[1].nailed);
    EXPECT_FALSE(scene.particles[2].nailed);
    EXPECT_EQ(scene.settings.integrator, "implicit-euler");
    // The free particles moved: the second, made level with the nail, hangs below it on its
    // spring; the third fell. (Not how fast the second still swings: implicit Euler damps it
    // out, so that would depend on how long after the 5 s the quit arrived.)
    EXPECT_LT(scene.particles[1].position.y(), scene.particles[0].position.y() - 0.05);
    EXPECT_LT(scene.particles[2].position.y(), scene.particles[0].position.y() - 2.0);
}

TEST_F(App, BuildsWithBodiesByHand) {
    // In a new 2D scene: B and click a box, O and click a sphere below it, S and drag from the
    // box's corner to the sphere, N and click the box's other corner, Space, wait a second,
    // Ctrl+Q. The box hangs from the nail at its corner and the sphere from the box.
    const fs::path saved = dir_ / "bodies.json";
    const std::string w = startEmpty(saved);
    ASSERT_FALSE(HasFailure());
    const auto x = [this](const std::string& args, const std::function<bool(const Status&)>& shown) {
        return xdotool(args, shown);
    };
    x("key" + w + "b", field("tool", "Box"));
    x("mousemove" + w + "640 300 click 1", count("bodies", 1));
    x("key" + w + "o", field("tool", "Sphere"));
    x("mousemove" + w + "760 520 click 1", count("bodies", 2));
    // The new scene's view shows 8 m across 1280 pixels or more: a unit box spans at least
    // 100 pixels, so 35 pixels from its centre is inside it.
    x("key" + w + "s", field("tool", "Spring"));
    x("mousemove" + w + "670 330 mousedown 1", cursor(670, 330, 1));
    x("mousemove" + w + "720 420", cursor(720, 420, 1));
    x("mousemove" + w + "760 520 mouseup 1", count("springs", 1));
    x("key" + w + "n", field("tool", "Nail"));
    x("mousemove" + w + "610 270 click 1", count("constraints", 1));
    const double started = x("key" + w + "space", field("playing", "1")).number("time");
    waitFor([&](const Status& s) { return s.number("time") >= started + 1.0; }, "a second of simulated time");
    EXPECT_EQ(sh("xdotool key" + w + "ctrl+q"), 0);
    ASSERT_EQ(wait(), 0) << "the app did not quit on Ctrl+Q";

    const Scene scene = loadScene(saved);
    ASSERT_EQ(scene.bodies.size(), 2u);
    EXPECT_TRUE(std::holds_alternative<BoxShape>(scene.bodies[0].shape));
    EXPECT_TRUE(std::holds_alternative<SphereShape>(scene.bodies[1].shape));
    ASSERT_EQ(scene.springs.size(), 1u);
    EXPECT_EQ(scene.springs[0].a.body, (BodyRef{BodyKind::Rigid, 0}));
    EXPECT_EQ(scene.springs[0].b.body, (BodyRef{BodyKind::Rigid, 1}));
    ASSERT_EQ(scene.constraints.size(), 1u);
    const NailSpec nail = std::get<NailSpec>(scene.constraints[0]);
    EXPECT_EQ(nail.anchor.body, (BodyRef{BodyKind::Rigid, 0}));
    // The box turned about its nailed corner (its centre, up and right of the nail at the
    // start, swings down) and the sphere fell below where it was made.
    const auto sim = buildSimulation(scene);
    EXPECT_LT((sim->world().anchorPosition(nail.anchor) - nail.point).norm(), 1e-3);
    EXPECT_GT(std::abs(scene.bodies[0].orientation.z()), 0.05);
    EXPECT_LT(sim->world().rigidBodies().position(1).y(), scene.bodies[0].position.y() - 1.0);

    // A picture of it running, to look at.
    const fs::path picture = dir_ / "bodies.png";
    ASSERT_EQ(run({saved.string(), "--play", "--width", "1280", "--height", "800", "--screenshot", picture.string(),
                   "--frames", "30"}),
              0);
    EXPECT_GT(brightPixels(load(picture)), 400);
}

TEST_F(App, BuildsAChainThenCopiesAndPastesItWithARubberBand) {
    // In a new 2D scene: P and click two points, N and nail both, Ctrl+G (snap to the grid),
    // L and click each (a chain of 8 particles and 9 springs between them), V and drag a
    // rectangle around it all, Ctrl+C, Ctrl+V with the pointer lower down, Ctrl+Z and Ctrl+Y,
    // Space for a second, Ctrl+Q. The copy keeps every spring, on its own particles.
    const fs::path saved = dir_ / "chains.json";
    const std::string w = startEmpty(saved);
    ASSERT_FALSE(HasFailure());
    const auto x = [this](const std::string& args, const std::function<bool(const Status&)>& shown) {
        return xdotool(args, shown);
    };
    x("key" + w + "p", field("tool", "Particle"));
    x("mousemove" + w + "560 300 click 1", count("particles", 1));
    x("mousemove" + w + "760 300 click 1", count("particles", 2));
    x("key" + w + "n", field("tool", "Nail"));
    x("mousemove" + w + "560 300 click 1", count("nailed", 1));
    x("mousemove" + w + "760 300 click 1", count("nailed", 2));
    x("key" + w + "ctrl+g", field("message", "Snap to grid: on (0.25 m)"));
    x("key" + w + "l", field("tool", "Chain"));
    x("mousemove" + w + "560 300 click 1", cursor(560, 300, 0));
    x("mousemove" + w + "760 300 click 1", count("springs", 9));
    EXPECT_EQ(readStatus(status_).number("particles"), 10.0);
    x("key" + w + "v", field("tool", "Select"));
    x("mousemove" + w + "500 250 mousedown 1", cursor(500, 250, 1));
    x("mousemove" + w + "660 380", cursor(660, 380, 1));
    x("mousemove" + w + "820 500 mouseup 1", field("selection", "10 9 0 0 0"));
    x("key" + w + "ctrl+c", field("message", "Copied the selection"));
    x("mousemove" + w + "640 540 key" + w + "ctrl+v", count("particles", 20));
    EXPECT_EQ(readStatus(status_).number("springs"), 18.0);
    EXPECT_EQ(readStatus(status_).text("selection"), "10 9 0 0 0");  // the copy
    x("key" + w + "ctrl+z", count("particles", 10));
    x("key" + w + "ctrl+y", count("particles", 20));
    const double started = x("key" + w + "space", field("playing", "1")).number("time");
    waitFor([&](const Status& s) { return s.number("time") >= started + 1.0; }, "a second of simulated time");
    EXPECT_EQ(sh("xdotool key" + w + "ctrl+q"), 0);
    ASSERT_EQ(wait(), 0) << "the app did not quit on Ctrl+Q";

    const Scene scene = loadScene(saved);
    ASSERT_EQ(scene.particles.size(), 20u);
    ASSERT_EQ(scene.springs.size(), 18u);
    // The copy's nailed ends are the original's moved by whole grid steps (a paste on the grid).
    const auto onGrid = [](double v) { return std::abs(v / 0.25 - std::round(v / 0.25)) < 1e-9; };
    const Vec3 offset = scene.particles[10].position - scene.particles[0].position;
    for (Index i : {0, 1, 10, 11}) EXPECT_TRUE(scene.particles[i].nailed) << i;
    EXPECT_TRUE(onGrid(offset.x()) && onGrid(offset.y())) << offset.transpose();
    EXPECT_NEAR((scene.particles[11].position - scene.particles[1].position - offset).norm(), 0.0, 1e-12);
    EXPECT_LT(offset.y(), -1.0);
    // Each spring of the copy joins the copies of the original's ends, with its constants.
    for (std::size_t k = 0; k < 9; ++k) {
        const DampedSpring &a = scene.springs[k], &b = scene.springs[9 + k];
        EXPECT_EQ(b.a.index(), a.a.index() + 10) << k;
        EXPECT_EQ(b.b.index(), a.b.index() + 10) << k;
        EXPECT_EQ(b.stiffness, a.stiffness) << k;
        EXPECT_EQ(b.damping, a.damping) << k;
        EXPECT_EQ(b.restLength, a.restLength) << k;
    }
    // Both chains hang between their nails: their middles below their ends.
    EXPECT_LT(scene.particles[6].position.y(), scene.particles[0].position.y() - 0.2);
    EXPECT_LT(scene.particles[16].position.y(), scene.particles[10].position.y() - 0.2);

    // The same building replayed as an input script, stopped in the middle of a rubber band
    // around the copy: a picture to look at, with the grid, the selected copy and the band.
    const std::string script = writeFile(
        dir_ / "input.txt",
        "2 move 640 600\n3 key N ctrl\n7 key P\n9 move 560 300\n10 button left press\n"
        "11 button left release\n13 move 760 300\n14 button left press\n15 button left release\n17 key N\n"
        "19 move 560 300\n20 button left press\n21 button left release\n23 move 760 300\n24 button left press\n"
        "25 button left release\n26 key G ctrl\n27 key L\n29 move 560 300\n30 button left press\n31 button left "
        "release\n"
        "33 move 760 300\n34 button left press\n35 button left release\n37 key V\n39 move 500 250\n"
        "40 button left press\n41 move 660 380\n42 move 820 500\n43 button left release\n45 key C ctrl\n"
        "47 move 640 540\n48 key V ctrl\n50 move 480 470\n51 button left press shift\n52 move 700 640\n");
    const fs::path picture = dir_ / "chains.png";
    ASSERT_EQ(run(withWindow({"--script", script, "--screenshot", picture.string(), "--frames", "60"})), 0);
    const Status last = readStatus(status_);
    EXPECT_EQ(last.number("particles"), 20.0);
    EXPECT_EQ(last.number("springs"), 18.0);
    const Image image = load(picture);
    ASSERT_EQ(image.width, 1280);
    EXPECT_GT(brightPixels(image), 400);
    // Kept beside the test's other output, to look at.
    fs::copy_file(picture, fs::path(TINKERBOX_BINARY_DIR) / "building-by-hand.png",
                  fs::copy_options::overwrite_existing);
}

TEST_F(App, BoxesBuiltByClickingStackOnTheGround) {
    // In a new 2D scene: B and click three boxes one above the other, a little apart, Space,
    // wait three seconds, Ctrl+Q. They fall onto the new scene's ground and stand there in a
    // stack, upright, one on another.
    const fs::path saved = dir_ / "stack.json";
    const std::string w = startEmpty(saved);
    ASSERT_FALSE(HasFailure());
    const auto x = [this](const std::string& args, const std::function<bool(const Status&)>& shown) {
        return xdotool(args, shown);
    };
    x("key" + w + "b", field("tool", "Box"));
    x("mousemove" + w + "640 520 click 1", count("bodies", 1));
    x("mousemove" + w + "650 380 click 1", count("bodies", 2));
    x("mousemove" + w + "632 240 click 1", count("bodies", 3));
    const double started = x("key" + w + "space", field("playing", "1")).number("time");
    waitFor([&](const Status& s) { return s.number("time") >= started + 3.0; }, "three seconds of simulated time");
    EXPECT_EQ(sh("xdotool key" + w + "ctrl+q"), 0);
    ASSERT_EQ(wait(), 0) << "the app did not quit on Ctrl+Q";

    const Scene scene = loadScene(saved);
    ASSERT_EQ(scene.bodies.size(), 3u);
    ASSERT_EQ(scene.planes.size(), 1u);
    double below = scene.planes[0].point.y();
    for (const RigidBodySpec& box : scene.bodies) {
        const double half = std::get<BoxShape>(box.shape).size.y() / 2.0;
        // On the one below (the ground for the first), within a millimetre, upright and still.
        EXPECT_NEAR(box.position.y() - half, below, 1e-3);
        EXPECT_LT(std::abs(box.orientation.z()), 1e-3);
        EXPECT_LT(box.velocity.norm(), 1e-2);
        below = box.position.y() + half;
    }
}

TEST_F(App, InputScriptsDriveTheSamePath) {
    // A recording: the particle tool, two clicks, undo, quit.
    const fs::path script = dir_ / "input.txt";
    std::ofstream(script) << "2 move 600 400\n3 key P\n5 button left press\n6 button left release\n"
                             "7 move 700 420\n8 button left press\n9 button left release\n"
                             "11 key Z ctrl\n14 key Q ctrl\n";
    const fs::path saved = dir_ / "saved.json";
    ASSERT_EQ(run({(kScenes / "spring-oscillator.json").string(), "--script", script.string(), "--save-on-exit",
                   saved.string(), "--width", "1280", "--height", "800"}),
              0);
    const Scene scene = loadScene(saved);
    EXPECT_EQ(scene.particles.size(), 4u + 1u);  // two added, one undone
}

// Quitting with unsaved edits asks first: Escape cancels (the app keeps running), Enter saves
// to the document's file and quits. Without edits, Ctrl+Q quits at once.
TEST_F(App, UnsavedEditsAreNotLostOnQuit) {
    const fs::path document = dir_ / "document.json";
    fs::copy_file(kScenes / "spring-oscillator.json", document);
    const std::size_t before = loadScene(document).particles.size();
    const auto script = [&](const std::string& name, const std::string& text) { return writeFile(dir_ / name, text); };
    const auto args = withWindow;
    // No edits: quits on Ctrl+Q.
    EXPECT_EQ(run(args({document.string(), "--script", script("quit.txt", "5 key Q ctrl\n")})), 0);
    // An added particle, Ctrl+Q, Escape: still running 40 frames later, with the edit.
    const std::string addParticle = "2 move 600 400\n3 key P\n5 button left press\n6 button left release\n";
    start(args({document.string(), "--script", script("cancel.txt", addParticle + "10 key Q ctrl\n20 key ESCAPE\n")}));
    const Status later = waitFor([](const Status& s) { return s.number("frame") >= 60; }, "frame 60");
    EXPECT_EQ(later.number("particles"), static_cast<double>(before + 1)) << "the app quit with unsaved edits";
    EXPECT_EQ(later.text("modified"), "1");
    stop();
    // The same, then Enter in the prompt: saved to the document, and the app quits.
    EXPECT_EQ(
        run(args({document.string(), "--script", script("save.txt", addParticle + "10 key Q ctrl\n20 key ENTER\n")})),
        0);
    EXPECT_EQ(loadScene(document).particles.size(), before + 1);
}

// A file that reads as JSON but is refused (a slider without a direction): the open scene,
// its edits, history and unsaved flag stay, and the status line says what and where.
TEST_F(App, AFileThatIsRefusedLeavesTheOpenSceneAsItWas) {
    const fs::path document = dir_ / "document.json";
    fs::copy_file(kScenes / "bead-on-wire.json", document);
    const Scene original = loadScene(document);
    ASSERT_FALSE(original.wires.empty());
    const std::string bad =
        writeFile(dir_ / "bad.json", R"({"format": "tinkerbox-scene", "version": 1, "name": "Broken",
  "particles": [{"position": [0, 0, 0]}],
  "constraints": [{"type": "slider", "particle": 0, "direction": [0, 0, 0]}],
  "wires": [{"center": [0, 0, 0], "radius": 2}]})");
    // Two particles added (unsaved), the bad file dropped, the prompt's Ctrl+D (open it
    // without saving), then quit.
    const std::string script = writeFile(dir_ / "input.txt",
                                         "2 move 640 650\n3 key P\n5 button left press\n"
                                         "6 button left release\n8 move 800 650\n"
                                         "9 button left press\n10 button left release\n"
                                         "12 drop " +
                                             bad + "\n20 key D ctrl\n30 key Q ctrl\n");
    const fs::path saved = dir_ / "saved.json";
    ASSERT_EQ(run(withWindow({document.string(), "--script", script, "--save-on-exit", saved.string()})), 0);
    const Status status = readStatus(status_);
    EXPECT_EQ(status.text("document"), "document.json");
    EXPECT_EQ(status.text("modified"), "1");
    EXPECT_EQ(status.text("undo"), "2");
    const std::string message = status.text("message");
    EXPECT_NE(message.find("Could not open: " + bad), std::string::npos) << message;
    EXPECT_NE(message.find("bad.json:3:"), std::string::npos) << message;
    EXPECT_NE(message.find("constraints[0].direction"), std::string::npos) << message;
    const Scene scene = loadScene(saved);
    EXPECT_EQ(scene.name, original.name);
    EXPECT_EQ(scene.wires, original.wires);
    EXPECT_EQ(scene.particles.size(), original.particles.size() + 2);
    EXPECT_EQ(scene.constraints, original.constraints);
    EXPECT_EQ(loadScene(document), original);  // nothing was written over the document
}

// Ctrl+N from a 3D scene (the cloth): the empty scene opens in 2D, so a clicked particle lands on z = 0.
TEST_F(App, ANewSceneOpensInTwoD) {
    const std::string script = writeFile(dir_ / "input.txt",
                                         "3 key N ctrl\n6 move 640 400\n7 key P\n9 button left press\n"
                                         "10 button left release\n14 key Q ctrl\n");
    const fs::path saved = dir_ / "saved.json";
    ASSERT_EQ(
        run(withWindow({(kScenes / "cloth.json").string(), "--script", script, "--save-on-exit", saved.string()})), 0);
    EXPECT_EQ(readStatus(status_).text("view"), "2D");
    const Scene scene = loadScene(saved);
    ASSERT_EQ(scene.particles.size(), 1u);
    EXPECT_EQ(scene.particles[0].position.z(), 0.0);
}

// A contact scene runs with the K overlay on, and the status file names the contact model
// and counts the last frame's contacts.
TEST_F(App, AContactSceneReportsItsContactModelAndContacts) {
    const std::string script = writeFile(dir_ / "input.txt", "2 key K\n20 key Q ctrl\n");
    ASSERT_EQ(run(withWindow({(kScenes / "box-stack.json").string(), "--play", "--script", script})), 0);
    const Status status = readStatus(status_);
    EXPECT_EQ(status.text("contact_model"), "baraff");
    EXPECT_EQ(status.number("bodies"), 10.0);
    const double contacts = status.number("contacts");
    EXPECT_GE(contacts, 0.0) << status.text("contacts");  // NaN when the line is missing
    EXPECT_EQ(contacts, std::floor(contacts));
}

// Shift+K with real input: the cloth heap runs with its own thickness; off, the status reads
// 0; on again, the thickness is 0.8 of the distance between neighbouring particles (the
// spacing, 1.2 m / 31, give or take what the falling cloth stretches).
TEST_F(App, ShiftKTurnsSelfCollisionOffAndOn) {
    start({(kScenes / "cloth-heap.json").string(), "--play", "--width", "1280", "--height", "800"});
    const std::string w = appWindow();
    if (HasFailure()) return;
    waitFor([](const Status& s) { return s.number("time") >= 0.5 && s.number("self_collision") == 0.03; },
            "half a second of the heap");
    xdotool("key" + w + "shift+k", [](const Status& s) {
        return s.number("self_collision") == 0.0 && s.text("message") == "Self collision off";
    });
    const Status on = xdotool("key" + w + "shift+k", [](const Status& s) { return s.number("self_collision") > 0.0; });
    EXPECT_NEAR(on.number("self_collision"), 0.8 * 1.2 / 31.0, 0.1 * 0.8 * 1.2 / 31.0);
    EXPECT_EQ(on.text("message").rfind("Self collision on: particles ", 0), 0u) << on.text("message");
    EXPECT_GT(on.number("contacts"), 0.0);
}

// A 4 x 4 cloth without gravity, its particles much farther apart on screen than the pick
// radius: the view's middle, where the cloth's middle is framed, is 0.47 m from its nearest
// particles.
Scene coarseCloth() {
    Scene scene;
    scene.name = "coarse cloth";
    scene.settings.gravity = Vec3::Zero();
    scene.settings.integrator = "implicit-euler";  // stable for a pulled cloth at one step a frame
    TriangleClothOptions cloth;
    cloth.columns = cloth.rows = 4;
    cloth.corner = Vec3(-1, 0, -1);
    cloth.u = Vec3(2, 0, 0);
    cloth.v = Vec3(0, 0, 2);
    addTriangleCloth(scene, cloth);
    return scene;
}

// A 4-particle strand of hair without gravity, its root nailed, whose middle piece crosses
// the view's middle (as the coarse cloth's middle does), 0.71 m from its ends.
Scene oneStrand() {
    Scene scene;
    scene.name = "one strand";
    scene.settings.gravity = Vec3::Zero();
    scene.settings.integrator = "implicit-euler";
    for (int k = 0; k < 4; ++k) scene.particles.push_back({Vec3(k - 1.5, 0.0, k - 1.5), Vec3::Zero(), 1e-3, k == 0});
    scene.hair.push_back({0, 1, 4, HairMaterial{}, {}, {}});
    return scene;
}

// A left drag with the grab tool on a cloth's surface between its particles, or on a strand
// of hair between its particles, takes it instead of orbiting the view: paused, it moves the
// particle nearest the press (of the strand, an end of the piece pressed on), an edit to undo.
TEST_F(App, ALeftDragBetweenTheParticlesOfAClothOrAStrandTakesIt) {
    for (const auto& [scene, nearest] : {std::pair{coarseCloth(), std::vector<std::size_t>{}},
                                         std::pair{oneStrand(), std::vector<std::size_t>{1, 2}}}) {
        const fs::path file = dir_ / "model.json", saved = dir_ / "saved.json";
        saveScene(scene, file);
        const std::string script = writeFile(dir_ / "input.txt",
                                             "2 key G\n3 move 640 410\n4 button left press\n5 move 640 370\n"
                                             "6 move 640 350\n7 button left release\n9 key Q ctrl\n");
        ASSERT_EQ(run(withWindow({file.string(), "--script", script, "--save-on-exit", saved.string()})), 0);
        const Status status = readStatus(status_);
        EXPECT_EQ(status.text("view"), "3D") << scene.name;
        EXPECT_EQ(status.text("undo"), "1") << scene.name << ": the drag orbited the view instead of taking it";
        const Scene after = loadScene(saved);
        ASSERT_EQ(after.particles.size(), scene.particles.size());
        std::vector<std::size_t> moved;
        for (std::size_t k = 0; k < scene.particles.size(); ++k)
            if ((after.particles[k].position - scene.particles[k].position).norm() > 1e-3) moved.push_back(k);
        ASSERT_EQ(moved.size(), 1u) << scene.name;
        if (!nearest.empty()) {
            EXPECT_NE(std::find(nearest.begin(), nearest.end(), moved[0]), nearest.end()) << moved[0];
        }
    }
}

// The same drag in compare mode pulls the cloth in every run instead of orbiting the view:
// the first run's cloth, without gravity, moves only when pulled.
TEST_F(App, CompareModePullsAClothBetweenItsParticles) {
    const fs::path file = dir_ / "cloth.json";
    saveScene(coarseCloth(), file);
    const std::string script = writeFile(dir_ / "input.txt",
                                         "2 key K ctrl\n3 move 640 410\n4 button left press\n6 move 640 370\n"
                                         "8 move 640 350\n20 button left release\n22 key Q ctrl\n");
    ASSERT_EQ(run(withWindow({file.string(), "--script", script})), 0);
    const Status status = readStatus(status_);
    EXPECT_EQ(status.text("compare"), "on");
    EXPECT_GT(status.number("compare_moved"), 0.01) << "the drag orbited the view instead of pulling the cloth\n"
                                                    << status.describe();
}

// In a new scene, T and a drag lay a cloth over the dragged rectangle, in one edit: 300 x 200
// pixels, so 16 particles along it and 11 (15 cells x 2/3 + 1) across. Dragged down to the
// right, its columns run down so that its front faces the viewer.
TEST_F(App, TheClothToolLaysAClothWithRealInput) {
    const Scene scene = runScript({},
                                  "1 key N ctrl\n3 key T\n4 move 500 250\n5 button left press\n"
                                  "7 move 700 350\n9 move 800 450\n10 button left release\n12 key Q ctrl\n");
    const Status status = readStatus(status_);
    EXPECT_EQ(status.text("tool"), "Cloth");
    EXPECT_EQ(status.text("undo"), "1");
    ASSERT_EQ(scene.cloths.size(), 1u);
    EXPECT_EQ(scene.cloths[0].columns, 11);
    EXPECT_EQ(scene.cloths[0].rows, 16);
    EXPECT_EQ(scene.particles.size(), 176u);
    for (const ParticleInit& p : scene.particles) EXPECT_EQ(p.position.z(), 0.0);  // the 2D view's plane
}

// In a new (planar) scene, O and a click add a ball; H and a click on it, up and to the right
// of its centre, grow a tuft there: 24 strands of 12 particles in the plane, rooted on the
// ball's outline on that side and pinned to the ball, which moves. Two edits.
TEST_F(App, TheHairToolGrowsATuftWithRealInput) {
    const Scene scene = runScript({},
                                  "1 key N ctrl\n3 key O\n4 move 640 400\n5 button left press\n"
                                  "6 button left release\n8 key H\n9 move 655 388\n10 button left press\n"
                                  "11 button left release\n13 key Q ctrl\n");
    const Status status = readStatus(status_);
    EXPECT_EQ(status.text("tool"), "Hair");
    EXPECT_EQ(status.text("undo"), "2");
    ASSERT_EQ(scene.bodies.size(), 1u);
    ASSERT_EQ(scene.hair.size(), 1u);
    EXPECT_EQ(scene.hair[0].strands, 24);
    EXPECT_EQ(scene.hair[0].length, 12);
    EXPECT_EQ(scene.constraints.size(), 48u);
    const Vec3 centre = scene.bodies[0].position;
    for (int strand = 0; strand < 24; ++strand) {
        const Vec3 root = scene.particles[strand * 12].position - centre;
        EXPECT_EQ(root.z(), 0.0);
        EXPECT_GT(root.x(), 0.0) << strand;
        EXPECT_GT(root.y(), 0.0) << strand;
    }
}

// On the seesaw (a planar model), H and a click on the right-hand slope of its triangular
// fulcrum, under the beam that rests on it, grow a tuft of 24 strands standing on the slope
// along its normal; a click just beside the slope, within the sphere about the fulcrum, grows
// none. One edit.
TEST_F(App, TheHairToolGrowsOnTheSeesawsFulcrumAndNotBesideIt) {
    const Scene scene = runScript({(kScenes / "seesaw.json").string()},
                                  "3 key H\n5 move 665 365\n6 button left press\n7 button left release\n"
                                  "9 move 650 372\n10 button left press\n11 button left release\n13 key Q ctrl\n");
    EXPECT_EQ(readStatus(status_).text("undo"), "1");
    ASSERT_EQ(scene.hair.size(), 1u);
    const HairSpec& hair = scene.hair[0];
    EXPECT_EQ(hair.strands, 24);
    const Vec3 slope = Vec3(2, 1, 0).normalized();  // the face's outward normal; the fulcrum's apex at the origin
    for (int strand = 0; strand < hair.strands; ++strand) {
        const Vec3 root = scene.particles[hair.firstParticle + strand * hair.length].position;
        const Vec3 next = scene.particles[hair.firstParticle + strand * hair.length + 1].position;
        EXPECT_NEAR(slope.dot(root), 0.002, 1e-9) << strand;
        EXPECT_TRUE((next - root).normalized().isApprox(slope, 1e-9)) << strand;
    }
}

// The tools' settings are the last run's: with 5 strands of 4 particles in the settings file,
// the hair tool grows 5 strands of 4; the app writes them back on quitting, the others too.
TEST_F(App, TheToolsSettingsAreRememberedBetweenRuns) {
    const fs::path settings = dir_ / "config" / "tinkerbox" / "settings.json";
    fs::create_directories(settings.parent_path());
    writeFile(settings, R"({"tools": {"hair": {"strands": 5, "particles": 4}, "cloth": {"particles": 9}}})");
    const Scene scene = runScript({},
                                  "1 key N ctrl\n3 key O\n4 move 640 400\n5 button left press\n"
                                  "6 button left release\n8 key H\n9 move 655 388\n10 button left press\n"
                                  "11 button left release\n13 key Q ctrl\n");
    ASSERT_EQ(scene.hair.size(), 1u);
    EXPECT_EQ(scene.hair[0].strands, 5);
    EXPECT_EQ(scene.hair[0].length, 4);
    std::ifstream in(settings);
    const nlohmann::json written = nlohmann::json::parse(in);
    EXPECT_EQ(written["tools"]["hair"]["strands"], 5);
    EXPECT_EQ(written["tools"]["cloth"]["particles"], 9);
    EXPECT_EQ(written["tools"]["chain"]["particles"], ChainSettings{}.particles);
}

// Ctrl+L after a click on the drape's cloth (flat above the ball) selects all of it, not only
// the particle clicked; Delete then takes the whole cloth, in one edit, and leaves the ball.
TEST_F(App, CtrlLSelectsAWholeClothToDelete) {
    const Scene scene = runScript({(kScenes / "cloth-drape.json").string()},
                                  "2 key V\n3 move 630 300\n4 button left press\n5 button left release\n"
                                  "7 key L ctrl\n9 key DELETE\n11 key Q ctrl\n");
    EXPECT_EQ(readStatus(status_).text("undo"), "1");
    EXPECT_TRUE(scene.cloths.empty());
    EXPECT_TRUE(scene.particles.empty());
    EXPECT_EQ(scene.bodies.size(), 1u);
}

// Shift+clicks along the drape and Delete cut a slit: the cloth stays, with a hole at each
// deleted particle's place, and it runs (Space) with the slit; one edit.
TEST_F(App, ShiftClicksAndDeleteCutASlitInACloth) {
    std::string input = "2 key V\n";
    for (int k = 0; k < 8; ++k) {
        const int frame = 3 + 2 * k, x = 580 + 12 * k;
        input += std::to_string(frame) + " move " + std::to_string(x) + " 300\n" + std::to_string(frame) +
                 " button left press shift\n" + std::to_string(frame + 1) + " button left release shift\n";
    }
    input += "20 key DELETE\n22 key SPACE\n40 key Q ctrl\n";
    const Scene scene = runScript({(kScenes / "cloth-drape.json").string()}, input);
    EXPECT_EQ(readStatus(status_).text("undo"), "1");
    ASSERT_EQ(scene.cloths.size(), 1u);
    const ClothSpec& cloth = scene.cloths[0];
    EXPECT_EQ(cloth.missing.size(), 8u);
    EXPECT_EQ(scene.particles.size(), 4096u - 8u);
    EXPECT_EQ(cloth.particleCount(), static_cast<Index>(scene.particles.size()));
    double fastest = 0.0;
    for (const ParticleInit& p : scene.particles) fastest = std::max(fastest, p.velocity.norm());
    EXPECT_GT(fastest, 0.1);  // it fell
}

// A click on a strand between its particles and Delete cut it: the hair stays, missing the
// place of the particle the click took (an end of the piece clicked on), one edit.
TEST_F(App, AClickAndDeleteCutAStrand) {
    const fs::path file = dir_ / "model.json";
    saveScene(oneStrand(), file);
    const Scene scene = runScript({file.string()},
                                  "2 key V\n3 move 640 410\n4 button left press\n"
                                  "5 button left release\n7 key DELETE\n9 key Q ctrl\n");
    EXPECT_EQ(readStatus(status_).text("undo"), "1");
    ASSERT_EQ(scene.hair.size(), 1u);
    ASSERT_EQ(scene.hair[0].missing.size(), 1u);
    EXPECT_TRUE(scene.hair[0].missing[0] == 1 || scene.hair[0].missing[0] == 2) << scene.hair[0].missing[0];
    EXPECT_EQ(scene.particles.size(), 3u);
}

// The flag's wind, off from the Solver panel: scrolled down, the wind header opened and its
// checkbox clicked, the saved scene has no wind, and that was one edit.
TEST_F(App, TheWindIsTurnedOffInTheSolverPanel) {
    const std::string script = writeFile(dir_ / "input.txt",
                                         "2 move 150 300\n3 scroll 0 -10\n5 scroll 0 -10\n7 move 150 385\n"
                                         "8 button left press\n9 button left release\n10 move 150 300\n"
                                         "11 scroll 0 -10\n12 scroll 0 -10\n14 move 17 224\n15 button left press\n"
                                         "16 button left release\n18 key Q ctrl\n");
    const fs::path saved = dir_ / "saved.json";
    ASSERT_NE(loadScene(kScenes / "flag.json").field(WindSettings::kind), nullptr);
    ASSERT_EQ(run(withWindow({(kScenes / "flag.json").string(), "--script", script, "--save-on-exit", saved.string()})),
              0);
    EXPECT_EQ(readStatus(status_).text("undo"), "1");
    EXPECT_EQ(loadScene(saved).field(WindSettings::kind), nullptr);
}

// A box's edges in the inspector come from its shape's kind: in a new scene, a box made with B
// and selected with V, the "+" of its "edge y (m)" clicked once: the saved box is 10 % taller
// and nothing else changed.
TEST_F(App, TheInspectorEditsABoxsEdge) {
    const std::string script =
        writeFile(dir_ / "input.txt",
                  "2 move 640 600\n3 key N ctrl\n5 key B\n6 move 640 520\n"
                  "7 button left press\n8 button left release\n10 key V\n"
                  "11 button left press\n12 button left release\n14 move 1169 153\n"
                  "15 button left press\n16 button left release\n18 move 640 300\n20 key Q ctrl\n");
    const fs::path saved = dir_ / "saved.json";
    ASSERT_EQ(run(withWindow({"--script", script, "--save-on-exit", saved.string()})), 0);
    const Scene scene = loadScene(saved);
    ASSERT_EQ(scene.bodies.size(), 1u);
    EXPECT_EQ(std::get<BoxShape>(scene.bodies[0].shape).size, Vec3(1.0, 1.1, 1.0));
}

// A cloth's material in the inspector comes from the material's parameters: the flag, all of it
// selected (Ctrl+A), the "+" of its "shear" clicked once: the saved cloth shears 10 % harder, and
// that was one edit.
TEST_F(App, TheInspectorEditsAClothsMaterial) {
    const std::string script =
        writeFile(dir_ / "input.txt",
                  "2 move 640 400\n3 key V\n4 key A ctrl\n6 move 1169 113\n"
                  "7 button left press\n8 button left release\n10 move 640 400\n12 key Q ctrl\n");
    const fs::path saved = dir_ / "saved.json";
    const double before = loadScene(kScenes / "flag.json").cloths.at(0).material.shear;
    ASSERT_EQ(run(withWindow({(kScenes / "flag.json").string(), "--script", script, "--save-on-exit", saved.string()})),
              0);
    EXPECT_EQ(readStatus(status_).text("undo"), "1");
    const Scene scene = loadScene(saved);
    ASSERT_EQ(scene.cloths.size(), 1u);
    EXPECT_DOUBLE_EQ(scene.cloths[0].material.shear, 1.1 * before);
}

// Pixels in the warm colours of a cloth (front or back) or of hair, lit or in shade: nothing
// else in the drape or the hair example (a blue or grey sphere, grey lines, a dark ground) is
// that red.
int warmPixels(const Image& a) {
    int count = 0;
    for (int y = kTop; y < kBottom; ++y)
        for (int x = kLeft; x < kRight; ++x) {
            const unsigned char* p = a.at(x, y);
            if (p[0] > 90 && p[0] > p[2] + 25) ++count;
        }
    return count;
}

// F, typed in an input script: the drape's cloth, a shaded surface when the app opens, becomes
// grid lines, and the status file says which.
TEST_F(App, FTurnsClothSurfacesIntoGridLines) {
    const std::string drape = (kScenes / "cloth-drape.json").string();
    const fs::path surface = dir_ / "surface.png", lines = dir_ / "lines.png";
    ASSERT_EQ(run(withWindow({drape, "--screenshot", surface.string(), "--frames", "3"})), 0);
    EXPECT_EQ(readStatus(status_).text("shaded_cloth_hair"), "1");
    const std::string script = writeFile(dir_ / "input.txt", "1 key F\n");
    ASSERT_EQ(run(withWindow({drape, "--script", script, "--screenshot", lines.string(), "--frames", "3"})), 0);
    EXPECT_EQ(readStatus(status_).text("shaded_cloth_hair"), "0");
    EXPECT_GT(warmPixels(load(surface)), 5000);
    EXPECT_LT(warmPixels(load(lines)), 50);
    EXPECT_GT(brightPixels(load(lines)), 2000) << "the grid lines are drawn";
}

// Pixels in hair's colours, from its root's brown to its tip's sand, lit or in shade: warm,
// but with more blue in them than the orange of nails.
int hairColouredPixels(const Image& a) {
    int count = 0;
    for (int y = kTop; y < kBottom; ++y)
        for (int x = kLeft; x < kRight; ++x) {
            const unsigned char* p = a.at(x, y);
            if (p[0] > 90 && p[0] > p[2] + 25 && p[2] > 0.3 * p[0]) ++count;
        }
    return count;
}

// F again: the hair example's strands, lit in hair's colours when the app opens, become lines
// coloured by their strain (grey at rest).
TEST_F(App, FTurnsHairStrandsIntoStrainColouredLines) {
    const std::string hair = (kScenes / "hair.json").string();
    const fs::path strands = dir_ / "strands.png", lines = dir_ / "lines.png";
    ASSERT_EQ(run(withWindow({hair, "--screenshot", strands.string(), "--frames", "3"})), 0);
    const std::string script = writeFile(dir_ / "input.txt", "1 key F\n");
    ASSERT_EQ(run(withWindow({hair, "--script", script, "--screenshot", lines.string(), "--frames", "3"})), 0);
    EXPECT_EQ(readStatus(status_).text("shaded_cloth_hair"), "0");
    EXPECT_GT(hairColouredPixels(load(strands)), 1500);
    EXPECT_LT(hairColouredPixels(load(lines)), 50);
}

// Five particles added, the app killed once the autosave has them: the next start offers the
// autosave (Enter restores it) and all five are back.
TEST_F(App, ACrashLosesNoEditOnceTheAutosaveIsCurrent) {
    const fs::path document = dir_ / "document.json";
    fs::copy_file(kScenes / "spring-oscillator.json", document);
    const std::size_t before = loadScene(document).particles.size();
    std::string input = "2 key P\n";
    for (int k = 0; k < 5; ++k) {
        const int frame = 4 + 4 * k;
        input += std::to_string(frame) + " move " + std::to_string(450 + 90 * k) + " 650\n" +
                 std::to_string(frame + 1) + " button left press\n" + std::to_string(frame + 2) +
                 " button left release\n";
    }
    start(withWindow({document.string(), "--script", writeFile(dir_ / "input.txt", input)}));
    waitFor(
        [&](const Status& s) {
            return s.number("particles") == static_cast<double>(before + 5) && s.text("autosave") == "current";
        },
        "an autosave with the five new particles");
    stop();  // SIGKILL: no clean exit
    const fs::path autosave = dir_ / "state" / "tinkerbox" / "autosave.json";
    ASSERT_EQ(loadScene(autosave).particles.size(), before + 5);

    const fs::path saved = dir_ / "saved.json";
    start(withWindow({document.string(), "--save-on-exit", saved.string()}));
    const std::string window = output("xdotool search --sync --onlyvisible --name Tinkerbox | head -1");
    ASSERT_FALSE(window.empty()) << "no Tinkerbox window appeared";
    waitFor([](const Status& s) { return s.number("frame") >= 2; }, "the restore prompt");
    EXPECT_EQ(sh("xdotool key --window " + window + " Return"), 0);
    waitFor([&](const Status& s) { return s.text("document") == "restored autosave"; }, "the restored autosave");
    EXPECT_EQ(sh("xdotool key --window " + window + " ctrl+q"), 0);
    ASSERT_EQ(wait(), 0);
    EXPECT_EQ(loadScene(saved).particles.size(), before + 5);
    EXPECT_FALSE(fs::exists(autosave)) << "a clean exit leaves no autosave";
}

// The cloth at 100,000 substeps a frame (seconds of work for each): the app spreads every
// frame over many drawn frames instead of freezing. Frames keep coming while less than one
// simulated frame is done, the status says the model runs slower than real time, and
// pause, play, Backspace, Ctrl+S and Ctrl+Q are handled. (Had each drawn frame simulated a
// whole frame, the first status after the start would already show a whole frame of
// simulated time, and no slow notice.)
TEST_F(App, AFrameOfHugeWorkIsSpreadOverDrawnFramesAndTheWindowResponds) {
    Scene cloth = loadScene(kScenes / "cloth.json");
    cloth.settings.substeps = 100000;
    cloth.settings.integratorSubsteps.clear();
    const fs::path file = dir_ / "cloth.json";
    saveScene(cloth, file);
    start(withWindow({file.string(), "--play"}));
    const std::string window = output("xdotool search --sync --onlyvisible --name Tinkerbox | head -1");
    ASSERT_FALSE(window.empty()) << "no Tinkerbox window appeared";
    const double dt = cloth.settings.dt;
    const Status running = waitFor(
        [&](const Status& s) {
            return s.text("playing") == "1" && (s.number("frame") >= 30 || s.number("time") >= dt);
        },
        "30 drawn frames or one simulated frame");
    EXPECT_GE(running.number("frame"), 30) << "the drawn frames waited for the simulated ones:\n" << running.describe();
    EXPECT_LT(running.number("time"), dt) << running.describe();
    EXPECT_GT(running.number("time"), 0.0) << "the simulation does not advance:\n" << running.describe();
    EXPECT_GT(running.number("substep"), 0.0) << running.describe();
    EXPECT_GT(running.number("speed"), 0.0) << running.describe();
    EXPECT_LT(running.number("speed"), 1.0) << running.describe();
    EXPECT_NE(running.text("slow").find("Slow:"), std::string::npos) << "no slow notice:\n" << running.describe();
    EXPECT_NE(running.text("slow").find("100000 substeps"), std::string::npos) << running.text("slow");
    // Input is still handled: a pause shows at once (the frame in progress waits), and so
    // does the play that resumes it.
    EXPECT_EQ(sh("xdotool key --window " + window + " space"), 0);
    const Status paused = waitFor([](const Status& s) { return s.text("playing") == "0"; }, "the pause");
    EXPECT_EQ(paused.text("slow"), "") << "the notice is about running";
    EXPECT_EQ(sh("xdotool key --window " + window + " space"), 0);
    waitFor([&](const Status& s) { return s.text("playing") == "1" && s.number("time") > paused.number("time"); },
            "the run going on");
    // Back to before play (the play that resumed, in the middle of a frame), from the middle
    // of a frame: the frame in progress is dropped with the state it had reached.
    EXPECT_EQ(sh("xdotool key --window " + window + " BackSpace"), 0);
    const Status back = waitFor([](const Status& s) { return s.text("playing") == "0"; }, "the rewind");
    EXPECT_EQ(back.number("time"), paused.number("time")) << back.describe();
    EXPECT_EQ(back.number("substep"), 0.0) << back.describe();
    EXPECT_EQ(back.text("slow"), "") << back.describe();
    // The rewind is an edit: saved, so that Ctrl+Q quits without asking.
    EXPECT_EQ(sh("xdotool key --window " + window + " ctrl+s"), 0);
    waitFor([](const Status& s) { return s.text("modified") == "0"; }, "the save");
    EXPECT_EQ(sh("xdotool key --window " + window + " ctrl+q"), 0);
    EXPECT_EQ(wait(), 0) << "the app did not quit on Ctrl+Q";
}

// When implicit Euler itself diverges, the app's banner does not send the user to implicit
// Euler. Here a spinning dumbbell at a step of one second: the one Newton step of the
// linearized backward Euler, far beyond omega h ~ 1, stretches the spring and gains energy.
TEST_F(App, ImplicitEulerDivergingIsNotToldToTryItself) {
    const std::string scene = writeFile(dir_ / "spinning.json", R"({"format": "tinkerbox-scene", "version": 1,
  "settings": {"integrator": "implicit-euler", "dt": 1, "gravity": [0, 0, 0]},
  "particles": [{"position": [-1, 0, 0], "velocity": [0, 5, 0]}, {"position": [1, 0, 0], "velocity": [0, -5, 0]}],
  "springs": [{"a": 0, "b": 1, "stiffness": 100, "rest_length": 2}]})");
    const fs::path shot = dir_ / "banner.png";
    ASSERT_EQ(run(withWindow({scene, "--play", "--screenshot", shot.string(), "--frames", "5"})), 0);
    const Status status = readStatus(status_);
    EXPECT_EQ(status.text("playing"), "0");
    const std::string divergence = status.text("divergence");
    EXPECT_NE(divergence.find("implicit-euler diverged"), std::string::npos) << divergence;
    EXPECT_EQ(divergence.find("or implicit-euler"), std::string::npos) << divergence;
}

// The contact step's failures pause the app with a banner, never take its window down: a box
// under a drag of 1e50 under oba (a segmentation fault once), and a thousand boxes on one spot
// (gigabytes once), whose contact points pass the bound.
TEST_F(App, AContactStepThatFailsPausesTheAppAndSaysWhy) {
    std::string pile = R"({"format": "tinkerbox-scene", "version": 2, "planes": [{"normal": [0, 1, 0]}], "bodies": [)";
    for (int k = 0; k < 1000; ++k)
        pile += std::string(k > 0 ? ", " : "") + R"({"shape": {"box": {"size": [1, 1, 1]}}, "position": [0, 0.5, 0]})";
    pile += "]}";
    const std::pair<std::string, std::string> scenes[] = {
        {writeFile(dir_ / "drag.json", R"({"format": "tinkerbox-scene", "version": 2,
  "settings": {"drag": 1e50, "integrator": "symplectic-euler", "substeps": 4, "contact_model": "oba"},
  "bodies": [{"shape": {"box": {"size": [1, 1, 1]}}, "position": [0, 0.5, 0], "velocity": [1, 0, 0]}],
  "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0]}]})"),
         "symplectic-euler diverged at t = "},
        {writeFile(dir_ / "pile.json", pile), "the contact step (baraff) stopped under rk4 at t = 0.0166667 s"}};
    for (const auto& [scene, banner] : scenes) {
        const fs::path shot = dir_ / "banner.png";
        ASSERT_EQ(run(withWindow({scene, "--play", "--screenshot", shot.string(), "--frames", "5"})), 0) << scene;
        const Status status = readStatus(status_);
        EXPECT_EQ(status.text("playing"), "0") << scene;
        EXPECT_EQ(status.number("time"), 0.0) << status.describe();  // back to the frame's start
        EXPECT_NE(status.text("divergence").find(banner), std::string::npos) << status.describe();
        EXPECT_TRUE(fs::exists(shot)) << scene;
    }
}

// Compare mode through X: F12 saves a screenshot in the app's working directory (the test's
// own) and says so in the status line; the test waits for that message, then keeps the picture
// in the build tree to look at.
class CompareApp : public App {
protected:
    // Presses F12 and returns the picture saved, moved to build/tests/app/NAME.png.
    Image screenshot(const std::string& window, const std::string& name) {
        const Status shown = xdotool("key" + window + "F12", [](const Status& s) {
            return s.text("message").rfind("Screenshot saved to ", 0) == 0;
        });
        const fs::path saved = shown.text("message").substr(std::string("Screenshot saved to ").size());
        EXPECT_EQ(saved.parent_path(), dir_) << "in the app's working directory";
        const fs::path kept = fs::path(TINKERBOX_BINARY_DIR) / (name + ".png");
        fs::copy_file(saved, kept, fs::copy_options::overwrite_existing);
        fs::remove(saved);
        return load(kept);
    }
};

// A free box in zero gravity, alone in a planar scene: framed in the middle of the view.
std::string freeBoxScene(const fs::path& dir) {
    Scene scene;
    scene.name = "free box";
    scene.settings.gravity = Vec3::Zero();
    scene.settings.planar = true;
    scene.bodies.push_back(RigidBodySpec{});
    const fs::path file = dir / "box.json";
    saveScene(scene, file);
    return file.string();
}

// Ctrl+K runs the model under the editor's integrator and two others, the editor paused;
// Ctrl+Shift+K splits the view; Space pauses the runs and '.' steps them one frame; a drag
// pulls every run alike, so that they move together; Ctrl+K again leaves compare mode.
TEST_F(CompareApp, CompareModeRunsIntegratorsTogetherWithRealInput) {
    start(withWindow({freeBoxScene(dir_)}));
    const std::string w = appWindow();
    ASSERT_FALSE(HasFailure());
    xdotool("mousemove" + w + "640 600", cursor(640, 600, 0));
    const Status on = xdotool("key" + w + "ctrl+k", field("compare", "on"));
    EXPECT_EQ(on.text("compare_runs"), "rk4 euler verlet");
    EXPECT_EQ(on.text("compare_contact_models"), "baraff baraff baraff") << "the scene's, in every run";
    EXPECT_EQ(on.text("playing"), "0") << "the editor's model waits";
    const double editorTime = on.number("time");
    waitFor([](const Status& s) { return s.number("compare_frames") >= 30; }, "30 frames of comparing");

    // The pull: press on the box (in the middle of the view), drag it right for a second of
    // the runs' time, release.
    xdotool("mousemove" + w + "640 420 mousedown 1", field("compare_pulling", "1"));
    const double pressed = xdotool("mousemove" + w + "760 420", cursor(760, 420, 1)).number("compare_frames");
    waitFor([&](const Status& s) { return s.number("compare_frames") >= pressed + 60; }, "a second of pulling");
    const Status released = xdotool("mouseup 1", field("compare_pulling", "0"));
    EXPECT_GT(released.number("compare_moved"), 0.3) << "the pull moved the first run";
    EXPECT_LT(released.number("compare_spread"), 0.2 * released.number("compare_moved"))
        << "every run was pulled alike, so they moved together";
    EXPECT_EQ(released.number("time"), editorTime);
    const Image ghosts = screenshot(w, "compare-ghosts");
    EXPECT_EQ(ghosts.width, 1280);
    EXPECT_GT(brightPixels(ghosts), 100);

    xdotool("key" + w + "ctrl+shift+k", field("compare_view", "split"));
    const Image split = screenshot(w, "compare-split");
    EXPECT_GT(differingPixels(ghosts, split), 1000) << "three views instead of one";

    // Paused, '.' is one frame of every run.
    const double paused = xdotool("key" + w + "space", field("compare_playing", "0")).number("compare_frames");
    xdotool("key" + w + "period", count("compare_frames", paused + 1));
    xdotool("key" + w + "ctrl+k", field("compare", "off"));
    EXPECT_EQ(sh("xdotool key" + w + "ctrl+q"), 0);
    EXPECT_EQ(wait(), 0);
}

// The stiff spring under its own implicit Euler, Euler and verlet: both explicit methods
// diverge at this dt and are frozen, marked in the split views; implicit Euler goes on.
TEST_F(CompareApp, ADivergedRunIsMarkedAndFrozenWhileTheOthersGoOn) {
    start(withWindow({(kScenes / "stiff-spring.json").string()}));
    const std::string w = appWindow();
    ASSERT_FALSE(HasFailure());
    xdotool("mousemove" + w + "640 600", cursor(640, 600, 0));
    xdotool("key" + w + "ctrl+k", field("compare_runs", "implicit-euler euler verlet"));
    const Status diverged = waitFor(field("compare_diverged", "euler verlet"), "euler and verlet to diverge");
    waitFor([&](const Status& s) { return s.number("compare_frames") >= diverged.number("compare_frames") + 60; },
            "a second more of implicit Euler");
    EXPECT_EQ(readStatus(status_).text("compare_diverged"), "euler verlet");
    xdotool("key" + w + "ctrl+shift+k", field("compare_view", "split"));
    const Image split = screenshot(w, "compare-diverged");
    EXPECT_EQ(split.height, 800);
    // The DIVERGED labels over the frozen runs' views are red.
    int red = 0;
    for (int y = 0; y < split.height; ++y)
        for (int x = kLeft; x < kRight; ++x)
            if (split.at(x, y)[0] > 200 && split.at(x, y)[1] < 110 && split.at(x, y)[2] < 110) ++red;
    EXPECT_GT(red, 30);
}

// A scene's compare list is what Ctrl+K compares (here from an input script); opening
// another scene stops comparing.
TEST_F(CompareApp, TheScenesCompareListIsWhatCtrlKCompares) {
    Scene scene = loadScene(kScenes / "double-pendulum.json");
    scene.compare = {"midpoint", "adaptive"};
    saveScene(scene, dir_ / "listed.json");
    const std::string script = writeFile(dir_ / "input.txt", "2 move 640 600\n3 key K ctrl\n30 key Q ctrl\n");
    ASSERT_EQ(run(withWindow({(dir_ / "listed.json").string(), "--script", script})), 0);
    const Status status = readStatus(status_);
    EXPECT_EQ(status.text("compare"), "on");
    EXPECT_EQ(status.text("compare_runs"), "midpoint adaptive");
    EXPECT_GT(status.number("compare_frames"), 20.0);

    // Another scene (Ctrl+N) ends comparing: the runs were of the model that was open.
    const std::string fresh =
        writeFile(dir_ / "fresh.txt", "2 move 640 600\n3 key K ctrl\n10 key N ctrl\n20 key Q ctrl\n");
    ASSERT_EQ(run(withWindow({(dir_ / "listed.json").string(), "--script", fresh})), 0);
    EXPECT_EQ(readStatus(status_).text("document"), "untitled");
    EXPECT_EQ(readStatus(status_).text("compare"), "off");
}

TEST_F(App, ABadSceneFileIsAClearErrorAndExitCodeOne) {
    const fs::path bad = dir_ / "bad.json";
    std::ofstream(bad) << R"({"format": "tinkerbox-scene", "version": 1, "particles": [{"position": [0, "x", 0]}]})";
    const std::string err = output(std::string(TINKERBOX_APP) + " " + bad.string() + " 2>&1; echo \" rc=$?\"");
    EXPECT_NE(err.find("particles[0].position[1]: expected a number"), std::string::npos) << err;
    EXPECT_NE(err.find("rc=1"), std::string::npos) << err;
}

// --- Timeline and recording ---------------------------------------------------------------

// Pause, Left and Right, the slider, a play from an earlier frame and its undo, with real input.
TEST_F(App, TheTimelineStepsScrubsBranchesAndUndoesWithRealInput) {
    start(withWindow({(kScenes / "triple-pendulum.json").string(), "--play"}));
    const std::string w = appWindow();
    ASSERT_FALSE(HasFailure());
    const auto x = [this](const std::string& args, const std::function<bool(const Status&)>& shown) {
        return xdotool(args, shown);
    };
    waitFor([](const Status& s) { return s.number("timeline_last") >= 90; }, "90 frames run");
    const Status paused = x("key" + w + "space", field("playing", "0"));
    const double last = paused.number("timeline_last");
    ASSERT_EQ(paused.number("timeline_frame"), last);
    ASSERT_EQ(paused.number("timeline_first"), 0);
    const Status back1 = x("key" + w + "Left", count("timeline_frame", last - 1));
    EXPECT_LT(back1.number("time"), paused.number("time"));
    x("key" + w + "Left", count("timeline_frame", last - 2));
    const Status back3 = x("key" + w + "Left", count("timeline_frame", last - 3));
    const Status forward = x("key" + w + "Right", count("timeline_frame", last - 2));
    EXPECT_GT(forward.number("time"), back3.number("time"));
    EXPECT_EQ(forward.number("timeline_last"), last) << "looking drops nothing";
    EXPECT_EQ(forward.text("modified"), "0") << "looking is not editing";

    // A click near the slider's left end shows an early frame; the frame rate is 60 per
    // simulated second, so its time is its number over 60.
    // (The pointer gets there first: a click in the frame it arrives in would reach the view.)
    x("mousemove" + w + "395 738", cursor(395, 738, 0));
    const Status scrubbed =
        x("click" + w + "1", [&](const Status& s) { return s.number("timeline_frame") < last / 4; });
    EXPECT_EQ(scrubbed.text("modified"), "0");
    EXPECT_NEAR(scrubbed.number("time"), scrubbed.number("timeline_frame") / 60.0, 1e-9);
    const double branchAt = scrubbed.number("timeline_frame");
    const double undoBefore = scrubbed.number("undo");

    // Playing from there drops the later frames, in one undoable step.
    x("mousemove" + w + "640 400", cursor(640, 400, 0));
    x("key" + w + "space", field("playing", "1"));
    const Status branched = waitFor(
        [&](const Status& s) { return s.number("timeline_last") >= branchAt + 10 && s.number("timeline_last") < last; },
        "the run going on from the earlier frame");
    EXPECT_EQ(branched.number("undo"), undoBefore + 1);
    const Status pausedAgain = x("key" + w + "space", field("playing", "0"));
    ASSERT_LT(pausedAgain.number("timeline_last"), last);
    const Status undone = x("key" + w + "ctrl+z", count("timeline_last", last));
    EXPECT_EQ(undone.number("timeline_frame"), branchAt);
    EXPECT_EQ(undone.number("time"), scrubbed.number("time"));
    EXPECT_EQ(undone.text("modified"), "0") << "a run from an earlier frame, and its undo, edit nothing";
    EXPECT_EQ(sh("xdotool key" + w + "ctrl+q"), 0);
    EXPECT_EQ(wait(), 0) << "the app did not quit on Ctrl+Q";
}

// The same through an input script, ending in a screenshot of the bar: 60 frames run, then
// the pause and five frames back.
TEST_F(App, TheTimelineBarShowsTheFrameSteppedBackTo) {
    const fs::path script = dir_ / "timeline.txt";
    std::ofstream(script) << "60 key SPACE\n62 key LEFT\n64 key LEFT\n66 key LEFT\n68 key LEFT\n70 key LEFT\n";
    const fs::path shot = dir_ / "timeline.png";
    ASSERT_EQ(run(withWindow({(kScenes / "triple-pendulum.json").string(), "--play", "--script", script.string(),
                              "--screenshot", shot.string(), "--frames", "74"})),
              0);
    const Status status = readStatus(status_);
    const double last = status.number("timeline_last");
    EXPECT_GE(last, 59);
    EXPECT_EQ(status.number("timeline_frame"), last - 5) << status.describe();
    EXPECT_EQ(status.text("playing"), "0");
    // The slider under the view: its frame (ImGui's frame colour) and its grab (the grab
    // colour) on the bar's middle row; the grab stands where frame 55 of 0 to 60 goes.
    const Image image = load(shot);
    ASSERT_EQ(image.width, 1280);
    const auto near = [](const unsigned char* p, int r, int g, int b) {
        return std::abs(p[0] - r) + std::abs(p[1] - g) + std::abs(p[2] - b) < 12;
    };
    int bestRow = -1, bestGrab = 0;
    for (int y = 700; y < 780; ++y) {
        int grab = 0;
        for (int x = kLeft; x < kRight; ++x) grab += near(image.at(x, y), 61, 133, 224);
        if (grab > bestGrab) {
            bestGrab = grab;
            bestRow = y;
        }
    }
    ASSERT_GE(bestGrab, 6) << "no slider grab under the view";
    int grabLeft = kRight, grabRight = 0;
    for (int x = kLeft; x < kRight; ++x)
        if (near(image.at(x, bestRow), 61, 133, 224)) {
            grabLeft = std::min(grabLeft, x);
            grabRight = std::max(grabRight, x);
        }
    // The slider's frame reaches from the grab to the bar's background on either side.
    const auto background = [&](int x) { return near(image.at(x, bestRow), 17, 18, 19); };
    int frameLeft = grabLeft, frameRight = grabRight;
    while (frameLeft > kLeft && !background(frameLeft - 1)) --frameLeft;
    while (frameRight < kRight && !background(frameRight + 1)) ++frameRight;
    const double grabWidth = grabRight - grabLeft + 1, frameWidth = frameRight - frameLeft + 1;
    ASSERT_GT(frameWidth, 100);
    const double at = (0.5 * (grabLeft + grabRight) - frameLeft - 0.5 * grabWidth) / (frameWidth - grabWidth);
    EXPECT_NEAR(at, (last - 5) / last, 0.03) << "grab " << grabLeft << ".." << grabRight << " in " << frameLeft << ".."
                                             << frameRight << " on row " << bestRow;
}

bool haveFfmpeg() { return sh("command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null") == 0; }

TEST_F(App, RendersAVideoHeadless) {
    if (!haveFfmpeg()) GTEST_SKIP() << "ffmpeg is not installed (scripts/install-deps installs it)";
    const fs::path video = dir_ / "cloth.mp4";
    ASSERT_EQ(
        run(withWindow({(kScenes / "cloth.json").string(), "--play", "--video", video.string(), "--frames", "45"})), 0);
    EXPECT_EQ(probeVideo(video), "h264,1280,800,60/1,45");
    EXPECT_EQ(readStatus(status_).text("recorded_frames"), "45");
}

TEST_F(App, WithoutFfmpegAVideoIsNumberedPngs) {
    const fs::path video = dir_ / "cloth.mp4";
    const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
    ::setenv("PATH", (dir_ / "nothing-here").c_str(), 1);
    const std::string said = output(std::string(TINKERBOX_APP) + " " + (kScenes / "cloth.json").string() +
                                    " --play --width 640 --height 400 --frames 12 --video " + video.string());
    ::setenv("PATH", path.c_str(), 1);
    EXPECT_NE(said.find("sudo apt-get install ffmpeg"), std::string::npos) << said;
    EXPECT_FALSE(fs::exists(video));
    for (int n = 1; n <= 12; ++n) {
        char name[32];
        std::snprintf(name, sizeof name, "cloth-%05d.png", n);
        const Image frame = load(dir_ / name);
        EXPECT_EQ(frame.width, 640) << name;
        EXPECT_EQ(frame.height, 400) << name;
    }
    EXPECT_FALSE(fs::exists(dir_ / "cloth-00013.png"));
}

// Ctrl+R starts a video of the view and stops it; the status line names the file.
TEST_F(App, CtrlRRecordsAVideoOfTheView) {
    if (!haveFfmpeg()) GTEST_SKIP() << "ffmpeg is not installed (scripts/install-deps installs it)";
    start({(kScenes / "triple-pendulum.json").string(), "--play", "--width", "800", "--height", "600"});
    const std::string w = appWindow();
    ASSERT_FALSE(HasFailure());
    xdotool("mousemove" + w + "400 300", cursor(400, 300, 0));
    xdotool("key" + w + "ctrl+r", field("recording", "1"));
    waitFor([](const Status& s) { return s.number("recorded_frames") >= 30; }, "30 frames recorded");
    const Status stopped = xdotool("key" + w + "ctrl+r", field("recording", "0"));
    const std::string message = stopped.text("message");
    const std::string prefix = "Video saved to ";
    ASSERT_EQ(message.rfind(prefix, 0), 0u) << message;
    const fs::path video = message.substr(prefix.size(), message.find(" (") - prefix.size());
    const std::string frames = message.substr(message.find(" (") + 2, message.find(" frames") - message.find(" (") - 2);
    EXPECT_GE(std::stoi(frames), 30);
    EXPECT_EQ(probeVideo(video), "h264,800,600,60/1," + frames);
    fs::remove(video);
    EXPECT_EQ(sh("xdotool key" + w + "ctrl+q"), 0);
    EXPECT_EQ(wait(), 0) << "the app did not quit on Ctrl+Q";
}

}  // namespace
}  // namespace tinkerbox
