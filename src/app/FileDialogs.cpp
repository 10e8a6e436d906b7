#include "app/FileDialogs.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cstring>

namespace tinkerbox {

void FileDialogs::unlessUnsaved(const std::string& what, std::function<void()> action) {
    if (!editor_.modified()) {
        action();
        return;
    }
    unsavedWhat_ = what;
    afterUnsaved_ = std::move(action);
    unsavedPrompt_ = true;
}

void FileDialogs::draw() {
    // A dialog opens on the document's path (or a default name to save to) and no old error.
    const auto startDialog = [this](const char* fallback) {
        const std::string path = document_.path().empty() ? fallback : document_.path().string();
        std::strncpy(pathBuffer_, path.c_str(), sizeof pathBuffer_ - 1);
        document_.clearError();
    };
    if (openDialog_) {
        ImGui::OpenPopup("Open scene");
        startDialog("");
        openDialog_ = false;
    }
    if (saveDialog_) {
        ImGui::OpenPopup("Save scene as");
        startDialog("scene.json");
        saveDialog_ = false;
    }
    if (restorePrompt_) {
        ImGui::OpenPopup("Restore unsaved work?");
        restorePrompt_ = false;
    }
    if (unsavedPrompt_) {
        ImGui::OpenPopup("Unsaved changes");
        startDialog("scene.json");
        unsavedPrompt_ = false;
    }
    drawUnsavedPrompt();
    const auto fileDialog = [&](const char* title, const char* action, auto&& perform) {
        if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
        ImGui::SetNextItemWidth(520.0f);
        if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
        const bool enter =
            ImGui::InputText("path", pathBuffer_, sizeof pathBuffer_, ImGuiInputTextFlags_EnterReturnsTrue);
        if (!settings_.recentFiles.empty()) {
            ImGui::Text("Recent:");
            for (const std::string& file : settings_.recentFiles)
                if (ImGui::Selectable(file.c_str())) std::strncpy(pathBuffer_, file.c_str(), sizeof pathBuffer_ - 1);
        }
        if (!document_.error().empty())
            ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", document_.error().c_str());
        if (ImGui::Button(action) || enter) {
            if (perform(std::filesystem::path(pathBuffer_))) ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    };
    fileDialog("Open scene", "Open", [&](const std::filesystem::path& p) { return document_.openFile(p); });
    fileDialog("Save scene as", "Save", [&](const std::filesystem::path& p) { return document_.saveTo(p); });
    drawRestorePrompt();
}

void FileDialogs::drawUnsavedPrompt() {
    if (!ImGui::BeginPopupModal("Unsaved changes", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::Text("The scene has edits that are not saved. Save them before you %s?", unsavedWhat_.c_str());
    ImGui::SetNextItemWidth(520.0f);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText("path", pathBuffer_, sizeof pathBuffer_, ImGuiInputTextFlags_EnterReturnsTrue);
    if (!document_.error().empty())
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", document_.error().c_str());
    ImGui::TextDisabled("Enter saves, Ctrl+D discards the changes, Escape cancels.");
    const auto proceed = [this] {
        ImGui::CloseCurrentPopup();
        const std::function<void()> action = std::move(afterUnsaved_);
        afterUnsaved_ = nullptr;
        if (action) action();
    };
    const bool save = ImGui::Button("Save");
    if ((save || enter) && document_.saveTo(std::filesystem::path(pathBuffer_))) proceed();
    ImGui::SameLine();
    if (ImGui::Button("Discard the changes") || (ImGui::GetIO().KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_D))) proceed();
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
        afterUnsaved_ = nullptr;
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

void FileDialogs::drawRestorePrompt() {
    if (!ImGui::BeginPopupModal("Restore unsaved work?", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::Text("Tinkerbox did not close cleanly last time.");
    ImGui::Text("An autosave of the scene being edited is in %s.", autosavePath().string().c_str());
    ImGui::TextDisabled("Enter restores it.");
    if (ImGui::Button("Restore it") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter))) {
        document_.restoreAutosave();
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Discard it")) {
        document_.discardAutosave();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

}  // namespace tinkerbox
