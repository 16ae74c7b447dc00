// Metallaxis, MUSE and the hybrid on a hand-computed kill matrix.
#include "dlfl/mutation_scores.h"

#include <gtest/gtest.h>

#include "dlfl/error.h"

namespace dlfl {
namespace {

// Three lines of a.cpp that every test runs alike (one SBFL tie) and one line of b.cpp.
Spectrum tied_lines() {
  SpectrumBuilder b;
  b.add_element("a.cpp", 10);
  b.add_element("a.cpp", 11);
  b.add_element("a.cpp", 12);
  b.add_element("b.cpp", 5);
  b.add_test(TestCase::fail("f1"), {0, 1, 2});
  b.add_test(TestCase::fail("f2"), {0, 1, 2});
  b.add_test(TestCase::pass("p1"), {0, 1, 2, 3});
  b.add_test(TestCase::pass("p2"), {3});
  b.add_test(TestCase::pass("p3"), {3});
  return std::move(b).finish();
}

// Kill matrix over the same tests (F = 2, P = 3):
//   m0 a.cpp:10 killed by f1 f2   ef 2 ep 0
//   m1 a.cpp:10 killed by p1      ef 0 ep 1
//   m2 a.cpp:11 killed by f1 p1   ef 1 ep 1
//   m3 a.cpp:12 killed by p2      ef 0 ep 1
Spectrum kills() {
  SpectrumBuilder b;
  b.add_element("a.cpp", 10);
  b.add_element("a.cpp", 10);
  b.add_element("a.cpp", 11);
  b.add_element("a.cpp", 12);
  b.add_test(TestCase::fail("f1"), {0, 2});
  b.add_test(TestCase::fail("f2"), {0});
  b.add_test(TestCase::pass("p1"), {1, 2});
  b.add_test(TestCase::pass("p2"), {3});
  b.add_test(TestCase::pass("p3"), {});
  return std::move(b).finish();
}

TEST(MutationScores, MutantsSitOnTheLinesHoldingThem) {
  SpectrumBuilder b;
  b.add_element("a.cpp", 9, 11);  // a block holding line 10 and 11
  b.add_element("a.cpp", 12);
  b.add_element("c.cpp", 10);
  b.add_test(TestCase::fail("f1"), {0});
  const Spectrum blocks = std::move(b).finish();
  const auto on = lines_of_mutants(blocks, kills());
  EXPECT_EQ(on, (std::vector<std::vector<std::uint32_t>>{{0}, {0}, {0}, {1}}));
}

TEST(MutationScores, MetallaxisTakesTheBestMutantOfEachLine) {
  // Ochiai per mutant: m0 2/sqrt(2*2) = 1, m1 0, m2 1/sqrt(2*2) = .5, m3 0.
  const Eigen::ArrayXd s = metallaxis_scores(tied_lines(), kills(), make_formula("ochiai"));
  ASSERT_EQ(s.size(), 4);
  EXPECT_DOUBLE_EQ(s[0], 1.0);
  EXPECT_DOUBLE_EQ(s[1], 0.5);
  EXPECT_DOUBLE_EQ(s[2], 0.0);
  EXPECT_EQ(s[3], kUnmeasuredScore);  // no mutant on b.cpp:5
}

TEST(MutationScores, MetallaxisUsesTheGivenFormula) {
  // DStar2 per mutant: m0 4/(0+0) = +inf (kept finite), m2 1/(1+1) = .5.
  const Eigen::ArrayXd s = metallaxis_scores(tied_lines(), kills(), make_formula("dstar:2"));
  EXPECT_GT(s[0], 1e300);
  EXPECT_DOUBLE_EQ(s[1], 0.5);
}

TEST(MutationScores, MuseMatchesItsDefinition) {
  // f2p = 2+0+1+0 = 3, p2f = 0+1+1+1 = 3, alpha = f2p*P/(F*p2f) = 3*3/(2*3) = 1.5.
  // terms ef/(f2p+1) - alpha*ep/(p2f+1): m0 .5, m1 -.375, m2 .25-.375 = -.125, m3 -.375.
  // line 10: (.5 - .375)/(2+1); line 11: -.125/2; line 12: -.375/2.
  const Eigen::ArrayXd s = muse_scores(tied_lines(), kills());
  EXPECT_NEAR(s[0], 0.125 / 3.0, 1e-12);
  EXPECT_NEAR(s[1], -0.0625, 1e-12);
  EXPECT_NEAR(s[2], -0.1875, 1e-12);
  EXPECT_EQ(s[3], kUnmeasuredScore);
}

TEST(MutationScores, MuseWithoutPassingKillsHasNoPenalty) {
  SpectrumBuilder b;
  b.add_element("a.cpp", 10);
  b.add_element("a.cpp", 11);
  b.add_test(TestCase::fail("f1"), {0});
  b.add_test(TestCase::fail("f2"), {});
  b.add_test(TestCase::pass("p1"), {});
  b.add_test(TestCase::pass("p2"), {});
  b.add_test(TestCase::pass("p3"), {});
  // f2p = 1, p2f = 0: alpha = 0; line 10: (1/2)/2 = .25, line 11: 0/2 = 0.
  const Eigen::ArrayXd s = muse_scores(tied_lines(), std::move(b).finish());
  EXPECT_DOUBLE_EQ(s[0], 0.25);
  EXPECT_DOUBLE_EQ(s[1], 0.0);
  EXPECT_EQ(s[2], kUnmeasuredScore);
}

TEST(MutationScores, HybridKeepsTheSbflOrderAndBreaksItsTies) {
  Eigen::ArrayXd sbfl(5), mbfl(5);
  sbfl << 0.7, 0.7, 0.7, 0.9, 0.2;
  mbfl << 0.1, 0.5, 0.5, 0.0, 1.0;
  const Eigen::ArrayXd h = hybrid_scores(sbfl, mbfl);
  // Order: (.9,0) > (.7,.5) = (.7,.5) > (.7,.1) > (.2,1): classes 5, 4, 4, 3, 2.
  EXPECT_EQ(h[3], 5.0);
  EXPECT_EQ(h[1], 4.0);
  EXPECT_EQ(h[2], 4.0);
  EXPECT_EQ(h[0], 3.0);
  EXPECT_EQ(h[4], 2.0);
}

TEST(MutationScores, HybridRanksUnmeasuredLinesLastWithinTheirTie) {
  Eigen::ArrayXd sbfl(3), mbfl(3);
  sbfl << 1.0, 1.0, 1.0;
  mbfl << kUnmeasuredScore, -0.5, kUnmeasuredScore;
  const Eigen::ArrayXd h = hybrid_scores(sbfl, mbfl);
  EXPECT_GT(h[1], h[0]);
  EXPECT_EQ(h[0], h[2]);
}

TEST(MutationScores, HybridNeedsAlignedScores) {
  EXPECT_THROW(hybrid_scores(Eigen::ArrayXd::Zero(2), Eigen::ArrayXd::Zero(3)), Error);
}

TEST(MutationScores, TechniqueNamesReadBack) {
  for (auto t : {MutationTechnique::metallaxis, MutationTechnique::muse, MutationTechnique::hybrid})
    EXPECT_EQ(parse_mutation_technique(mutation_technique_name(t)), t);
  EXPECT_FALSE(parse_mutation_technique("Metallaxis"));
}

}  // namespace
}  // namespace dlfl
