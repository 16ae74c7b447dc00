// Tests for FLITSR (Callaghan and Fischer, ISSTA 2023) on hand-computed spectra.
#include "dlfl/multi_fault.h"

#include <gtest/gtest.h>

#include "dlfl/counts.h"
#include "dlfl/ranking.h"

namespace dlfl {
namespace {

// Two faults: x (line 1) fails t1..t3; y (line 2) fails t4 only. Line 3 runs with every
// failing test and one passing test, so plain Ochiai ranks it above y.
//   ef/ep: x 3/0, y 1/0, z 4/1, w 0/2
// Ochiai: x = 3/sqrt(4*3) = .866, y = 1/sqrt(4*1) = .5, z = 4/sqrt(4*5) = .894, w = 0.
Spectrum two_faults() {
  SpectrumBuilder b;
  b.add_element("a.cpp", 1, 1, "x");
  b.add_element("a.cpp", 2, 2, "y");
  b.add_element("a.cpp", 3, 3, "z");
  b.add_element("a.cpp", 4, 4, "w");
  b.add_test(TestCase::fail("t1"), {0, 2});
  b.add_test(TestCase::fail("t2"), {0, 2});
  b.add_test(TestCase::fail("t3"), {0, 2});
  b.add_test(TestCase::fail("t4"), {1, 2});
  b.add_test(TestCase::pass("p1"), {2, 3});
  b.add_test(TestCase::pass("p2"), {3});
  return std::move(b).finish();
}

TEST(Flitsr, AnElementEveryFailingTestRunsExplainsThemAll) {
  const Spectrum s = two_faults();
  const Formula ochiai = make_formula("ochiai");
  const Eigen::ArrayXd plain = ochiai.score(compute_counts(s));
  ASSERT_GT(plain[2], plain[0]);  // z first, y third under plain Ochiai
  ASSERT_GT(plain[0], plain[1]);

  const MultiFaultRanking r = flitsr(s, ochiai, s.tie_break_keys());
  // Round 1: z (.894) explains t1..t4, so the suite has no failing test left: basis {z}.
  // FLITSR's basis is only as good as its formula's first pick; this checks the rule.
  ASSERT_EQ(r.basis, (std::vector<std::uint32_t>{2}));
}

TEST(Flitsr, SecondFaultSurfacesOnceTheFirstIsExplained) {
  // x fails t1,t2; y fails t3 and is also run by p1; line 3 runs with t1,t2 and p1,p2.
  // Round 1 (ochiai): x = 2/sqrt(3*2) = .816, y = 1/sqrt(3*2) = .408, z = 2/sqrt(3*4) = .577
  //   -> x; t1, t2 leave. Round 2 (F = 1): y = 1/sqrt(1*2) = .707, z = 0 -> y; done.
  SpectrumBuilder b;
  b.add_element("a.cpp", 1, 1, "x");
  b.add_element("a.cpp", 2, 2, "y");
  b.add_element("a.cpp", 3, 3, "z");
  b.add_test(TestCase::fail("t1"), {0, 2});
  b.add_test(TestCase::fail("t2"), {0, 2});
  b.add_test(TestCase::fail("t3"), {1});
  b.add_test(TestCase::pass("p1"), {1, 2});
  b.add_test(TestCase::pass("p2"), {2});
  const Spectrum s = std::move(b).finish();
  const MultiFaultRanking r = flitsr(s, make_formula("ochiai"), s.tie_break_keys());
  EXPECT_EQ(r.basis, (std::vector<std::uint32_t>{0, 1}));
  const auto ranked = rank(r.scores, s.tie_break_keys());
  ASSERT_EQ(ranked.size(), 3u);
  EXPECT_EQ(ranked[0].element, 0u);
  EXPECT_EQ(ranked[1].element, 1u);  // y rises above z (plain Ochiai: z .577 > y .408)
  EXPECT_EQ(ranked[2].element, 2u);
  EXPECT_EQ(ranked[2].best, 3u);
}

TEST(Flitsr, TopTieGoesToTheElementMoreFailingTestsRun) {
  // DStar² = ef²/(ep+nf): a = 1/(0+2) = .5, b = c = 4/(2+1) = 1.33 -> b, c tie, both run
  // by two failing tests: the tie key (file, line) picks b; t1, t2 leave; then a = 1/0.
  SpectrumBuilder b;
  b.add_element("a.cpp", 1, 1, "a");
  b.add_element("a.cpp", 2, 2, "b");
  b.add_element("a.cpp", 3, 3, "c");
  b.add_test(TestCase::fail("t1"), {1, 2});
  b.add_test(TestCase::fail("t2"), {1, 2});
  b.add_test(TestCase::fail("t3"), {0});
  b.add_test(TestCase::pass("p1"), {1, 2});
  b.add_test(TestCase::pass("p2"), {1, 2});
  const Spectrum s = std::move(b).finish();
  const MultiFaultRanking r = flitsr(s, make_formula("dstar2"), s.tie_break_keys());
  EXPECT_EQ(r.basis, (std::vector<std::uint32_t>{1, 0}));
}

TEST(Flitsr, NoFailingTestMeansNoBasis) {
  SpectrumBuilder b;
  b.add_element("a.cpp", 1, 1, "a");
  b.add_test(TestCase::pass("p1"), {0});
  const Spectrum s = std::move(b).finish();
  const MultiFaultRanking r = flitsr(s, make_formula("ochiai"), s.tie_break_keys());
  EXPECT_TRUE(r.basis.empty());
  EXPECT_EQ(r.scores.size(), 1);
}

}  // namespace
}  // namespace dlfl
