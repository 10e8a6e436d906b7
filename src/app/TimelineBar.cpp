#include "app/TimelineBar.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace tinkerbox {

namespace {

void tooltip(const char* text) {
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

}  // namespace

TimelineBarRequests drawTimelineBar(Editor& editor, int& budgetMegabytes, const RecordingState& recording, float left,
                                    float width, float bottom) {
    TimelineBarRequests requests;
    const Timeline& timeline = editor.timeline();
    ImGui::SetNextWindowPos(ImVec2(left, bottom), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
    ImGui::SetNextWindowSize(ImVec2(width, 0.0f), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.75f);
    ImGui::Begin("##timeline", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing);
    if (ImGui::ArrowButton("##back", ImGuiDir_Left) && !editor.playing()) editor.stepBack();
    tooltip("One frame back (Left, while paused)");
    ImGui::SameLine();
    if (ImGui::ArrowButton("##forward", ImGuiDir_Right) && !editor.playing() && !editor.stepForward())
        requests.step = true;
    tooltip("One frame forward (Right, while paused); at the newest frame, one more frame is simulated");
    ImGui::SameLine();

    // The slider, then the frame's time, the memory and the record button at the right.
    const float rightPart = 330.0f;
    ImGui::SetNextItemWidth(std::max(80.0f, ImGui::GetContentRegionAvail().x - rightPart));
    if (!timeline.empty()) {
        int shown = static_cast<int>(timeline.cursor());
        char label[64];
        std::snprintf(label, sizeof label, "frame %d of %ld", shown, timeline.lastNumber());
        if (ImGui::SliderInt("##frame", &shown, static_cast<int>(timeline.firstNumber()),
                             static_cast<int>(timeline.lastNumber()), label, ImGuiSliderFlags_AlwaysClamp) &&
            shown != timeline.cursor())
            editor.seekFrame(shown);
        tooltip(
            "Every frame run is kept (back to the oldest the memory holds): drag to see one again. Playing, "
            "stepping or editing at an earlier frame goes on from there and drops the later frames (Ctrl+Z "
            "brings them back).");
    }
    ImGui::SameLine();
    ImGui::Text("t = %.3f s", editor.simulation().time());
    ImGui::SameLine();
    ImGui::SetNextItemWidth(90.0f);
    if (ImGui::InputInt("MB", &budgetMegabytes, 64, 256)) {
        budgetMegabytes = std::clamp(budgetMegabytes, 1, 1 << 20);
        editor.setTimelineBudget(static_cast<std::size_t>(budgetMegabytes) << 20);
    }
    char memory[160];
    std::snprintf(memory, sizeof memory,
                  "The memory the timeline may take; the oldest frames go first. Now %.1f MB for %zu frames.",
                  static_cast<double>(timeline.bytes()) / (1 << 20), timeline.size());
    tooltip(memory);
    ImGui::SameLine();
    if (recording.on) {
        char label[48];
        std::snprintf(label, sizeof label, "Stop (%ld)", recording.frames);
        ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.75f, 0.15f, 0.15f, 1.0f));
        requests.toggleRecording = ImGui::Button(label);
        ImGui::PopStyleColor();
        tooltip("Stop the video (Ctrl+R)");
    } else {
        requests.toggleRecording = ImGui::Button("Record");
        tooltip("Record a video of the view (Ctrl+R): an MP4 through ffmpeg, else numbered PNG files");
    }
    ImGui::End();
    return requests;
}

std::string timelineStatus(const Editor& editor) {
    const Timeline& timeline = editor.timeline();
    std::ostringstream out;
    out << "timeline_first " << timeline.firstNumber() << "\ntimeline_last " << timeline.lastNumber()
        << "\ntimeline_frame " << timeline.cursor() << "\ntimeline_bytes " << timeline.bytes() << "\ntimeline_budget "
        << timeline.budget() << '\n';
    return out.str();
}

}  // namespace tinkerbox
