// Execution counts that coverage tools print in floating point (gcov's JSON format 2, lcov
// from some tools) as the integer counts of coverage_formats.h.
#pragma once

#include <cstdint>
#include <limits>

namespace dlfl::collect {

// Only count > 0 matters downstream, so counts saturate: 2^64 and beyond (and +inf) give
// the largest count, negative ones (printed after an overflow) and NaN give 0. A plain
// cast of a double past 2^64 would be undefined behaviour (found by fuzzing).
inline std::uint64_t saturated_count(double count) {
  constexpr double kTwoTo64 = 18446744073709551616.0;
  if (!(count > 0)) return 0;
  if (count >= kTwoTo64) return std::numeric_limits<std::uint64_t>::max();
  return static_cast<std::uint64_t>(count);
}

}  // namespace dlfl::collect
