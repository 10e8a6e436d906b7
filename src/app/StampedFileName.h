#pragma once
// Names for the files the app names itself (F12's screenshot, Ctrl+R's video).
#include <ctime>
#include <filesystem>
#include <functional>
#include <string>

namespace tinkerbox {

// "tinkerbox-20261206-132056.png" in the current directory, made absolute so that the notice
// says where the file went. When `taken` holds for that name (two screenshots in one second)
// a number follows the stamp, "-2", "-3", ..., so that no earlier file is overwritten.
std::filesystem::path stampedFileName(
    std::time_t when, const std::string& extension,
    const std::function<bool(const std::filesystem::path&)>& taken = [](const std::filesystem::path& file) {
        return std::filesystem::exists(file);
    });

}  // namespace tinkerbox
