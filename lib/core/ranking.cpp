// Ranking: descending scores, tie positions, deterministic order inside ties, top-k.
#include "dlfl/ranking.h"

#include <algorithm>
#include <numeric>

namespace dlfl {

std::vector<RankedElement> rank(const Eigen::ArrayXd& scores, std::span<const std::uint64_t> tie_keys,
                                std::size_t top) {
  const std::size_t n = static_cast<std::size_t>(scores.size());
  auto score = [&](std::uint32_t e) { return scores[static_cast<Eigen::Index>(e)]; };
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
      out[i] = {order[i], score(order[i]), start + 1, end};
    start = end;
  }
  return out;
}

}  // namespace dlfl
