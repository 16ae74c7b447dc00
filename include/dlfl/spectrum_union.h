// The union of spectra of the same code: how their elements are matched, how the runs of
// one test met in several of them become one test, and in which order the elements come.
// One rule for `dlfl merge` (shards, machines; io/spectrum_merge.h streams it) and for
// repeated collections of one suite (`dlfl collect --repeat`, in memory: unite_spectra).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dlfl/spectrum.h"
#include "dlfl/test_case.h"

namespace dlfl {

// The identity of element `e`: its kind and (file, first line) for code, its name for
// extrinsic elements and elements without a location. Equal identities are one element.
std::string element_identity(const Spectrum& s, std::size_t e);

// Whether the elements are ordered by (kind, file, first line), as collectors write them.
bool sorted_by_location(const Spectrum& s);

// Where an element of the union was met first: in which input spectrum, as which element.
struct ElementOccurrence {
  const Spectrum* spectrum;
  std::size_t element;
};

// The union's element order over its elements in first-met order (`first_met`): sorted by
// (kind, file, first line) when `every_input_sorted` (as collectors write them), else as
// first met. Inputs that all share the first one's elements keep its order either way.
std::vector<std::uint32_t> union_element_order(std::span<const ElementOccurrence> first_met, bool every_input_sorted);

// What the runtime of a test met several times is: the sum (shards of one suite run on
// several machines: the time the test took in all) or the mean (repeats of one suite:
// the time one run takes).
enum class RunTimeRule : unsigned char { total, mean };

// The runs of one test (by name) as one TestCase. A single run is kept as it is. Several:
// failure weight = the mean of their weights (k of N failing runs: k/N); status flaky
// when it is strictly between 0 and 1, else the first failing run's status (all failed)
// or passed; the message is the first failing run's (none when all passed); the
// runtime follows the RunTimeRule.
class TestRuns {
 public:
  void add(const TestCase& run);
  std::uint32_t runs() const noexcept { return runs_; }
  std::uint32_t failed() const noexcept { return failed_; }  // runs with weight > 0
  // Several runs whose mean weight is strictly between 0 and 1.
  bool flaky() const noexcept;
  // "NAME k/N" (k = failed(), N = runs()), as the summary lists a flaky test.
  std::string flaky_label() const;
  // Requires runs() > 0. The rvalue form moves the test out instead of copying it.
  TestCase joined(RunTimeRule rule) const&;
  TestCase joined(RunTimeRule rule) &&;

 private:
  void join_into(TestCase& test, RunTimeRule rule) const;

  TestCase test_;  // the first run, with the first failing run's status and message
  double weight_sum_ = 0;
  std::uint32_t runs_ = 0, failed_ = 0;
  std::uint64_t runtime_ns_ = 0;
};

struct SpectrumUnion {
  Spectrum spectrum;
  std::vector<std::string> flaky;  // flaky_label() of each test flaky in the union
};

// The union of whole spectra, in memory: elements matched by element_identity (the first
// met gives the record), in union_element_order; tests in the order first met,
// joined by TestRuns, covering what any of their runs covered. Throws dlfl::Error for no
// input.
SpectrumUnion unite_spectra(std::span<const Spectrum> inputs, RunTimeRule rule);

}  // namespace dlfl
