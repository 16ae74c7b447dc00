// judge_outcome: GoogleTest reports, exit codes, signals, time-outs, CTest properties.
#include "dlfl/collect/test_outcome.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include "collect_test_support.h"
#include "dlfl/error.h"

namespace dlfl::collect {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using Kind = TestOutcome::Kind;

const std::string kReport = std::string(DLFL_SOURCE_DIR) + "/tests/collect/data/gtest_report_sample.json";

ProcessResult exited(int code, std::string out = {}) {
  ProcessResult r;
  r.exit_code = code;
  r.out = std::move(out);
  return r;
}

TestCommand gtest(const std::string& name) {
  TestCommand t;
  t.name = name;
  t.gtest = true;
  return t;
}

TEST(GtestReport, FindsPlainParameterizedAndTypedTests) {
  const std::string json = testing::slurp(kReport);
  EXPECT_TRUE(parse_gtest_report(json, "Calc.AddSmall", "r").found);
  EXPECT_TRUE(parse_gtest_report(json, "Small/AddParam.Works/1", "r").found);
  EXPECT_TRUE(parse_gtest_report(json, "TypedCalc/1.Positive", "r").found);
  EXPECT_FALSE(parse_gtest_report(json, "Calc.Nope", "r").found);
  const auto failed = parse_gtest_report(json, "Calc.AbsNegative", "r");
  EXPECT_THAT(failed.failures, HasSubstr("calc_test.cpp:11\nExpected equality of these values:"));
  EXPECT_TRUE(parse_gtest_report(json, "Calc.Skipped", "r").skipped);
  EXPECT_THROW(parse_gtest_report("{}", "t", "r"), Error);
  EXPECT_THROW(parse_gtest_report("[", "t", "r"), Error);
}

// Found by fuzz/test_listing_fuzzer in CI: a test that is not an object, or a member of
// the wrong type, was nlohmann's type_error escaping as a crash.
TEST(GtestReport, WrongShapesAreErrorsNamingTheReport) {
  for (const char* json : {R"({"testsuites": [{"name": "S", "testsuite": [1]}]})",
                           R"({"testsuites": [7]})", R"({"testsuites": [{"name": 3, "testsuite": []}]})",
                           R"({"testsuites": [{"name": "S", "testsuite": [{"name": "T", "result": 1}]}]})",
                           R"({"testsuites": [{"name": "S", "testsuite": [{"name": "T", "failures": [2]}]}]})"}) {
    try {
      (void)parse_gtest_report(json, "S.T", "report.json");
      ADD_FAILURE() << "accepted " << json;
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("report.json")) << json;
      EXPECT_THAT(e.what(), HasSubstr("not a GoogleTest JSON report")) << json;
    }
  }
}

TEST(Outcome, GtestVerdicts) {
  EXPECT_EQ(judge_outcome(gtest("Calc.AddSmall"), exited(0), 0ms, kReport).kind, Kind::passed);
  const auto failed = judge_outcome(gtest("Calc.AbsNegative"), exited(1), 0ms, kReport);
  EXPECT_EQ(failed.kind, Kind::failed);
  EXPECT_EQ(failed.status(), TestStatus::failed);
  EXPECT_THAT(failed.message, HasSubstr("Which is: -3"));
  EXPECT_EQ(judge_outcome(gtest("Calc.Skipped"), exited(0), 0ms, kReport).kind, Kind::skipped);
  EXPECT_EQ(judge_outcome(gtest("Calc.Unknown"), exited(0), 0ms, kReport).kind, Kind::not_run);
  // Passed per the report but the process failed afterwards (e.g. a leak checker).
  const auto late = judge_outcome(gtest("Calc.AddSmall"), exited(23, "leak!\n"), 0ms, kReport);
  EXPECT_EQ(late.kind, Kind::failed);
  EXPECT_THAT(late.message, HasSubstr("exit status 23 after the test passed"));
  EXPECT_THAT(late.message, HasSubstr("leak!"));
  // exit(0) inside the test: no report at all.
  const auto early = judge_outcome(gtest("Calc.ExitEarly"), exited(0), 0ms, "/nonexistent/report.json");
  EXPECT_EQ(early.kind, Kind::failed);
  EXPECT_THAT(early.message, HasSubstr("before GoogleTest wrote its result"));
}

