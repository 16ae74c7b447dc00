// Tests for block granularity: adjacent lines of a function with identical coverage
// columns become one element spanning them.
#include <gtest/gtest.h>

#include "dlfl/aggregate.h"
#include "dlfl/counts.h"

namespace dlfl {
namespace {

// f: 10-12 run together by t1,t2; 13 only by t1 (a branch); 14 again by t1,t2.
// g (a lambda inside f's lines, same column as f's 10-12) sits at line 11 of another
// function and must not merge with f. b.cpp's lines are out of order in the spectrum.
Spectrum lines() {
  SpectrumBuilder b;
  b.add_element("a.cpp", 10, 10, "f");  // 0
  b.add_element("a.cpp", 12, 12, "f");  // 1
  b.add_element("a.cpp", 13, 13, "f");  // 2
  b.add_element("a.cpp", 14, 14, "f");  // 3
  b.add_element("a.cpp", 11, 11, "f::lambda@11");  // 4
  b.add_element("b.cpp", 7, 7, "h");    // 5
  b.add_element("b.cpp", 5, 5, "h");    // 6
  b.add_extrinsic("device=cuda");       // 7
  b.add_test(TestCase::fail("t1"), {0, 1, 2, 3, 4, 5, 6, 7});
  b.add_test(TestCase::pass("t2"), {0, 1, 3, 4, 5, 6});
  return std::move(b).finish();
}

TEST(BlockAggregate, CollapsesAdjacentLinesWithIdenticalColumns) {
  const Aggregated a = aggregate(lines(), Granularity::block);
  const Spectrum& s = a.spectrum;
  // f:10 | lambda:11 | f:12 | f:13 | f:14 | h:5-7 | device=cuda
  ASSERT_EQ(s.element_count(), 7u);
  // f:10 and f:12 share a column but the lambda's line 11 lies between them.
  EXPECT_NE(a.group_of[0], a.group_of[1]);
  EXPECT_NE(a.group_of[1], a.group_of[2]);  // 13 has another column
  EXPECT_NE(a.group_of[2], a.group_of[3]);
  EXPECT_EQ(a.group_of[5], a.group_of[6]);  // h:5 and h:7, listed out of order
  const auto& h = s.element(a.group_of[5]);
  EXPECT_EQ(h.first_line, 5u);
  EXPECT_EQ(h.last_line, 7u);
  EXPECT_EQ(s.element_name(a.group_of[5]), "b.cpp#h:5-7");
  EXPECT_EQ(s.element_name(a.group_of[0]), "a.cpp#f:10");  // one line keeps its line name
  EXPECT_EQ(s.element(a.group_of[7]).kind, ElementKind::extrinsic);
  const Counts c = compute_counts(s);
  EXPECT_EQ(c.ef[a.group_of[5]], 1);  // the block's column is its members' column
  EXPECT_EQ(c.ep[a.group_of[5]], 1);
}

TEST(BlockAggregate, StraightLineFunctionIsOneBlock) {
  SpectrumBuilder b;
  for (std::uint32_t line = 1; line <= 20; ++line) b.add_element("k.cu", line, line, "kernel");
  std::vector<std::uint32_t> all(20);
  for (std::uint32_t i = 0; i < 20; ++i) all[i] = i;
  b.add_test(TestCase::fail("t1"), all);
  b.add_test(TestCase::pass("t2"), all);
  b.add_test(TestCase::pass("t3"), {});
  const Aggregated a = aggregate(std::move(b).finish(), Granularity::block);
  ASSERT_EQ(a.spectrum.element_count(), 1u);
  EXPECT_EQ(a.spectrum.element(0).first_line, 1u);
  EXPECT_EQ(a.spectrum.element(0).last_line, 20u);
}

TEST(BlockAggregate, DenseCoverageGroupsTheSame) {
  const Spectrum sparse = lines();
  const Spectrum dense(sparse.strings(), std::vector<ElementRecord>(sparse.elements().begin(), sparse.elements().end()),
                       sparse.tests(), sparse.coverage().to_dense());
  EXPECT_EQ(aggregate(dense, Granularity::block).group_of, aggregate(sparse, Granularity::block).group_of);
}

}  // namespace
}  // namespace dlfl
