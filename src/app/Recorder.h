#pragma once
// A video of the view, frame by frame: the pictures (RGBA rows, top row first, as
// readFramebuffer gives them) are piped to Debian's ffmpeg, which encodes H.264 at the run's
// frame rate, or, without ffmpeg, written as numbered PNG files (NAME-00001.png, ... beside
// where the video would have gone). No GL here: the app reads the pixels and hands them over.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <sys/types.h>

namespace tinkerbox {

class Recorder {
public:
    // The ffmpeg on PATH, or an empty path when there is none.
    static std::filesystem::path findFfmpeg();

    // Starts a recording of width x height pictures at `fps` frames per second: an H.264
    // video through `ffmpeg` when it is given, else numbered PNGs. Throws std::runtime_error
    // when ffmpeg cannot be started.
    Recorder(std::filesystem::path file, int width, int height, double fps, const std::filesystem::path& ffmpeg);
    ~Recorder();  // finishes, if finish() was not called
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

    int width() const { return width_; }
    int height() const { return height_; }
    bool video() const { return video_; }  // through ffmpeg (else PNGs)
    long frames() const { return frames_; }
    // Mean time per frame spent handing pictures over (the encoder's own time aside).
    double millisecondsPerFrame() const { return frames_ ? 1e3 * seconds_ / static_cast<double>(frames_) : 0.0; }

    // Throws std::runtime_error when the picture cannot be written.
    void add(const std::vector<std::uint8_t>& rgba);
    // Closes the video (waiting for ffmpeg) and says what was written, e.g. to show the user.
    // Throws std::runtime_error when ffmpeg failed.
    std::string finish();
    // The n-th PNG of a recording without ffmpeg (n from 1).
    static std::filesystem::path pngPath(const std::filesystem::path& file, long n);

private:
    std::filesystem::path file_;
    int width_, height_;
    std::FILE* pipe_ = nullptr;  // ffmpeg's standard input
    pid_t pid_ = -1;
    bool video_ = false;
    double fps_;
    long frames_ = 0;
    double seconds_ = 0.0;
    bool finished_ = false;
};

}  // namespace tinkerbox
