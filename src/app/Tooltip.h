#pragma once
// What a control does, shown while the pointer rests on it (ImGui 1.86 has no SetItemTooltip).
#include <imgui.h>

namespace tinkerbox {

// For the item just drawn; wrapped to a readable width.
inline void itemTooltip(const char* text) {
    if (!ImGui::IsItemHovered()) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

}  // namespace tinkerbox
