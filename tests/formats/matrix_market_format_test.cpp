// Tests for the Matrix Market interchange format (coverage .mtx + two sidecar CSVs).
#include "dlfl/formats/matrix_market_format.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "dlfl/error.h"
#include "dlfl/formats/spectrum_formats.h"
#include "../support/io_test_support.h"

namespace dlfl::io {
namespace {

using iotest::TempDir;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

TEST(MatrixMarketFormat, RoundTripsNamesOutcomesAndFlakyWeights) {
  TempDir dir;
  SpectrumBuilder b;
  b.add_element("src/a,b.cpp", 12, 12, "ns::f(int, char)");
  b.add_extrinsic("device=cuda");
  b.add_element("src/b.cpp", 5);
  b.add_test(TestCase::fail("Suite/Param.case/0, \"x,y\""), {0, 1});
  b.add_test(TestCase::flaky("flaky", 1, 3), {1, 2});
  b.add_test(TestCase::pass("quiet"), {});
  const Spectrum s = std::move(b).finish();
  const fs::path mtx = dir.path() / "s.mtx";
  write_spectrum(s, mtx, infer_output_format(mtx));
  EXPECT_EQ(read(mtx),
            "%%MatrixMarket matrix coordinate pattern general\n"
            "% dlfl spectrum: rows = tests (s.tests.csv), columns = elements (s.elements.csv)\n"
            "% dlfl companion .tests.csv 109 717019dab13c17fb\n"
            "% dlfl companion .elements.csv 61 c3c126aea67cb9fd\n"
            "3 3 4\n1 1\n1 2\n2 2\n2 3\n");
  EXPECT_THAT(read(dir.path() / "s.tests.csv"), StartsWith("name,outcome,failure_weight\n\"Suite/Param.case/0, \"\"x,y\"\"\",FAIL,1\nflaky,FLAKY,0.3333333333333333\n"));
  const Spectrum back = read_spectrum(mtx);
  iotest::Compare what;
  what.test_details = false;  // runtimes and messages are not part of the interchange
  iotest::expect_same_spectrum(s, back, what);
  EXPECT_EQ(back.tests()[1].failure_weight, 1.0 / 3.0);
  EXPECT_EQ(back.tests()[1].status, TestStatus::flaky);
  EXPECT_EQ(back.element(1).kind, ElementKind::extrinsic);
}

// What scipy 1.10.1 writes for scipy.io.mmwrite(f, coo_matrix(([1,1,1,1], ([0,1,1,2],
// [2,0,2,1])), shape=(3,4)), field='integer'): another tool's spectrum, read as is.
TEST(MatrixMarketFormat, ReadsScipyOutputWithValuesInAnyOrder) {
  TempDir dir;
  const fs::path mtx = dir.path() / "scipy.mtx";
  write(mtx, "%%MatrixMarket matrix coordinate integer general\n%\n3 4 4\n1 3 1\n2 1 1\n2 3 1\n3 2 1\n");
  write(dir.path() / "scipy.tests.csv", "name,outcome,failure_weight\nt1,PASS,0\nt2,FAIL,1\nt3,PASS,0\n");
  write(dir.path() / "scipy.elements.csv", "name\na.cpp#f:1\na.cpp#f:2\na.cpp#g:7\nb.cpp:3\n");
  const Spectrum s = read_matrix_market(mtx);
  ASSERT_EQ(s.test_count(), 3u);
  ASSERT_EQ(s.element_count(), 4u);
  EXPECT_TRUE(s.coverage().covers(0, 2));
  EXPECT_TRUE(s.coverage().covers(1, 0));
  EXPECT_TRUE(s.coverage().covers(1, 2));
  EXPECT_TRUE(s.coverage().covers(2, 1));
  EXPECT_EQ(s.coverage().nnz(), 4u);
  EXPECT_EQ(s.function(2), "g");
}

TEST(MatrixMarketFormat, ZeroValuesAreNotCoverageAndDuplicatesMerge) {
  TempDir dir;
  const fs::path mtx = dir.path() / "v.mtx";
  write(mtx, "%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 0.0\n2 2 1.5\n2 2 1\n1 2 2\n");
  write(dir.path() / "v.tests.csv", "name,outcome,failure_weight\na,PASS,0\nb,FAIL,1\n");
  write(dir.path() / "v.elements.csv", "name\nx.cpp:1\nx.cpp:2\n");
  const Spectrum s = read_matrix_market(mtx);
  EXPECT_FALSE(s.coverage().covers(0, 0));
  EXPECT_EQ(s.coverage().nnz(), 2u);
}

class MatrixMarketErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    write(dir.path() / "e.tests.csv", "name,outcome,failure_weight\na,PASS,0\nb,FAIL,1\n");
    write(dir.path() / "e.elements.csv", "name\nx.cpp:1\nx.cpp:2\n");
  }
  void expect_error(const std::string& matrix, const std::string& located, const std::string& what) {
    write(dir.path() / "e.mtx", matrix);
    try {
      read_matrix_market(dir.path() / "e.mtx");
      ADD_FAILURE() << "no error for " << matrix;
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), StartsWith((dir.path() / located).string()));
      EXPECT_THAT(e.what(), HasSubstr(what));
    }
  }
  TempDir dir;
};

