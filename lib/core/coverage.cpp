// Coverage: CSR and dense bitset forms of the tests × elements matrix.
#include "dlfl/coverage.h"

#include <algorithm>
#include <string>

#include "dlfl/error.h"

namespace dlfl {

Coverage::Coverage(std::size_t elements, Column<std::uint64_t> offsets,
                   Column<std::uint32_t> indices, bool validate)
    : elements_(elements), offsets_(std::move(offsets)), indices_(std::move(indices)) {
  if (offsets_.empty() || offsets_[0] != 0 || offsets_[offsets_.size() - 1] != indices_.size())
    throw Error("coverage: row offsets do not span the index array");
  if (!validate) return;
  for (std::size_t t = 0; t + 1 < offsets_.size(); ++t) {
    if (offsets_[t + 1] < offsets_[t])
      throw Error("coverage: row offsets decrease at test " + std::to_string(t));
    const auto r = row(t);
    for (std::size_t k = 0; k < r.size(); ++k) {
      if (r[k] >= elements)
        throw Error("coverage: test " + std::to_string(t) + " covers element " +
                    std::to_string(r[k]) + " of " + std::to_string(elements));
      if (k > 0 && r[k] <= r[k - 1])
        throw Error("coverage: row of test " + std::to_string(t) + " is not sorted and unique");
    }
  }
}

double Coverage::density() const noexcept {
  const double cells = static_cast<double>(tests()) * static_cast<double>(elements_);
  return cells > 0 ? static_cast<double>(nnz()) / cells : 0.0;
}

bool Coverage::covers(std::size_t test, std::uint32_t element) const noexcept {
  const auto r = row(test);
  return std::binary_search(r.begin(), r.end(), element);
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

Coverage CoverageBuilder::finish() && {
  return Coverage(elements_, std::move(offsets_), std::move(indices_), /*validate=*/false);
}

DenseCoverage::DenseCoverage(const Coverage& sparse)
    : tests_(sparse.tests()), elements_(sparse.elements()), words_((tests_ + 63) / 64),
      bits_(elements_ * words_, 0) {
  for (std::size_t t = 0; t < tests_; ++t) {
    const std::uint64_t bit = std::uint64_t{1} << (t % 64);
    const std::size_t word = t / 64;
    for (auto e : sparse.row(t)) bits_[e * words_ + word] |= bit;
  }
}

bool dense_is_smaller(std::size_t tests, std::size_t elements, std::size_t nnz) noexcept {
  const double dense_bytes = static_cast<double>(elements) * static_cast<double>((tests + 63) / 64) * 8.0;
  const double sparse_bytes = static_cast<double>(nnz) * 4.0 + static_cast<double>(tests + 1) * 8.0;
  return dense_bytes < sparse_bytes;
}

}  // namespace dlfl
