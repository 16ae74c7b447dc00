// merge_repeated_runs(): N collections of the same suite (`dlfl collect --repeat N`) as one
// spectrum in which a test failing in k of its N runs has failure weight k/N (flaky when
// 0 < k < N) and covers what any of its runs covered. Every run is a full, independent
// collection, so a crash in one run costs that run only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dlfl/spectrum.h"

namespace dlfl::collect {

// The outcomes of one test's runs as one TestCase: failing k of N runs gives failure
// weight k/N (flaky when 0 < k < N) and the first failing run's message; all N failing
// keeps that run's status (crashed, timed out); the duration is the mean.
class RunTally {
 public:
  void add(const TestCase& run);
  std::uint32_t runs() const noexcept { return runs_; }
  std::uint32_t failed() const noexcept { return failed_; }
  bool flaky() const noexcept { return failed_ > 0 && failed_ < runs_; }
  // Requires runs() > 0.
  TestCase combined() const;
  // "NAME k/N", as the summary lists a flaky test.
  std::string flaky_label() const;

 private:
  std::optional<TestCase> first_, first_failing_;
  std::uint32_t runs_ = 0, failed_ = 0;
  std::uint64_t runtime_ns_ = 0;
};

struct RepeatedRuns {
  Spectrum spectrum;               // tests in the first run's order, then tests met later
  std::vector<std::string> flaky;  // "NAME k/N" of each flaky test
};

// Elements are matched by name and kind (a line that only a later run listed is added).
// A test missing from some runs counts the runs it was in. Throws dlfl::Error for no run.
RepeatedRuns merge_repeated_runs(const std::vector<Spectrum>& runs);

}  // namespace dlfl::collect
