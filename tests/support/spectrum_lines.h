// Test helpers: which source lines each test of a spectrum covers and how each ended, for
// readable expectations.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "dlfl/spectrum.h"

namespace dlfl::testing {

// Test name → first lines of the elements it covers (a test name met twice merges).
inline std::map<std::string, std::set<std::uint32_t>> lines_by_test(const Spectrum& s) {
  std::map<std::string, std::set<std::uint32_t>> out;
  for (std::size_t t = 0; t < s.test_count(); ++t) {
    auto& lines = out[s.tests()[t].name];
    for (std::uint32_t e = 0; e < s.element_count(); ++e)
      if (s.coverage().covers(t, e)) lines.insert(s.element(e).first_line);
  }
  return out;
}

// Test name → its status.
inline std::map<std::string, TestStatus> status_by_test(const Spectrum& s) {
  std::map<std::string, TestStatus> out;
  for (const auto& t : s.tests()) out[t.name] = t.status;
  return out;
}

}  // namespace dlfl::testing
