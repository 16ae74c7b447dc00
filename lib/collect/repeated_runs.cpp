// N collections of one suite as one spectrum with k/N failure weights (see repeated_runs.h).
#include "dlfl/collect/repeated_runs.h"

#include <map>
#include <unordered_map>

#include "dlfl/error.h"

namespace dlfl::collect {

RepeatedRuns merge_repeated_runs(const std::vector<Spectrum>& runs) {
  if (runs.empty()) throw Error("no run to merge");
  SpectrumBuilder b;
  std::map<std::pair<std::string, ElementKind>, std::uint32_t> element_ids;
  struct Merged {
    const TestCase* first = nullptr;        // the first run's record (name, status, message)
    const TestCase* first_failing = nullptr;
    std::uint32_t runs = 0, failed = 0;
    std::uint64_t runtime_ns = 0;
    std::vector<std::uint32_t> elements;
  };
  std::vector<Merged> tests;
  std::unordered_map<std::string, std::size_t> index;
  for (const Spectrum& s : runs) {
    std::vector<std::uint32_t> id(s.element_count());
    for (std::size_t e = 0; e < s.element_count(); ++e) {
      const ElementRecord& r = s.element(e);
      auto [it, inserted] = element_ids.try_emplace({s.element_name(e), r.kind}, 0);
      if (inserted)
        it->second = r.kind == ElementKind::extrinsic
                         ? b.add_extrinsic(s.element_name(e))
                         : b.add_element(s.file(e), r.first_line, r.last_line, s.function(e),
                                         r.name ? s.strings()[r.name] : std::string_view());
      id[e] = it->second;
    }
    std::vector<std::size_t> row(s.test_count());
    for (std::size_t t = 0; t < s.test_count(); ++t) {
      const TestCase& test = s.tests()[t];
      auto [it, inserted] = index.try_emplace(test.name, tests.size());
      if (inserted) tests.push_back({&test, nullptr, 0, 0, 0, {}});
      Merged& m = tests[it->second];
      ++m.runs;
      m.runtime_ns += test.runtime_ns;
      if (test.failed()) {
        ++m.failed;
        if (!m.first_failing) m.first_failing = &test;
      }
      row[t] = it->second;
    }
    for (std::size_t e = 0; e < s.element_count(); ++e)
      for (const std::uint32_t t : s.coverage().tests_of(e)) tests[row[t]].elements.push_back(id[e]);
  }
  RepeatedRuns out;
  for (auto& m : tests) {
    TestCase test = m.failed == 0          ? TestCase::pass(m.first->name)
                    : m.failed == m.runs   ? *m.first_failing
                                           : TestCase::flaky(m.first->name, m.failed, m.runs);
    if (m.failed && m.failed < m.runs) {
      test.message = m.first_failing->message;
      out.flaky.push_back(m.first->name + " " + std::to_string(m.failed) + "/" + std::to_string(m.runs));
    }
    test.runtime_ns = m.runtime_ns / m.runs;
    b.add_test(std::move(test), m.elements);
  }
  out.spectrum = std::move(b).finish();
  return out;
}

}  // namespace dlfl::collect
