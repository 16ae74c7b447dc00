// Ranking: descending scores, tie positions, deterministic order inside ties, top-k.
#include "dlfl/ranking.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <thread>

#include "dlfl/error.h"
#include "ranking_paths.h"

namespace dlfl {
namespace {

// Below this size a comparison sort is as fast and simpler to reason about; above it,
// the full ranking takes the score-class or radix path (ranking_paths.h).
constexpr std::size_t kLinearPathThreshold = std::size_t{1} << 15;
// Threads only pay for themselves above this many elements.
constexpr std::size_t kParallelThreshold = std::size_t{1} << 18;

void check_size(std::size_t n) {
  if (n > std::size_t{0xFFFFFFFF}) throw Error("rank: " + std::to_string(n) + " elements, at most 2^32 - 1 can be ranked");
}

bool full_path(std::size_t n, std::size_t top) { return (top == 0 || top >= n) && n >= kLinearPathThreshold; }

// The full ranking of the large-input paths, ties in `order` (of `out`'s lanes).
void rank_in_order(const Eigen::ArrayXd& scores, const detail::ElementOrder& order, unsigned threads,
                   std::vector<RankedElement>& out) {
  if (!detail::rank_by_score_class(scores, order, threads, out))
    detail::rank_by_radix(scores, detail::order_lane(order, out, threads), threads, out);
}

unsigned thread_count(unsigned threads, std::size_t n) {
  return threads ? threads : n >= kParallelThreshold ? std::max(1u, std::thread::hardware_concurrency()) : 1;
}

}  // namespace

std::optional<TieRule> parse_tie_rule(std::string_view name) noexcept {
  if (name == "best") return TieRule::best;
  if (name == "worst") return TieRule::worst;
  if (name == "average") return TieRule::average;
  return std::nullopt;
}

std::string_view tie_rule_name(TieRule rule) noexcept {
  switch (rule) {
    case TieRule::best: return "best";
    case TieRule::worst: return "worst";
    case TieRule::average: return "average";
  }
  return "average";
}

std::vector<RankedElement> rank(const Eigen::ArrayXd& scores, const TieOrder& order, std::size_t top,
                                unsigned threads) {
  const std::size_t n = static_cast<std::size_t>(scores.size());
  check_size(n);
  if (!order.has_runs()) return rank(scores, order.keys(), top, threads);
  if (order.run_start().back() != n)
    throw Error("rank: a tie order of " + std::to_string(order.run_start().back()) + " elements for " +
                std::to_string(n) + " scores");
  if (!full_path(n, top)) return rank(scores, order.element_keys(n), top, threads);
  std::vector<RankedElement> out(n);
  detail::ElementOrder runs;
  runs.run_first.assign(order.run_first().begin(), order.run_first().end());
  runs.run_start.assign(order.run_start().begin(), order.run_start().end());
  rank_in_order(scores, runs, thread_count(threads, n), out);
  return out;
}

std::vector<RankedElement> rank(const Eigen::ArrayXd& scores, std::span<const std::uint64_t> tie_keys,
                                std::size_t top, unsigned threads) {
  const std::size_t n = static_cast<std::size_t>(scores.size());
  check_size(n);
  if (full_path(n, top)) {
    threads = thread_count(threads, n);
    std::vector<RankedElement> out(n);
    rank_in_order(scores, detail::tie_order(tie_keys, out, threads), threads, out);
    return out;
  }

  // The simple path: small inputs and top-k; tests/core/ranking_test.cpp checks the fast
  // paths against it and against the same definition written out.
  // A NaN (outside the contract) counts as -inf, so that the comparison stays a strict
  // weak order: std::sort must never see an inconsistent comparator.
  auto score = [&](std::uint32_t e) {
    const double s = scores[static_cast<Eigen::Index>(e)];
    return std::isnan(s) ? -std::numeric_limits<double>::infinity() : detail::canonical_score(s);
  };
  auto key = [&](std::uint32_t e) { return e < tie_keys.size() ? tie_keys[e] : 0; };
  auto before = [&](std::uint32_t a, std::uint32_t b) {
    if (score(a) != score(b)) return score(a) > score(b);
    if (key(a) != key(b)) return key(a) < key(b);
    return a < b;
  };
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  if (top > 0 && top < n) {
    // Select the k-th score in O(n), keep everything scoring at least as much (so the
    // tie that straddles position k comes whole), and sort only those.
    std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top - 1), order.end(), before);
    const double threshold = score(order[top - 1]);
    order.erase(std::remove_if(order.begin(), order.end(),
                               [&](std::uint32_t e) { return score(e) < threshold; }),
                order.end());
  }
  std::sort(order.begin(), order.end(), before);

  // Every element scoring higher than a kept one is kept, so positions inside `order`
  // are positions in the full ranking.
  std::vector<RankedElement> out(order.size());
  for (std::size_t start = 0; start < order.size();) {
    std::size_t end = start + 1;
    while (end < order.size() && score(order[end]) == score(order[start])) ++end;
    for (std::size_t i = start; i < end; ++i)
      out[i] = {order[i], score(order[i]), static_cast<std::uint32_t>(start + 1), static_cast<std::uint32_t>(end)};
    start = end;
  }
  return out;
}

}  // namespace dlfl
