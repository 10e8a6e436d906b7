// What the app remembers between runs: written and read back, and a hand-edited file with
// settings of the wrong type or out of range read as far as it makes sense.
#include "app/AppSettings.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <unistd.h>

namespace tinkerbox {
namespace {

class AppSettingsFile : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() / ("tinkerbox-settings-" + std::to_string(::getpid()));
        std::filesystem::remove_all(dir_);
        const char* config = std::getenv("XDG_CONFIG_HOME");
        if (config) saved_ = config;
        ::setenv("XDG_CONFIG_HOME", dir_.c_str(), 1);
    }
    void TearDown() override {
        if (saved_) ::setenv("XDG_CONFIG_HOME", saved_->c_str(), 1);
        else ::unsetenv("XDG_CONFIG_HOME");
        std::filesystem::remove_all(dir_);
    }
    void write(const std::string& text) {
        std::filesystem::create_directories(configDirectory());
        std::ofstream(configDirectory() / "settings.json") << text;
    }
    std::filesystem::path dir_;
    std::optional<std::string> saved_;
};

TEST_F(AppSettingsFile, TheToolsSettingsAreWrittenAndReadBack) {
    AppSettings settings;
    ToolSettings& t = settings.tools;
    t.newElements.springStiffness = 250.0;
    t.grid = {true, 0.5};
    t.chain.particles = 20;
    t.chain.rods = true;
    t.cloth.particles = 40;
    t.cloth.material.bend = 3e-4;
    t.hair.strands = 7;
    t.hair.curl = 0.01;
    t.hair.material.twist = 2e-5;
    saveAppSettings(settings);
    const ToolSettings read = loadAppSettings().tools;
    EXPECT_EQ(read.newElements.springStiffness, 250.0);
    EXPECT_FALSE(read.grid.enabled);  // snapping starts off in every run
    EXPECT_EQ(read.grid.spacing, 0.5);
    EXPECT_EQ(read.chain.particles, 20);
    EXPECT_TRUE(read.chain.rods);
    EXPECT_EQ(read.cloth.particles, 40);
    EXPECT_EQ(read.cloth.material, t.cloth.material);
    EXPECT_EQ(read.hair.strands, 7);
    EXPECT_EQ(read.hair.curl, 0.01);
    EXPECT_EQ(read.hair.material, t.hair.material);
}

// A setting of the wrong type is its default, one out of range is brought into it as the panels
// bring a typed number, and the others are read as they are.
TEST_F(AppSettingsFile, AHandEditedFileIsReadAsFarAsItMakesSense) {
    write(R"({"window_width": "wide", "window_height": 100000000000, "timeline_mb": -3, "recent_files": "a.json",
              "tools": {"particle_mass": "heavy", "spring_damping": -1, "grid": [1, 2],
                        "chain": {"particles": 5000000000, "rods": 1, "slack": 0.5},
                        "cloth": {"particles": 1, "density": null, "stretch": 1e300},
                        "hair": {"strands": 12, "particles": -5, "segment": "x", "radius": 2}}})");
    const AppSettings settings = loadAppSettings();
    const AppSettings defaults;
    EXPECT_EQ(settings.windowWidth, defaults.windowWidth);
    EXPECT_EQ(settings.windowHeight, 1 << 16);
    EXPECT_EQ(settings.timelineMegabytes, 1);
    EXPECT_TRUE(settings.recentFiles.empty());
    const ToolSettings& t = settings.tools;
    EXPECT_EQ(t.newElements.particleMass, defaults.tools.newElements.particleMass);
    EXPECT_EQ(t.newElements.springDamping, 0.0);
    EXPECT_EQ(t.grid.spacing, defaults.tools.grid.spacing);
    EXPECT_EQ(t.chain.particles, ChainSettings::kMaxParticles);
    EXPECT_EQ(t.chain.rods, defaults.tools.chain.rods);
    EXPECT_EQ(t.chain.slack, 1.0);
    EXPECT_EQ(t.cloth.particles, 2);
    EXPECT_EQ(t.cloth.density, defaults.tools.cloth.density);
    EXPECT_EQ(t.cloth.material.stretch, 1e9);
    EXPECT_EQ(t.hair.strands, 12);
    EXPECT_EQ(t.hair.particles, 3);
    EXPECT_EQ(t.hair.segment, defaults.tools.hair.segment);
    EXPECT_EQ(t.hair.radius, 2.0);

    write("not json");
    EXPECT_EQ(loadAppSettings().tools.hair.strands, defaults.tools.hair.strands);
}

}  // namespace
}  // namespace tinkerbox
