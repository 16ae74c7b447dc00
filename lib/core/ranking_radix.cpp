// Full ranking by radix sort, for scores too varied for score classes, and the tie order.
// Both sort element ids inside the result records, reading each id's key where it lives
// (score array, tie keys): no buffers besides the result, at the price of a gather per
// id and pass.
#include <array>
#include <bit>

#include "ranking_paths.h"

namespace dlfl::detail {
namespace {

constexpr int kDigitBits = 11;  // at most 6 passes for 64-bit keys; 2048 counters stay in L1
constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;

// Order-preserving map of a non-NaN double to an unsigned key, *descending*: a larger
// score gets a smaller key; -0.0 and +0.0 map alike.
std::uint64_t descending_key(double score) noexcept {
  std::uint64_t u = std::bit_cast<std::uint64_t>(canonical_score(score));
  u = (u >> 63) ? ~u : (u | (std::uint64_t{1} << 63));  // now ascending in the score
  return ~u;
}

// The other u32 field of a record, the scatter buffer of a radix pass.
Lane other_lane(Lane lane) { return lane == &RankedElement::best ? &RankedElement::worst : &RankedElement::best; }

// Stable LSD radix sort of element ids by ascending key(id). The ids live in a u32 field
// of the result records themselves (`lane`; none = the identity, ids 0..n-1), with the
// other one as the scatter buffer, so sorting needs no memory besides the result.
// Returns the lane holding the sorted ids (none when the input was the identity and no
// pass was needed). Each pass sorts by the kDigitBits bits from the lowest varying bit
// not yet sorted: bits that never vary need no pass (tie keys, a file rank and a line of
// ~10 bits each, take two passes, not six, or one, see below).
template <class Key>
Lane radix_sort_lane(std::vector<RankedElement>& records, Lane lane, Key key, unsigned threads) {
  const std::size_t n = records.size();
  if (n < 2) return lane;
  // Before the first pass an identity input is read from nowhere: no pass over records.
  auto id_at = [&records](Lane from, std::size_t i) { return from ? records[i].*from : static_cast<std::uint32_t>(i); };
  const std::uint64_t first = key(id_at(lane, 0));
  std::uint64_t varying = 0;
  for (std::size_t i = 0; i < n; ++i) varying |= key(id_at(lane, i)) ^ first;
  std::vector<int> shifts;  // the passes' digits, least significant first
  for (int shift = std::countr_zero(varying); shift < 64;) {
    shifts.push_back(shift);
    const int following = shift + kDigitBits;
    shift = following < 64 && (varying >> following) ? following + std::countr_zero(varying >> following) : 64;
  }
  // When the keys are already ascending within each group of equal top digit (tie keys:
  // lines ascending within each file), one stable pass by the top digit sorts them all.
  if (shifts.size() > 1) {
    std::vector<std::uint64_t> last(kBuckets, 0);
    bool grouped_ascending = true;
    for (std::size_t i = 0; i < n && grouped_ascending; ++i) {
      const std::uint64_t k = key(id_at(lane, i));
      std::uint64_t& previous = last[(k >> shifts.back()) & (kBuckets - 1)];
      grouped_ascending = previous <= k;
      previous = k;
    }
    if (grouped_ascending) shifts.erase(shifts.begin(), shifts.end() - 1);
  }
  std::vector<std::array<std::size_t, kBuckets>> slots(threads);
  for (const int shift : shifts) {
    auto digit = [&key, shift](std::uint32_t id) {
      return static_cast<std::size_t>((key(id) >> shift) & (kBuckets - 1));
    };
    for_each_share(threads, n, [&](unsigned t, std::size_t begin, std::size_t end) {
      slots[t].fill(0);
      for (std::size_t i = begin; i < end; ++i) ++slots[t][digit(id_at(lane, i))];
    });
    // Thread t's first slot for digit d follows all smaller digits and the earlier
    // threads' ids with digit d: that keeps the sort stable.
    std::size_t next = 0;
    for (std::size_t d = 0; d < kBuckets; ++d)
      for (unsigned t = 0; t < threads; ++t) {
        const std::size_t count = slots[t][d];
        slots[t][d] = next;
        next += count;
      }
    const Lane spare = other_lane(lane);
    for_each_share(threads, n, [&](unsigned t, std::size_t begin, std::size_t end) {
      auto& slot = slots[t];
      for (std::size_t i = begin; i < end; ++i) {
        const std::uint32_t id = id_at(lane, i);
        records[slot[digit(id)]++].*spare = id;
      }
    });
    lane = spare;
  }
  return lane;
}

}  // namespace

ElementOrder tie_order(std::span<const std::uint64_t> tie_keys, std::vector<RankedElement>& out, unsigned threads) {
  ElementOrder order;
  if (tie_runs(tie_keys, out.size(), order)) return order;
  // Elements past the end of tie_keys have key 0, as in rank()'s comparison path.
  auto key = [&](std::uint32_t e) { return e < tie_keys.size() ? tie_keys[e] : 0; };
  order.lane = radix_sort_lane(out, nullptr, key, std::max(1u, threads));
  return order;
}

Lane order_lane(const ElementOrder& order, std::vector<RankedElement>& out, unsigned threads) {
  if (order.lane || order.identity()) return order.lane;
  for_each_share(std::max(1u, threads), out.size(), [&](unsigned, std::size_t begin, std::size_t end) {
    order.for_each(out, begin, end, [&out](std::size_t i, std::uint32_t e) { out[i].best = e; });
  });
  return &RankedElement::best;
}

void rank_by_radix(const Eigen::ArrayXd& scores, Lane order, unsigned threads, std::vector<RankedElement>& out) {
  const std::size_t n = out.size();
  const double* score = scores.data();
  const Lane sorted = radix_sort_lane(out, order, [score](std::uint32_t e) { return descending_key(score[e]); },
                                      std::max(1u, threads));
  auto id_at = [&](std::size_t i) { return sorted ? out[i].*sorted : static_cast<std::uint32_t>(i); };
  // Position i's id is read (from its own record) before that record is overwritten.
  for (std::size_t start = 0; start < n;) {
    const double s = canonical_score(score[id_at(start)]);
    std::size_t end = start;
    do {  // at least one element per tie, even for a NaN (which equals nothing)
      out[end].element = id_at(end);
      out[end].score = s;
      ++end;
    } while (end < n && canonical_score(score[id_at(end)]) == s);
    for (std::size_t i = start; i < end; ++i) {
      out[i].best = static_cast<std::uint32_t>(start + 1);
      out[i].worst = static_cast<std::uint32_t>(end);
    }
    start = end;
  }
}

}  // namespace dlfl::detail
