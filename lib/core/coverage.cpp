// Coverage: element-major sparse and dense storage, conversions, the test-major copy.
#include "dlfl/coverage.h"

#include <algorithm>
#include <iterator>
#include <string>

#include "dlfl/error.h"
#include "popcnt_clones.h"

namespace dlfl {
namespace {

// Set bits of `count` words: the nnz of dense coverage (25 MB for a 20k x 10k union).
DLFL_POPCNT_CLONES
std::size_t popcount_words(const std::uint64_t* words, std::size_t count) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < count; ++i) n += static_cast<std::size_t>(std::popcount(words[i]));
  return n;
}

}  // namespace

std::size_t CoveringTests::size() const noexcept {
  if (!dense_) return ids_.size();
  return popcount_words(bits_.data(), bits_.size());
}

bool CoveringTests::empty() const noexcept {
  if (!dense_) return ids_.empty();
  return std::all_of(bits_.begin(), bits_.end(), [](std::uint64_t w) { return w == 0; });
}

Coverage::Coverage(std::size_t tests, Column<std::uint64_t> offsets, Column<std::uint32_t> test_ids,
                   bool validate)
    : form_(Form::sparse), tests_(tests), offsets_(std::move(offsets)), test_ids_(std::move(test_ids)) {
  if (offsets_.empty() || offsets_[0] != 0 || offsets_[offsets_.size() - 1] != test_ids_.size())
    throw Error("coverage: offsets do not span the test id array");
  elements_ = offsets_.size() - 1;
  nnz_ = test_ids_.size();
  if (validate) check_rows(tests, offsets_.span(), test_ids_.span(), 0, elements_);
}

namespace {
[[noreturn]] void throw_bad_offsets(std::size_t e) {
  throw Error("coverage: offsets decrease or pass the id array at element " + std::to_string(e));
}
}  // namespace

void Coverage::check_offsets(std::span<const std::uint64_t> offsets, std::size_t nnz, std::size_t first,
                             std::size_t last) {
  const std::uint64_t* const starts = offsets.data();
  unsigned bad = 0;  // branch-free, vectorized; the element is looked for on failure only
  for (std::size_t e = first; e < last; ++e)
    bad |= static_cast<unsigned>(starts[e + 1] < starts[e]) | static_cast<unsigned>(starts[e + 1] > nnz);
  if (!bad) return;
  for (std::size_t e = first; e < last; ++e)
    if (starts[e + 1] < starts[e] || starts[e + 1] > nnz) throw_bad_offsets(e);
}

void Coverage::check_rows(std::size_t tests, std::span<const std::uint64_t> offsets,
                          std::span<const std::uint32_t> test_ids, std::size_t first, std::size_t last) {
  if (first >= last) return;
  check_offsets(offsets, test_ids.size(), first, last);
  // Fast path, cheap enough to run on every native read and branch-free over
  // the ids so the compiler vectorizes it: the ids of [first, last) are one run; each row
  // is strictly ascending when every drop in the run is at a row boundary, and in range
  // when the largest id is.
  const std::uint64_t* const starts = offsets.data();
  const std::uint32_t* const ids = test_ids.data();
  const std::uint64_t begin = starts[first], end = starts[last];
  std::size_t drops = 0;
  std::uint32_t largest = 0;
  if (begin < end) largest = ids[begin];
  for (std::uint64_t k = begin + 1; k < end; ++k) {
    drops += static_cast<std::size_t>(ids[k] <= ids[k - 1]);
    largest = std::max(largest, ids[k]);
  }
  std::size_t boundary_drops = 0;  // at k = the end of a non-empty row followed by more ids
  for (std::size_t e = first + 1; e < last; ++e) {
    const std::uint64_t k = starts[e];
    if (starts[e - 1] < k && k < end) boundary_drops += static_cast<std::size_t>(ids[k] <= ids[k - 1]);
  }
  if (drops == boundary_drops && (begin == end || largest < tests)) return;
  // Find the element to name, row by row.
  for (std::size_t e = first; e < last; ++e) {
    const std::uint64_t lo = starts[e], hi = starts[e + 1];
    if (hi == lo) continue;
    unsigned unsorted = 0;
    for (std::uint64_t k = lo + 1; k < hi; ++k) unsorted |= static_cast<unsigned>(ids[k] <= ids[k - 1]);
    if (unsorted) throw Error("coverage: tests of element " + std::to_string(e) + " are not sorted and unique");
    if (ids[hi - 1] >= tests)
      throw Error("coverage: element " + std::to_string(e) + " is covered by test " + std::to_string(ids[hi - 1]) +
                  " of " + std::to_string(tests));
  }
}

