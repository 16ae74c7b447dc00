// Tests for the progress lines of a real bug's test runs.
#include "dlfl/lab/bench/test_step_progress.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace dlfl::bench {
namespace {

using ::testing::ElementsAre;
using ::testing::MatchesRegex;

TEST(TestStepProgress, SaysTheStartEachIntervalAndTheEnd) {
  std::vector<std::string> lines;
  TestStepProgress progress("bug#1: buggy-tests", [&](const std::string& line) { lines.push_back(line); },
                            std::chrono::seconds(0));
  progress.start(3);
  progress.test_done(false);
  progress.test_done(true);
  progress.finish();
  progress.finish();  // once
  EXPECT_THAT(lines, ElementsAre("bug#1: buggy-tests: 3 tests...",
                                 MatchesRegex("bug#1: buggy-tests: 1 of 3 tests run, 0 failing, elapsed [0-9]+ s"),
                                 MatchesRegex("bug#1: buggy-tests: 2 of 3 tests run, 1 failing, elapsed [0-9]+ s"),
                                 MatchesRegex("bug#1: buggy-tests: 2 tests run in [0-9]+ s, 1 failing")));
}

TEST(TestStepProgress, QuietWithinTheIntervalAndSerializedAcrossThreads) {
  std::vector<std::string> lines;
  TestStepProgress progress("b", [&](const std::string& line) { lines.push_back(line); }, std::chrono::seconds(3600));
  progress.start(400);
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; ++t)
    workers.emplace_back([&] {
      for (int i = 0; i < 100; ++i) progress.test_done(i % 10 == 0);
    });
  for (auto& w : workers) w.join();
  progress.finish();
  EXPECT_THAT(lines, ElementsAre("b: 400 tests...", MatchesRegex("b: 400 tests run in [0-9]+ s, 40 failing")));
  TestStepProgress silent("c", nullptr);
  silent.start(1);
  silent.test_done(false);
  silent.finish();  // says nothing, and does not throw
}

}  // namespace
}  // namespace dlfl::bench
