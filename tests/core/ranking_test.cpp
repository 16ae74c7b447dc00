// Tests for rank(): order, tie positions, deterministic ties, top-k.
#include "dlfl/ranking.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <numeric>
#include <ostream>
#include <random>
#include <string>

#include "dlfl/formula.h"
#include "ranking_paths.h"
#include "test_spectra.h"

namespace dlfl {
namespace {

Eigen::ArrayXd scores(std::initializer_list<double> v) {
  Eigen::ArrayXd a(static_cast<Eigen::Index>(v.size()));
  Eigen::Index i = 0;
  for (double x : v) a[i++] = x;
  return a;
}

TEST(Ranking, DescendingWithBestWorstAndAveragePositions) {
  //            e0   e1   e2   e3   e4
  const auto r = rank(scores({0.5, 0.9, 0.5, 0.1, 0.5}), {});
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].element, 1u);
  EXPECT_EQ(r[0].best, 1u);
  EXPECT_EQ(r[0].worst, 1u);
  // e0, e2, e4 tie at positions 2..4.
  for (int i = 1; i <= 3; ++i) {
    EXPECT_EQ(r[i].best, 2u);
    EXPECT_EQ(r[i].worst, 4u);
    EXPECT_DOUBLE_EQ(r[i].average(), 3.0);
    EXPECT_DOUBLE_EQ(r[i].position(TieRule::worst), 4.0);
  }
  EXPECT_EQ(r[4].element, 3u);
  EXPECT_EQ(r[4].best, 5u);
}

TEST(Ranking, TiesAreOrderedByTieKeyThenElementId) {
  const std::vector<std::uint64_t> keys = {30, 10, 20, 10};
  const auto r = rank(scores({1, 1, 1, 1}), keys);
  EXPECT_EQ(r[0].element, 1u);
  EXPECT_EQ(r[1].element, 3u);
  EXPECT_EQ(r[2].element, 2u);
  EXPECT_EQ(r[3].element, 0u);
}

TEST(Ranking, AllEqualScoresFormOneTie) {
  const auto r = rank(scores({0, 0, 0}), {});
  for (const auto& x : r) {
    EXPECT_EQ(x.best, 1u);
    EXPECT_EQ(x.worst, 3u);
  }
}

TEST(Ranking, EmptyInput) { EXPECT_TRUE(rank(Eigen::ArrayXd(0), {}).empty()); }

TEST(Ranking, InfiniteScoreRanksFirstAndTies) {
  const auto r = rank(scores({1e300, kInfiniteScore, 5, kInfiniteScore}), {});
  EXPECT_EQ(r[0].element, 1u);
  EXPECT_EQ(r[1].element, 3u);
  EXPECT_EQ(r[1].best, 1u);
  EXPECT_EQ(r[2].element, 0u);
}

TEST(Ranking, TopKReturnsTheFullStraddlingTieWithGlobalPositions) {
  const auto r = rank(scores({0.1, 0.9, 0.5, 0.5, 0.5, 0.2}), {}, 2);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].element, 1u);
  EXPECT_EQ(r[3].best, 2u);
  EXPECT_EQ(r[3].worst, 4u);
}

TEST(Ranking, TopKAgreesWithTheFullRanking) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> level(0, 40);
  Eigen::ArrayXd s(5000);
  for (auto& x : s) x = level(rng) / 40.0;  // many ties
  std::vector<std::uint64_t> keys(5000);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = (i * 7919) % 5000;
  const auto full = rank(s, keys);
  for (std::size_t k : {1u, 3u, 10u, 100u, 4999u, 5000u, 9000u}) {
    const auto top = rank(s, keys, k);
    ASSERT_GE(top.size(), std::min<std::size_t>(k, 5000));
    for (std::size_t i = 0; i < top.size(); ++i) {
      EXPECT_EQ(top[i].element, full[i].element) << "k=" << k << " i=" << i;
      EXPECT_EQ(top[i].best, full[i].best);
      EXPECT_EQ(top[i].worst, full[i].worst);
    }
    if (top.size() < full.size()) {
      EXPECT_LT(full[top.size()].score, top.back().score);
    }
  }
}

}  // namespace
}  // namespace dlfl

