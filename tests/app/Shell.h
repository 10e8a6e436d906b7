#pragma once
// Shell commands for the app's tests: what a command prints, and what ffprobe says of a video.
#include <cstdio>
#include <filesystem>
#include <string>

namespace tinkerbox::test {

// The command's standard output, without trailing newlines and spaces.
inline std::string output(const std::string& command) {
    std::string text;
    if (FILE* pipe = ::popen(command.c_str(), "r")) {
        char buffer[256];
        while (std::fgets(buffer, sizeof buffer, pipe)) text += buffer;
        ::pclose(pipe);
    }
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text;
}

// ffprobe's codec,width,height,frame rate,frames counted by decoding the whole video.
inline std::string probeVideo(const std::filesystem::path& video) {
    return output(
        "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
        "stream=codec_name,width,height,r_frame_rate,nb_read_frames -of csv=p=0 '" +
        video.string() + "'");
}

}  // namespace tinkerbox::test