Coverage Coverage::dense(std::size_t tests, std::size_t elements, Column<std::uint64_t> bits, bool validate) {
  Coverage c;
  c.form_ = Form::dense;
  c.tests_ = tests;
  c.elements_ = elements;
  const std::size_t words = c.words_per_element();
  if ((words != 0 && elements > bits.size() / words) || bits.size() != elements * words)
    throw Error("coverage: " + std::to_string(bits.size()) + " bit words for " + std::to_string(elements) +
                " elements of " + std::to_string(words) + " words");
  c.bits_ = std::move(bits);
  c.offsets_ = Column<std::uint64_t>();
  // Bits past the last test would count as coverage by tests that do not exist.
  const std::uint64_t tail_mask = tests % 64 ? ~((std::uint64_t{1} << (tests % 64)) - 1) : 0;
  for (std::size_t e = 0; validate && e < elements && words > 0; ++e)
    if (c.bits(e)[words - 1] & tail_mask)
      throw Error("coverage: element " + std::to_string(e) + " is covered by a test past the last");
  c.nnz_ = popcount_words(c.bits_.data(), c.bits_.size());
  return c;
}

double Coverage::density() const noexcept {
  const double cells = static_cast<double>(tests_) * static_cast<double>(elements_);
  return cells > 0 ? static_cast<double>(nnz_) / cells : 0.0;
}

std::size_t Coverage::storage_bytes() const noexcept {
  return is_dense() ? bits_.size() * 8 : test_ids_.size() * 4 + offsets_.size() * 8;
}

bool Coverage::covers(std::size_t test, std::uint32_t element) const noexcept {
  if (is_dense()) return (bits(element)[test / 64] >> (test % 64)) & 1;
  const auto ids = sparse_tests_of(element);
  return std::binary_search(ids.begin(), ids.end(), static_cast<std::uint32_t>(test));
}

Coverage Coverage::to_dense() const {
  if (is_dense()) return *this;
  const std::size_t words = words_per_element();
  std::vector<std::uint64_t> out(elements_ * words, 0);
  for (std::size_t e = 0; e < elements_; ++e)
    for (auto t : sparse_tests_of(e)) out[e * words + t / 64] |= std::uint64_t{1} << (t % 64);
  return dense(tests_, elements_, std::move(out), /*validate=*/false);
}

Coverage Coverage::to_sparse() const {
  if (!is_dense()) return *this;
  std::vector<std::uint64_t> offsets{0};
  offsets.reserve(elements_ + 1);
  std::vector<std::uint32_t> ids;
  ids.reserve(nnz_);
  for (std::size_t e = 0; e < elements_; ++e) {
    for (auto t : tests_of(e)) ids.push_back(t);
    offsets.push_back(ids.size());
  }
  return Coverage(tests_, std::move(offsets), std::move(ids), /*validate=*/false);
}

Coverage Coverage::compact() const {
  const bool dense_wins = dense_is_smaller(tests_, elements_, nnz_);
  if (dense_wins == is_dense()) return *this;
  return dense_wins ? to_dense() : to_sparse();
}

namespace {

// Transposes compressed storage: `outer` lists of `inner` ids → lists per inner id.
// Filling in outer order leaves every output list sorted.
void transpose(std::span<const std::uint64_t> offsets, std::span<const std::uint32_t> ids,
               std::size_t inner_count, std::vector<std::uint64_t>& out_offsets,
               std::vector<std::uint32_t>& out_ids) {
  out_offsets.assign(inner_count + 1, 0);
  for (auto id : ids) ++out_offsets[id + 1];
  for (std::size_t i = 0; i < inner_count; ++i) out_offsets[i + 1] += out_offsets[i];
  out_ids.resize(ids.size());
  std::vector<std::uint64_t> next(out_offsets.begin(), out_offsets.end() - 1);
  for (std::size_t o = 0; o + 1 < offsets.size(); ++o)
    for (std::uint64_t k = offsets[o]; k < offsets[o + 1]; ++k)
      out_ids[next[ids[k]]++] = static_cast<std::uint32_t>(o);
}

}  // namespace

