// The core's layers (docs/architecture.md): each folder of src/core/ includes only the
// folders below it and, from outside, the standard library and Eigen.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>

namespace tinkerbox {
namespace {

// Bottom to top; a folder may include those of a lower rank and its own. Folders of the same
// rank (forces and constraints both read the state only) include neither the other.
const std::map<std::string, int> kLayerRank = {
    {"math", 0},      {"bodies", 1},      {"state", 2},    {"forces", 3},  {"constraints", 3},
    {"collision", 4}, {"integrators", 4}, {"dynamics", 5}, {"contact", 6}, {"pipeline", 7},
};

TEST(CoreLayers, NoFolderIncludesAHigherOneOrAnythingButTheStandardLibraryAndEigen) {
    const std::filesystem::path core = std::filesystem::path(TINKERBOX_SOURCE_DIR) / "src" / "core";
    const std::regex ownInclude(R"(#include\s+"core/([a-z]+)/)"), systemInclude(R"(#include\s+<([^>]+)>)");
    const std::regex allowedSystem(R"(^(Eigen/|unsupported/Eigen/|immintrin\.h$|[a-z_]+$))");
    int files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(core)) {
        const std::filesystem::path& path = entry.path();
        if (path.extension() != ".h" && path.extension() != ".cpp") continue;
        ++files;
        const std::string folder = path.parent_path().filename().string();
        ASSERT_TRUE(kLayerRank.count(folder)) << path << ": a folder docs/architecture.md does not place";
        std::ifstream in(path);
        std::string line;
        for (int number = 1; std::getline(in, line); ++number) {
            std::smatch match;
            const std::string where = path.string() + ":" + std::to_string(number);
            if (std::regex_search(line, match, ownInclude)) {
                const std::string included = match[1];
                ASSERT_TRUE(kLayerRank.count(included)) << where;
                if (included != folder) {
                    EXPECT_LT(kLayerRank.at(included), kLayerRank.at(folder))
                        << where << ": " << folder << " includes " << included << ", which is not below it";
                }
            } else if (std::regex_search(line, match, systemInclude)) {
                EXPECT_TRUE(std::regex_search(match[1].str(), allowedSystem))
                    << where << ": the core includes the standard library and Eigen only, not " << match[1];
            } else {
                EXPECT_EQ(line.find("#include \""), std::string::npos)
                    << where << ": the core includes its own files by their path from src/";
            }
        }
    }
    EXPECT_GT(files, 100);
}

}  // namespace
}  // namespace tinkerbox
