// Full ranking as a counting sort over the distinct scores ("score classes").
//
// Pass 1: each thread hashes the scores of its share of the elements (in tie order) into
// a small table of distinct values, counting each class's members.
// Merge: the distinct values of all threads, sorted descending, give every class its tie
// (first and last position) and every thread its first slot in each tie. Pass 2: each
// thread looks its elements' classes up again (cheaper than storing them: the table is
// in L1) and writes their records straight into their slots. Visiting elements in
// tie order and filling each tie's slots in that order is what makes ties deterministic.
#include <algorithm>
#include <bit>
#include <cmath>

#include "ranking_paths.h"

namespace dlfl::detail {
namespace {

// Open-addressing hash set of score bit patterns → class id (first-seen order), growing
// by doubling; lookups stay in L1/L2 for the few thousand classes of a typical ranking.
class ScoreClassTable {
 public:
  ScoreClassTable() { resize(1024); }

  // The class of `bits`, added when new; -1 when that would exceed kMaxScoreClasses.
  int add(std::uint64_t bits) {
    for (std::size_t slot = hash(bits);; slot = (slot + 1) & mask_) {
      Slot& s = slots_[slot];
      if (s.class_plus_one == 0) {
        if (values_.size() >= kMaxScoreClasses) return -1;
        s = {bits, static_cast<std::uint32_t>(values_.size() + 1)};
        values_.push_back(bits);
        counts_.push_back(0);
        if (values_.size() * 2 > slots_.size()) resize(slots_.size() * 2);
        return static_cast<int>(values_.size() - 1);
      }
      if (s.bits == bits) return static_cast<int>(s.class_plus_one - 1);
    }
  }
  // The class of `bits`, which must have been added.
  std::uint32_t find(std::uint64_t bits) const noexcept {
    std::size_t slot = hash(bits);
    while (slots_[slot].bits != bits) slot = (slot + 1) & mask_;
    return slots_[slot].class_plus_one - 1;
  }
  std::vector<std::uint64_t>& values() noexcept { return values_; }
  std::vector<std::uint64_t>& counts() noexcept { return counts_; }

 private:
  struct Slot {
    std::uint64_t bits = 0;
    std::uint32_t class_plus_one = 0;  // 0 = empty
  };
  std::size_t hash(std::uint64_t bits) const noexcept {
    return static_cast<std::size_t>((bits * 0x9E3779B97F4A7C15ull) >> shift_);
  }
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
  for_each_share(threads, n, [&](unsigned t, std::size_t begin, std::size_t end) {
    ScoreClassTable& table = tables[t];
    bool full = false;
    order.for_each(out, begin, end, [&](std::size_t, std::uint32_t e) {
      if (full) return;  // this share overflowed: the radix path ranks instead
      // A NaN equals nothing, so no class can hold it: it goes to the radix path too.
      const int c = std::isnan(score[e]) ? -1 : table.add(bits_of(e));
      if (c < 0) full = true;
      else ++table.counts()[static_cast<std::size_t>(c)];
    });
    overflow[t] = full ? 1 : 0;
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
    const ScoreClassTable& table = tables[t];
    const std::uint32_t* tie_index = tie_of[t].data();
    std::uint64_t* slot = next_slot[t].data();
    if (order.lane) {
      order.for_each(out, begin, end, [&](std::size_t, std::uint32_t e) {
        const std::uint32_t c = table.find(bits_of(e));
        RankedElement& r = out[slot[c]++];
        r.element = e;
        r.score = ties[tie_index[c]].score;
      });
    } else {
      order.for_each(out, begin, end, [&](std::size_t, std::uint32_t e) {
        const std::uint32_t c = table.find(bits_of(e));
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
