#include "app/InputScript.h"

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

namespace tinkerbox {
namespace {

TEST(InputScript, ReadsEveryEventKind) {
    const auto events = parseInputScript(R"(# a comment
5 move 100 200
6 button left press
7 button right release shift
8 scroll 0 -1.5
9 key SPACE press
10 key q press ctrl
11 char 65
12 drop /tmp/some scene.json
13 screenshot /tmp/a shot.png
)",
                                         "test");
    ASSERT_EQ(events.size(), 9u);
    EXPECT_EQ(events[0].frame, 5);
    EXPECT_EQ(events[0].event.type, InputEvent::Type::CursorPos);
    EXPECT_EQ(events[0].event.x, 100);
    EXPECT_EQ(events[1].event.key, GLFW_MOUSE_BUTTON_LEFT);
    EXPECT_EQ(events[1].event.action, GLFW_PRESS);
    EXPECT_EQ(events[2].event.key, GLFW_MOUSE_BUTTON_RIGHT);
    EXPECT_EQ(events[2].event.mods, GLFW_MOD_SHIFT);
    EXPECT_EQ(events[3].event.y, -1.5);
    EXPECT_EQ(events[4].event.key, GLFW_KEY_SPACE);
    EXPECT_EQ(events[5].event.key, GLFW_KEY_Q);
    EXPECT_EQ(events[5].event.mods, GLFW_MOD_CONTROL);
    EXPECT_EQ(events[6].event.codepoint, 65u);
    ASSERT_EQ(events[7].event.paths.size(), 1u);
    EXPECT_EQ(events[7].event.paths[0], "/tmp/some scene.json");
    EXPECT_EQ(events[8].event.type, InputEvent::Type::Screenshot);
    ASSERT_EQ(events[8].event.paths.size(), 1u);
    EXPECT_EQ(events[8].event.paths[0], "/tmp/a shot.png");
}

TEST(InputScript, AKeyWithoutActionIsAPressThenARelease) {
    const auto events = parseInputScript("3 key P\n4 key Z ctrl+shift\n", "test");
    ASSERT_EQ(events.size(), 4u);
    EXPECT_EQ(events[0].frame, 3);
    EXPECT_EQ(events[0].event.action, GLFW_PRESS);
    EXPECT_EQ(events[1].frame, 4);  // sorted by frame, in the order written within a frame
    EXPECT_EQ(events[1].event.action, GLFW_RELEASE);
    EXPECT_EQ(events[1].event.key, GLFW_KEY_P);
    EXPECT_EQ(events[2].frame, 4);
    EXPECT_EQ(events[2].event.action, GLFW_PRESS);
    EXPECT_EQ(events[2].event.key, GLFW_KEY_Z);
    EXPECT_EQ(events[2].event.mods, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT);
    EXPECT_EQ(events[3].frame, 5);
    EXPECT_EQ(events[3].event.action, GLFW_RELEASE);
}

TEST(InputScript, ErrorsNameTheLine) {
    try {
        parseInputScript("1 key P\n2 wiggle 3\n", "s.txt");
        FAIL();
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("s.txt:2:"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("wiggle"), std::string::npos);
    }
    EXPECT_THROW(parseInputScript("x key P\n", "s"), std::runtime_error);
    EXPECT_THROW(parseInputScript("1 key NOPE\n", "s"), std::runtime_error);
    EXPECT_THROW(parseInputScript("1 move 3\n", "s"), std::runtime_error);
    EXPECT_THROW(parseInputScript("1 screenshot\n", "s"), std::runtime_error);  // no file
}

TEST(InputScript, RecordedEventsReplayAsThemselves) {
    const auto events = parseInputScript(
        "1 move 10.5 20\n2 button middle press alt\n3 key F12 press\n4 key BACKSPACE release\n5 scroll 1 2\n"
        "6 screenshot /tmp/shot 6.png\n",
        "t");
    std::string text;
    for (const auto& e : events) text += formatScriptedEvent(e) + "\n";
    const auto again = parseInputScript(text, "again");
    ASSERT_EQ(again.size(), events.size());
    for (std::size_t i = 0; i < events.size(); ++i) {
        EXPECT_EQ(again[i].frame, events[i].frame);
        EXPECT_EQ(again[i].event.type, events[i].event.type);
        EXPECT_EQ(again[i].event.key, events[i].event.key);
        EXPECT_EQ(again[i].event.action, events[i].event.action);
        EXPECT_EQ(again[i].event.mods, events[i].event.mods);
        EXPECT_EQ(again[i].event.x, events[i].event.x);
        EXPECT_EQ(again[i].event.paths, events[i].event.paths);
    }
}

}  // namespace
}  // namespace tinkerbox
