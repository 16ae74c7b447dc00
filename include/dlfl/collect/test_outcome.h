// TestOutcome: how one isolated test run ended, from its exit and GoogleTest's report.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>

#include "dlfl/collect/process.h"
#include "dlfl/collect/test_source.h"
#include "dlfl/test_case.h"

namespace dlfl::collect {

struct TestOutcome {
  enum class Kind : unsigned char {
    passed,
    failed,     // assertion failure or non-zero exit
    crashed,    // killed by a signal
    timed_out,  // exceeded its time limit
    skipped,    // GTEST_SKIP, CTest SKIP_RETURN_CODE: not in the spectrum
    not_run,    // GoogleTest ran no test of that name: not in the spectrum, warned about
  };
  Kind kind = Kind::passed;
  std::string message;  // why it failed / was skipped: failure text, signal, output tail
  // A GoogleTest test whose run left neither a report nor a console line ending the test.
  bool unreported = false;

  bool in_spectrum() const noexcept { return kind != Kind::skipped && kind != Kind::not_run; }
  bool failed() const noexcept { return kind == Kind::failed || kind == Kind::crashed || kind == Kind::timed_out; }
  TestStatus status() const noexcept;
};

// What one test's result says in GoogleTest's report: --gtest_output=json (gtest ≥ 1.8.1
// layout: testsuites[].testsuite[] with name, result, failures[].failure) or =xml.
struct GtestResult {
  bool found = false;    // the report has the test
  bool skipped = false;  // "result": "SKIPPED"
  std::string failures;  // failure messages joined by blank lines; empty: passed
};

// Looks up `test` ("Suite.Name", as listed) in a GoogleTest JSON report. Throws
// dlfl::Error "ORIGIN: ..." when the text is not such a report.
GtestResult parse_gtest_report(std::string_view json, std::string_view test, const std::string& origin);

// Looks up `test` in a GoogleTest --gtest_output=xml report, which every GoogleTest since
// 1.6 writes (testsuites/testsuite/testcase with classname and name; failure elements;
// result="skipped" or a skipped element from 1.10 on). Throws dlfl::Error "ORIGIN: ..."
// when the text is not such a report.
GtestResult parse_gtest_xml_report(std::string_view xml, std::string_view test, const std::string& origin);

// What GoogleTest's console protocol says of `test` in a run's output: "[ RUN      ] T"
// when it started, "[       OK ] T" or "[  FAILED  ] T" when it ended, "[  SKIPPED ] T"
// (1.10 on). Every GoogleTest version prints it; read when no report was written.
struct GtestConsoleResult {
  bool started = false;  // a RUN line names the test
  bool ended = false;    // an OK, FAILED or SKIPPED line names it
  bool failed = false;
  bool skipped = false;
  std::string failures;  // a failed test's output between its RUN and FAILED lines
};
GtestConsoleResult parse_gtest_console(std::string_view output, std::string_view test);

// True when the output is GoogleTest's warning that it does not know --gtest_output's
// format: "json" before GoogleTest 1.8.1, which then writes no report at all.
bool gtest_rejected_output_format(std::string_view output);

// Judges one run: a signal is a crash, our kill a time-out; otherwise GoogleTest's
// report (when command.gtest; `gtest_report` is its path, read as XML when it ends in
// ".xml", else as JSON; when the run wrote none, the console protocol in the output
// decides, and without that the test ended before GoogleTest reported it) or the exit code with the CTest properties (SKIP_RETURN_CODE,
// SKIP/PASS/FAIL_REGULAR_EXPRESSION, WILL_FAIL, in CTest's order). Failure messages end with
// the tail of the test's output.
TestOutcome judge_outcome(const TestCommand& command, const ProcessResult& run, std::chrono::milliseconds timeout,
                          const std::filesystem::path& gtest_report);

}  // namespace dlfl::collect
