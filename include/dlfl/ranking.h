// Ranking: elements ordered by descending score with tie positions (best, worst,
// average), deterministic inside a tie, optionally only the top k.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <span>
#include <vector>

namespace dlfl {

// How a tie of t elements starting at position p is reported (REFERENCE §2).
enum class TieRule {
  best,     // p
  worst,    // p + t − 1
  average,  // p + (t − 1) / 2
};

struct RankedElement {
  std::uint32_t element = 0;
  double score = 0.0;
  std::uint64_t best = 0;   // 1-based first position of the element's tie
  std::uint64_t worst = 0;  // 1-based last position of the element's tie
  double average() const noexcept { return (static_cast<double>(best) + static_cast<double>(worst)) / 2.0; }
  double position(TieRule rule) const noexcept {
    return rule == TieRule::best ? static_cast<double>(best)
           : rule == TieRule::worst ? static_cast<double>(worst) : average();
  }
};

// Ranks all elements (top = 0) or the `top` first ones. Positions are those of the full
// ranking even when only the top is returned; the last tie is returned whole, so the
// result may be longer than `top`. `tie_keys` (Spectrum::tie_break_keys) orders the
// members of a tie; element ids break remaining ties. Scores must be finite
// (Formula::score guarantees it). Cost: O(n log n), or O(n + k log k) for a small top.
std::vector<RankedElement> rank(const Eigen::ArrayXd& scores,
                                std::span<const std::uint64_t> tie_keys, std::size_t top = 0);

}  // namespace dlfl
