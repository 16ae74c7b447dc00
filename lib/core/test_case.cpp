// TestCase: outcomes, including flaky tests' failure fractions.
#include "dlfl/test_case.h"

#include "dlfl/error.h"

namespace dlfl {

TestCase TestCase::flaky(std::string name, std::uint32_t failed_runs, std::uint32_t runs) {
  if (runs == 0 || failed_runs > runs)
    throw Error("test " + name + ": " + std::to_string(failed_runs) + " failed of " +
                std::to_string(runs) + " runs is not an outcome");
  const double w = static_cast<double>(failed_runs) / runs;
  const TestStatus status = failed_runs == 0       ? TestStatus::passed
                            : failed_runs == runs ? TestStatus::failed
                                                  : TestStatus::flaky;
  return {std::move(name), w, status, 0, {}};
}

}  // namespace dlfl
