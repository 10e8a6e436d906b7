// The recorder without a window: pictures made up here, a video read back by ffprobe, and
// the PNG files written without ffmpeg.
#include "app/Recorder.h"

#include <gtest/gtest.h>
#include <stb_image.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "Shell.h"

namespace tinkerbox {
namespace {

namespace fs = std::filesystem;

class RecorderTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("tinkerbox-recorder-" + std::to_string(::getpid()) + "-" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path dir_;
};

// A picture that changes from frame to frame: a bar that moves down.
std::vector<std::uint8_t> picture(int width, int height, int frame) {
    std::vector<std::uint8_t> rgba(static_cast<std::size_t>(width) * height * 4, 40);
    for (int x = 0; x < width; ++x) {
        std::uint8_t* p = rgba.data() + 4 * (static_cast<std::size_t>(frame % height) * width + x);
        p[0] = 250;
        p[1] = 200;
        p[3] = 255;
    }
    return rgba;
}

using test::probeVideo;

TEST_F(RecorderTest, PipesFramesToFfmpegAsAnH264VideoOfTheirCountSizeAndRate) {
    const fs::path ffmpeg = Recorder::findFfmpeg();
    if (ffmpeg.empty()) GTEST_SKIP() << "ffmpeg is not installed (scripts/install-deps installs it)";
    const fs::path file = dir_ / "run.mp4";
    Recorder recorder(file, 96, 64, 30.0, ffmpeg);
    EXPECT_TRUE(recorder.video());
    for (int k = 0; k < 17; ++k) recorder.add(picture(96, 64, k));
    const std::string message = recorder.finish();
    EXPECT_NE(message.find("17 frames"), std::string::npos) << message;
    EXPECT_EQ(probeVideo(file), "h264,96,64,30/1,17");
}

TEST_F(RecorderTest, CropsAnOddSizeToTheEvenOneH264Needs) {
    const fs::path ffmpeg = Recorder::findFfmpeg();
    if (ffmpeg.empty()) GTEST_SKIP() << "ffmpeg is not installed (scripts/install-deps installs it)";
    const fs::path file = dir_ / "odd.mp4";
    {
        Recorder recorder(file, 101, 75, 60.0, ffmpeg);
        for (int k = 0; k < 5; ++k) recorder.add(picture(101, 75, k));
    }  // finished by the destructor
    EXPECT_EQ(probeVideo(file), "h264,100,74,60/1,5");
}

TEST_F(RecorderTest, WithoutFfmpegWritesNumberedPngsAndSaysHowToInstallIt) {
    const fs::path file = dir_ / "run.mp4";
    Recorder recorder(file, 40, 30, 60.0, {});
    EXPECT_FALSE(recorder.video());
    for (int k = 0; k < 7; ++k) recorder.add(picture(40, 30, k));
    const std::string message = recorder.finish();
    EXPECT_NE(message.find("apt-get install ffmpeg"), std::string::npos) << message;
    EXPECT_FALSE(fs::exists(file));
    for (long n = 1; n <= 7; ++n) {
        const fs::path png = dir_ / ("run-0000" + std::to_string(n) + ".png");
        ASSERT_EQ(Recorder::pngPath(file, n), png);
        int width = 0, height = 0, channels = 0;
        ASSERT_TRUE(stbi_info(png.c_str(), &width, &height, &channels)) << png;
        EXPECT_EQ(width, 40);
        EXPECT_EQ(height, 30);
    }
    EXPECT_FALSE(fs::exists(Recorder::pngPath(file, 8)));
    // The third picture is the third frame: its bar on row 2.
    int width = 0, height = 0, channels = 0;
    unsigned char* pixels = stbi_load(Recorder::pngPath(file, 3).c_str(), &width, &height, &channels, 4);
    ASSERT_NE(pixels, nullptr);
    EXPECT_EQ(pixels[4 * (2 * width + 5)], 250);
    EXPECT_EQ(pixels[4 * (1 * width + 5)], 40);
    stbi_image_free(pixels);
}

TEST_F(RecorderTest, RefusesAPictureOfAnotherSize) {
    Recorder recorder(dir_ / "run.mp4", 40, 30, 60.0, {});
    EXPECT_THROW(recorder.add(picture(30, 30, 0)), std::invalid_argument);
    EXPECT_EQ(recorder.frames(), 0);
}

}  // namespace
}  // namespace tinkerbox
