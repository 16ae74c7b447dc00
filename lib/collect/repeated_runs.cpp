// N collections of one suite as one spectrum with k/N failure weights (see repeated_runs.h).
#include "dlfl/collect/repeated_runs.h"

#include <map>
#include <unordered_map>

#include "dlfl/error.h"

namespace dlfl::collect {

void RunTally::add(const TestCase& run) {
  if (!first_) first_ = TestCase{run.name, 0.0, TestStatus::passed, 0, {}};
  ++runs_;
  runtime_ns_ += run.runtime_ns;
  if (run.failed()) {
    ++failed_;
    if (!first_failing_) first_failing_ = run;
  }
}

TestCase RunTally::combined() const {
  TestCase test = failed_ == 0        ? TestCase::pass(first_->name)
                  : failed_ == runs_ ? *first_failing_
                                     : TestCase::flaky(first_->name, failed_, runs_);
  if (flaky()) test.message = first_failing_->message;
  test.runtime_ns = runtime_ns_ / runs_;
  return test;
}

std::string RunTally::flaky_label() const {
  return first_->name + " " + std::to_string(failed_) + "/" + std::to_string(runs_);
}

RepeatedRuns merge_repeated_runs(const std::vector<Spectrum>& runs) {
  if (runs.empty()) throw Error("no run to merge");
  SpectrumBuilder b;
  std::map<std::pair<std::string, ElementKind>, std::uint32_t> element_ids;
  struct Merged {
    RunTally tally;
    std::vector<std::uint32_t> elements;
  };
  std::vector<Merged> tests;
  std::unordered_map<std::string, std::size_t> index;
  for (const Spectrum& s : runs) {
    std::vector<std::uint32_t> id(s.element_count());
    for (std::size_t e = 0; e < s.element_count(); ++e) {
      auto [it, inserted] = element_ids.try_emplace({s.element_name(e), s.element(e).kind}, 0);
      if (inserted) it->second = b.add_copy(s, e);
      id[e] = it->second;
    }
    std::vector<std::size_t> row(s.test_count());
    for (std::size_t t = 0; t < s.test_count(); ++t) {
      const TestCase& test = s.tests()[t];
      auto [it, inserted] = index.try_emplace(test.name, tests.size());
      if (inserted) tests.emplace_back();
      tests[it->second].tally.add(test);
      row[t] = it->second;
    }
    for (std::size_t e = 0; e < s.element_count(); ++e)
      for (const std::uint32_t t : s.coverage().tests_of(e)) tests[row[t]].elements.push_back(id[e]);
  }
  RepeatedRuns out;
  for (auto& m : tests) {
    if (m.tally.flaky()) out.flaky.push_back(m.tally.flaky_label());
    b.add_test(m.tally.combined(), m.elements);
  }
  out.spectrum = std::move(b).finish();
  return out;
}

}  // namespace dlfl::collect
