// TestCase: one test of a spectrum and its outcome, including flaky (fractional) ones.
#pragma once

#include <cstdint>
#include <string>

namespace dlfl {

// Why a test failed (or that it did not); kept for reports, never used in counts.
enum class TestStatus : std::uint8_t {
  passed = 0,
  failed = 1,     // assertion failure / non-zero exit
  crashed = 2,    // killed by a signal
  timed_out = 3,  // exceeded the time limit
  flaky = 4,      // failed in some runs only: failure_weight in (0, 1)
};

struct TestCase {
  std::string name;
  // Share of failed runs in [0, 1]: 0 = passed, 1 = failed every time. A flaky test
  // counts fractionally: it adds w to ef and 1 - w to ep of each element it covers.
  double failure_weight = 0.0;
  TestStatus status = TestStatus::passed;
  std::uint64_t runtime_ns = 0;
  std::string message;  // stack trace, crash reason, ... (may be empty)

  bool failed() const noexcept { return failure_weight > 0.0; }

  static TestCase pass(std::string name) { return {std::move(name), 0.0, TestStatus::passed, 0, {}}; }
  static TestCase fail(std::string name, TestStatus why = TestStatus::failed) {
    return {std::move(name), 1.0, why, 0, {}};
  }
  // `failed_runs` of `runs` failed; throws dlfl::Error when runs == 0 or failed_runs > runs.
  static TestCase flaky(std::string name, std::uint32_t failed_runs, std::uint32_t runs);
};

}  // namespace dlfl
