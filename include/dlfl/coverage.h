// Coverage: which elements each test executed, as a tests × elements binary matrix in
// compressed sparse rows, plus a dense bitset form for denser matrices.
#pragma once

#include <bit>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <span>
#include <vector>

#include "dlfl/column.h"

namespace dlfl {

// The tests covering one element, ascending: a forward range over either storage form.
class CoveringTests {
 public:
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::uint32_t;
    using difference_type = std::ptrdiff_t;
    using pointer = const std::uint32_t*;
    using reference = std::uint32_t;
    iterator() = default;
    std::uint32_t operator*() const noexcept {
      return ids_ ? *ids_ : static_cast<std::uint32_t>(word_index_ * 64 + static_cast<std::size_t>(std::countr_zero(bits_)));
    }
    iterator& operator++() noexcept {
      if (ids_) {
        ++ids_;
      } else {
        bits_ &= bits_ - 1;
        skip_empty_words();
      }
      return *this;
    }
    iterator operator++(int) noexcept {
      iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const iterator& o) const noexcept {
      return ids_ == o.ids_ && word_index_ == o.word_index_ && bits_ == o.bits_;
    }

   private:
    friend class CoveringTests;
    iterator(const std::uint32_t* ids) : ids_(ids) {}
    iterator(const std::uint64_t* words, std::size_t count, std::size_t index)
        : words_(words), word_count_(count), word_index_(index), bits_(index < count ? words[index] : 0) {
      skip_empty_words();
    }
    void skip_empty_words() noexcept {
      while (bits_ == 0 && word_index_ < word_count_) {
        if (++word_index_ < word_count_) bits_ = words_[word_index_];
      }
    }
    const std::uint32_t* ids_ = nullptr;
    const std::uint64_t* words_ = nullptr;
    std::size_t word_count_ = 0, word_index_ = 0;
    std::uint64_t bits_ = 0;
  };

  explicit CoveringTests(std::span<const std::uint32_t> ids) noexcept : ids_(ids), dense_(false) {}
  explicit CoveringTests(std::span<const std::uint64_t> bits) noexcept : bits_(bits), dense_(true) {}

  iterator begin() const noexcept { return dense_ ? iterator(bits_.data(), bits_.size(), 0) : iterator(ids_.data()); }
  iterator end() const noexcept {
    return dense_ ? iterator(bits_.data(), bits_.size(), bits_.size()) : iterator(ids_.data() + ids_.size());
  }
  std::size_t size() const noexcept;
  bool empty() const noexcept;

 private:
  std::span<const std::uint32_t> ids_;
  std::span<const std::uint64_t> bits_;
  bool dense_;
};

// The coverage matrix (tests × elements, binary), stored element-major in one of two
// forms, whichever is smaller (see compact()):
//  - sparse: the tests covering element e are test_ids[offsets[e], offsets[e+1]),
//    ascending and unique (CSR of the transpose); 8 bytes per element + 4 per covered pair;
//  - dense: element e owns words_per_element() 64-bit words; bit t of them is set when
//    test t covers e; elements × ceil(tests / 64) × 8 bytes, smaller above ~1/32 density.
// Element-major because the hot path, counts, is then one sequential pass per element
// (ef = Σ w over the element's tests) that both cores can share without partial arrays.
class Coverage {
 public:
  enum class Form : std::uint8_t { sparse, dense };

  Coverage() : offsets_(std::vector<std::uint64_t>{0}) {}
  // Sparse form. Validates the structure (monotone offsets spanning the ids, sorted
  // unique in-range test ids) and throws dlfl::Error otherwise; `validate = false` skips
  // the O(nnz) check for data already checked (e.g. by a checksum).
  Coverage(std::size_t tests, Column<std::uint64_t> offsets, Column<std::uint32_t> test_ids,
           bool validate = true);
  // Dense form: elements × ceil(tests/64) words. Throws dlfl::Error when the size does
  // not match or (validate) a bit past the last test is set.
  static Coverage dense(std::size_t tests, std::size_t elements, Column<std::uint64_t> bits,
                        bool validate = true);

  // The sparse constructor's checks over elements [first, last) only, for readers that
  // check a large mapped matrix piece by piece as they use it (dlfl merge); same
  // dlfl::Error messages. `offsets` must hold entries first..last (it may be the whole
  // array). check_offsets: each element's range ascends and stays within `nnz` ids.
  // check_rows: that too, and each element's tests are ascending, unique and < `tests`.
  static void check_offsets(std::span<const std::uint64_t> offsets, std::size_t nnz, std::size_t first,
                            std::size_t last);
  static void check_rows(std::size_t tests, std::span<const std::uint64_t> offsets,
                         std::span<const std::uint32_t> ids, std::size_t first, std::size_t last);

  Form form() const noexcept { return form_; }
  bool is_dense() const noexcept { return form_ == Form::dense; }
  std::size_t tests() const noexcept { return tests_; }
  std::size_t elements() const noexcept { return elements_; }
  std::size_t nnz() const noexcept { return nnz_; }
  // nnz / (tests × elements); 0 for an empty matrix.
  double density() const noexcept;
  // Bytes of the storage in use (what memory targets are measured against).
  std::size_t storage_bytes() const noexcept;

  // The tests that executed `element`, ascending (either form).
  CoveringTests tests_of(std::size_t element) const noexcept {
    return form_ == Form::dense ? CoveringTests(bits(element)) : CoveringTests(sparse_tests_of(element));
  }
  bool covers(std::size_t test, std::uint32_t element) const noexcept;

  // Sparse form only.
  std::span<const std::uint32_t> sparse_tests_of(std::size_t element) const noexcept {
    return test_ids_.span().subspan(offsets_[element], offsets_[element + 1] - offsets_[element]);
  }
  std::span<const std::uint64_t> offsets() const noexcept { return offsets_.span(); }
  std::span<const std::uint32_t> test_ids() const noexcept { return test_ids_.span(); }
  // Dense form only.
  std::size_t words_per_element() const noexcept { return (tests_ + 63) / 64; }
  std::span<const std::uint64_t> bits(std::size_t element) const noexcept {
    return bits_.span().subspan(element * words_per_element(), words_per_element());
  }
  std::span<const std::uint64_t> all_bits() const noexcept { return bits_.span(); }

  // The other form (a copy), and the smaller of the two (this one when it already is).
  Coverage to_dense() const;
  Coverage to_sparse() const;
  Coverage compact() const;

 private:
  Form form_ = Form::sparse;
  std::size_t tests_ = 0, elements_ = 0, nnz_ = 0;
  Column<std::uint64_t> offsets_;
  Column<std::uint32_t> test_ids_;
  Column<std::uint64_t> bits_;
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
// O(nnz) (a counting sort), so peak memory is twice the index array, and returns the
// smaller storage form.
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
  // Adds `elements` to each of the rows [first, end) already added: coverage shared by
  // several tests that is known only after them (a process's coverage outside its tests).
  // O(all covered pairs). Throws dlfl::Error like add_row; rows past tests() are ignored.
  void add_to_rows(std::size_t first, std::size_t end, std::span<const std::uint32_t> elements);
  // Throws dlfl::Error when a row names an element id ≥ `elements`.
  Coverage finish(std::size_t elements) &&;
  Coverage finish() && { return std::move(*this).finish(elements_); }

 private:
  std::size_t elements_;
  std::vector<std::uint64_t> offsets_;
  std::vector<std::uint32_t> indices_;
};

// True when the dense form is the smaller one.
bool dense_is_smaller(std::size_t tests, std::size_t elements, std::size_t nnz) noexcept;

}  // namespace dlfl
