// Coverage: which elements each test executed, as a tests × elements binary matrix in
// compressed sparse rows, plus a dense bitset form for denser matrices.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "dlfl/column.h"

namespace dlfl {

// CSR, one row per test: the element ids of row t are indices[offsets[t], offsets[t+1]),
// sorted ascending and unique. Memory: 8 bytes per test + 4 bytes per covered pair.
class Coverage {
 public:
  Coverage() : offsets_(std::vector<std::uint64_t>{0}) {}
  // Validates the structure (monotone offsets, sorted unique in-range indices) and
  // throws dlfl::Error otherwise. `validate = false` skips the O(nnz) check for data
  // already checked (e.g. by a checksum).
  Coverage(std::size_t elements, Column<std::uint64_t> offsets, Column<std::uint32_t> indices,
           bool validate = true);

  std::size_t tests() const noexcept { return offsets_.size() - 1; }
  std::size_t elements() const noexcept { return elements_; }
  std::size_t nnz() const noexcept { return indices_.size(); }
  // nnz / (tests × elements); 0 for an empty matrix.
  double density() const noexcept;

  std::span<const std::uint32_t> row(std::size_t test) const noexcept {
    return indices_.span().subspan(offsets_[test], offsets_[test + 1] - offsets_[test]);
  }
  bool covers(std::size_t test, std::uint32_t element) const noexcept;

  std::span<const std::uint64_t> offsets() const noexcept { return offsets_.span(); }
  std::span<const std::uint32_t> indices() const noexcept { return indices_.span(); }

 private:
  std::size_t elements_ = 0;
  Column<std::uint64_t> offsets_;
  Column<std::uint32_t> indices_;
};

// Builds a Coverage row by row; rows may be unsorted and hold duplicates.
class CoverageBuilder {
 public:
  explicit CoverageBuilder(std::size_t elements) : elements_(elements) { offsets_.push_back(0); }
  // Throws dlfl::Error when an element id is out of range.
  void add_row(std::span<const std::uint32_t> elements);
  void add_row(std::initializer_list<std::uint32_t> elements) {
    add_row(std::span<const std::uint32_t>(elements.begin(), elements.size()));
  }
  Coverage finish() &&;

 private:
  std::size_t elements_;
  std::vector<std::uint64_t> offsets_;
  std::vector<std::uint32_t> indices_;
};

// Element-major bitsets: bit t of element e's row is set when test t covers e. Uses
// elements × ceil(tests/64) × 8 bytes: smaller than CSR above ~1/32 density, and lets
// counts use popcount.
class DenseCoverage {
 public:
  explicit DenseCoverage(const Coverage& sparse);
  std::size_t tests() const noexcept { return tests_; }
  std::size_t elements() const noexcept { return elements_; }
  std::size_t words_per_element() const noexcept { return words_; }
  std::span<const std::uint64_t> bits(std::size_t element) const noexcept {
    return {bits_.data() + element * words_, words_};
  }

 private:
  std::size_t tests_, elements_, words_;
  std::vector<std::uint64_t> bits_;
};

// True when the dense form is the smaller one.
bool dense_is_smaller(std::size_t tests, std::size_t elements, std::size_t nnz) noexcept;

}  // namespace dlfl
