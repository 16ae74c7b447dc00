// Tests for Spectrum, SpectrumBuilder, StringPool and TestCase.
#include "dlfl/spectrum.h"

#include <gtest/gtest.h>

#include <vector>

#include "dlfl/error.h"

namespace dlfl {
namespace {

TEST(StringPool, InternsOnceAndKeepsIdZeroEmpty) {
  StringPool pool;
  EXPECT_EQ(pool.intern(""), 0u);
  const StringId a = pool.intern("tensor.cpp");
  EXPECT_EQ(pool.intern("tensor.cpp"), a);
  EXPECT_NE(pool.intern("conv.cu"), a);
  EXPECT_EQ(pool[a], "tensor.cpp");
  EXPECT_EQ(pool.size(), 3u);
}

TEST(StringPool, CopiesAndMovesStayValid) {
  StringPool pool;
  const StringId a = pool.intern("a.cpp");
  StringPool copy = pool;
  copy.intern("b.cpp");
  EXPECT_EQ(copy[a], "a.cpp");
  EXPECT_EQ(pool.size(), 2u);
  StringPool moved = std::move(copy);
  EXPECT_EQ(moved[a], "a.cpp");
  EXPECT_EQ(moved.size(), 3u);
}

TEST(StringPool, ViewOverForeignMemoryIsCopiedOnFirstIntern) {
  static const char blob[] = "ab";
  static const std::uint64_t offsets[] = {0, 0, 1, 2};
  StringPool pool(std::span<const char>(blob, 2), offsets, std::make_shared<int>(0));
  EXPECT_EQ(pool[1], "a");
  EXPECT_EQ(pool.intern("b"), 2u);  // found, not added
  EXPECT_EQ(pool.intern("c"), 3u);
  EXPECT_EQ(pool[2], "b");
}

TEST(StringPool, RejectsBrokenOffsets) {
  static const char blob[] = "ab";
  static const std::uint64_t bad[] = {0, 0, 3};
  EXPECT_THROW(StringPool(std::span<const char>(blob, 2), bad, nullptr), Error);
}

TEST(TestCase, FlakyWeightIsTheShareOfFailedRuns) {
  const TestCase t = TestCase::flaky("t", 1, 4);
  EXPECT_DOUBLE_EQ(t.failure_weight, 0.25);
  EXPECT_EQ(t.status, TestStatus::flaky);
  EXPECT_TRUE(t.failed());
  EXPECT_EQ(TestCase::flaky("t", 0, 3).status, TestStatus::passed);
  EXPECT_EQ(TestCase::flaky("t", 3, 3).status, TestStatus::failed);
  EXPECT_THROW(TestCase::flaky("t", 1, 0), Error);
  EXPECT_THROW(TestCase::flaky("t", 5, 3), Error);
}

TEST(SpectrumBuilder, BuildsElementsTestsAndSortedCoverage) {
  SpectrumBuilder b;
  const auto l1 = b.add_element("src/ops.cpp", 10, 10, "add");
  const auto l2 = b.add_element("src/ops.cpp", 11, 12, "add");
  const auto cuda = b.add_extrinsic("device=cuda");
  b.add_test(TestCase::pass("t1"), {l2, l1, l1});
  b.add_test(TestCase::fail("t2"), {cuda, l2});
  const Spectrum s = std::move(b).finish();
  ASSERT_EQ(s.element_count(), 3u);
  ASSERT_EQ(s.test_count(), 2u);
  EXPECT_EQ(s.coverage().nnz(), 4u);
  const CoverageRows rows(s.coverage());
  EXPECT_EQ(std::vector<std::uint32_t>(rows.row(0).begin(), rows.row(0).end()),
            (std::vector<std::uint32_t>{l1, l2}));
  EXPECT_EQ(std::vector<std::uint32_t>(s.coverage().tests_of(l2).begin(), s.coverage().tests_of(l2).end()),
            (std::vector<std::uint32_t>{0, 1}));
  EXPECT_TRUE(s.coverage().covers(1, cuda));
  EXPECT_FALSE(s.coverage().covers(1, l1));
  EXPECT_EQ(s.element_name(l1), "src/ops.cpp#add:10");
  EXPECT_EQ(s.element(l2).last_line, 12u);
  EXPECT_EQ(s.element_name(cuda), "device=cuda");
  EXPECT_EQ(s.element(cuda).kind, ElementKind::extrinsic);
  EXPECT_DOUBLE_EQ(s.failed_weight(), 1.0);
  EXPECT_DOUBLE_EQ(s.passed_weight(), 1.0);
}

TEST(SpectrumBuilder, ParsesGZoltarNamesAndKeepsOddOnesVerbatim) {
  SpectrumBuilder b;
  const auto java = b.add_named_element("org.pkg$Class#method(java.lang.String):37");
  const auto bare = b.add_named_element("plain");
  const auto odd = b.add_named_element("a.cpp#:5");
  const Spectrum s = std::move(b).finish();
  EXPECT_EQ(s.file(java), "org.pkg$Class");
  EXPECT_EQ(s.function(java), "method(java.lang.String)");
  EXPECT_EQ(s.element(java).first_line, 37u);
  EXPECT_EQ(s.element(java).name, 0u) << "a derivable name costs no string";
  EXPECT_EQ(s.element_name(java), "org.pkg$Class#method(java.lang.String):37");
  EXPECT_EQ(s.element_name(bare), "plain");
  EXPECT_EQ(s.element_name(odd), "a.cpp#:5");
}

TEST(SpectrumBuilder, RejectsCoverageOfUnknownElements) {
  SpectrumBuilder b;
  b.add_element("a.cpp", 1);
  b.add_test(TestCase::fail("t"), {0, 7});
  EXPECT_THROW(std::move(b).finish(), Error);
}

TEST(Spectrum, RejectsWeightsOutsideTheUnitInterval) {
  SpectrumBuilder b;
  b.add_element("a.cpp", 1);
  TestCase t = TestCase::fail("t");
  t.failure_weight = 1.5;
  b.add_test(t, {0});
  EXPECT_THROW(std::move(b).finish(), Error);
}

TEST(Spectrum, TieBreakKeysOrderByFileThenLine) {
  SpectrumBuilder b;
  b.add_element("z.cpp", 1);
  b.add_element("a.cpp", 9);
  b.add_element("a.cpp", 2);
  const Spectrum s = std::move(b).finish();
  const auto keys = s.tie_break_keys();
  EXPECT_LT(keys[2], keys[1]);
  EXPECT_LT(keys[1], keys[0]);
}

// A spectrum large enough for two threads to key it, each meeting files the other meets
// too: the same keys as the definition, (rank of the file's name << 32) | first line.
TEST(Spectrum, TieBreakKeysOfALargeSpectrumAreTheDefinition) {
  SpectrumBuilder b;
  const std::size_t n = 300000;
  std::vector<std::string> files;
  for (int f = 0; f < 40; ++f) files.push_back("src/f" + std::to_string((f * 17) % 40) + ".cpp");
  std::vector<std::string> sorted = files;
  sorted.push_back("");  // the extrinsic element's
  const std::string late = "src/late.cpp";  // met by the second thread only
  sorted.push_back(late);
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::uint64_t> expected;
  for (std::size_t e = 0; e < n; ++e) {
    // Every file met in both halves, but for the last one.
    const std::string& file = e + 1000 >= n ? late : files[(e / 1000) % files.size()];
    const auto line = static_cast<std::uint32_t>(1 + (e * 7) % 5000);
    b.add_element(file, line);
    const auto rank = static_cast<std::uint64_t>(std::lower_bound(sorted.begin(), sorted.end(), file) - sorted.begin());
    expected.push_back((rank << 32) | line);
  }
  b.add_extrinsic("device=cpu");  // no file: the empty name ranks first
  expected.push_back(0);
  const Spectrum s = std::move(b).finish();
  EXPECT_EQ(s.tie_break_keys(), expected);
}

// Coverage shared by tests already added (a process's outside coverage): merged into
// exactly those rows, duplicates dropped, the other rows untouched.
TEST(CoverageBuilder, AddToRowsMergesIntoTheRowsAlreadyAdded) {
  CoverageBuilder b(5);
  b.add_row({1, 3});
  b.add_row({2});
  b.add_row({});
  b.add_row({4});
  b.add_to_rows(1, 3, std::vector<std::uint32_t>{3, 0, 3});
  b.add_to_rows(2, 2, std::vector<std::uint32_t>{1});    // an empty range: nothing
  b.add_to_rows(0, 99, std::vector<std::uint32_t>{});    // nothing to add
  EXPECT_THROW(b.add_to_rows(0, 1, std::vector<std::uint32_t>{5}), Error);
  const Coverage c = std::move(b).finish();
  const CoverageRows rows(c);
  const auto row = [&](std::size_t t) { return std::vector<std::uint32_t>(rows.row(t).begin(), rows.row(t).end()); };
  EXPECT_EQ(row(0), (std::vector<std::uint32_t>{1, 3}));
  EXPECT_EQ(row(1), (std::vector<std::uint32_t>{0, 2, 3}));
  EXPECT_EQ(row(2), (std::vector<std::uint32_t>{0, 3}));
  EXPECT_EQ(row(3), (std::vector<std::uint32_t>{4}));
}

TEST(Coverage, ValidatesStructure) {
  EXPECT_THROW(Coverage(2, std::vector<std::uint64_t>{0, 2}, std::vector<std::uint32_t>{1, 0}), Error);
  EXPECT_THROW(Coverage(2, std::vector<std::uint64_t>{0, 1}, std::vector<std::uint32_t>{2}), Error);
  EXPECT_THROW(Coverage(2, std::vector<std::uint64_t>{0, 3}, std::vector<std::uint32_t>{0}), Error);
  const Coverage ok(3, std::vector<std::uint64_t>{0, 2, 2}, std::vector<std::uint32_t>{0, 2});
  EXPECT_EQ(ok.tests(), 3u);
  EXPECT_EQ(ok.elements(), 2u);
  EXPECT_DOUBLE_EQ(ok.density(), 2.0 / 6.0);
}

TEST(Coverage, DenseFormMirrorsTheSparseForm) {
  CoverageBuilder b(70);
  b.add_row({0, 69});
  for (int t = 1; t < 70; ++t) b.add_row({static_cast<std::uint32_t>(t)});
  const Coverage sparse = std::move(b).finish().to_sparse();
  const Coverage dense = sparse.to_dense();
  EXPECT_TRUE(dense.is_dense());
  EXPECT_EQ(dense.words_per_element(), 2u);
  EXPECT_EQ(dense.bits(69)[0], 1u) << "test 0 covers element 69";
  EXPECT_EQ(dense.bits(69)[1], std::uint64_t{1} << 5) << "test 69 covers element 69";
  EXPECT_EQ(dense.nnz(), sparse.nnz());
  for (std::uint32_t e = 0; e < 70; ++e) {
    const auto a = sparse.tests_of(e), d = dense.tests_of(e);
    EXPECT_EQ(std::vector<std::uint32_t>(a.begin(), a.end()), std::vector<std::uint32_t>(d.begin(), d.end()));
    EXPECT_EQ(a.size(), d.size());
  }
  EXPECT_TRUE(dense.covers(69, 69));
  EXPECT_FALSE(dense.covers(68, 69));
  const Coverage back = dense.to_sparse();
  EXPECT_EQ(std::vector<std::uint32_t>(back.test_ids().begin(), back.test_ids().end()),
            std::vector<std::uint32_t>(sparse.test_ids().begin(), sparse.test_ids().end()));
  const CoverageRows rows(dense);
  EXPECT_EQ(rows.row(0).size(), 2u);
}

TEST(Coverage, DenseRejectsBitsPastTheLastTest) {
  EXPECT_THROW(Coverage::dense(3, 1, std::vector<std::uint64_t>{0b1000}), Error);
  EXPECT_THROW(Coverage::dense(3, 2, std::vector<std::uint64_t>{0b1}), Error);
  EXPECT_EQ(Coverage::dense(3, 1, std::vector<std::uint64_t>{0b101}).nnz(), 2u);
}

TEST(Coverage, EmptyDenseIteratesNothing) {
  const Coverage c = Coverage::dense(130, 1, std::vector<std::uint64_t>{0, 0, 0});
  EXPECT_TRUE(c.tests_of(0).empty());
  EXPECT_EQ(c.tests_of(0).begin(), c.tests_of(0).end());
}

}  // namespace
}  // namespace dlfl
