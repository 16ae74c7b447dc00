// The two full-ranking paths of rank() for large inputs (internal to dlfl_core):
// a counting sort over the distinct scores, and a radix sort for when they are many.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>
#include <span>
#include <thread>
#include <vector>

#include "dlfl/ranking.h"

namespace dlfl::detail {

// At most this many distinct scores (per thread) for rank_by_score_class, so that its
// hash tables stay inside L2; beyond, a radix sort is as fast.
inline constexpr std::size_t kMaxScoreClasses = 65535;

// -0.0 and +0.0 compare equal, so they must share a class and a key.
inline double canonical_score(double s) noexcept { return s == 0.0 ? 0.0 : s; }

// Both paths write into `out`, sized to the element count, and use its u32 fields
// (best, worst) as their only per-element buffers: the memory of a full ranking is its
// result. An element order lives in one of those fields, a Lane; none (nullptr) stands
// for the identity 0, 1, ..., n-1.
using Lane = std::uint32_t RankedElement::*;

// The elements in tie order (ascending tie key, then id), written into a lane of `out`
// and returned; none when that order is the identity (no keys, or keys already
// ascending: the common case of keys in file/line order).
Lane tie_order(std::span<const std::uint64_t> tie_keys, std::vector<RankedElement>& out, unsigned threads);

// Full ranking by one counting-sort pass over the distinct scores, elements visited in
// `order`. SBFL scores are functions of a few thousand (ef, ep) pairs, so this is the
// usual path: two passes over the elements, no comparison sort. Returns false, leaving
// `out` as it was, when some thread meets more than kMaxScoreClasses distinct scores.
bool rank_by_score_class(const Eigen::ArrayXd& scores, Lane order, unsigned threads,
                         std::vector<RankedElement>& out);

// Full ranking by a stable LSD radix sort of order-preserving score keys, elements
// visited in `order`, `threads` sharing every pass.
void rank_by_radix(const Eigen::ArrayXd& scores, Lane order, unsigned threads, std::vector<RankedElement>& out);

// Runs body(thread, begin, end) on `threads` contiguous shares of [0, n), thread 0 on
// the calling thread.
template <class Body>
void for_each_share(unsigned threads, std::size_t n, Body&& body) {
  if (threads <= 1) {
    body(0u, std::size_t{0}, n);
    return;
  }
  std::vector<std::jthread> pool;
  const std::size_t chunk = (n + threads - 1) / threads;
  for (unsigned t = 1; t < threads; ++t) {
    const std::size_t begin = std::min(n, t * chunk), end = std::min(n, begin + chunk);
    pool.emplace_back([&body, t, begin, end] { body(t, begin, end); });
  }
  body(0u, std::size_t{0}, std::min(n, chunk));
}

}  // namespace dlfl::detail
