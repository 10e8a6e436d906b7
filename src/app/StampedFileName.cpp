#include "app/StampedFileName.h"

namespace tinkerbox {

std::filesystem::path stampedFileName(std::time_t when, const std::string& extension,
                                      const std::function<bool(const std::filesystem::path&)>& taken) {
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&when));
    const std::filesystem::path directory = std::filesystem::current_path();
    const std::string stem = std::string("tinkerbox-") + stamp;
    std::filesystem::path file = directory / (stem + extension);
    for (int n = 2; taken(file); ++n) file = directory / (stem + "-" + std::to_string(n) + extension);
    return file;
}

}  // namespace tinkerbox
