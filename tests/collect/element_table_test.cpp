// ElementTable: the union of instrumented lines, innermost functions, file spellings.
#include "element_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace dlfl::collect {
namespace {

using ::testing::ElementsAre;

FileCoverage file(std::string path, std::vector<LineCount> lines, std::vector<FunctionRange> functions = {},
                  std::filesystem::path base = {}) {
  return FileCoverage{std::move(path), std::move(base), std::move(lines), std::move(functions)};
}

TEST(ElementTable, UnionOfInstrumentedLinesAndCoveredIds) {
  const PathFilter filter({});
  ElementTable table(filter);
  CoverageReport a;
  a.files.push_back(file("/p/b.cpp", {{3, 1}, {4, 0}, {3, 2}}));  // line 3 twice (template instances)
  a.files.push_back(file("/usr/include/vector", {{10, 5}}));      // a system header: no element
  CoverageReport b;
  b.files.push_back(file("/p/a.cpp", {{7, 0}, {8, 0}}));
  b.files.push_back(file("/p/b.cpp", {{4, 9}}));
  const auto covered_a = table.add(a);
  const auto covered_b = table.add(b);
  EXPECT_EQ(table.size(), 4u);

  SpectrumBuilder builder;
  const auto final_id = table.emit(builder);
  Spectrum s = std::move(builder).finish();
  ASSERT_EQ(s.element_count(), 4u);
  // Ordered by (file, line): a.cpp:7, a.cpp:8, b.cpp:3, b.cpp:4.
  EXPECT_EQ(s.element_name(0), "/p/a.cpp:7");
  EXPECT_EQ(s.element_name(3), "/p/b.cpp:4");
  ASSERT_EQ(covered_a.size(), 1u);
  EXPECT_EQ(final_id[covered_a[0]], 2u);  // b.cpp:3
  ASSERT_EQ(covered_b.size(), 1u);
  EXPECT_EQ(final_id[covered_b[0]], 3u);  // b.cpp:4
}

TEST(ElementTable, InnermostFunctionWinsAndTiesAreStable) {
  const PathFilter filter({});
  ElementTable table(filter);
  CoverageReport r;
  r.files.push_back(file("/p/a.cpp", {{2, 1}, {3, 1}, {8, 1}, {9, 1}, {11, 1}, {20, 1}},
                         {{"main", 7, 12}, {"main::{lambda(int)#1}::operator()(int) const", 8, 10},
                          {"int sq<int>(int)", 2, 5}}));
  // Another translation unit lists the other instance of the template: the smaller
  // name wins whichever report comes first.
  CoverageReport r2;
  r2.files.push_back(file("/p/a.cpp", {{3, 0}}, {{"double sq<double>(double)", 2, 5}}));
  table.add(r);
  table.add(r2);
  SpectrumBuilder builder;
  table.emit(builder);
  const Spectrum s = std::move(builder).finish();
  std::vector<std::string> names;
  for (std::size_t e = 0; e < s.element_count(); ++e) names.push_back(s.element_name(e));
  EXPECT_THAT(names, ElementsAre("/p/a.cpp#double sq<double>(double):2", "/p/a.cpp#double sq<double>(double):3",
                                 "/p/a.cpp#main::{lambda(int)#1}::operator()(int) const:8",
                                 "/p/a.cpp#main::{lambda(int)#1}::operator()(int) const:9", "/p/a.cpp#main:11",
                                 "/p/a.cpp:20"));
}

TEST(ElementTable, RelativeAndAbsoluteSpellingsAreOneFile) {
  const PathFilter filter({});
  ElementTable table(filter);
  CoverageReport r;
  r.files.push_back(file("src/a.cpp", {{1, 1}}, {}, "/p"));
  r.files.push_back(file("/p/src/a.cpp", {{1, 0}, {2, 0}}));
  const auto covered = table.add(r);
  EXPECT_EQ(table.size(), 2u);
  EXPECT_EQ(covered.size(), 1u);
}

}  // namespace
}  // namespace dlfl::collect
