// Ranking: elements ordered by descending score with tie positions (best, worst,
// average), deterministic inside a tie, optionally only the top k.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "dlfl/tie_order.h"

namespace dlfl {

// How a tie of t elements starting at position p is reported (best, worst or average position; Wong et al., TSE 2016).
enum class TieRule {
  best,     // p
  worst,    // p + t − 1
  average,  // p + (t − 1) / 2
};

// "best", "worst", "average" (exact, lower case); nullopt for any other name.
std::optional<TieRule> parse_tie_rule(std::string_view name) noexcept;
// The name parse_tie_rule reads back.
std::string_view tie_rule_name(TieRule rule) noexcept;

// 24 bytes: a full ranking is as large as the scores and tie keys together, so its size
// counts against the memory target (benchmarks/README.md). Positions fit 32 bits as
// element ids do (rank() refuses 2^32 elements or more).
struct RankedElement {
  std::uint32_t element = 0;
  double score = 0.0;
  std::uint32_t best = 0;   // 1-based first position of the element's tie
  std::uint32_t worst = 0;  // 1-based last position of the element's tie
  double average() const noexcept { return (static_cast<double>(best) + static_cast<double>(worst)) / 2.0; }
  double position(TieRule rule) const noexcept {
    return rule == TieRule::best ? static_cast<double>(best)
           : rule == TieRule::worst ? static_cast<double>(worst) : average();
  }
};
static_assert(sizeof(RankedElement) == 24);

// Ranks all elements (top = 0) or the `top` first ones. Positions are those of the full
// ranking even when only the top is returned; the last tie is returned whole, so the
// result may be longer than `top`. `tie_keys` (Spectrum::tie_break_keys) orders the
// members of a tie (elements past its end have key 0); element ids break remaining
// ties. Scores should not be NaN (Formula::score guarantees it; a NaN gets a position,
// but which is unspecified); -0.0 is reported as 0.0. Throws dlfl::Error for 2^32
// elements or more.
// Cost of a full ranking of n elements: O(n), by a counting sort when the scores take at
// most ~65k distinct values per thread (the usual case: scores are functions of the
// (ef, ep) pairs), else by a radix sort of up to 6 passes; tie keys that ascend within
// files (lines in id order, the way collectors list them) cost one pass over the keys,
// other keys one or two radix passes. `threads` (0 = all hardware threads when n is
// large) share all passes; the result does not depend on it. Memory: the result, plus
// 2 bytes per element (the score classes) and small tables (the sorts run inside the
// result's fields).
// A small top costs O(n + k log k).
std::vector<RankedElement> rank(const Eigen::ArrayXd& scores, std::span<const std::uint64_t> tie_keys,
                                std::size_t top = 0, unsigned threads = 0);
// The same, ties in `order` (Spectrum::tie_order): for the full ranking of a spectrum
// listed file by file, no pass over per-element keys at all.
std::vector<RankedElement> rank(const Eigen::ArrayXd& scores, const TieOrder& order, std::size_t top = 0,
                                unsigned threads = 0);

}  // namespace dlfl
