// Coverage::check_offsets / check_rows over ranges of elements (what the validating
// constructor runs over all of them, and dlfl merge piece by piece): the fast path that
// checks a range's ids as one run must accept and refuse exactly what a row-by-row check
// does, with the same message.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "dlfl/coverage.h"
#include "dlfl/error.h"

namespace dlfl {
namespace {

// The row-by-row reference: offsets of the range first, then each row's ids.
std::string reference(std::size_t tests, const std::vector<std::uint64_t>& offsets,
                      const std::vector<std::uint32_t>& ids, std::size_t first, std::size_t last) {
  for (std::size_t e = first; e < last; ++e)
    if (offsets[e + 1] < offsets[e] || offsets[e + 1] > ids.size())
      return "coverage: offsets decrease or pass the id array at element " + std::to_string(e);
  for (std::size_t e = first; e < last; ++e)
    for (std::uint64_t k = offsets[e]; k < offsets[e + 1]; ++k) {
      if (k > offsets[e] && ids[k] <= ids[k - 1])
        return "coverage: tests of element " + std::to_string(e) + " are not sorted and unique";
      if (k + 1 == offsets[e + 1] && ids[k] >= tests)
        return "coverage: element " + std::to_string(e) + " is covered by test " + std::to_string(ids[k]) + " of " +
               std::to_string(tests);
    }
  return "";
}

std::string checked(std::size_t tests, const std::vector<std::uint64_t>& offsets, const std::vector<std::uint32_t>& ids,
                    std::size_t first, std::size_t last) {
  try {
    Coverage::check_rows(tests, offsets, ids, first, last);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(CoverageChecks, RangeChecksAgreeWithARowByRowCheck) {
  std::mt19937 rng(17);
  std::size_t refused = 0;
  for (int round = 0; round < 4000; ++round) {
    const std::size_t tests = 1 + rng() % 20, elements = rng() % 12;
    std::vector<std::uint64_t> offsets{0};
    std::vector<std::uint32_t> ids;
    for (std::size_t e = 0; e < elements; ++e) {
      // Rows often end and start with the same id (allowed across rows), and are often empty.
      const std::uint32_t start = ids.empty() || rng() % 3 ? static_cast<std::uint32_t>(rng() % tests) : ids.back();
      const std::size_t length = rng() % 3 == 0 ? 0 : rng() % 5;
      for (std::uint32_t t = start; t < tests && ids.size() < offsets.back() + length; t += 1 + rng() % 3) ids.push_back(t);
      offsets.push_back(ids.size());
    }
    switch (rng() % 5) {  // one fault, or none
      case 0:
        if (!ids.empty()) ids[rng() % ids.size()] = static_cast<std::uint32_t>(rng() % (tests + 3));
        break;
      case 1:
        if (ids.size() > 1) {
          const std::size_t k = 1 + rng() % (ids.size() - 1);
          ids[k] = ids[k - 1];
        }
        break;
      case 2:
        if (elements > 0) offsets[1 + rng() % elements] = rng() % (ids.size() + 3);
        break;
      default:
        break;
    }
    offsets.back() = ids.size();  // what the constructor checks before the rows
    const std::size_t first = elements ? rng() % (elements + 1) : 0;
    const std::size_t last = first + (elements > first ? rng() % (elements - first + 1) : 0);
    SCOPED_TRACE("round " + std::to_string(round));
    const std::string expected = reference(tests, offsets, ids, first, last);
    EXPECT_EQ(checked(tests, offsets, ids, first, last), expected);
    refused += !expected.empty();
    // The whole matrix: the constructor says the same as the range [0, elements).
    const std::string whole = reference(tests, offsets, ids, 0, elements);
    std::string constructed;
    try {
      Coverage(tests, offsets, ids);
    } catch (const Error& e) {
      constructed = e.what();
    }
    EXPECT_EQ(constructed, whole);
  }
  EXPECT_GT(refused, 200u);  // the faults are found often enough to mean something
  EXPECT_LT(refused, 3500u);
}

}  // namespace
}  // namespace dlfl
