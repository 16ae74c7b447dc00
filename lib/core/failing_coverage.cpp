// FailingCoverage: validation and extraction from the element-major matrix.
#include "dlfl/failing_coverage.h"

#include <string>

#include "dlfl/error.h"

namespace dlfl {

FailingCoverage::FailingCoverage(std::size_t test_count, std::size_t element_count, Column<std::uint32_t> tests,
                                 Column<std::uint64_t> offsets, Column<std::uint32_t> elements)
    : tests_(std::move(tests)), offsets_(std::move(offsets)), elements_(std::move(elements)) {
  if (offsets_.size() != tests_.size() + 1 || offsets_[0] != 0 || offsets_[offsets_.size() - 1] != elements_.size())
    throw Error("failing coverage: offsets do not span the element array");
  for (std::size_t i = 0; i < tests_.size(); ++i) {
    if (tests_[i] >= test_count || (i > 0 && tests_[i] <= tests_[i - 1]))
      throw Error("failing coverage: test " + std::to_string(tests_[i]) + " is out of range or out of order");
    if (offsets_[i + 1] < offsets_[i]) throw Error("failing coverage: offsets decrease at row " + std::to_string(i));
    const auto r = row(i);
    for (std::size_t k = 0; k < r.size(); ++k)
      if (r[k] >= element_count || (k > 0 && r[k] <= r[k - 1]))
        throw Error("failing coverage: row of test " + std::to_string(tests_[i]) +
                    " holds an element out of range or out of order");
  }
}

FailingCoverage FailingCoverage::of(const Coverage& coverage, std::span<const std::uint32_t> failing_tests) {
  constexpr std::uint32_t kNone = UINT32_MAX;
  std::vector<std::uint32_t> row_of(coverage.tests(), kNone);
  for (std::size_t i = 0; i < failing_tests.size(); ++i) row_of[failing_tests[i]] = static_cast<std::uint32_t>(i);
  // Visits (test, element) pairs; tolerates a matrix built without validation (offsets
  // out of order, ids past the tests): such pairs are skipped here and the reader refuses
  // the file for them anyway.
  auto for_each_pair = [&](auto&& visit) {
    const auto offsets = coverage.offsets();
    const auto ids = coverage.test_ids();
    for (std::size_t e = 0; e < coverage.elements(); ++e) {
      if (coverage.is_dense()) {
        for (const auto t : coverage.tests_of(e))
          if (t < row_of.size()) visit(t, e);
        continue;
      }
      if (offsets[e + 1] < offsets[e] || offsets[e + 1] > ids.size()) continue;
      for (std::uint64_t k = offsets[e]; k < offsets[e + 1]; ++k)
        if (ids[k] < row_of.size()) visit(ids[k], e);
    }
  };
  // Two passes (count, fill) so that only the failing rows are ever held.
  std::vector<std::uint64_t> offsets(failing_tests.size() + 1, 0);
  for_each_pair([&](std::uint32_t t, std::size_t) {
    if (row_of[t] != kNone) ++offsets[row_of[t] + 1];
  });
  for (std::size_t i = 0; i < failing_tests.size(); ++i) offsets[i + 1] += offsets[i];
  std::vector<std::uint32_t> elements(offsets.back());
  std::vector<std::uint64_t> next(offsets.begin(), offsets.end() - 1);
  for_each_pair([&](std::uint32_t t, std::size_t e) {
    if (row_of[t] != kNone) elements[next[row_of[t]]++] = static_cast<std::uint32_t>(e);
  });
  FailingCoverage f;
  f.tests_ = std::vector<std::uint32_t>(failing_tests.begin(), failing_tests.end());
  f.offsets_ = std::move(offsets);
  f.elements_ = std::move(elements);
  return f;
}

}  // namespace dlfl
