// Coverage: which elements each test executed, as a tests × elements binary matrix in
// compressed sparse rows, plus a dense bitset form for denser matrices.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "dlfl/column.h"

namespace dlfl {

// Element-major compressed storage (CSC of the tests × elements matrix, i.e. CSR of its
// transpose): the tests covering element e are test_ids[offsets[e], offsets[e+1]),
// sorted ascending and unique. Element-major because the hot path, counts, is then one
// sequential pass per element (ef = Σ w over the element's tests) that both cores can
// share without partial arrays. Memory: 8 bytes per element + 4 bytes per covered pair.
class Coverage {
 public:
  Coverage() : offsets_(std::vector<std::uint64_t>{0}) {}
  // Validates the structure (monotone offsets spanning the ids, sorted unique in-range
  // test ids) and throws dlfl::Error otherwise. `validate = false` skips the O(nnz)
  // check for data already checked (e.g. by a checksum).
  Coverage(std::size_t tests, Column<std::uint64_t> offsets, Column<std::uint32_t> test_ids,
           bool validate = true);

  std::size_t tests() const noexcept { return tests_; }
  std::size_t elements() const noexcept { return offsets_.size() - 1; }
  std::size_t nnz() const noexcept { return test_ids_.size(); }
  // nnz / (tests × elements); 0 for an empty matrix.
  double density() const noexcept;

  // The tests that executed `element`, ascending.
  std::span<const std::uint32_t> tests_of(std::size_t element) const noexcept {
    return test_ids_.span().subspan(offsets_[element], offsets_[element + 1] - offsets_[element]);
  }
  bool covers(std::size_t test, std::uint32_t element) const noexcept;

  std::span<const std::uint64_t> offsets() const noexcept { return offsets_.span(); }
  std::span<const std::uint32_t> test_ids() const noexcept { return test_ids_.span(); }

 private:
  std::size_t tests_ = 0;
  Column<std::uint64_t> offsets_;
  Column<std::uint32_t> test_ids_;
};

// The same matrix test-major (rows = tests), for writers and readers that go test by
// test (GZoltar's matrix). Built in O(nnz) time and memory; a copy, not a view.
class CoverageRows {
 public:
  explicit CoverageRows(const Coverage& coverage);
  std::size_t tests() const noexcept { return offsets_.size() - 1; }
  // The elements test `test` executed, ascending.
  std::span<const std::uint32_t> row(std::size_t test) const noexcept {
    return {elements_.data() + offsets_[test], offsets_[test + 1] - offsets_[test]};
  }

 private:
  std::vector<std::uint64_t> offsets_;
  std::vector<std::uint32_t> elements_;
};

// Builds a Coverage from rows, one test at a time (as collectors and matrix readers
// produce them); rows may be unsorted and hold duplicates. finish() transposes in
// O(nnz) (a counting sort), so peak memory is twice the index array.
class CoverageBuilder {
 public:
  // `elements` bounds the element ids add_row accepts; without it, finish(n) checks them.
  explicit CoverageBuilder(std::size_t elements = kUnbounded) : elements_(elements) { offsets_.push_back(0); }
  static constexpr std::size_t kUnbounded = static_cast<std::size_t>(-1);
  // Throws dlfl::Error when an element id is out of range.
  void add_row(std::span<const std::uint32_t> elements);
  void add_row(std::initializer_list<std::uint32_t> elements) {
    add_row(std::span<const std::uint32_t>(elements.begin(), elements.size()));
  }
  std::size_t tests() const noexcept { return offsets_.size() - 1; }
  // Throws dlfl::Error when a row names an element id ≥ `elements`.
  Coverage finish(std::size_t elements) &&;
  Coverage finish() && { return std::move(*this).finish(elements_); }

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