namespace dlfl {
namespace {

// The large-input paths (score classes, radix sort, tie order) against the definition:
// a comparison sort by (score descending, tie key ascending, id ascending), -0.0 == 0.0.
std::vector<RankedElement> reference_ranking(const Eigen::ArrayXd& s, std::span<const std::uint64_t> keys) {
  const std::size_t n = static_cast<std::size_t>(s.size());
  auto score = [&](std::uint32_t e) { return s[e] == 0.0 ? 0.0 : s[e]; };
  auto key = [&](std::uint32_t e) { return e < keys.size() ? keys[e] : 0; };
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (score(a) != score(b)) return score(a) > score(b);
    if (key(a) != key(b)) return key(a) < key(b);
    return a < b;
  });
  std::vector<RankedElement> out(n);
  for (std::size_t start = 0, end; start < n; start = end) {
    for (end = start; end < n && score(order[end]) == score(order[start]); ++end) {}
    for (std::size_t i = start; i < end; ++i)
      out[i] = {order[i], score(order[i]), static_cast<std::uint32_t>(start + 1), static_cast<std::uint32_t>(end)};
  }
  return out;
}

void expect_same_ranking(const std::vector<RankedElement>& got, const std::vector<RankedElement>& expected,
                         const std::string& what) {
  ASSERT_EQ(got.size(), expected.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].element, expected[i].element) << what << ", position " << i;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(got[i].score), std::bit_cast<std::uint64_t>(expected[i].score))
        << what << ", position " << i;
    ASSERT_EQ(got[i].best, expected[i].best) << what << ", position " << i;
    ASSERT_EQ(got[i].worst, expected[i].worst) << what << ", position " << i;
  }
}

constexpr std::size_t kLarge = 100000;  // above rank()'s comparison-sort threshold
// Varied scores: enough that every thread's share (of up to 3) overflows the score classes.
constexpr std::size_t kVaried = 250000;

// Scores of SBFL shape: few distinct values (score-class path), with the special values.
Eigen::ArrayXd tied_scores(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> level(-20, 20);
  Eigen::ArrayXd s(static_cast<Eigen::Index>(n));
  for (auto& x : s) x = level(rng) / 7.0;
  s[3] = kInfiniteScore, s[4] = -kInfiniteScore, s[5] = -0.0, s[6] = 0.0, s[7] = 1e-300, s[8] = -1e-300;
  s[9] = kInfiniteScore, s[10] = -0.0;
  return s;
}

// Mostly distinct scores (more than the score classes take: radix path), some ties.
Eigen::ArrayXd varied_scores(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1e3);
  Eigen::ArrayXd s(static_cast<Eigen::Index>(n));
  for (auto& x : s) x = normal(rng);
  for (std::size_t i = 0; i < n; i += 97) s[static_cast<Eigen::Index>(i)] = 0.5;  // a tie spread over all
  s[3] = kInfiniteScore, s[4] = -kInfiniteScore, s[5] = -0.0, s[6] = 0.0, s[7] = 1e-300, s[8] = -1e-300;
  return s;
}

enum class Keys { none, ascending, file_blocks, random, partial, split_files, boundary_tie, interleaved };
std::ostream& operator<<(std::ostream& out, Keys k) {
  const char* names[] = {"none",         "ascending",    "file_blocks", "random", "partial",
                         "split_files", "boundary_tie", "interleaved"};
  return out << names[static_cast<int>(k)];
}

