#include "app/Recorder.h"

#include <fcntl.h>
#include <spawn.h>
#include <stb_image_write.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace tinkerbox {

std::filesystem::path Recorder::findFfmpeg() {
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / "ffmpeg";
        if (::access(candidate.c_str(), X_OK) == 0 && std::filesystem::is_regular_file(candidate)) return candidate;
    }
    return {};
}

std::filesystem::path Recorder::pngPath(const std::filesystem::path& file, long n) {
    char number[32];
    std::snprintf(number, sizeof number, "-%05ld.png", n);
    return file.parent_path() / (file.stem().string() + number);
}

Recorder::Recorder(std::filesystem::path file, int width, int height, double fps, const std::filesystem::path& ffmpeg)
    : file_(std::move(file)), width_(width), height_(height), fps_(fps) {
    if (width < 1 || height < 1 || !(fps > 0.0))
        throw std::invalid_argument("a recording needs a picture and a frame rate");
    if (ffmpeg.empty()) return;
    // Raw RGBA on ffmpeg's standard input. H.264 in 4:2:0 needs even sizes: an odd last row
    // or column is cropped. The pipe's end is kept from other children (O_CLOEXEC); the
    // child gets its copy as standard input through dup2, which clears the flag.
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("cannot make a pipe to ffmpeg");
    char size[32], rate[32];
    std::snprintf(size, sizeof size, "%dx%d", width, height);
    std::snprintf(rate, sizeof rate, "%.9g", fps);
    std::vector<std::string> args = {ffmpeg.string(),
                                     "-hide_banner",
                                     "-loglevel",
                                     "error",
                                     "-y",
                                     "-f",
                                     "rawvideo",
                                     "-pix_fmt",
                                     "rgba",
                                     "-s",
                                     size,
                                     "-framerate",
                                     rate,
                                     "-i",
                                     "-",
                                     "-vf",
                                     "crop=trunc(iw/2)*2:trunc(ih/2)*2",
                                     "-c:v",
                                     "libx264",
                                     "-pix_fmt",
                                     "yuv420p",
                                     "-movflags",
                                     "+faststart",
                                     file_.string()};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
    const int spawned = ::posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[0]);
    if (spawned != 0) {
        ::close(fds[1]);
        pid_ = -1;
        throw std::runtime_error("cannot start " + ffmpeg.string());
    }
    // A dead ffmpeg makes a write fail (and finish() say so) instead of killing the app.
    std::signal(SIGPIPE, SIG_IGN);
    pipe_ = ::fdopen(fds[1], "w");
    video_ = true;
}

Recorder::~Recorder() {
    if (finished_) return;
    try {
        finish();
    } catch (const std::exception&) {
        // Destroyed without finish(): nobody is left to tell.
    }
}

void Recorder::add(const std::vector<std::uint8_t>& rgba) {
    if (rgba.size() != static_cast<std::size_t>(width_) * height_ * 4)
        throw std::invalid_argument("a recorded picture must keep the recording's size");
    const auto start = std::chrono::steady_clock::now();
    if (video_) {
        if (std::fwrite(rgba.data(), 1, rgba.size(), pipe_) != rgba.size())
            throw std::runtime_error("ffmpeg stopped taking frames for " + file_.string());
    } else {
        const std::filesystem::path png = pngPath(file_, frames_ + 1);
        if (!stbi_write_png(png.c_str(), width_, height_, 4, rgba.data(), width_ * 4))
            throw std::runtime_error("cannot write " + png.string());
    }
    ++frames_;
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string Recorder::finish() {
    finished_ = true;
    std::ostringstream text;
    if (!video_) {
        text << "ffmpeg is not installed: " << frames_ << " frames saved as " << pngPath(file_, 1).string()
             << " and on. For an MP4 video, install it: sudo apt-get install ffmpeg";
        return text.str();
    }
    if (pipe_) std::fclose(pipe_);
    pipe_ = nullptr;
    int status = 0;
    while (pid_ > 0 && ::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error("ffmpeg failed to write " + file_.string() + " (its messages are on the terminal)");
    char handOver[32];
    std::snprintf(handOver, sizeof handOver, "%.1f", millisecondsPerFrame());
    text << "Video saved to " << file_.string() << " (" << frames_ << " frames, " << width_ - width_ % 2 << " x "
         << height_ - height_ % 2 << ", " << fps_ << " fps; " << handOver << " ms a frame to hand over)";
    return text.str();
}

}  // namespace tinkerbox
