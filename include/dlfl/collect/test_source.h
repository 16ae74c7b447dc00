// Test sources: which tests a suite has and the command that runs one of them alone
// (a GoogleTest binary, a CTest build directory, or a list of names + a command template).
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/collect/shell_quoting.h"

namespace dlfl::collect {

// How to run one test in isolation and how to read its outcome.
struct TestCommand {
  std::string name;               // as it appears in the spectrum
  std::vector<std::string> argv;  // argv[0] is looked up on PATH when it has no '/'
  std::filesystem::path cwd;      // empty: dlfl's working directory
  std::vector<std::string> env;   // extra "NAME=VALUE" (CTest's ENVIRONMENT property)
  std::chrono::milliseconds timeout{0};  // the test's own limit (CTest TIMEOUT); 0: the run's
  // GoogleTest: run with --gtest_output=json:FILE and take the test's result from it.
  bool gtest = false;
  // Run by /bin/sh -c: a program the shell started that died by signal N comes back as
  // the shell's exit status 128 + N, which judge_outcome reads as that crash.
  bool through_shell = false;
  // CTest properties that change how an exit reads (cmake-properties(7)).
  bool will_fail = false;                  // WILL_FAIL: a non-zero exit passes, zero fails
  std::optional<int> skip_return_code;     // SKIP_RETURN_CODE: this exit code skips the test
  std::vector<std::string> pass_regex;     // PASS_REGULAR_EXPRESSION: output must match one
  std::vector<std::string> fail_regex;     // FAIL_REGULAR_EXPRESSION: output matching one fails
  std::vector<std::string> skip_regex;     // SKIP_REGULAR_EXPRESSION: output matching one skips
};

// ---- Shards -------------------------------------------------------------------------

// One part of a suite split across machines or job-array tasks: shard `index` of
// `count`, 0-based (as GTEST_SHARD_INDEX, SLURM_ARRAY_TASK_ID with --array=0-N-1 and a
// Kubernetes Indexed Job's JOB_COMPLETION_INDEX count).
struct Shard {
  std::size_t index = 0;
  std::size_t count = 1;
};

// "I/N" with 0 <= I < N; throws dlfl::Error saying what is expected otherwise.
Shard parse_shard(std::string_view text);

// GoogleTest's own sharding protocol (GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS): the test at
// `position` among the tests that run (listing order, after the filter) belongs to
// shard position mod count, so a shard holds what the binary itself would run.
bool gtest_shard_holds(const Shard& shard, std::size_t position) noexcept;

// A split by test name for sources without an order of their own (CTest, a list of
// names, snapshots): a 64-bit FNV-1a hash of the name mod count. Independent of the
// order and of the machine, so every task of a job array agrees without talking.
bool name_shard_holds(const Shard& shard, std::string_view name) noexcept;

// Environment ("NAME=VALUE") that sends the coverage a listing run writes (gcc's .gcda
// files, LLVM's .profraw) into `dir` instead of the build tree, where libgcov would merge
// into the build's own data and, once objects are rebuilt, complain of checksums on every
// later run. The caller creates and removes `dir`.
std::vector<std::string> listing_coverage_env(const std::filesystem::path& dir);

// ---- GoogleTest ---------------------------------------------------------------------

// Full test names from `--gtest_list_tests` output, in listed order:
//   Suite.                           →  Suite.Name
//     Name
//   Inst/Param.                      →  Inst/Param.Case/0   (the `# GetParam() = ...`
//     Case/0  # GetParam() = 4           comment is dropped)
//   Typed/0.  # TypeParam = int      →  Typed/0.Case
//     Case
// Tests whose suite or test name starts with DISABLED_ are left out (GoogleTest does not
// run them either). Lines that are neither (e.g. gtest_main's "Running main() from ...")
// are ignored.
std::vector<std::string> parse_gtest_list(std::string_view listing);

// GoogleTest's --gtest_filter syntax: `POSITIVE[-NEGATIVE]`, each a ':'-separated list of
// wildcard patterns (`*` any string, `?` any character). An empty positive part means `*`.
bool gtest_filter_matches(std::string_view filter, std::string_view name);

// Runs `binary --gtest_list_tests` (with `env`, e.g. to send the coverage the listing
// run writes somewhere harmless) and returns one command per test:
// `binary --gtest_filter=NAME`. Throws dlfl::Error naming the binary when it cannot run,
// fails or lists no test.
std::vector<TestCommand> list_gtest_tests(const std::filesystem::path& binary,
                                          const std::vector<std::string>& env);

// ---- CTest --------------------------------------------------------------------------

// Tests from `ctest --show-only=json-v1` output: command, WORKING_DIRECTORY, ENVIRONMENT,
// TIMEOUT, WILL_FAIL, SKIP_RETURN_CODE, PASS/FAIL/SKIP_REGULAR_EXPRESSION. DISABLED tests and
// tests without a command (their executable was not built) are left out; their names go
// to `skipped` when given. `origin` names the input in error messages.
std::vector<TestCommand> parse_ctest_json(std::string_view json, const std::string& origin,
                                          std::vector<std::string>* skipped = nullptr);

// Runs `ctest --show-only=json-v1` in `build_dir` and parses it. Throws dlfl::Error
// naming the directory when ctest cannot run or fails.
std::vector<TestCommand> list_ctest_tests(const std::filesystem::path& build_dir,
                                          const std::vector<std::string>& env,
                                          std::vector<std::string>* skipped = nullptr);

// ---- A list of names and a command template ------------------------------------------

// Names one a line; blank lines and lines starting with '#' are skipped, surrounding
// blanks trimmed. Throws dlfl::Error "FILE: ..." when unreadable, not a regular file or
// empty, or "FILE:LINE: ..." for a duplicate name or a line over io::kMaxFieldBytes (read
// in bounded chunks: a gigabyte without a line break costs no gigabyte).
std::vector<std::string> read_test_list(const std::filesystem::path& file);

// The environment variable through which a test command template's `{}` gets the test's
// name: the command line only refers to it, so the name is never shell text.
inline constexpr std::string_view kTestNameVariable = "DLFL_TEST_NAME";

// A /bin/sh command line and the environment entries ("NAME=VALUE") it refers to.
struct ShellCommand {
  std::string text;
  std::vector<std::string> env;
};

// The shell command for one test: every `{}` in the template replaced by a reference to
// $DLFL_TEST_NAME that keeps the name one word where it stands (reference_for_shell:
// `{}`, `'{}'`, `"{}"`, `"$(prog {})"`, backquotes, `${x:-{}}` and here-strings all pass
// the name as it is), and env = {"DLFL_TEST_NAME=NAME"}. The name never becomes code,
// whatever it holds. Throws dlfl::Error for `\{}` and `{}` inside `$((...))`.
ShellCommand instantiate_command(std::string_view command_template, std::string_view name);

// `/bin/sh -c TEMPLATE` for each name, as instantiate_command makes it (its environment
// entry in TestCommand::env). Throws dlfl::Error when the template has no `{}`.
std::vector<TestCommand> make_template_commands(const std::vector<std::string>& names,
                                                std::string_view command_template);


}  // namespace dlfl::collect
