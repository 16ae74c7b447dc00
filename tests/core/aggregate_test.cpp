// Tests for aggregation to functions and files, and max-score aggregation.
#include "dlfl/aggregate.h"

#include <gtest/gtest.h>

#include "dlfl/counts.h"

namespace dlfl {
namespace {

// Two functions in a.cpp, one in b.cpp, one extrinsic element.
Spectrum lines() {
  SpectrumBuilder b;
  b.add_element("a.cpp", 10, 10, "f");   // 0
  b.add_element("a.cpp", 11, 11, "f");   // 1
  b.add_element("a.cpp", 20, 20, "g");   // 2
  b.add_element("b.cpp", 5, 6, "h");     // 3
  b.add_extrinsic("device=cuda");        // 4
  b.add_test(TestCase::fail("t1"), {0, 4});
  b.add_test(TestCase::pass("t2"), {1, 2});
  b.add_test(TestCase::pass("t3"), {3});
  return std::move(b).finish();
}

TEST(Aggregate, FunctionCoveredWhenAnyLineIs) {
  const Aggregated a = aggregate(lines(), Granularity::function);
  const Spectrum& s = a.spectrum;
  ASSERT_EQ(s.element_count(), 4u);  // f, g, h, device=cuda
  EXPECT_EQ(a.group_of, (std::vector<std::uint32_t>{0, 0, 1, 2, 3}));
  EXPECT_EQ(s.function(0), "f");
  EXPECT_EQ(s.element(0).first_line, 10u);
  EXPECT_EQ(s.element(0).last_line, 11u);
  EXPECT_EQ(s.element(2).last_line, 6u);
  EXPECT_EQ(s.element(3).kind, ElementKind::extrinsic);
  const Counts c = compute_counts(s);
  EXPECT_EQ(c.ef[0], 1);  // f: line 10 by the failing test
  EXPECT_EQ(c.ep[0], 1);  // f: line 11 by t2, counted once
  EXPECT_EQ(c.ef[3], 1);
}

TEST(Aggregate, FileGroupsAllFunctionsOfAFile) {
  const Aggregated a = aggregate(lines(), Granularity::file);
  ASSERT_EQ(a.spectrum.element_count(), 3u);
  EXPECT_EQ(a.spectrum.file(0), "a.cpp");
  EXPECT_EQ(a.spectrum.element_name(0), "a.cpp:10");
  EXPECT_EQ(CoverageRows(a.spectrum.coverage()).row(1).size(), 1u) << "t2 covers a.cpp once";
}

TEST(Aggregate, LineIsTheIdentity) {
  const Spectrum s = lines();
  const Aggregated a = aggregate(s, Granularity::line);
  EXPECT_EQ(a.spectrum.element_count(), s.element_count());
  EXPECT_EQ(a.group_of[3], 3u);
}

TEST(Aggregate, MaxByGroupTakesTheBestMember) {
  Eigen::ArrayXd s(5);
  s << 0.2, 0.7, 0.1, 0.0, 0.9;
  const Eigen::ArrayXd g = max_by_group(s, std::vector<std::uint32_t>{0, 0, 1, 2, 3}, 4);
  EXPECT_EQ(g[0], 0.7);
  EXPECT_EQ(g[1], 0.1);
  EXPECT_EQ(g[3], 0.9);
}

}  // namespace
}  // namespace dlfl
