// Tests for TieOrder and Spectrum::tie_order: the same rankings as the per-element keys.
#include "dlfl/tie_order.h"

#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <string>
#include <utility>

#include "dlfl/error.h"
#include "dlfl/ranking.h"
#include "dlfl/spectrum.h"

namespace dlfl {
namespace {

// Element layouts: (file, line) per element id.
enum class Layout { sorted_files, unsorted_files, file_split, lines_back_and_forth, interleaved };
constexpr Layout kLayouts[] = {Layout::sorted_files, Layout::unsorted_files, Layout::file_split,
                               Layout::lines_back_and_forth, Layout::interleaved};

Spectrum spectrum_of(Layout layout, std::size_t n) {
  SpectrumBuilder b;
  for (std::size_t e = 0; e < n; ++e) {
    const std::size_t f = e / 1000, j = e % 1000;
    std::string file;
    std::uint32_t line = static_cast<std::uint32_t>(j + 1);
    switch (layout) {
      case Layout::sorted_files:  // names in id order: the identity
        file = "src/f" + std::to_string(100000 + f) + ".cpp";
        break;
      case Layout::unsorted_files:  // "f10" < "f2": runs
        file = "src/f" + std::to_string(f) + ".cpp";
        break;
      case Layout::file_split:  // each file's first and second halves far apart: runs
        file = "src/f" + std::to_string(e < n / 2 ? e / 500 : (e - n / 2) / 500) + ".cpp";
        line = static_cast<std::uint32_t>(e < n / 2 ? e % 500 + 1 : e % 500 + 500);  // line 500 twice
        break;
      case Layout::lines_back_and_forth:  // functions of one file met out of order: runs
        file = "src/f" + std::to_string(f) + ".cpp";
        line = static_cast<std::uint32_t>(j < 500 ? j + 501 : j - 499);
        break;
      case Layout::interleaved:  // even lines here, odd ones far away: keys
        file = "src/f" + std::to_string(e < n / 2 ? e / 500 : (e - n / 2) / 500) + ".cpp";
        line = static_cast<std::uint32_t>(2 * (e % 500) + (e < n / 2 ? 0 : 1));
        break;
    }
    b.add_element(file, line);
  }
  // No file: the empty name ranks first (but for the sorted layout, kept the identity).
  if (layout != Layout::sorted_files) b.add_extrinsic("device=cuda");
  return std::move(b).finish();
}

Eigen::ArrayXd tied_scores(std::size_t n) {
  std::mt19937 rng(11);
  Eigen::ArrayXd s(static_cast<Eigen::Index>(n));
  for (auto& x : s) x = static_cast<double>(rng() % 7) / 4.0;
  return s;
}

void expect_same(const std::vector<RankedElement>& a, const std::vector<RankedElement>& b, const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].element, b[i].element) << what << ", position " << i;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(a[i].score), std::bit_cast<std::uint64_t>(b[i].score)) << what;
    ASSERT_EQ(a[i].best, b[i].best) << what << ", position " << i;
    ASSERT_EQ(a[i].worst, b[i].worst) << what << ", position " << i;
  }
}

// 300k elements: two threads find the runs, one run crossing their shares.
TEST(TieOrder, RanksAsTheTieBreakKeysDoOnEveryLayout) {
  for (const std::size_t n : {std::size_t{50000}, std::size_t{300500}}) {
    for (const Layout layout : kLayouts) {
      const std::string what = "layout " + std::to_string(static_cast<int>(layout)) + ", " + std::to_string(n);
      const Spectrum s = spectrum_of(layout, n);
      const TieOrder order = s.tie_order();
      EXPECT_EQ(order.has_runs(), layout != Layout::sorted_files && layout != Layout::interleaved) << what;
      EXPECT_EQ(order.keys().empty(), layout != Layout::interleaved) << what;
      const auto keys = s.tie_break_keys();
      const Eigen::ArrayXd scores = tied_scores(s.element_count());
      for (const unsigned threads : {1u, 2u})
        expect_same(rank(scores, order, 0, threads), rank(scores, keys, 0, threads), what + ", full");
      expect_same(rank(scores, order, 25), rank(scores, keys, 25), what + ", top 25");
      // element_keys order the elements as the keys do: by (key, id).
      const auto element_keys = order.element_keys(s.element_count());
      ASSERT_EQ(element_keys.size(), s.element_count());
      std::mt19937 rng(5);
      for (int k = 0; k < 20000; ++k) {
        const std::size_t a = rng() % s.element_count(), b = rng() % s.element_count();
        ASSERT_EQ(std::pair(element_keys[a], a) < std::pair(element_keys[b], b), std::pair(keys[a], a) < std::pair(keys[b], b))
            << what << ", elements " << a << " and " << b;
      }
    }
  }
}

TEST(TieOrder, RunsMustListEveryIdOnce) {
  EXPECT_NO_THROW(TieOrder({3, 0}, {0, 2, 5}));  // ids 3 4, then 0 1 2
  EXPECT_THROW(TieOrder({0, 3}, {0, 2, 5}), Error);     // id 2 missing, 3 4 5 past the end
  EXPECT_THROW(TieOrder({0, 1}, {0, 2, 4}), Error);     // id 1 twice
  EXPECT_THROW(TieOrder({0}, {1, 3}), Error);           // positions must start at 0
  EXPECT_THROW(TieOrder({0, 2}, {0, 2}), Error);        // a start missing
  EXPECT_THROW(TieOrder({0, 2}, {0, 2, 2}), Error);     // an empty run
}

TEST(TieOrder, RankRefusesAnOrderOfAnotherSize) {
  const TieOrder order({2, 0}, {0, 3, 5});
  EXPECT_THROW(rank(tied_scores(6), order), Error);
  const auto top = rank(tied_scores(5), order, 2);
  EXPECT_GE(top.size(), 2u);
}

}  // namespace
}  // namespace dlfl