TEST(Outcome, SignalsAndTimeoutsWin) {
  ProcessResult crashed;
  crashed.end = ProcessEnd::signaled;
  crashed.signal = SIGABRT;
  crashed.out = "line 1\nAssertion `x' failed.\n";
  const auto c = judge_outcome(gtest("Calc.Crash"), crashed, 0ms, kReport);
  EXPECT_EQ(c.kind, Kind::crashed);
  EXPECT_EQ(c.status(), TestStatus::crashed);
  EXPECT_THAT(c.message, HasSubstr("killed by signal 6 (SIGABRT)"));
  EXPECT_THAT(c.message, HasSubstr("Assertion `x' failed."));
  ProcessResult slow;
  slow.end = ProcessEnd::timed_out;
  const auto t = judge_outcome(TestCommand{}, slow, 1500ms, {});
  EXPECT_EQ(t.kind, Kind::timed_out);
  EXPECT_EQ(t.status(), TestStatus::timed_out);
  EXPECT_EQ(t.message, "timed out after 1.5 s");
}

TEST(Outcome, ShellReportsOfSignalsAreCrashes) {
  // /bin/sh -c reports a child's death by signal N as exit status 128 + N.
  TestCommand shell;
  shell.through_shell = true;
  const auto fpe = judge_outcome(shell, exited(128 + SIGFPE), 0ms, {});
  EXPECT_EQ(fpe.kind, Kind::crashed);
  EXPECT_THAT(fpe.message, HasSubstr("killed by signal 8 (SIGFPE) (the shell's exit status 136)"));
  EXPECT_EQ(judge_outcome(shell, exited(1), 0ms, {}).kind, Kind::failed);
  EXPECT_EQ(judge_outcome(shell, exited(128 + 40), 0ms, {}).kind, Kind::failed);  // no signal of ours
  // A program run directly means its exit status.
  EXPECT_EQ(judge_outcome(TestCommand{}, exited(128 + SIGFPE), 0ms, {}).kind, Kind::failed);
}

TEST(Outcome, OutputTailIsBounded) {
  std::string out;
  for (int i = 0; i < 100; ++i) out += "line " + std::to_string(i) + "\n";
  const auto r = judge_outcome(TestCommand{}, exited(1, out), 0ms, {});
  EXPECT_THAT(r.message, HasSubstr("exit status 1\n--- output (end) ---\nline 80\n"));
  EXPECT_THAT(r.message, ::testing::EndsWith("line 99"));
}

TEST(Outcome, CtestProperties) {
  TestCommand t;
  EXPECT_EQ(judge_outcome(t, exited(0), 0ms, {}).kind, Kind::passed);
  EXPECT_EQ(judge_outcome(t, exited(2), 0ms, {}).kind, Kind::failed);
  t.will_fail = true;
  EXPECT_EQ(judge_outcome(t, exited(2), 0ms, {}).kind, Kind::passed);
  EXPECT_EQ(judge_outcome(t, exited(0), 0ms, {}).kind, Kind::failed);
  t = {};
  t.skip_return_code = 77;
  EXPECT_EQ(judge_outcome(t, exited(77), 0ms, {}).kind, Kind::skipped);
  t = {};
  t.pass_regex = {"^ok [0-9]+$", "fine"};
  EXPECT_EQ(judge_outcome(t, exited(1, "x\nall fine\n"), 0ms, {}).kind, Kind::passed);
  EXPECT_EQ(judge_outcome(t, exited(0, "nothing\n"), 0ms, {}).kind, Kind::failed);
  t.fail_regex = {"ERROR"};
  EXPECT_EQ(judge_outcome(t, exited(0, "fine but ERROR\n"), 0ms, {}).kind, Kind::failed);
  t = {};
  t.skip_regex = {"\\[  SKIPPED \\]"};
  EXPECT_EQ(judge_outcome(t, exited(0, "[  SKIPPED ] A.b\n"), 0ms, {}).kind, Kind::skipped);
  t.skip_regex = {"("};
  EXPECT_THROW(judge_outcome(t, exited(0), 0ms, {}), Error);
}

}  // namespace
}  // namespace dlfl::collect
