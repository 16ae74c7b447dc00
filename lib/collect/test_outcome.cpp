// Judging one isolated test run: exit status, signals, time-outs, GoogleTest's report.
#include "dlfl/collect/test_outcome.h"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "dlfl/error.h"
#include "dlfl/files/json_depth.h"

namespace dlfl::collect {
namespace {

// The end of the output, where a crash or an assertion usually explains itself.
std::string output_tail(const std::string& out) {
  constexpr std::size_t kMaxLines = 20, kMaxBytes = 2000;
  std::string_view text = out;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  std::size_t start = text.size();
  for (std::size_t lines = 0; lines < kMaxLines && start > 0; ++lines) {
    const auto nl = text.rfind('\n', start - 1);
    start = nl == std::string_view::npos ? 0 : nl;
  }
  std::string_view tail = text.substr(start);
  if (tail.starts_with('\n')) tail.remove_prefix(1);
  if (tail.size() > kMaxBytes) tail = tail.substr(tail.size() - kMaxBytes);
  return std::string(tail);
}

std::string with_output(std::string message, const ProcessResult& run) {
  const std::string tail = output_tail(run.out);
  if (!tail.empty()) message += "\n--- output (end) ---\n" + tail;
  return message;
}

bool matches_any(const std::vector<std::string>& patterns, const std::string& text) {
  for (const auto& p : patterns) {
    try {
      // CMake's regular expressions (^ $ . [] * + ? () | and \ escapes) read the same
      // in ECMAScript syntax; libstdc++'s POSIX mode rejects escapes such as "\[" that
      // gtest_discover_tests puts into SKIP_REGULAR_EXPRESSION.
      if (std::regex_search(text, std::regex(p, std::regex::ECMAScript))) return true;
    } catch (const std::regex_error&) {
      throw Error(fmt::format("invalid regular expression '{}' in a CTest test property", p));
    }
  }
  return false;
}

std::optional<std::string> slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

GtestResult gtest_result(const nlohmann::json& doc, std::string_view test);

}  // namespace

TestStatus TestOutcome::status() const noexcept {
  switch (kind) {
    case Kind::failed:
      return TestStatus::failed;
    case Kind::crashed:
      return TestStatus::crashed;
    case Kind::timed_out:
      return TestStatus::timed_out;
    default:
      return TestStatus::passed;
  }
}

GtestResult parse_gtest_report(std::string_view json, std::string_view test, const std::string& origin) {
  nlohmann::json doc;
  io::check_json_depth(json, origin);
  try {
    doc = nlohmann::json::parse(json);
  } catch (const nlohmann::json::exception& e) {
    throw Error(origin, 0, std::string("not a GoogleTest JSON report: ") + e.what());
  }
  if (!doc.is_object() || !doc.contains("testsuites") || !doc["testsuites"].is_array())
    throw Error(origin, 0, "not a GoogleTest JSON report (no \"testsuites\")");
  // A suite or test that is not an object, or a member of the wrong type (`"name": 3`),
  // is nlohmann's type_error: bad input too (found by fuzz/test_listing_fuzzer in CI).
  try {
    return gtest_result(doc, test);
  } catch (const nlohmann::json::exception& e) {
    throw Error(origin, 0, std::string("not a GoogleTest JSON report: ") + e.what());
  }
}

namespace {

GtestResult gtest_result(const nlohmann::json& doc, std::string_view test) {
  GtestResult result;
  for (const auto& suite : doc["testsuites"]) {
    const std::string suite_name = suite.value("name", "");
    if (!suite.contains("testsuite") || !suite["testsuite"].is_array()) continue;
    for (const auto& t : suite["testsuite"]) {
      if (suite_name + "." + t.value("name", "") != test) continue;
      result.found = true;
      result.skipped = t.value("result", "") == "SKIPPED";
      if (t.contains("failures") && t["failures"].is_array())
        for (const auto& f : t["failures"]) {
          if (!result.failures.empty()) result.failures += "\n\n";
          result.failures += f.value("failure", "failure without a message");
        }
      return result;
    }
  }
  return result;
}

}  // namespace

namespace {

// GoogleTest's verdict, from its report or, where the run wrote none, its console lines.
TestOutcome judge_gtest(const TestCommand& command, const ProcessResult& run, std::chrono::milliseconds timeout,
                        const std::filesystem::path& report) {
  using Kind = TestOutcome::Kind;
  const auto text = report.empty() ? std::nullopt : slurp(report);
  GtestResult r;
  if (text) {
    r = report.extension() == ".xml" ? parse_gtest_xml_report(*text, command.name, report.string())
                                     : parse_gtest_report(*text, command.name, report.string());
  } else {
    const GtestConsoleResult console = parse_gtest_console(run.out, command.name);
    if (!console.ended) {
      if (gtest_rejected_output_format(run.out) && !console.started)
        return {Kind::failed,
                with_output(fmt::format("{}: this GoogleTest (older than 1.8.1) writes no JSON report and its output "
                                        "names no test",
                                        describe_end(run, timeout)),
                            run),
                true};
      // GoogleTest writes its report after the last test; an exit() inside the test
      // ends the process before that, whatever the exit code says.
      TestOutcome early{Kind::failed,
                        with_output(fmt::format("{} {}", describe_end(run, timeout),
                                                console.started ? "inside the test, before GoogleTest wrote its result "
                                                                  "(exit() inside the test?)"
                                                                : "before GoogleTest wrote its result (exit() inside the "
                                                                  "test? not a GoogleTest program?)"),
                                    run)};
      early.unreported = true;
      return early;
    }
    r.found = true;
    r.skipped = console.skipped;
    if (console.failed) r.failures = console.failures.empty() ? "GoogleTest printed FAILED" : console.failures;
  }
  if (!r.found) return {Kind::not_run, "GoogleTest ran no test of this name"};
  if (!r.failures.empty()) return {Kind::failed, r.failures};
  if (run.exit_code != 0)
    return {Kind::failed,
            with_output(fmt::format("{} after the test passed (a failure at exit?)", describe_end(run, timeout)), run)};
  if (r.skipped) return {Kind::skipped, "GTEST_SKIP"};
  return {Kind::passed, {}};
}

}  // namespace

TestOutcome judge_outcome(const TestCommand& command, const ProcessResult& run, std::chrono::milliseconds timeout,
                          const std::filesystem::path& gtest_report) {
  using Kind = TestOutcome::Kind;
  switch (run.end) {
    case ProcessEnd::signaled:
      return {Kind::crashed, with_output(describe_end(run, timeout), run)};
    case ProcessEnd::timed_out:
    case ProcessEnd::cancelled:
      return {Kind::timed_out, with_output(describe_end(run, timeout), run)};
    case ProcessEnd::exited:
      break;
  }
  if (command.through_shell && run.exit_code > 128 && run.exit_code < 128 + 32 &&
      signal_name(run.exit_code - 128).starts_with("SIG"))
    return {Kind::crashed,
            with_output(fmt::format("killed by signal {} ({}) (the shell's exit status {})", run.exit_code - 128,
                                    signal_name(run.exit_code - 128), run.exit_code),
                        run)};
  if (command.skip_return_code && run.exit_code == *command.skip_return_code)
    return {Kind::skipped, fmt::format("exit status {} (SKIP_RETURN_CODE)", run.exit_code)};
  if (!command.skip_regex.empty() && matches_any(command.skip_regex, run.out))
    return {Kind::skipped, "a SKIP_REGULAR_EXPRESSION matched"};

  if (command.gtest) return judge_gtest(command, run, timeout, gtest_report);

  // CTest's rules (cmCTestRunTest): a pass expression replaces the exit-code check, a
  // fail expression overrides a pass, WILL_FAIL inverts the verdict.
  bool passed = command.pass_regex.empty() ? run.exit_code == 0 : matches_any(command.pass_regex, run.out);
  std::string why = command.pass_regex.empty() ? describe_end(run, timeout) : "no PASS_REGULAR_EXPRESSION matched";
  if (passed && !command.fail_regex.empty() && matches_any(command.fail_regex, run.out)) {
    passed = false;
    why = "a FAIL_REGULAR_EXPRESSION matched";
  }
  if (command.will_fail) {
    passed = !passed;
    why = "WILL_FAIL is set and the test passed";
  }
  if (passed) return {Kind::passed, {}};
  return {Kind::failed, with_output(why, run)};
}

}  // namespace dlfl::collect
