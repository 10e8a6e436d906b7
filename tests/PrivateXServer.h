#pragma once
// A private Xvfb server for a test program that opens windows: registered as a GoogleTest
// environment, it starts before the first test and points DISPLAY at itself. The program
// defines TINKERBOX_XVFB, the path of Xvfb.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern char** environ;

namespace tinkerbox {

// A private X server for the whole run, 1280x800 at 24 bits, so that the tests neither
// need a display nor send input to someone's desktop. Xvfb picks a free display number
// and writes it to a pipe (-displayfd); windows the tests open, and xdotool, find it in DISPLAY. -noreset
// keeps the server from resetting whenever its last client leaves, as it does when a test
// kills the app and starts the next one (once, under load, that next app could not open the
// display). Should a test fail, the server's messages are printed at the end.
class PrivateXServer : public ::testing::Environment {
public:
    void SetUp() override {
        int fds[2];
        ASSERT_EQ(::pipe(fds), 0);
        std::vector<std::string> args = {TINKERBOX_XVFB, "-displayfd", std::to_string(fds[1]),
                                         "-screen",      "0",          "1280x800x24",
                                         "-nolisten",    "tcp",        "-noreset"};
        std::vector<char*> argv;
        for (std::string& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        // Xvfb's own messages (it may race another server for a display number) go to a log.
        log_ = std::filesystem::temp_directory_path() / ("tinkerbox-xvfb-" + std::to_string(::getpid()) + ".log");
        posix_spawn_file_actions_t actions;
        ::posix_spawn_file_actions_init(&actions);
        ::posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int spawned = ::posix_spawn(&pid_, TINKERBOX_XVFB, &actions, nullptr, argv.data(), environ);
        ::posix_spawn_file_actions_destroy(&actions);
        ASSERT_EQ(spawned, 0);
        ::close(fds[1]);
        std::string display;
        char c = 0;
        while (::read(fds[0], &c, 1) == 1 && c != '\n') display += c;
        ::close(fds[0]);
        ASSERT_FALSE(display.empty()) << "Xvfb did not start:\n" << messages();
        ::setenv("DISPLAY", (":" + display).c_str(), 1);
    }
    void TearDown() override {
        if (pid_ > 0) {
            ::kill(pid_, SIGTERM);
            ::waitpid(pid_, nullptr, 0);
        }
        if (::testing::UnitTest::GetInstance()->failed_test_count() > 0)
            std::cerr << "Xvfb's messages:\n" << messages() << '\n';
        std::error_code ignored;
        std::filesystem::remove(log_, ignored);
    }

private:
    std::string messages() const {
        std::ifstream in(log_);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }

    pid_t pid_ = -1;
    std::filesystem::path log_;
};
}  // namespace tinkerbox