// Tie keys the shapes Spectrum::tie_break_keys gives: (file rank << 32) | line.
std::vector<std::uint64_t> tie_keys(Keys kind, std::size_t n) {
  std::mt19937 rng(3);
  std::vector<std::uint64_t> keys;
  switch (kind) {
    case Keys::none: break;
    case Keys::ascending:
      for (std::size_t e = 0; e < n; ++e) keys.push_back((std::uint64_t{e / 1000} << 32) | (e % 1000 + 1));
      break;
    case Keys::file_blocks: {  // files of 1000 lines in id order, ranked by name ("f10" < "f2")
      std::vector<std::string> names;
      for (std::size_t f = 0; f < (n + 999) / 1000; ++f) names.push_back("f" + std::to_string(f));
      std::vector<std::string> sorted = names;
      std::sort(sorted.begin(), sorted.end());
      for (std::size_t e = 0; e < n; ++e) {
        const auto rank = std::lower_bound(sorted.begin(), sorted.end(), names[e / 1000]) - sorted.begin();
        keys.push_back((static_cast<std::uint64_t>(rank) << 32) | (e % 1000 + 1));
      }
      break;
    }
    case Keys::random:
      for (std::size_t e = 0; e < n; ++e) keys.push_back((std::uint64_t{rng() % 50} << 32) | (rng() % 1000));
      break;
    case Keys::partial:  // only the first elements have keys; the others count as 0
      for (std::size_t e = 0; e < n / 3; ++e) keys.push_back(1 + rng() % 5);
      break;
    // Files of 1000 lines whose elements lie in two id regions (the first and second
    // half of the ids), 500 in each, like functions met out of order; files in reverse
    // name order, so that each file's half is a run of its own. split_files: lines
    // 1-500 in the first region, 500-999 in the second (line 500 twice: the equal key
    // is ordered by id). boundary_tie: the same two halves swapped between the regions,
    // so the line-500 tie needs the second region's element first. interleaved: even
    // lines in one region, odd ones in the other.
    case Keys::split_files:
    case Keys::boundary_tie:
    case Keys::interleaved:
      keys.resize(n);
      for (std::size_t e = 0, files = (n - n / 2 + 499) / 500; e < n; ++e) {
        const bool second = e >= n / 2;
        const std::size_t i = second ? e - n / 2 : e, file = i / 500, j = i % 500;
        std::uint64_t line = kind == Keys::interleaved ? 2 * j + (second ? 1 : 0)
                             : (kind == Keys::split_files) != second ? j + 1
                                                                      : j + 500;
        keys[e] = (std::uint64_t{files - 1 - file} << 32) | line;
      }
      break;
  }
  return keys;
}

class LargeRanking : public ::testing::TestWithParam<std::tuple<bool, Keys, unsigned>> {};

TEST_P(LargeRanking, MatchesTheComparisonOrder) {
  const auto [tied, kind, threads] = GetParam();
  const Eigen::ArrayXd s = tied ? tied_scores(kLarge, 9) : varied_scores(kVaried, 9);
  const auto keys = tie_keys(kind, static_cast<std::size_t>(s.size()));
  expect_same_ranking(rank(s, keys, 0, threads), reference_ranking(s, keys), "full ranking");
}

INSTANTIATE_TEST_SUITE_P(ScoreClassesAndRadix, LargeRanking,
                         ::testing::Combine(::testing::Bool(),
                                            ::testing::Values(Keys::none, Keys::ascending, Keys::file_blocks,
                                                              Keys::random, Keys::partial, Keys::split_files,
                                                              Keys::boundary_tie, Keys::interleaved),
                                            ::testing::Values(1u, 2u, 3u)));

// The cases above really take the paths they are meant to test.
TEST(LargeRanking, TiedScoresTakeTheScoreClassPathAndVariedOnesDoNot) {
  std::vector<RankedElement> out(kLarge);
  EXPECT_TRUE(detail::rank_by_score_class(tied_scores(kLarge, 9), {}, 2, out));
  std::vector<RankedElement> untouched(kVaried);
  EXPECT_FALSE(detail::rank_by_score_class(varied_scores(kVaried, 9), {}, 3, untouched));
  EXPECT_TRUE(std::all_of(untouched.begin(), untouched.end(), [](const RankedElement& r) {
    return r.element == 0 && r.best == 0 && r.score == 0.0;
  }));
}

