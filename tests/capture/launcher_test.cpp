#include "launch/launcher.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using ws::LaunchSpec;
using ws::Launcher;

namespace {
std::string tempPath(const char* name) {
    return std::string(::testing::TempDir()) + "/" + name + "." + std::to_string(::getpid());
}
std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}
} // namespace

TEST(Launcher, PassesArgumentsEnvironmentAndWorkingDirectory) {
    const std::string out = tempPath("launch_env");
    Launcher launcher;
    std::string error;
    LaunchSpec spec{"sh", {"-c", "printf '%s|%s|%s' \"$WS_TEST_VAR\" \"$1\" \"$(pwd)\" > \"$2\"", "sh", "arg one", out},
                    "/tmp", {{"WS_TEST_VAR", "injected"}}};
    ASSERT_TRUE(launcher.start(spec, &error)) << error;
    EXPECT_TRUE(launcher.wait().success());
    EXPECT_EQ(readFile(out), "injected|arg one|/tmp");
    std::remove(out.c_str());
}

TEST(Launcher, ArgumentsAreNeverInterpretedByAShell) {
    const std::string marker = tempPath("launch_marker");
    Launcher launcher;
    std::string error;
    // echo receives the hostile text as one argument; nothing runs it.
    ASSERT_TRUE(launcher.start({"echo", {"x; touch " + marker, "$(touch " + marker + ")"}, {}, {}}, &error));
    EXPECT_TRUE(launcher.wait().success());
    EXPECT_NE(::access(marker.c_str(), F_OK), 0);
}

TEST(Launcher, ReportsExitCode) {
    Launcher launcher;
    std::string error;
    ASSERT_TRUE(launcher.start({"sh", {"-c", "exit 7"}, {}, {}}, &error));
    const ws::ExitStatus status = launcher.wait();
    EXPECT_FALSE(status.signaled);
    EXPECT_EQ(status.code, 7);
    EXPECT_FALSE(status.success());
}

TEST(Launcher, MissingProgramIsAnErrorFromStart) {
    Launcher launcher;
    std::string error;
    EXPECT_FALSE(launcher.start({"warpscope-no-such-program", {}, {}, {}}, &error));
    EXPECT_NE(error.find("cannot run warpscope-no-such-program"), std::string::npos) << error;
    EXPECT_FALSE(launcher.running());
}

TEST(Launcher, BadWorkingDirectoryIsAnErrorFromStart) {
    Launcher launcher;
    std::string error;
    EXPECT_FALSE(launcher.start({"true", {}, "/nonexistent/warpscope", {}}, &error));
    EXPECT_NE(error.find("working directory"), std::string::npos) << error;
}

TEST(Launcher, StopEscalatesToKillForAStubbornChild) {
    Launcher launcher;
    std::string error;
    // The child ignores SIGINT, so stop() must fall back to SIGKILL. It says when the trap is set so
    // the test does not race the shell's start-up.
    const std::string ready = tempPath("launch_ready");
    std::remove(ready.c_str());
    ASSERT_TRUE(launcher.start({"sh", {"-c", "trap '' INT; touch \"$0\"; sleep 30", ready}, {}, {}}, &error));
    for (int i = 0; i < 500 && ::access(ready.c_str(), F_OK) != 0; ++i)
        ::usleep(10000);
    std::remove(ready.c_str());
    const auto begin = std::chrono::steady_clock::now();
    const ws::ExitStatus status = launcher.stop(200);
    EXPECT_LT(std::chrono::steady_clock::now() - begin, std::chrono::seconds(10));
    EXPECT_TRUE(status.signaled);
    EXPECT_EQ(status.signal, SIGKILL);
}

TEST(Launcher, PollIsNonBlocking) {
    Launcher launcher;
    std::string error;
    ASSERT_TRUE(launcher.start({"sleep", {"5"}, {}, {}}, &error));
    EXPECT_FALSE(launcher.poll().has_value());
    EXPECT_TRUE(launcher.running());
    launcher.stop(1000);
    EXPECT_FALSE(launcher.running());
}
