#pragma once
// The bar under the view: the timeline's slider (dragging it shows an earlier frame and
// pauses), a frame back and forward, the memory the timeline may take, and the video
// recording's button. The app's keys do the same: Left, Right, Ctrl+R.
#include <string>

#include "editor/Editor.h"

namespace tinkerbox {

// What the bar asks of the app (what the editor cannot do alone).
struct TimelineBarRequests {
    bool step = false;  // Right at the newest frame: simulate one more
    bool toggleRecording = false;
};

struct RecordingState {
    bool on = false;
    long frames = 0;
};

// Draws the bar from x = left, `width` wide, its bottom edge at `bottom` (ImGui frame).
TimelineBarRequests drawTimelineBar(Editor& editor, int& budgetMegabytes, const RecordingState& recording, float left,
                                    float width, float bottom);

// "key value" lines for the app's status file: the frames kept (first, last), the one
// shown, the bytes they take and the budget.
std::string timelineStatus(const Editor& editor);

}  // namespace tinkerbox