// Ascending keys need no order; keys ascending within non-overlapping id runs (files)
// give runs of ids; any other keys a lane sorted by radix. All give the (key, id) order.
TEST(LargeRanking, TieOrderIsRunsOfIdsWhenKeysAscendWithinRuns) {
  for (Keys kind : {Keys::none, Keys::ascending, Keys::file_blocks, Keys::random, Keys::partial, Keys::split_files,
                    Keys::boundary_tie, Keys::interleaved}) {
    SCOPED_TRACE(::testing::PrintToString(kind));
    const auto keys = tie_keys(kind, kLarge);
    std::vector<RankedElement> out(kLarge);
    const detail::ElementOrder order = detail::tie_order(keys, out, 2);
    const bool identity = kind == Keys::none || kind == Keys::ascending;
    const bool runs = kind == Keys::file_blocks || kind == Keys::split_files;
    EXPECT_EQ(order.identity(), identity);
    EXPECT_EQ(!order.identity() && !order.lane, runs);
    std::vector<std::uint32_t> ids;
    order.for_each(out, 0, kLarge, [&](std::size_t i, std::uint32_t e) {
      EXPECT_EQ(i, ids.size());
      ids.push_back(e);
    });
    std::vector<std::uint32_t> expected(kLarge);
    std::iota(expected.begin(), expected.end(), 0u);
    auto key = [&](std::uint32_t e) { return e < keys.size() ? keys[e] : 0; };
    std::stable_sort(expected.begin(), expected.end(), [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
    ASSERT_EQ(ids, expected);
    // The same positions visited from any start, as the threads' shares do.
    for (const std::size_t begin : {std::size_t{1}, std::size_t{499}, std::size_t{500}, kLarge / 2 + 7}) {
      std::size_t next = begin;
      order.for_each(out, begin, std::min(kLarge, begin + 1500), [&](std::size_t i, std::uint32_t e) {
        ASSERT_EQ(i, next++);
        ASSERT_EQ(e, expected[i]);
      });
      EXPECT_EQ(next, std::min(kLarge, begin + 1500));
    }
    // The radix path reads the order from a lane.
    const detail::Lane lane = detail::order_lane(order, out, 2);
    EXPECT_EQ(lane == nullptr, identity);
    for (std::size_t i = 0; lane && i < kLarge; ++i) ASSERT_EQ(out[i].*lane, expected[i]) << "position " << i;
  }
}

// Each thread's share may stay under the class limit while all of them together do not
// (two shares of 60000 distinct scores), or one share may overflow alone (radix path).
TEST(LargeRanking, ClassLimitPerThreadShare) {
  auto distinct_scores = [](std::size_t n) {
    Eigen::ArrayXd s(static_cast<Eigen::Index>(n));
    for (std::size_t i = 0; i < n; ++i) s[static_cast<Eigen::Index>(i)] = static_cast<double>((i * 7919) % n);
    return s;
  };
  const Eigen::ArrayXd distinct = distinct_scores(120000);
  Eigen::ArrayXd half_varied = distinct_scores(140000);
  for (Eigen::Index i = 0; i < 70000; ++i) half_varied[i] = static_cast<double>(i % 4);
  for (const Eigen::ArrayXd* s : {&distinct, static_cast<const Eigen::ArrayXd*>(&half_varied)}) {
    const auto keys = tie_keys(Keys::file_blocks, static_cast<std::size_t>(s->size()));
    for (unsigned threads : {1u, 2u})
      expect_same_ranking(rank(*s, keys, 0, threads), reference_ranking(*s, keys),
                          std::to_string(s->size()) + " elements, " + std::to_string(threads) + " threads");
  }
  std::vector<RankedElement> out(distinct.size());
  EXPECT_TRUE(detail::rank_by_score_class(distinct, {}, 2, out));
  EXPECT_FALSE(detail::rank_by_score_class(distinct, {}, 1, out));
  out.resize(half_varied.size());
  EXPECT_FALSE(detail::rank_by_score_class(half_varied, {}, 2, out));
}

// NaN is outside rank()'s contract, but must not hang or lose elements on any path.
TEST(LargeRanking, NaNScoresStillGiveEveryElementAPosition) {
  for (const std::size_t n : {std::size_t{100}, kLarge}) {
    Eigen::ArrayXd s = tied_scores(n, 5);
    s[20] = s[30] = std::numeric_limits<double>::quiet_NaN();
    const auto r = rank(s, {});
    ASSERT_EQ(r.size(), n);
    std::vector<bool> seen(n, false);
    for (const auto& x : r) seen[x.element] = true;
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](bool b) { return b; }));
  }
}

// The simple (top-k) path against the fast full ranking, on the same large input.
TEST(LargeRanking, TopKOfALargeInputAgreesWithTheFullRanking) {
  const Eigen::ArrayXd s = tied_scores(kLarge, 4);
  const auto keys = tie_keys(Keys::file_blocks, kLarge);
  const auto full = rank(s, keys, 0, 2);
  for (const std::size_t k : {std::size_t{10}, kLarge - 1}) {  // k = n - 1: the simple path sorts all
    const auto top = rank(s, keys, k);
    ASSERT_GE(top.size(), k);
    for (std::size_t i = 0; i < top.size(); ++i) {
      ASSERT_EQ(top[i].element, full[i].element) << "k " << k << ", position " << i;
      ASSERT_EQ(top[i].score, full[i].score);
      ASSERT_EQ(top[i].best, full[i].best);
      ASSERT_EQ(top[i].worst, full[i].worst);
    }
  }
}

}  // namespace
}  // namespace dlfl
