// Progress reporters: plain lines for logs, the in-place bar for terminals.
#include "dlfl/collect/progress.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

namespace dlfl::collect {
namespace {

using ::testing::HasSubstr;
using Clock = std::chrono::steady_clock;

// A clock the test moves by hand.
Clock::time_point g_now{};
Clock::time_point fake_now() { return g_now; }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(Progress, PlainPrintsEveryTenthAndEtaFromThePace) {
  std::ostringstream out;
  g_now = Clock::time_point{};
  auto p = make_progress(ProgressStyle::plain, out, 0, &fake_now);
  p->note("20 tests, 2 in parallel");
  p->start(20);
  for (int i = 0; i < 20; ++i) {
    g_now += std::chrono::seconds(1);
    p->test_done(i == 4);
  }
  p->finish();
  const auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 11u);  // the note + one line per 10 %
  EXPECT_EQ(lines[0], "dlfl collect: 20 tests, 2 in parallel");
  EXPECT_EQ(lines[1], "dlfl collect: 2/20 tests done (10%), 0 failing, 0:02 elapsed, ETA 0:18");
  EXPECT_EQ(lines[3], "dlfl collect: 6/20 tests done (30%), 1 failing, 0:06 elapsed, ETA 0:14");
  EXPECT_EQ(lines[10], "dlfl collect: 20/20 tests done (100%), 1 failing, 0:20 elapsed, ETA --:--");
}

TEST(Progress, PlainPrintsAtLeastEveryTenSeconds) {
  std::ostringstream out;
  g_now = Clock::time_point{};
  auto p = make_progress(ProgressStyle::plain, out, 0, &fake_now);
  p->start(1000);
  for (int i = 0; i < 5; ++i) {
    g_now += std::chrono::seconds(11);
    p->test_done(false);
  }
  EXPECT_EQ(lines_of(out.str()).size(), 5u);
}

TEST(Progress, BarRedrawsInPlaceAndKeepsNotesAbove) {
  std::ostringstream out;
  g_now = Clock::time_point{};
  auto p = make_progress(ProgressStyle::bar, out, 60, &fake_now);
  p->start(10);
  for (int i = 0; i < 3; ++i) {
    g_now += std::chrono::seconds(2);
    p->test_done(i == 1);
  }
  p->note("a warning");
  const std::string text = out.str();
  EXPECT_THAT(text, HasSubstr("\r\033[K["));
  EXPECT_THAT(text, HasSubstr("] 3/10 tests  1 failing  ETA 0:14"));
  EXPECT_THAT(text, HasSubstr("\r\033[Ka warning\n"));
  // Each drawn line fits the width: `\r\033[K` + 60 columns.
  const auto last = text.substr(text.rfind('\r'));
  EXPECT_EQ(last.size(), 3 + 60u);
  p->finish();
  EXPECT_THAT(out.str(), ::testing::EndsWith("\r\033[K"));
}

TEST(Progress, BarThrottlesRedraws) {
  std::ostringstream out;
  g_now = Clock::time_point{};
  auto p = make_progress(ProgressStyle::bar, out, 60, &fake_now);
  p->start(1000);
  for (int i = 0; i < 999; ++i) p->test_done(false);  // no time passes
  const std::string text = out.str();
  EXPECT_LE(std::count(text.begin(), text.end(), '\r'), 3);
}

TEST(Progress, NoneIsSilent) {
  std::ostringstream out;
  auto p = make_progress(ProgressStyle::none, out);
  p->note("x");
  p->start(3);
  p->test_done(true);
  p->finish();
  EXPECT_TRUE(out.str().empty());
}

TEST(Progress, Durations) {
  EXPECT_EQ(format_duration(0), "0:00");
  EXPECT_EQ(format_duration(7.4), "0:07");
  EXPECT_EQ(format_duration(62), "1:02");
  EXPECT_EQ(format_duration(3723), "1:02:03");
  EXPECT_EQ(format_duration(-5), "0:00");
}

}  // namespace
}  // namespace dlfl::collect
