// Tests of a subject's shell commands: how their end is told.
#include "dlfl/lab/bench/build_runner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <thread>

namespace dlfl::bench {
namespace {

using ::testing::HasSubstr;

const std::filesystem::path kHere = std::filesystem::temp_directory_path();

TEST(RunCommand, AFailingCommandIsAFailureWithItsLastErrorLine) {
  std::atomic<bool> cancel{false};
  const CommandOutcome out = run_command("echo 'x.cpp:1: error: boom'; exit 1", kHere, {}, std::chrono::seconds(30), &cancel);
  EXPECT_FALSE(out.ok);
  EXPECT_FALSE(out.cancelled);
  EXPECT_THAT(failure_summary(out), HasSubstr("error: boom"));
}

// A signal to the whole job (a Slurm requeue, Ctrl-C) kills the compiler first; the run's
// own flag follows. The step is then interrupted, not a build that failed.
TEST(RunCommand, ACommandKilledByATerminationSignalWaitsForTheRunsOwnInterrupt) {
  for (const std::string command : {"kill -TERM $$", "sh -c 'kill -INT $$'; exit $?"}) {
    std::atomic<bool> cancel{false};
    std::thread signal_arrives([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(400));
      cancel = true;
    });
    const CommandOutcome out = run_command(command, kHere, {}, std::chrono::seconds(30), &cancel);
    signal_arrives.join();
    EXPECT_FALSE(out.ok) << command;
    EXPECT_TRUE(out.cancelled) << command << ": " << out.how;
  }
}

TEST(RunCommand, ATerminationSignalToTheCommandAloneStaysItsFailure) {
  std::atomic<bool> cancel{false};
  const CommandOutcome out = run_command("kill -TERM $$", kHere, {}, std::chrono::seconds(30), &cancel);
  EXPECT_FALSE(out.ok);
  EXPECT_FALSE(out.cancelled);
  EXPECT_THAT(out.how, HasSubstr("SIGTERM"));
  // A crash is the version's outcome: no wait.
  const auto start = std::chrono::steady_clock::now();
  const CommandOutcome crashed = run_command("kill -SEGV $$", kHere, {}, std::chrono::seconds(30), &cancel);
  EXPECT_FALSE(crashed.cancelled);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
}

}  // namespace
}  // namespace dlfl::bench
