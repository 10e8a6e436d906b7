#pragma once
// The app's video recording: started and stopped by Ctrl+R (or --video for a batch run), it
// hands the view, as drawn before the panels, to a Recorder once per drawn frame, and says
// in the status line what it wrote.
#include <filesystem>
#include <memory>

#include "app/Notice.h"
#include "app/Recorder.h"

namespace tinkerbox {

class ViewRecording {
public:
    // batch: a --video run, whose failures are errors (thrown, or the exit code) and whose
    // result is printed.
    ViewRecording(Notice& notice, bool batch) : notice_(notice), batch_(batch) {}

    bool on() const { return recorder_ != nullptr; }
    long frames() const { return recorder_ ? recorder_->frames() : 0; }
    // Starts a video named from the time, in the current directory, or stops the one running.
    void toggle(double fps, int width, int height, double now);
    void start(const std::filesystem::path& file, double fps, int width, int height, double now);
    // After the view is drawn, before the panels: its picture (a resize stops the video).
    void capture(int width, int height, double now);
    // Returns false when the video could not be finished.
    bool stop(double now);

private:
    Notice& notice_;
    bool batch_;
    std::unique_ptr<Recorder> recorder_;
};

}  // namespace tinkerbox
