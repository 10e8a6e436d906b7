#include "scene/JsonLocations.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace tinkerbox {
namespace {

TEST(JsonLocations, FindsValuesByPath) {
    const std::string text = "{\n  \"a\": 1,\n  \"list\": [10,\n    {\"b\": [true, null]}],\n  \"c\": \"x\"\n}";
    const auto find = [&](std::string_view path) { return locateJsonPath(text, path); };
    EXPECT_EQ(find("").line, 1);
    EXPECT_EQ(find("a").line, 2);
    EXPECT_EQ(find("a").column, 8);
    EXPECT_EQ(find("list[0]").line, 3);
    EXPECT_EQ(find("list[0]").column, 12);
    EXPECT_EQ(find("list[1]").line, 4);
    EXPECT_EQ(find("list[1].b[1]").line, 4);
    EXPECT_EQ(find("list[1].b[1]").column, 18);
    EXPECT_EQ(find("c").line, 5);
}

TEST(JsonLocations, MissingPathFallsBackToItsParent) {
    const std::string text = "{\n  \"obj\": {\"k\": 1}\n}";
    const auto find = [&](std::string_view path) { return locateJsonPath(text, path); };
    EXPECT_EQ(find("obj.missing").line, 2);
    EXPECT_EQ(find("obj.missing").column, 10);
}

TEST(JsonLocations, LocateCountsLinesAndColumns) {
    EXPECT_EQ(locateOffset("ab\ncd", 4).line, 2);
    EXPECT_EQ(locateOffset("ab\ncd", 4).column, 2);
}

// Lines are counted once for the whole text, not once per value.
TEST(JsonLocations, LaterLinesAreCountedFromWhereTheLastValueWas) {
    std::string text = "[";
    for (int i = 0; i < 1000; ++i) text += "\n  " + std::to_string(i) + ",";
    text += "\n  {\"last\": true}]";
    const auto find = [&](std::string_view path) { return locateJsonPath(text, path); };
    EXPECT_EQ(find("[999]").line, 1001);
    EXPECT_EQ(find("[999]").column, 3);
    EXPECT_EQ(find("[1000].last").line, 1002);
    EXPECT_EQ(find("[1000].last").column, 12);
}

TEST(JsonLocations, DeepNestingStopsTheSearchAtTheDepthLimit) {
    const std::string text = std::string(100000, '[') + std::string(100000, ']');
    std::string deep;
    for (int i = 0; i < 300; ++i) deep += "[0]";
    EXPECT_EQ(locateJsonPath(text, deep).column, static_cast<int>(kMaxJsonDepth) + 1);  // the deepest level read
    EXPECT_EQ(locateJsonPath(text, "[0][0]").column, 3);
}

// A key that is not there is reported at its object; a path into malformed text as far as
// the text goes.
TEST(JsonLocations, MissingOrUnreadablePathsStopAtTheirNearestAncestor) {
    EXPECT_EQ(locateJsonPath("{\"a\": [1, {\"b\": 2}]}", "a[1].c").column, 11);
    EXPECT_EQ(locateJsonPath("{\"a\": [1, {\"b\": 2}]}", "a[5]").column, 7);
    EXPECT_EQ(locateJsonPath("{\"a\": [1, {\"b\": 2", "a[1].b").column, 17);
    EXPECT_EQ(locateJsonPath("{\"a\": [1, {\"b\": 2", "a[1].c").column, 11);
    EXPECT_EQ(locateJsonPath("", "a").line, 0);
}

TEST(JsonLocations, ParsedDocumentsRefuseDuplicateKeys) {
    try {
        parseJsonDocument("{\"a\": {\"b\": 1,\n \"b\": 2}}");
        FAIL();
    } catch (const JsonTextError& e) {
        EXPECT_EQ(e.path, "a.b");
        EXPECT_EQ(e.location.line, 2);
        EXPECT_EQ(e.location.column, 2);
    }
    EXPECT_NO_THROW(parseJsonDocument("{\"a\": {\"b\": 1}, \"b\": {\"b\": 2}}"));  // one per object
}

}  // namespace
}  // namespace tinkerbox
