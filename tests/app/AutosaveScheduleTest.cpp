#include "app/AutosaveSchedule.h"

#include <gtest/gtest.h>

namespace tinkerbox {
namespace {

// Replays a session: the editor's revision and unsaved flag at each time, and the times a write starts.
struct Session {
    AutosaveSchedule schedule;
    std::vector<double> writes;

    void at(double now, long revision, bool modified) {
        schedule.observe(revision, modified, now);
        if (schedule.due(now)) {
            schedule.writing(now);
            writes.push_back(now);
        }
    }
};

TEST(AutosaveSchedule, SavesHalfASecondAfterTheLastEdit) {
    Session s;
    s.at(0.0, 1, false);
    s.at(10.0, 2, true);  // an edit
    s.at(10.4, 2, true);
    EXPECT_TRUE(s.writes.empty());
    EXPECT_FALSE(s.schedule.current());
    s.at(10.5, 2, true);
    EXPECT_EQ(s.writes, std::vector<double>{10.5});
    EXPECT_TRUE(s.schedule.current());
}

TEST(AutosaveSchedule, EditsInQuickSuccessionWaitAtMostOneSecond) {
    Session s;
    s.at(0.0, 1, false);
    long revision = 1;
    for (double t = 20.0; t < 22.0; t += 0.25) s.at(t, ++revision, true);  // an edit every quarter second
    ASSERT_FALSE(s.writes.empty());
    EXPECT_EQ(s.writes.front(), 21.0);
}

TEST(AutosaveSchedule, EveryFiveSecondsWhileUnsavedAndNeverWhenSaved) {
    Session s;
    s.at(0.0, 1, false);
    s.at(1.0, 2, true);
    for (double t = 1.5; t <= 12.0; t += 0.5) s.at(t, 2, true);  // running: no edits, the model moves
    EXPECT_EQ(s.writes, (std::vector<double>{1.5, 6.5, 11.5}));
    s.at(12.0, 2, false);  // saved to its file
    for (double t = 12.5; t <= 30.0; t += 0.5) s.at(t, 2, false);
    EXPECT_EQ(s.writes.size(), 3u);
    EXPECT_TRUE(s.schedule.current());
}

}  // namespace
}  // namespace tinkerbox
