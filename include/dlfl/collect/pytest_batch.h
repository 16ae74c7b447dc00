// Running many pytest cases in one process: the command line for a batch of node ids, and
// each case's outcome read back from pytest's JUnit XML report (--junitxml). Mutant runs
// use it where a process per case would spend most of its time importing the framework
// (mutant_runner.h: MutantRunRequest::pytest_batch).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/collect/test_outcome.h"

namespace dlfl::collect {

// The /bin/sh command line for a batch: the test command template with every `{}`
// replaced by "$@", so that run as `/bin/sh -c TEXT sh ID...` the node ids are pytest's
// arguments, each one word, never shell text. Throws dlfl::Error when the template has no
// `{}` or one that does not stand as an unquoted word of its own (inside quotes,
// `$(...)`, backquotes, `${...}` or arithmetic "$@" would not give one argument a name).
std::string batch_command_text(std::string_view command_template);

// The PYTEST_ADDOPTS value for a batch (after `inherited`, the caller's own
// PYTEST_ADDOPTS, if any): two -v, so that a -q of the command still leaves pytest
// naming each case as it starts (unfinished_case), and the JUnit report written to
// `report`. pytest reads the variable with shlex, so the path is single-quoted for it.
std::string batch_addopts(std::string_view inherited, const std::string& report);

// The case a pytest process was inside when it ended (a crash, a time-out): verbose
// pytest writes a case's node id when the case starts and its outcome on the same line
// when it ends, so stdout whose last line is one of `node_ids` and a blank (or the id
// and " <- FILE", for a test defined in another file) ended inside that case. nullopt
// otherwise (pytest ended between cases, before any, or was not verbose).
std::optional<std::string> unfinished_case(std::string_view out, const std::vector<std::string>& node_ids);

// The cases of `node_ids` that verbose pytest output says passed ("ID PASSED", and
// SKIPPED, XFAIL and XPASS, which pass a lone case too): after a crash these need not run
// again, while a failed case's message is only in the report the crash prevented.
std::vector<std::string> passed_cases(std::string_view out, const std::vector<std::string>& node_ids);

// One case in a pytest JUnit report.
struct PytestCaseResult {
  TestOutcome::Kind kind = TestOutcome::Kind::passed;  // passed or failed only
  std::string message;  // a failure's or error's message attribute (the exception line)
  double seconds = 0;   // the case's time attribute: its setup, call and teardown
};

// The outcomes of `node_ids` in pytest's JUnit XML `xml` (pytest ≥ 6: testsuites/
// testsuite/testcase, or a lone testsuite), by node id. pytest names a case by
// classname (the node id's path and classes, dotted, without ".py") and name (the last
// part with its parameters); a node id is found when exactly one of the ids given maps to
// a testcase's pair. A <failure> or <error> fails the case; <skipped> (skip, xfail)
// passes it, as pytest's exit status does for a lone case. Ids without a testcase are
// absent from the result. Throws dlfl::Error "ORIGIN: ..." for text that is not such a
// report.
std::map<std::string, PytestCaseResult> parse_pytest_junit(std::string_view xml,
                                                           const std::vector<std::string>& node_ids,
                                                           const std::string& origin);

// The (classname, name) pair pytest's JUnit report gives a node id
// (_pytest.junitxml.mangle_test_address).
std::pair<std::string, std::string> junit_names(std::string_view node_id);

// The largest JUnit report read back (256 MiB): a report over it counts as missing.
inline constexpr std::size_t kMaxJunitReportBytes = std::size_t{256} << 20;

}  // namespace dlfl::collect
