// ReferenceOracle: a differential test oracle for `--tests/--cmd` suites.
//
// Classic fault-localization subjects (a program, faulty versions of it, a universe of
// test inputs) have no assertions: a test fails when the version under test behaves
// unlike the original. The oracle runs the reference (original) program once per test,
// caches how it ended and what it printed on standard output, and judges each run of the
// program under test against that: same exit status and same bytes on stdout pass.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

#include "dlfl/collect/process.h"
#include "dlfl/collect/test_source.h"

namespace dlfl::collect {

// How the reference ended for one test, and its standard output (stderr is not compared).
struct ReferenceResult {
  ProcessEnd end = ProcessEnd::exited;
  int code = 0;  // the exit status, or the signal when end == signaled
  std::string out;
};

class ReferenceOracle {
 public:
  // `command_template`: like --cmd, `{}` is the test's quoted name. `cache_dir` holds one
  // file per test and reference command (keyed by a hash of both and the working
  // directory), so later collections of other faulty versions reuse it; it is created.
  // Throws dlfl::Error when the template has no `{}` or the directory cannot be made.
  ReferenceOracle(std::string command_template, std::filesystem::path cache_dir, std::chrono::milliseconds timeout);

  // The reference's result for `test`, run now or read from the cache. Thread-safe for
  // distinct tests. Throws dlfl::Error naming the test when the reference cannot run or
  // exceeds the time limit (an oracle that does not answer cannot judge), and when a
  // cache file is corrupt.
  ReferenceResult expected(const TestCommand& test, const std::atomic<bool>* cancel) const;

  // Why `run` differs from `reference` (one line, e.g. "stdout differs from the
  // reference's at line 3: ..."), or nullopt when it does not.
  static std::optional<std::string> difference(const ReferenceResult& reference, const ProcessResult& run);

  const std::string& command_template() const noexcept { return template_; }

 private:
  std::string template_;
  std::filesystem::path cache_dir_;
  std::chrono::milliseconds timeout_;
};

}  // namespace dlfl::collect
