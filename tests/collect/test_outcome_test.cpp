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
namespace fs = std::filesystem;

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

// GoogleTest 1.7's XML report: every test of the binary, those the filter left out as
// "notrun"; a failure's text in CDATA, split where it holds "]]>".
const char* kOldXml = R"xml(<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="4" failures="1" disabled="0" errors="0" timestamp="2016-03-01T10:00:00" time="0" name="AllTests">
  <testsuite name="Calc" tests="2" failures="1" disabled="0" errors="0" time="0">
    <testcase name="AddSmall" status="run" time="0" classname="Calc" />
    <testcase name="AbsNegative" status="run" time="0" classname="Calc">
      <failure message="calc_test.cpp:11&#x0A;Value of: buggy_abs(-3)" type=""><![CDATA[calc_test.cpp:11
Value of: buggy_abs(-3) ]]>]]&gt;<![CDATA[ done]]></failure>
    </testcase>
    <testcase name="Filtered" status="notrun" time="0" classname="Calc" />
  </testsuite>
  <testsuite name="Small/AddParam" tests="1">
    <testcase name="Works/1" value_param="1" status="run" time="0" classname="Small/AddParam" />
  </testsuite>
  <testsuite name="New" tests="1">
    <testcase name="Skips" status="run" result="skipped" time="0" classname="New"><skipped message="x"/></testcase>
  </testsuite>
</testsuites>
)xml";

TEST(GtestXmlReport, FindsTestsFailuresAndSkipsOfEveryVersion) {
  EXPECT_TRUE(parse_gtest_xml_report(kOldXml, "Calc.AddSmall", "r").found);
  EXPECT_TRUE(parse_gtest_xml_report(kOldXml, "Calc.AddSmall", "r").failures.empty());
  EXPECT_TRUE(parse_gtest_xml_report(kOldXml, "Small/AddParam.Works/1", "r").found);
  EXPECT_FALSE(parse_gtest_xml_report(kOldXml, "Calc.Filtered", "r").found);  // notrun: not run here
  EXPECT_FALSE(parse_gtest_xml_report(kOldXml, "Calc.Nope", "r").found);
  EXPECT_EQ(parse_gtest_xml_report(kOldXml, "Calc.AbsNegative", "r").failures,
            "calc_test.cpp:11\nValue of: buggy_abs(-3) ]]> done");
  EXPECT_TRUE(parse_gtest_xml_report(kOldXml, "New.Skips", "r").skipped);
  try {
    (void)parse_gtest_xml_report("<testsuites><testsuite>", "S.T", "report.xml");
    ADD_FAILURE() << "accepted a cut report";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("report.xml"));
    EXPECT_THAT(e.what(), HasSubstr("not a GoogleTest XML report"));
  }
  EXPECT_THROW(parse_gtest_xml_report("<html/>", "S.T", "r"), Error);
}

TEST(GtestConsole, ReadsTheRunOkFailedAndSkippedLines) {
  const std::string out =
      "Running main() from gtest_main.cc\n[==========] Running 1 test from 1 test case.\n"
      "[ RUN      ] Small/AddParam.Works/1\nold.cpp:3: Failure\nValue of: x\n"
      "[  FAILED  ] Small/AddParam.Works/1, where GetParam() = 1 (0 ms)\n"
      "[  FAILED  ] 1 test, listed below:\n[  FAILED  ] Small/AddParam.Works/1, where GetParam() = 1\n";
  const auto failed = parse_gtest_console(out, "Small/AddParam.Works/1");
  EXPECT_TRUE(failed.started && failed.ended && failed.failed);
  EXPECT_EQ(failed.failures, "old.cpp:3: Failure\nValue of: x");
  // A name that only begins like the test's is another test.
  EXPECT_FALSE(parse_gtest_console(out, "Small/AddParam.Works/").started);
  const auto ok = parse_gtest_console("[ RUN      ] A.b\n[       OK ] A.b (0 ms)\n", "A.b");
  EXPECT_TRUE(ok.ended);
  EXPECT_FALSE(ok.failed);
  EXPECT_TRUE(parse_gtest_console("[ RUN      ] A.b\n[  SKIPPED ] A.b (0 ms)\n", "A.b").skipped);
  const auto coloured = parse_gtest_console("\x1b[0;32m[ RUN      ] \x1b[mA.b\n\x1b[0;32m[       OK ] \x1b[mA.b (1 ms)\n", "A.b");
  EXPECT_TRUE(coloured.ended);
  const auto cut = parse_gtest_console("[ RUN      ] A.b\nbye\n", "A.b");
  EXPECT_TRUE(cut.started);
  EXPECT_FALSE(cut.ended);
  EXPECT_TRUE(gtest_rejected_output_format("WARNING: unrecognized output format \"json\" ignored.\n"));
  EXPECT_FALSE(gtest_rejected_output_format("[ RUN      ] A.b\n"));
}

TEST(Outcome, GtestWithoutJsonReadsXmlOrTheConsole) {
  testing::TempDir dir;
  const auto xml = dir / "gtest.xml";
  std::ofstream(xml) << kOldXml;
  EXPECT_EQ(judge_outcome(gtest("Calc.AddSmall"), exited(0), 0ms, xml).kind, Kind::passed);
  const auto failed = judge_outcome(gtest("Calc.AbsNegative"), exited(1), 0ms, xml);
  EXPECT_EQ(failed.kind, Kind::failed);
  EXPECT_THAT(failed.message, HasSubstr("Value of: buggy_abs(-3)"));
  EXPECT_EQ(judge_outcome(gtest("Calc.Filtered"), exited(0), 0ms, xml).kind, Kind::not_run);
  // No report at all (GoogleTest 1.7 asked for JSON): the console lines decide.
  const std::string warning = "WARNING: unrecognized output format \"json\" ignored.\n";
  const fs::path none = dir / "gtest.json";
  const auto passed = judge_outcome(gtest("A.b"), exited(0, warning + "[ RUN      ] A.b\n[       OK ] A.b (0 ms)\n"), 0ms, none);
  EXPECT_EQ(passed.kind, Kind::passed);
  EXPECT_FALSE(passed.unreported);
  const auto console_failed =
      judge_outcome(gtest("A.b"), exited(1, warning + "[ RUN      ] A.b\nx.cpp:1: Failure\n[  FAILED  ] A.b (0 ms)\n"), 0ms, none);
  EXPECT_EQ(console_failed.kind, Kind::failed);
  EXPECT_EQ(console_failed.message, "x.cpp:1: Failure");
  const auto late = judge_outcome(gtest("A.b"), exited(3, "[ RUN      ] A.b\n[       OK ] A.b (0 ms)\n"), 0ms, none);
  EXPECT_THAT(late.message, HasSubstr("exit status 3 after the test passed"));
  const auto silent = judge_outcome(gtest("A.b"), exited(0, warning), 0ms, none);
  EXPECT_EQ(silent.kind, Kind::failed);
  EXPECT_TRUE(silent.unreported);
  EXPECT_THAT(silent.message, HasSubstr("older than 1.8.1"));
  const auto nothing = judge_outcome(gtest("A.b"), exited(0), 0ms, none);
  EXPECT_TRUE(nothing.unreported);
  EXPECT_THAT(nothing.message, HasSubstr("not a GoogleTest program?"));
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
