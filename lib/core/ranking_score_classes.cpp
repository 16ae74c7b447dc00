// Full ranking as a counting sort over the distinct scores ("score classes").
//
// Pass 1: each thread hashes the scores of its share of the elements (in tie order) into
// a small table of distinct values, noting each position's class (2 bytes) and counting
// each class's members.
// Merge: the distinct values of all threads, sorted descending, give every class its tie
// (first and last position) and every thread its first slot in each tie. Pass 2: each
// thread reads its positions' classes back and writes their records straight into their
// slots. Visiting elements in tie order and filling each tie's slots in that order is
// what makes ties deterministic.
#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>

#include "ranking_paths.h"

namespace dlfl::detail {
namespace {

// Open-addressing hash set of score bit patterns → class id (first-seen order), growing
// by doubling; lookups stay in L1/L2 for the few thousand classes of a typical ranking.
class ScoreClassTable {
  struct Slot {
    std::uint64_t bits = 0;
    std::uint32_t class_plus_one = 0;  // 0 = empty
  };

 public:
  ScoreClassTable() { resize(1024); }

  // The class of `bits`, added when new; -1 when that would exceed kMaxScoreClasses.
  int add(std::uint64_t bits) {
    for (std::size_t slot = hash(bits);; slot = (slot + 1) & mask_) {
      Slot& s = slots_[slot];
      // The usual case first: the score's class, found in its first slot.
      if (s.bits == bits && s.class_plus_one != 0) return static_cast<int>(s.class_plus_one - 1);
      if (s.class_plus_one == 0) {
        if (values_.size() >= kMaxScoreClasses) return -1;
        s = {bits, static_cast<std::uint32_t>(values_.size() + 1)};
        values_.push_back(bits);
        counts_.push_back(0);
        if (values_.size() * 4 > slots_.size()) resize(slots_.size() * 2);
        return static_cast<int>(values_.size() - 1);
      }
    }
  }
  // The first slot's answer alone, for the lookup loop: a plain copy of what a lookup
  // needs (no loads through the table), valid until the next add().
  class FirstSlot {
   public:
    explicit FirstSlot(const ScoreClassTable& t) : slots_(t.slots_.data()), shift_(t.shift_) {}
    // The class of `bits` when its first slot holds it, else -1 (ask add()).
    int find(std::uint64_t bits) const noexcept {
      const Slot& s = slots_[hash(bits, shift_)];
      return s.bits == bits && s.class_plus_one != 0 ? static_cast<int>(s.class_plus_one - 1) : -1;
    }

   private:
    const Slot* slots_;
    int shift_;
  };
  std::vector<std::uint64_t>& values() noexcept { return values_; }
  std::vector<std::uint64_t>& counts() noexcept { return counts_; }

