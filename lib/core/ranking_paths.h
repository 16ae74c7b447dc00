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

// -0.0 and +0.0 compare equal, so they must share a class and a key. Adding +0.0 maps
// -0.0 to +0.0 and leaves every other value (NaN too) as it is (IEEE 754, round to
// nearest), without the branch of `s == 0.0 ? 0.0 : s`, which mispredicts on the zero
// scores that are a third of a typical ranking. (The build never uses -ffast-math.)
inline double canonical_score(double s) noexcept { return s + 0.0; }

// Both paths write into `out`, sized to the element count, and use its u32 fields
// (best, worst) as their per-element buffers (the score-class path adds 2 bytes per
// element): the memory of a full ranking is about its result. An element order that is
// not runs of ids lives in one of those fields, a Lane.
using Lane = std::uint32_t RankedElement::*;

// The elements in some order (the tie order): runs of consecutive ids one after another,
// or, for any other order, a lane of `out` holding position i's id at out[i]. Runs are
// the common case: tie keys are (file rank, line), and a file's lines ascend with the
// ids, so the tie order is the files' id ranges sorted by name, with no per-element
// buffer and no sort of the elements. No lane and no runs is the identity 0, 1, ..., n-1.
struct ElementOrder {
  Lane lane = nullptr;
  std::vector<std::uint32_t> run_first;  // per run: its first id
  std::vector<std::size_t> run_start;    // per run: its first position; then n

  bool identity() const noexcept { return !lane && (run_first.empty() || (run_first.size() == 1 && run_first[0] == 0)); }

  // Calls run(position, element, count) for the positions [begin, end), in order, split
  // into runs of consecutive ids (of one element each for a lane); stops early when run
  // returns false, and then returns false.
  template <class Run>
  bool for_each_run(const std::vector<RankedElement>& out, std::size_t begin, std::size_t end, Run&& run) const {
    if (lane) {
      for (std::size_t i = begin; i < end; ++i)
        if (!run(i, out[i].*lane, std::size_t{1})) return false;
      return true;
    }
    if (run_first.empty()) return begin >= end || run(begin, static_cast<std::uint32_t>(begin), end - begin);
    std::size_t r = static_cast<std::size_t>(std::upper_bound(run_start.begin(), run_start.end(), begin) -
                                             run_start.begin()) - 1;
    for (std::size_t i = begin; i < end; ++r) {
      const std::size_t run_end = std::min(end, run_start[r + 1]);
      if (!run(i, run_first[r] + static_cast<std::uint32_t>(i - run_start[r]), run_end - i)) return false;
      i = run_end;
    }
    return true;
  }

  // Calls visit(position, element) for the positions [begin, end), in order.
  template <class Visit>
  void for_each(const std::vector<RankedElement>& out, std::size_t begin, std::size_t end, Visit&& visit) const {
    for_each_run(out, begin, end, [&visit](std::size_t i, std::uint32_t e, std::size_t count) {
      for (const std::size_t end = i + count; i < end; ++i, ++e) visit(i, e);
      return true;
    });
  }
};

// The elements in tie order (ascending tie key, then id): runs when the keys ascend
// within a modest number of id runs that do not interleave, else a lane of `out` sorted
// by radix.
ElementOrder tie_order(std::span<const std::uint64_t> tie_keys, std::vector<RankedElement>& out, unsigned threads);

// Runs shorter than this on average are not worth it: the radix sort handles them.
inline constexpr std::size_t kMinAverageRun = 64;

// A run of consecutive ids [first, end) whose keys ascend from first_key to last_key.
struct TieRun {
  std::uint64_t first_key, last_key;
  std::uint32_t first, end;
};

// Sorts `runs` (which tile the ids 0..n-1) into tie order and sets `order` to them; false
// when two runs overlap in key, so that no order of whole runs is the tie order.
bool order_runs(std::vector<TieRun>& runs, ElementOrder& order);

// The runs half of tie_order: sets `order` and returns true when the keys of the n
// elements ascend within at most n / kMinAverageRun id runs (a run also ends where the
// key's high half, the file, changes) that, sorted, do not overlap in key.
bool tie_runs(std::span<const std::uint64_t> tie_keys, std::size_t n, ElementOrder& order);

// Writes `order` into the lane `best` of `out` (none for the identity) for the radix path.
Lane order_lane(const ElementOrder& order, std::vector<RankedElement>& out, unsigned threads);

// Full ranking by one counting-sort pass over the distinct scores, elements visited in
// `order`. SBFL scores are functions of a few thousand (ef, ep) pairs, so this is the
// usual path: two passes over the elements (three when the order is a lane), no
// comparison sort. Returns false, leaving `out` as it was (but for `order`'s lane), when
// some thread meets more than kMaxScoreClasses distinct scores.
bool rank_by_score_class(const Eigen::ArrayXd& scores, const ElementOrder& order, unsigned threads,
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
