// The bench progress display: plain lines for logs, an in-place bar on a terminal, ETA
// from the faults done so far.
#include "dlfl/lab/bench/bench_progress.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

namespace dlfl::bench {
namespace {

using ::testing::HasSubstr;

// A clock the test moves by hand.
std::chrono::steady_clock::time_point g_now{};
std::chrono::steady_clock::time_point fake_clock() { return g_now; }

TEST(BenchProgress, PlainLinePerFaultWithEta) {
  std::ostringstream out;
  g_now = {};
  auto progress = make_bench_progress(collect::ProgressStyle::plain, out, &fake_clock);
  progress->start(4);
  g_now += std::chrono::seconds(10);
  progress->fault_done(true, "s#a: kept");
  g_now += std::chrono::seconds(10);
  progress->fault_done(false, "s#b: no test fails");
  progress->finish();
  // 2 faults in 20 s, 2 to go: 0:20 left.
  EXPECT_EQ(out.str(), "[1/4] s#a: kept (1 kept, ETA 0:30)\n[2/4] s#b: no test fails (1 kept, ETA 0:20)\n");
}

TEST(BenchProgress, BarRedrawsInPlace) {
  std::ostringstream out;
  g_now = {};
  auto progress = make_bench_progress(collect::ProgressStyle::bar, out, &fake_clock);
  progress->start(2);
  g_now += std::chrono::seconds(5);
  progress->fault_done(true, "s#a: kept");
  progress->note("a note");
  progress->finish();
  const std::string text = out.str();
  EXPECT_THAT(text, HasSubstr("\r[============>           ] 1/2 faults  1 kept  0:05 elapsed  ETA 0:05"));
  EXPECT_THAT(text, HasSubstr("a note\n"));
  EXPECT_EQ(text.find('\n'), text.find("a note\n") + 6);  // the bar itself never ends a line
}

TEST(BenchProgress, NoneWritesNothing) {
  std::ostringstream out;
  auto progress = make_bench_progress(collect::ProgressStyle::none, out);
  progress->start(3);
  progress->fault_done(true, "x");
  progress->note("y");
  progress->finish();
  EXPECT_EQ(out.str(), "");
}

}  // namespace
}  // namespace dlfl::bench