// Issue #14: nan compared unequal to 0 and counted as coverage.
TEST_F(MatrixMarketErrors, NanAndInfinityAreNotValues) {
  for (const std::string value : {"nan", "inf", "-inf", "NAN"})
    expect_error("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 " + value + "\n", "e.mtx:3:",
                 "value '" + value + "' is not a finite number");
}

TEST_F(MatrixMarketErrors, ByteOrderMarksAreSkipped) {
  write(dir.path() / "e.tests.csv", "\xEF\xBB\xBFname,outcome,failure_weight\na,PASS,0\nb,FAIL,1\n");
  write(dir.path() / "e.elements.csv", "\xEF\xBB\xBFname\nx.cpp:1\nx.cpp:2\n");
  write(dir.path() / "e.mtx", "\xEF\xBB\xBF%%MatrixMarket matrix coordinate pattern general\n2 2 1\n2 1\n");
  const Spectrum s = read_matrix_market(dir.path() / "e.mtx");
  EXPECT_EQ(s.element_name(0), "x.cpp:1");
  EXPECT_EQ(s.tests()[0].name, "a");
  EXPECT_TRUE(s.coverage().covers(1, 0));
}

TEST_F(MatrixMarketErrors, BadBanner) { expect_error("%%MatrixMarket matrix array real general\n2 2\n", "e.mtx:1:", "coordinate"); }
TEST_F(MatrixMarketErrors, NoBanner) { expect_error("2 2 0\n", "e.mtx:1:", "banner"); }
TEST_F(MatrixMarketErrors, RowsDisagreeWithTests) {
  expect_error("%%MatrixMarket matrix coordinate pattern general\n3 2 0\n", "e.mtx:2:", "lists 2 tests");
}
TEST_F(MatrixMarketErrors, IndexOutOfRange) {
  expect_error("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n3 1\n", "e.mtx:3:", "outside");
}
TEST_F(MatrixMarketErrors, EntryCountDisagrees) {
  expect_error("%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 1\n", "e.mtx:3:", "announces 2 entries, found 1");
}
TEST_F(MatrixMarketErrors, NonNumericIndex) {
  expect_error("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 x\n", "e.mtx:3:", "column index");
}
TEST_F(MatrixMarketErrors, BadOutcomeInSidecar) {
  write(dir.path() / "e.tests.csv", "name,outcome,failure_weight\na,MAYBE,0\nb,FAIL,1\n");
  expect_error("%%MatrixMarket matrix coordinate pattern general\n2 2 0\n", "e.tests.csv:2:", "unknown outcome");
}
TEST_F(MatrixMarketErrors, MissingSidecarIsNamed) {
  fs::remove(dir.path() / "e.elements.csv");
  expect_error("%%MatrixMarket matrix coordinate pattern general\n2 2 0\n", "e.elements.csv", "cannot read");
}

}  // namespace
}  // namespace dlfl::io
