// Test helper: a spectrum as sets keyed by names, so that spectra equal up to the order
// of their tests and elements compare equal (shards + merge against one collection).
#pragma once

#include <map>
#include <ostream>
#include <set>
#include <string>
#include <tuple>

#include "dlfl/spectrum.h"

namespace dlfl::testing {

struct CanonicalTest {
  double failure_weight = 0;
  TestStatus status = TestStatus::passed;
  std::set<std::string> covered;  // element names
  bool operator==(const CanonicalTest&) const = default;
};

struct CanonicalSpectrum {
  std::set<std::string> elements;  // element names with their function and last line
  std::map<std::string, CanonicalTest> tests;
  bool operator==(const CanonicalSpectrum&) const = default;
};

inline CanonicalSpectrum canonical(const Spectrum& s) {
  CanonicalSpectrum c;
  for (std::size_t e = 0; e < s.element_count(); ++e)
    c.elements.insert(s.element_name(e) + " [" + std::string(s.function(e)) + " .." +
                      std::to_string(s.element(e).last_line) + "]");
  for (std::size_t t = 0; t < s.test_count(); ++t) {
    auto& test = c.tests[s.tests()[t].name];
    test.failure_weight = s.tests()[t].failure_weight;
    test.status = s.tests()[t].status;
  }
  for (std::size_t e = 0; e < s.element_count(); ++e)
    for (const auto t : s.coverage().tests_of(e)) c.tests[s.tests()[t].name].covered.insert(s.element_name(e));
  return c;
}

inline std::ostream& operator<<(std::ostream& out, const CanonicalSpectrum& c) {
  out << c.elements.size() << " elements, " << c.tests.size() << " tests:";
  for (const auto& [name, t] : c.tests) {
    out << "\n  " << name << " w=" << t.failure_weight << " covers " << t.covered.size() << ':';
    std::size_t shown = 0;
    for (const auto& e : t.covered)
      if (shown++ < 6) out << ' ' << e;
  }
  return out;
}

}  // namespace dlfl::testing
