// ElementTable: the union of the lines all tests' coverage reports name, as elements.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "dlfl/collect/coverage_backend.h"
#include "dlfl/collect/path_filter.h"
#include "dlfl/spectrum.h"

namespace dlfl::collect {

// Elements are instrumented lines: every line a report lists, executed or not (count
// 0), of a file the PathFilter keeps. So a line no test runs is still an element (with
// ef = ep = 0) and the element set does not depend on which tests happen to run.
// Each element's function is the innermost function range (fewest lines, then the
// smallest name, so template instances sharing lines name one of them consistently)
// among all ranges any report gave for its file.
class ElementTable {
 public:
  explicit ElementTable(const PathFilter& filter) : filter_(filter) {}

  // Adds the report's lines and functions; returns the provisional ids of the lines it
  // covers (count > 0), sorted, without duplicates. Thread-safe.
  std::vector<std::uint32_t> add(const CoverageReport& report);

  std::size_t size() const;
  // Distinct (directory, path) spellings the reports named, kept or not.
  std::size_t paths_seen() const;

  // Adds the elements to `builder` ordered by (file, line) and returns, per provisional
  // id, the id the builder gave it.
  std::vector<std::uint32_t> emit(SpectrumBuilder& builder) const;

 private:
  struct File {
    std::string name;                    // as the spectrum shows it
    std::vector<std::uint32_t> line_id;  // line → provisional id + 1 (0: not an element)
    std::vector<FunctionRange> functions;
    std::unordered_set<std::string> function_keys;  // "first:last:name", for de-duplication
  };
  struct Element {
    std::uint32_t file = 0, line = 0;
  };
  int file_index(const FileCoverage& coverage);  // -1: excluded; mutex_ held

  const PathFilter& filter_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, int> file_of_path_;  // base + '\0' + path → index or -1
  std::vector<File> files_;
  std::vector<Element> elements_;
};

}  // namespace dlfl::collect
