// Ranking: descending scores, tie positions, deterministic order inside ties, top-k.
#include "dlfl/ranking.h"

#include <algorithm>
#include <array>
#include <bit>
#include <numeric>

namespace dlfl {
namespace {

// Below this size a comparison sort is as fast and simpler to reason about.
constexpr std::size_t kRadixThreshold = std::size_t{1} << 15;

// Order-preserving map of a finite double to an unsigned key, *descending*: a larger
// score gets a smaller key. -0.0 and +0.0 map alike, as they compare equal.
std::uint64_t descending_key(double score) noexcept {
  std::uint64_t u = std::bit_cast<std::uint64_t>(score == 0.0 ? 0.0 : score);
  u = (u >> 63) ? ~u : (u | (std::uint64_t{1} << 63));  // now ascending in the score
  return ~u;
}

// Stable LSD radix sort of (key, id) pairs by key, 8 bits a pass; passes whose byte is
// the same for every key (common: exponents, file ranks) are skipped.
void radix_sort(std::vector<std::uint64_t>& keys, std::vector<std::uint32_t>& ids) {
  const std::size_t n = keys.size();
  std::vector<std::uint64_t> keys_out(n);
  std::vector<std::uint32_t> ids_out(n);
  for (int shift = 0; shift < 64; shift += 8) {
    std::array<std::size_t, 257> count{};
    for (auto k : keys) ++count[((k >> shift) & 0xFF) + 1];
    if (std::any_of(count.begin() + 1, count.end(), [n](std::size_t c) { return c == n; })) continue;
    for (int b = 0; b < 256; ++b) count[b + 1] += count[b];
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t slot = count[(keys[i] >> shift) & 0xFF]++;
      keys_out[slot] = keys[i];
      ids_out[slot] = ids[i];
    }
    keys.swap(keys_out);
    ids.swap(ids_out);
  }
}

// The full order (score descending, tie key ascending, id ascending) by two stable radix
// sorts: first by tie key from id order, then by score.
std::vector<std::uint32_t> radix_order(const Eigen::ArrayXd& scores, std::span<const std::uint64_t> tie_keys) {
  const std::size_t n = static_cast<std::size_t>(scores.size());
  std::vector<std::uint32_t> ids(n);
  std::iota(ids.begin(), ids.end(), 0u);
  std::vector<std::uint64_t> keys(n, 0);
  if (tie_keys.size() >= n) {
    std::copy(tie_keys.begin(), tie_keys.begin() + static_cast<std::ptrdiff_t>(n), keys.begin());
    if (!std::is_sorted(keys.begin(), keys.end())) radix_sort(keys, ids);
  }
  for (std::size_t i = 0; i < n; ++i) keys[i] = descending_key(scores[static_cast<Eigen::Index>(ids[i])]);
  radix_sort(keys, ids);
  return ids;
}

}  // namespace

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

  std::vector<std::uint32_t> order;
  if ((top == 0 || top >= n) && n >= kRadixThreshold) {
    order = radix_order(scores, tie_keys);
  } else {
    order.resize(n);
    std::iota(order.begin(), order.end(), 0u);
  }
  if (top > 0 && top < n) {
    // Select the k-th score in O(n), keep everything scoring at least as much (so the
    // tie that straddles position k comes whole), and sort only those.
    std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top - 1), order.end(), before);
    const double threshold = score(order[top - 1]);
    order.erase(std::remove_if(order.begin(), order.end(),
                               [&](std::uint32_t e) { return score(e) < threshold; }),
                order.end());
  }
  if (order.size() < kRadixThreshold || (top > 0 && top < n)) std::sort(order.begin(), order.end(), before);

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
