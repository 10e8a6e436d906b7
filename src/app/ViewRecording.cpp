#include "app/ViewRecording.h"

#include <ctime>
#include <iostream>
#include <string>

#include "app/StampedFileName.h"
#include "render/Renderer.h"

namespace tinkerbox {

void ViewRecording::toggle(double fps, int width, int height, double now) {
    if (on()) {
        stop(now);
        return;
    }
    // Without ffmpeg the video is numbered PNG files: the name is taken if its first one exists.
    const std::filesystem::path file = stampedFileName(std::time(nullptr), ".mp4", [](const std::filesystem::path& f) {
        return std::filesystem::exists(f) || std::filesystem::exists(Recorder::pngPath(f, 1));
    });
    start(file, fps, width, height, now);
}

void ViewRecording::start(const std::filesystem::path& file, double fps, int width, int height, double now) {
    const std::filesystem::path ffmpeg = Recorder::findFfmpeg();
    try {
        recorder_ = std::make_unique<Recorder>(file, width, height, fps, ffmpeg);
    } catch (const std::exception& e) {
        if (batch_) throw;
        notice_.show(e.what(), now, 8.0);
        return;
    }
    notice_.show("Recording " + (ffmpeg.empty() ? Recorder::pngPath(file, 1).string() + " and on" : file.string()) +
                     ": Ctrl+R stops",
                 now, 4.0);
}

void ViewRecording::capture(int width, int height, double now) {
    if (!recorder_) return;
    if (width != recorder_->width() || height != recorder_->height()) {
        stop(now);
        notice_.show("The window changed size, which stopped the video. " + notice_.text, now, 8.0);
        return;
    }
    try {
        recorder_->add(readFramebuffer(width, height));
    } catch (const std::exception& e) {
        stop(now);
        notice_.show(std::string(e.what()) + ". " + notice_.text, now, 8.0);
    }
}

bool ViewRecording::stop(double now) {
    if (!recorder_) return true;
    const std::unique_ptr<Recorder> recorder = std::move(recorder_);
    bool finished = true;
    try {
        notice_.show(recorder->finish(), now, 8.0);
    } catch (const std::exception& e) {
        notice_.show(e.what(), now, 8.0);
        finished = false;
    }
    if (batch_) (finished ? std::cout : std::cerr) << notice_.text << '\n';
    return finished;
}

}  // namespace tinkerbox
