// Tests for rank(): order, tie positions, deterministic ties, top-k.
#include "dlfl/ranking.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "dlfl/formula.h"
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

// Large rankings take the radix-sort path; it must give exactly the comparison order.
TEST(Ranking, RadixPathMatchesTheComparisonOrder) {
  std::mt19937 rng(9);
  std::uniform_int_distribution<int> level(-20, 20);
  const std::size_t n = 100000;
  Eigen::ArrayXd s(static_cast<Eigen::Index>(n));
  for (auto& x : s) x = level(rng) / 7.0;
  s[3] = kInfiniteScore, s[4] = -kInfiniteScore, s[5] = -0.0, s[6] = 0.0, s[7] = 1e-300, s[8] = -1e-300;
  std::vector<std::uint64_t> keys(n);
  for (auto& k : keys) k = (std::uint64_t{static_cast<std::uint32_t>(rng() % 50)} << 32) | (rng() % 1000);
  std::vector<std::uint32_t> expected(n);
  std::iota(expected.begin(), expected.end(), 0u);
  std::sort(expected.begin(), expected.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (s[a] != s[b]) return s[a] > s[b];
    if (keys[a] != keys[b]) return keys[a] < keys[b];
    return a < b;
  });
  for (const bool with_keys : {true, false}) {
    if (!with_keys) std::sort(expected.begin(), expected.end(), [&](std::uint32_t a, std::uint32_t b) {
        return s[a] != s[b] ? s[a] > s[b] : a < b;
      });
    const auto r = rank(s, with_keys ? std::span<const std::uint64_t>(keys) : std::span<const std::uint64_t>());
    ASSERT_EQ(r.size(), n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(r[i].element, expected[i]) << "position " << i;
    EXPECT_EQ(r[0].element, 3u);
    EXPECT_EQ(r[n - 1].element, 4u);
    // -0.0 and 0.0 tie.
    const auto pos = [&](std::uint32_t e) { return std::find_if(r.begin(), r.end(), [e](const RankedElement& x) { return x.element == e; }); };
    EXPECT_EQ(pos(5)->best, pos(6)->best);
  }
}

}  // namespace
}  // namespace dlfl