 private:
  static std::size_t hash(std::uint64_t bits, int shift) noexcept {
    return static_cast<std::size_t>((bits * 0x9E3779B97F4A7C15ull) >> shift);
  }
  std::size_t hash(std::uint64_t bits) const noexcept { return hash(bits, shift_); }
  void resize(std::size_t capacity) {
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    shift_ = 64 - std::countr_zero(capacity);
    for (std::size_t c = 0; c < values_.size(); ++c) {
      std::size_t slot = hash(values_[c]);
      while (slots_[slot].class_plus_one != 0) slot = (slot + 1) & mask_;
      slots_[slot] = {values_[c], static_cast<std::uint32_t>(c + 1)};
    }
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  int shift_ = 0;
  std::vector<std::uint64_t> values_;  // per class: the score's bits
  std::vector<std::uint64_t> counts_;  // per class: elements in this thread's share
};

}  // namespace

bool rank_by_score_class(const Eigen::ArrayXd& scores, const ElementOrder& order, unsigned threads,
                         std::vector<RankedElement>& out) {
  const std::size_t n = out.size();
  const double* score = scores.data();
  threads = std::max(1u, threads);

  auto bits_of = [&](std::uint32_t e) { return std::bit_cast<std::uint64_t>(canonical_score(score[e])); };
  std::vector<ScoreClassTable> tables(threads);
  std::vector<char> overflow(threads, 0);
  // Each position's class (in its thread's table), found once: pass 2 reads it back
  // instead of hashing again. Not zeroed: pass 1 writes every position.
  const std::unique_ptr<std::uint16_t[]> class_at(new std::uint16_t[n]);
  static_assert(kMaxScoreClasses <= 0xFFFF);
  for_each_share(threads, n, [&](unsigned t, std::size_t begin, std::size_t end) {
    ScoreClassTable& table = tables[t];
    const bool classified = order.for_each_run(out, begin, end, [&](std::size_t i, std::uint32_t e, std::size_t count) {
      ScoreClassTable::FirstSlot first_slot(table);
      for (const std::size_t run_end = i + count; i < run_end; ++i, ++e) {
        const std::uint64_t bits = bits_of(e);
        int c = first_slot.find(bits);
        if (c < 0) {
          // A NaN equals nothing, so no class can hold it: it goes to the radix path too.
          c = std::isnan(score[e]) ? -1 : table.add(bits);
          if (c < 0) return false;  // the radix path ranks instead
          first_slot = ScoreClassTable::FirstSlot(table);
        }
        class_at[i] = static_cast<std::uint16_t>(c);
      }
      return true;
    });
    overflow[t] = classified ? 0 : 1;
    if (!classified) return;
    // Four histograms, summed: consecutive equal classes would otherwise wait on each
    // other's increment.
    const std::size_t classes = table.values().size();
    std::vector<std::uint32_t> counts(4 * classes, 0);
    std::size_t i = begin;
    for (; i + 4 <= end; i += 4) {
      ++counts[class_at[i]];
      ++counts[classes + class_at[i + 1]];
      ++counts[2 * classes + class_at[i + 2]];
      ++counts[3 * classes + class_at[i + 3]];
    }
    for (; i < end; ++i) ++counts[class_at[i]];
    for (std::size_t c = 0; c < classes; ++c)
      table.counts()[c] = std::uint64_t{counts[c]} + counts[classes + c] + counts[2 * classes + c] + counts[3 * classes + c];
  });
  if (std::find(overflow.begin(), overflow.end(), 1) != overflow.end()) return false;

  // Merge: every (thread, local class) sorted by descending score; equal scores are one
  // global class, i.e. one tie. A thread's first slot in a tie follows the earlier
  // threads' members of that tie.
  struct Member {
    double score;
    unsigned thread;
    std::uint32_t local;
  };
  std::vector<Member> members;
  for (unsigned t = 0; t < threads; ++t)
    for (std::size_t c = 0; c < tables[t].values().size(); ++c)
      members.push_back({std::bit_cast<double>(tables[t].values()[c]), t, static_cast<std::uint32_t>(c)});
  std::sort(members.begin(), members.end(), [](const Member& a, const Member& b) {
    return a.score != b.score ? a.score > b.score : a.thread < b.thread;
  });
  struct Tie {
    double score;
    std::uint32_t best, worst;
  };
  std::vector<Tie> ties;
  std::vector<std::vector<std::uint32_t>> tie_of(threads);     // per thread: local class → tie
  std::vector<std::vector<std::uint64_t>> next_slot(threads);  // per thread: local class → slot
  for (unsigned t = 0; t < threads; ++t) {
    tie_of[t].resize(tables[t].values().size());
    next_slot[t].resize(tables[t].values().size());
  }
  std::uint64_t position = 0;
  for (std::size_t m = 0; m < members.size();) {
    std::size_t m_end = m;
    std::uint64_t size = 0;
    for (; m_end < members.size() && members[m_end].score == members[m].score; ++m_end) {
      const Member& x = members[m_end];
      tie_of[x.thread][x.local] = static_cast<std::uint32_t>(ties.size());
      next_slot[x.thread][x.local] = position + size;
      size += tables[x.thread].counts()[x.local];
    }
    ties.push_back({members[m].score, static_cast<std::uint32_t>(position + 1),
                    static_cast<std::uint32_t>(position + size)});
    position += size;
    m = m_end;
  }
  // Pass 2: records written straight into their slots. With a lane, only element and
  // score: the lane (best or worst) is still read for later positions, and pass 3 fills
  // the positions; without one, whole records.
  for_each_share(threads, n, [&](unsigned t, std::size_t begin, std::size_t end) {
    const std::uint32_t* tie_index = tie_of[t].data();
    std::uint64_t* slot = next_slot[t].data();
    if (order.lane) {
      order.for_each(out, begin, end, [&](std::size_t i, std::uint32_t e) {
        const std::uint32_t c = class_at[i];
        RankedElement& r = out[slot[c]++];
        r.element = e;
        r.score = ties[tie_index[c]].score;
      });
    } else {
      order.for_each(out, begin, end, [&](std::size_t i, std::uint32_t e) {
        const std::uint32_t c = class_at[i];
        const Tie& tie = ties[tie_index[c]];
        out[slot[c]++] = {e, tie.score, tie.best, tie.worst};
      });
    }
  });
  if (!order.lane) return true;
  for_each_share(threads, n, [&](unsigned, std::size_t begin, std::size_t end) {
    auto tie = std::lower_bound(ties.begin(), ties.end(), begin + 1,
                                [](const Tie& t, std::size_t position) { return t.worst < position; });
    for (std::size_t p = begin; p < end; ++p) {
      if (p + 1 > tie->worst) ++tie;  // ties are never empty
      out[p].best = tie->best;
      out[p].worst = tie->worst;
    }
  });
  return true;
}

}  // namespace dlfl::detail
