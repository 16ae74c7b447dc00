// Tests for restricting a spectrum to some elements and tests.
#include "dlfl/spectrum_subset.h"

#include <gtest/gtest.h>

namespace dlfl {
namespace {

std::vector<std::uint32_t> covered_by(const Spectrum& s, std::size_t test) {
  std::vector<std::uint32_t> out;
  for (std::size_t e = 0; e < s.element_count(); ++e)
    if (s.coverage().covers(test, static_cast<std::uint32_t>(e))) out.push_back(static_cast<std::uint32_t>(e));
  return out;
}

TEST(SpectrumSubset, KeepsChosenElementsAndTestsWithTheirCoverage) {
  SpectrumBuilder b;
  const auto a = b.add_element("src/a.cpp", 3, 3, "f");
  const auto t = b.add_element("tests/a_test.cpp", 7, 7, "T");
  const auto c = b.add_element("src/a.cpp", 9, 10, "g");
  const auto x = b.add_extrinsic("device=cuda");
  b.add_test(TestCase::pass("P1"), {a, t});
  b.add_test(TestCase::fail("Broken"), {a, t, c});
  b.add_test(TestCase::fail("F1"), {t, c, x});
  const Spectrum s = std::move(b).finish();

  const Spectrum kept = subset(
      s, [&](std::size_t e) { return s.file(e) != "tests/a_test.cpp"; },
      [&](std::size_t test) { return s.tests()[test].name != "Broken"; });
  ASSERT_EQ(kept.element_count(), 3u);
  EXPECT_EQ(kept.file(0), "src/a.cpp");
  EXPECT_EQ(kept.element(1).first_line, 9u);
  EXPECT_EQ(kept.element(1).last_line, 10u);
  EXPECT_EQ(kept.function(1), "g");
  EXPECT_EQ(kept.element_name(2), "device=cuda");
  EXPECT_EQ(kept.element(2).kind, ElementKind::extrinsic);
  ASSERT_EQ(kept.test_count(), 2u);
  EXPECT_EQ(kept.tests()[0].name, "P1");
  EXPECT_FALSE(kept.tests()[0].failed());
  EXPECT_EQ(kept.tests()[1].name, "F1");
  EXPECT_TRUE(kept.tests()[1].failed());
  EXPECT_EQ(covered_by(kept, 0), (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(covered_by(kept, 1), (std::vector<std::uint32_t>{1, 2}));

  const Spectrum same = subset(s, {}, {});
  EXPECT_EQ(same.element_count(), s.element_count());
  EXPECT_EQ(same.test_count(), s.test_count());
  EXPECT_EQ(covered_by(same, 1), covered_by(s, 1));
}

}  // namespace
}  // namespace dlfl
