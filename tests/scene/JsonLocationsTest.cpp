#include "scene/JsonLocations.h"

#include <gtest/gtest.h>

namespace tinkerbox {
namespace {

TEST(JsonLocations, FindsValuesByPath) {
    const std::string text = "{\n  \"a\": 1,\n  \"list\": [10,\n    {\"b\": [true, null]}],\n  \"c\": \"x\"\n}";
    const JsonLocations loc(text);
    EXPECT_EQ(loc.find("").line, 1);
    EXPECT_EQ(loc.find("a").line, 2);
    EXPECT_EQ(loc.find("a").column, 8);
    EXPECT_EQ(loc.find("list[0]").line, 3);
    EXPECT_EQ(loc.find("list[0]").column, 12);
    EXPECT_EQ(loc.find("list[1]").line, 4);
    EXPECT_EQ(loc.find("list[1].b[1]").line, 4);
    EXPECT_EQ(loc.find("list[1].b[1]").column, 18);
    EXPECT_EQ(loc.find("c").line, 5);
}

TEST(JsonLocations, MissingPathFallsBackToItsParent) {
    const std::string text = "{\n  \"obj\": {\"k\": 1}\n}";
    const JsonLocations loc(text);
    EXPECT_EQ(loc.find("obj.missing").line, 2);
    EXPECT_EQ(loc.find("obj.missing").column, 10);
}

TEST(JsonLocations, LocateCountsLinesAndColumns) {
    EXPECT_EQ(JsonLocations::locate("ab\ncd", 4).line, 2);
    EXPECT_EQ(JsonLocations::locate("ab\ncd", 4).column, 2);
}

}  // namespace
}  // namespace tinkerbox
