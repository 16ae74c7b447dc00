// FailingCoverage: the coverage of the failing tests alone, test-major. With binary
// outcomes it is all counts need besides each element's row length: ef(e) = the failing
// rows holding e, ef + ep = the tests covering e, so ranking never reads the passing
// tests' coverage (usually ~99% of the matrix).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "dlfl/column.h"
#include "dlfl/coverage.h"

namespace dlfl {

class FailingCoverage {
 public:
  FailingCoverage() : offsets_(std::vector<std::uint64_t>{0}) {}
  // Row i holds the elements test `tests[i]` covers: elements[offsets[i], offsets[i+1]).
  // Throws dlfl::Error unless tests are ascending, unique and < `test_count`, offsets
  // start at 0, never decrease and end at elements.size(), and each row is ascending,
  // unique and < `element_count`. O(size of the rows).
  FailingCoverage(std::size_t test_count, std::size_t element_count, Column<std::uint32_t> tests,
                  Column<std::uint64_t> offsets, Column<std::uint32_t> elements);
  // The rows of `failing_tests` (ascending, unique, in range) taken from `coverage`:
  // one pass over the matrix, memory for the failing rows only.
  static FailingCoverage of(const Coverage& coverage, std::span<const std::uint32_t> failing_tests);

  std::size_t size() const noexcept { return tests_.size(); }
  std::span<const std::uint32_t> tests() const noexcept { return tests_.span(); }
  std::span<const std::uint64_t> offsets() const noexcept { return offsets_.span(); }
  std::span<const std::uint32_t> elements() const noexcept { return elements_.span(); }
  std::span<const std::uint32_t> row(std::size_t i) const noexcept {
    return elements_.span().subspan(offsets_[i], offsets_[i + 1] - offsets_[i]);
  }

 private:
  Column<std::uint32_t> tests_;
  Column<std::uint64_t> offsets_;
  Column<std::uint32_t> elements_;
};

}  // namespace dlfl
