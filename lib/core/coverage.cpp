// Coverage: element-major compressed storage, its test-major copy, and bitsets.
#include "dlfl/coverage.h"

#include <algorithm>
#include <string>

#include "dlfl/error.h"

namespace dlfl {

Coverage::Coverage(std::size_t tests, Column<std::uint64_t> offsets, Column<std::uint32_t> test_ids,
                   bool validate)
    : tests_(tests), offsets_(std::move(offsets)), test_ids_(std::move(test_ids)) {
  if (offsets_.empty() || offsets_[0] != 0 || offsets_[offsets_.size() - 1] != test_ids_.size())
    throw Error("coverage: offsets do not span the test id array");
  if (!validate) return;
  for (std::size_t e = 0; e + 1 < offsets_.size(); ++e) {
    if (offsets_[e + 1] < offsets_[e])
      throw Error("coverage: offsets decrease at element " + std::to_string(e));
    const auto ids = tests_of(e);
    for (std::size_t k = 0; k < ids.size(); ++k) {
      if (ids[k] >= tests)
        throw Error("coverage: element " + std::to_string(e) + " is covered by test " +
                    std::to_string(ids[k]) + " of " + std::to_string(tests));
      if (k > 0 && ids[k] <= ids[k - 1])
        throw Error("coverage: tests of element " + std::to_string(e) + " are not sorted and unique");
    }
  }
}

double Coverage::density() const noexcept {
  const double cells = static_cast<double>(tests_) * static_cast<double>(elements());
  return cells > 0 ? static_cast<double>(nnz()) / cells : 0.0;
}

bool Coverage::covers(std::size_t test, std::uint32_t element) const noexcept {
  const auto ids = tests_of(element);
  return std::binary_search(ids.begin(), ids.end(), static_cast<std::uint32_t>(test));
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
  transpose(coverage.offsets(), coverage.test_ids(), coverage.tests(), offsets_, elements_);
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
  return Coverage(tests, std::move(offsets), std::move(test_ids), /*validate=*/false);
}

DenseCoverage::DenseCoverage(const Coverage& sparse)
    : tests_(sparse.tests()), elements_(sparse.elements()), words_((tests_ + 63) / 64),
      bits_(elements_ * words_, 0) {
  for (std::size_t e = 0; e < elements_; ++e) {
    std::uint64_t* row = bits_.data() + e * words_;
    for (auto t : sparse.tests_of(e)) row[t / 64] |= std::uint64_t{1} << (t % 64);
  }
}

bool dense_is_smaller(std::size_t tests, std::size_t elements, std::size_t nnz) noexcept {
  const double dense_bytes = static_cast<double>(elements) * static_cast<double>((tests + 63) / 64) * 8.0;
  const double sparse_bytes = static_cast<double>(nnz) * 4.0 + static_cast<double>(elements + 1) * 8.0;
  return dense_bytes < sparse_bytes;
}

}  // namespace dlfl