CoverageRows::CoverageRows(const Coverage& coverage) {
  if (!coverage.is_dense()) {
    transpose(coverage.offsets(), coverage.test_ids(), coverage.tests(), offsets_, elements_);
    return;
  }
  offsets_.assign(coverage.tests() + 1, 0);
  for (std::size_t e = 0; e < coverage.elements(); ++e)
    for (auto t : coverage.tests_of(e)) ++offsets_[t + 1];
  for (std::size_t t = 0; t < coverage.tests(); ++t) offsets_[t + 1] += offsets_[t];
  elements_.resize(offsets_.back());
  std::vector<std::uint64_t> next(offsets_.begin(), offsets_.end() - 1);
  for (std::size_t e = 0; e < coverage.elements(); ++e)
    for (auto t : coverage.tests_of(e)) elements_[next[t]++] = static_cast<std::uint32_t>(e);
}

void CoverageBuilder::add_row(std::span<const std::uint32_t> elements) {
  const std::size_t start = indices_.size();
  for (auto e : elements) {
    if (e >= elements_)
      throw Error("coverage: element " + std::to_string(e) + " out of range (" +
                  std::to_string(elements_) + " elements)");
    indices_.push_back(e);
  }
  const auto first = indices_.begin() + static_cast<std::ptrdiff_t>(start);
  if (!std::is_sorted(first, indices_.end())) std::sort(first, indices_.end());
  indices_.erase(std::unique(first, indices_.end()), indices_.end());
  offsets_.push_back(indices_.size());
}

void CoverageBuilder::add_to_rows(std::size_t first, std::size_t end, std::span<const std::uint32_t> elements) {
  std::vector<std::uint32_t> extra(elements.begin(), elements.end());
  for (auto e : extra)
    if (e >= elements_)
      throw Error("coverage: element " + std::to_string(e) + " out of range (" + std::to_string(elements_) +
                  " elements)");
  std::sort(extra.begin(), extra.end());
  extra.erase(std::unique(extra.begin(), extra.end()), extra.end());
  end = std::min(end, tests());
  if (extra.empty() || first >= end) return;
  std::vector<std::uint32_t> indices;
  indices.reserve(indices_.size() + (end - first) * extra.size());
  std::vector<std::uint64_t> offsets{0};
  offsets.reserve(offsets_.size());
  for (std::size_t t = 0; t < tests(); ++t) {
    const auto row_begin = indices_.begin() + static_cast<std::ptrdiff_t>(offsets_[t]);
    const auto row_end = indices_.begin() + static_cast<std::ptrdiff_t>(offsets_[t + 1]);
    if (t >= first && t < end)
      std::set_union(row_begin, row_end, extra.begin(), extra.end(), std::back_inserter(indices));  // rows are sorted
    else
      indices.insert(indices.end(), row_begin, row_end);
    offsets.push_back(indices.size());
  }
  indices_ = std::move(indices);
  offsets_ = std::move(offsets);
}

Coverage CoverageBuilder::finish(std::size_t elements) && {
  for (std::size_t t = 0; t + 1 < offsets_.size(); ++t)  // rows are sorted: check the last
    if (offsets_[t + 1] > offsets_[t] && indices_[offsets_[t + 1] - 1] >= elements)
      throw Error("coverage: test " + std::to_string(t) + " covers element " +
                  std::to_string(indices_[offsets_[t + 1] - 1]) + ", but only " +
                  std::to_string(elements) + " elements exist");
  std::vector<std::uint64_t> offsets;
  std::vector<std::uint32_t> test_ids;
  const std::size_t tests = offsets_.size() - 1;
  transpose(offsets_, indices_, elements, offsets, test_ids);
  offsets_ = {0};
  indices_.clear();
  indices_.shrink_to_fit();
  return Coverage(tests, std::move(offsets), std::move(test_ids), /*validate=*/false).compact();
}

bool dense_is_smaller(std::size_t tests, std::size_t elements, std::size_t nnz) noexcept {
  const double dense_bytes = static_cast<double>(elements) * static_cast<double>((tests + 63) / 64) * 8.0;
  const double sparse_bytes = static_cast<double>(nnz) * 4.0 + static_cast<double>(elements + 1) * 8.0;
  return dense_bytes < sparse_bytes;
}

}  // namespace dlfl
