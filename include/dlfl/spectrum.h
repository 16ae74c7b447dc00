// Spectrum: the central data model. Elements × tests coverage plus test outcomes;
// every collector produces one, every scorer and format consumes one.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/column.h"
#include "dlfl/coverage.h"
#include "dlfl/element.h"
#include "dlfl/failing_coverage.h"
#include "dlfl/string_pool.h"
#include "dlfl/test_case.h"
#include "dlfl/tie_order.h"

namespace dlfl {

// Where a spectrum's elements come from, so that spectra of different code are never
// joined (`dlfl merge`): the source root its files are named relative to, and the id of
// the probe map (runtime collection). Empty / 0 = unknown.
struct SpectrumOrigin {
  std::string source_root;
  std::uint64_t probe_map_id = 0;
  bool operator==(const SpectrumOrigin&) const = default;
};

class Spectrum {
 public:
  Spectrum() = default;
  // Throws dlfl::Error when the parts disagree (coverage dimensions vs element/test
  // counts, string ids out of the pool, failure weights outside [0, 1]).
  Spectrum(StringPool strings, Column<ElementRecord> elements, std::vector<TestCase> tests,
           Coverage coverage);

  std::size_t element_count() const noexcept { return elements_.size(); }
  std::size_t test_count() const noexcept { return tests_.size(); }

  std::span<const ElementRecord> elements() const noexcept { return elements_.span(); }
  const ElementRecord& element(std::size_t i) const noexcept { return elements_[i]; }
  const std::vector<TestCase>& tests() const noexcept { return tests_; }
  const Coverage& coverage() const noexcept { return coverage_; }
  const StringPool& strings() const noexcept { return strings_; }

  std::string_view file(std::size_t element) const noexcept { return strings_[elements_[element].file]; }
  std::string_view function(std::size_t element) const noexcept {
    return strings_[elements_[element].function];
  }
  // Display name: the stored name, else `file#function:line` (GZoltar's shape), with
  // `#function` left out when there is none.
  std::string element_name(std::size_t element) const;

  const SpectrumOrigin& origin() const noexcept { return origin_; }
  void set_origin(SpectrumOrigin origin) { origin_ = std::move(origin); }

  // True when every test passed or failed outright (failure weight 0 or 1).
  bool binary_outcomes() const noexcept;
  // The failing tests' coverage, test-major, when attached (the native reader attaches
  // the stored one); counts use it instead of the whole matrix when outcomes are binary.
  const FailingCoverage* failing_coverage() const noexcept { return failing_ ? &*failing_ : nullptr; }
  // Throws dlfl::Error unless `failing` lists exactly the tests with failure weight > 0
  // and its rows fit the element count. The rows themselves are trusted to match the
  // coverage (the native writer builds them from it).
  void attach_failing_coverage(FailingCoverage failing);
  // The ascending ids of the tests with failure weight > 0.
  std::vector<std::uint32_t> failing_test_ids() const;

  // Total failure weight F = Σ w and pass weight P = Σ (1 − w) over all tests.
  double failed_weight() const noexcept;
  double passed_weight() const noexcept;

  // Per element, a key that orders ties deterministically by (file, first line, id):
  // key[e] < key[f] means e is listed first. Cost: one sort of the distinct files.
  std::vector<std::uint64_t> tie_break_keys() const;
  // The same order as runs of element ids when the elements come file by file with
  // ascending lines (as collectors list them; no per-element memory), else as those keys.
  // Cost: one pass over the element records and one sort of the runs.
  TieOrder tie_order() const;

 private:
  // Sorts `files` by id without repeats; returns each one's rank by name (aligned with
  // it), the first half of a tie key. Shared by tie_break_keys and tie_order.
  std::vector<std::uint32_t> rank_files_by_name(std::vector<StringId>& files) const;

  StringPool strings_;
  Column<ElementRecord> elements_;
  std::vector<TestCase> tests_;
  Coverage coverage_;
  SpectrumOrigin origin_;
  std::optional<FailingCoverage> failing_;
};

// Builds a Spectrum element by element and test by test (collectors, readers, tests).
class SpectrumBuilder {
 public:
  // Adds a code element; returns its id. `language` unknown = inferred from the file's
  // extension when the spectrum is finished (infer_languages).
  std::uint32_t add_element(std::string_view file, std::uint32_t first_line,
                            std::uint32_t last_line = 0, std::string_view function = {},
                            std::string_view name = {}, Language language = Language::unknown);
  // Adds an extrinsic element such as `device=cuda`; returns its id.
  std::uint32_t add_extrinsic(std::string_view label);
  // Adds a copy of element `e` of `from` (code or extrinsic, name and language kept).
  std::uint32_t add_copy(const Spectrum& from, std::size_t e);
  // Adds an element from a GZoltar-style name `file#function:line` (the parts that are
  // absent stay empty/0); the name is kept verbatim when it does not re-derive exactly.
  std::uint32_t add_named_element(std::string_view name);

  // Adds a test with the ids of the elements it covers (any order, duplicates allowed).
  void add_test(TestCase test, std::span<const std::uint32_t> covered);
  void add_test(TestCase test, std::initializer_list<std::uint32_t> covered) {
    add_test(std::move(test), std::span<const std::uint32_t>(covered.begin(), covered.size()));
  }

  // Adds covered elements to the tests [first, end) already added (CoverageBuilder::add_to_rows).
  void add_to_tests(std::size_t first, std::size_t end, std::span<const std::uint32_t> covered) {
    coverage_.add_to_rows(first, end, covered);
  }

  std::size_t element_count() const noexcept { return elements_.size(); }
  std::size_t test_count() const noexcept { return tests_.size(); }
  StringPool& strings() noexcept { return strings_; }

  // Infers the languages not given (infer_languages). Throws dlfl::Error when a test
  // covers an element id that was never added.
  Spectrum finish() &&;

 private:
  StringPool strings_;
  std::vector<ElementRecord> elements_;
  std::vector<TestCase> tests_;
  CoverageBuilder coverage_;
};

}  // namespace dlfl
