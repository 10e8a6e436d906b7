// The names of F12's screenshots and Ctrl+R's videos: stamped with the time, never an earlier file's.
#include "app/StampedFileName.h"

#include <gtest/gtest.h>

#include <set>

namespace tinkerbox {
namespace {

namespace fs = std::filesystem;

// 2026-12-06 13:20:56 in this machine's time zone.
std::time_t aMoment() {
    std::tm local{};
    local.tm_year = 2026 - 1900;
    local.tm_mon = 11;
    local.tm_mday = 6;
    local.tm_hour = 13;
    local.tm_min = 20;
    local.tm_sec = 56;
    local.tm_isdst = -1;
    return std::mktime(&local);
}

TEST(StampedFileName, IsTheTimeInTheCurrentDirectorySpelledOut) {
    const fs::path file = stampedFileName(aMoment(), ".png", [](const fs::path&) { return false; });
    EXPECT_TRUE(file.is_absolute()) << file;
    EXPECT_EQ(file.parent_path(), fs::current_path());
    EXPECT_EQ(file.filename(), "tinkerbox-20261206-132056.png");
}

// Two screenshots in one second: the second is numbered instead of overwriting the first.
TEST(StampedFileName, ANameTakenInTheSameSecondGetsTheNextNumber) {
    std::set<std::string> taken;
    const auto isTaken = [&](const fs::path& f) { return taken.count(f.filename().string()) > 0; };
    for (int i = 0; i < 3; ++i) taken.insert(stampedFileName(aMoment(), ".mp4", isTaken).filename().string());
    EXPECT_EQ(taken, (std::set<std::string>{"tinkerbox-20261206-132056.mp4", "tinkerbox-20261206-132056-2.mp4",
                                            "tinkerbox-20261206-132056-3.mp4"}));
}

}  // namespace
}  // namespace tinkerbox
