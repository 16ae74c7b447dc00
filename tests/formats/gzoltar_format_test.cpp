// Tests for the GZoltar 1.7+ directory format: golden bytes, round trips, tolerant
// reading of other tools' files, and FILE:LINE errors for bad input.
#include "dlfl/formats/gzoltar_format.h"

#include <gtest/gtest.h>

#include "dlfl/error.h"
#include "../support/io_test_support.h"

namespace dlfl::io {
namespace {

using iotest::Compare;
using iotest::expect_same_spectrum;
using iotest::read_file;
using iotest::sample_spectrum;
using iotest::starts_with;
using iotest::TempDir;
using iotest::write_file;

Spectrum small_java_spectrum() {
  SpectrumBuilder b;
  b.add_named_element("org.pkg$Class#method(java.lang.String):37");
  b.add_named_element("org.pkg$Class#other():40");
  b.add_extrinsic("dtype=half");
  TestCase pass = TestCase::pass("org.pkg.ClassTest#a");
  pass.runtime_ns = 1000;
  b.add_test(pass, {0, 1});
  TestCase fail = TestCase::fail("org.pkg.ClassTest#b");
  fail.runtime_ns = 2000;
  fail.message = "java.lang.AssertionError: boom";
  b.add_test(fail, {0, 2});
  return std::move(b).finish();
}

TEST(GzoltarFormat, WritesGZoltarsExactBytes) {
  TempDir dir;
  EXPECT_EQ(write_gzoltar(small_java_spectrum(), dir / "txt"), 0u);
  EXPECT_EQ(read_file(dir / "txt/spectra.csv"),
            "name\n"
            "org.pkg$Class#method(java.lang.String):37\n"
            "org.pkg$Class#other():40\n"
            "dtype=half\n");
  EXPECT_EQ(read_file(dir / "txt/matrix.txt"),
            "1 1 0 +\n"
            "1 0 1 -\n");
  EXPECT_EQ(read_file(dir / "txt/tests.csv"),
            "name,outcome,runtime,stacktrace\n"
            "org.pkg.ClassTest#a,PASS,1000,\n"
            "org.pkg.ClassTest#b,FAIL,2000,java.lang.AssertionError: boom\n");
  EXPECT_EQ(dir.listing(), (std::vector<std::string>{"txt", "txt/matrix.txt", "txt/spectra.csv",
                                                     "txt/tests.csv"}));
}

TEST(GzoltarFormat, RoundTripKeepsNamesKindsOutcomesAndCoverage) {
  TempDir dir;
  const Spectrum original = sample_spectrum();
  write_gzoltar(original, dir / "txt");
  const Spectrum back = read_gzoltar(dir / "txt");
  expect_same_spectrum(original, back);
  EXPECT_EQ(back.element(2).kind, ElementKind::extrinsic);
  EXPECT_EQ(back.file(1), "src/a,b.cpp");
  EXPECT_EQ(back.function(1), "ns::f(int, char)");
  EXPECT_EQ(back.element(1).first_line, 12u);
}

TEST(GzoltarFormat, NamesWithCommasAndQuotesAreQuotedInTestsCsv) {
  TempDir dir;
  write_gzoltar(sample_spectrum(), dir / "txt");
  const std::string tests = read_file(dir / "txt/tests.csv");
  EXPECT_NE(tests.find("\"Suite/Param.case/0, \"\"x,y\"\"\",FAIL,42,"), std::string::npos) << tests;
  EXPECT_NE(tests.find("\ntest:with:colons,PASS,0,\n"), std::string::npos) << tests;
}

TEST(GzoltarFormat, TraceLinesThatLookLikeTestsAreDefused) {
  TempDir dir;
  SpectrumBuilder b;
  TestCase t = TestCase::fail("t");
  t.message = "first\nx,FOO,1,\nlast";
  b.add_test(t, {});
  b.add_test(TestCase::pass("u"), {});
  write_gzoltar(std::move(b).finish(), dir / "txt");
  EXPECT_EQ(read_file(dir / "txt/tests.csv"),
            "name,outcome,runtime,stacktrace\nt,FAIL,0,first\n\"x,FOO,1,\nlast\nu,PASS,0,\n");
  const Spectrum back = read_gzoltar(dir / "txt");
  ASSERT_EQ(back.test_count(), 2u);
  EXPECT_EQ(back.tests()[0].message, "first\n\"x,FOO,1,\nlast");
}

TEST(GzoltarFormat, TestNamesWithLineBreaksCannotBeWritten) {
  TempDir dir;
  SpectrumBuilder b;
  b.add_test(TestCase::pass("two\nlines"), {});
  EXPECT_THROW(write_gzoltar(std::move(b).finish(), dir / "txt"), Error);
  EXPECT_TRUE(dir.listing().empty());
}

TEST(GzoltarFormat, EmptySpectrumRoundTrips) {
  TempDir dir;
  write_gzoltar(SpectrumBuilder().finish(), dir / "txt");
  EXPECT_EQ(read_file(dir / "txt/spectra.csv"), "name\n");
  EXPECT_EQ(read_file(dir / "txt/matrix.txt"), "");
  const Spectrum back = read_gzoltar(dir / "txt");
  EXPECT_EQ(back.element_count(), 0u);
  EXPECT_EQ(back.test_count(), 0u);
}

TEST(GzoltarFormat, TestsWithoutElementsHaveOutcomeOnlyRows) {
  TempDir dir;
  SpectrumBuilder b;
  b.add_test(TestCase::pass("a"), {});
  b.add_test(TestCase::fail("b"), {});
  write_gzoltar(std::move(b).finish(), dir / "txt");
  EXPECT_EQ(read_file(dir / "txt/matrix.txt"), "+\n-\n");
  EXPECT_EQ(read_gzoltar(dir / "txt").test_count(), 2u);
}

TEST(GzoltarFormat, FlakyTestsAreWrittenAsFailuresAndCounted) {
  TempDir dir;
  SpectrumBuilder b;
  b.add_element("a.cpp", 1);
  b.add_test(TestCase::flaky("sometimes", 1, 4), {0});
  b.add_test(TestCase::flaky("never", 0, 4), {0});
  b.add_test(TestCase::fail("always"), {0});
  EXPECT_EQ(write_gzoltar(std::move(b).finish(), dir / "txt"), 1u);
  EXPECT_EQ(read_file(dir / "txt/matrix.txt"), "1 -\n1 +\n1 -\n");
  const Spectrum back = read_gzoltar(dir / "txt");
  EXPECT_EQ(back.tests()[0].failure_weight, 1.0);
  EXPECT_EQ(back.tests()[1].failure_weight, 0.0);
}

TEST(GzoltarFormat, AcceptsThePathOfMatrixTxt) {
  TempDir dir;
  write_gzoltar(small_java_spectrum(), dir / "txt");
  EXPECT_EQ(read_gzoltar(dir / "txt/matrix.txt").element_count(), 3u);
}

TEST(GzoltarFormat, ReplacesAnEarlierOutput) {
  TempDir dir;
  write_gzoltar(sample_spectrum(), dir / "txt");
  write_gzoltar(small_java_spectrum(), dir / "txt");
  EXPECT_EQ(read_gzoltar(dir / "txt").element_count(), 3u);
}

TEST(GzoltarFormat, FailedWriteLeavesNothingBehind) {
  TempDir dir;
  SpectrumBuilder b;
  b.add_element("bad\nname.cpp", 1);
  b.add_test(TestCase::pass("t"), {0});
  try {
    write_gzoltar(std::move(b).finish(), dir / "txt");
    FAIL() << "expected dlfl::Error";
  } catch (const Error& e) {
    EXPECT_TRUE(starts_with(e.what(), (dir / "txt/spectra.csv").string() + ": ")) << e.what();
  }
  EXPECT_TRUE(dir.listing().empty());
  EXPECT_THROW(write_gzoltar(sample_spectrum(), dir / "missing/txt"), Error);
  EXPECT_TRUE(dir.listing().empty());
}

// ---------------------------------------------------------------------------------------
// Reading what other tools write

class GzoltarInput : public ::testing::Test {
 protected:
  void write(const std::string& spectra, const std::string& matrix, const std::string& tests) {
    write_file(dir_ / "spectra.csv", spectra);
    write_file(dir_ / "matrix.txt", matrix);
    write_file(dir_ / "tests.csv", tests);
  }
  Spectrum read(std::vector<FaultMark>* marks = nullptr) { return read_gzoltar(dir_.path(), marks); }
  // The message of the dlfl::Error that reading throws ("" when it does not).
  std::string error() {
    try {
      read();
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
  std::string path(const char* name) const { return (dir_ / name).string(); }

  TempDir dir_;
  const std::string header_ = "name,outcome,runtime,stacktrace\n";
};

TEST_F(GzoltarInput, MultiLineStackTracesContinueTheirTest) {
  write("name\na$B#c():1\n", "1 -\n0 +\n",
        header_ +
            "p.T#one,FAIL,12,java.lang.AssertionError: expected:<1,2> but\n"
            "was:<3>\n"
            "\tat p.T.one(T.java:5)\n"
            "\n"
            "\tat more\n"
            "p.T#two,PASS,7,\n");
  const Spectrum s = read();
  ASSERT_EQ(s.test_count(), 2u);
  EXPECT_EQ(s.tests()[0].message,
            "java.lang.AssertionError: expected:<1,2> but\nwas:<3>\n\tat p.T.one(T.java:5)\n\n\tat more");
  EXPECT_EQ(s.tests()[0].runtime_ns, 12u);
  EXPECT_EQ(s.tests()[1].name, "p.T#two");
}

TEST_F(GzoltarInput, ErrorOutcomeShortRecordsAndCrlfAreAccepted) {
  write("name\r\na$B#c():1\r\n", "1 -\r\n1 -\r\n1 +\r\n",
        "name,outcome,runtime,stacktrace\r\np.T#a,ERROR,,\r\np.T#b,FAIL\r\np.T#c,PASS,,\r\n");
  const Spectrum s = read();
  ASSERT_EQ(s.test_count(), 3u);
  EXPECT_TRUE(s.tests()[0].failed());
  EXPECT_TRUE(s.tests()[1].failed());
  EXPECT_FALSE(s.tests()[2].failed());
  EXPECT_EQ(s.element_name(0), "a$B#c():1");
}

// Issue #14: a BOM was accepted by the ranking readers but refused here.
TEST_F(GzoltarInput, ByteOrderMarksAreSkippedInEveryFile) {
  write("\xEF\xBB\xBFname\na$B#c():1\n", "\xEF\xBB\xBF" "1 -\n0 +\n",
        "\xEF\xBB\xBF" + header_ + "p.T#a,FAIL,,\np.T#b,PASS,,\n");
  const Spectrum s = read();
  ASSERT_EQ(s.test_count(), 2u);
  EXPECT_EQ(s.tests()[0].name, "p.T#a");
  EXPECT_EQ(s.element_name(0), "a$B#c():1");
}

TEST_F(GzoltarInput, OverlongElementNameIsRefusedWithTheLimit) {
  write("name\n" + std::string((std::size_t{1} << 20) + 1, 'n') + "\n", "1 -\n", header_ + "p.T#a,FAIL,,\n");
  // Refused as the line is read (spectra.csv is streamed), not after the file is loaded.
  EXPECT_EQ(error(), path("spectra.csv") + ":2: element name longer than the 1 MiB limit");
}

TEST_F(GzoltarInput, DirectoryInPlaceOfAFileIsNamed) {
  write("name\na#b:1\n", "1 -\n", header_ + "p.T#a,FAIL,,\n");
  std::filesystem::remove(dir_ / "tests.csv");
  std::filesystem::create_directory(dir_ / "tests.csv");
  EXPECT_EQ(error(), path("tests.csv") + ": is a directory, expected a file");
}

TEST_F(GzoltarInput, FlitsrFaultMarksAreCutOffAndReported) {
  write("name\norg$A#m():37:1\norg$A#n():38\norg$A#k(int):40:2:3\n", "1 1 1 -\n",
        header_ + "t,FAIL,1,\n");
  std::vector<FaultMark> marks;
  const Spectrum s = read(&marks);
  EXPECT_EQ(s.element_name(0), "org$A#m():37");
  EXPECT_EQ(s.element(0).first_line, 37u);
  EXPECT_EQ(s.function(0), "m()");
  EXPECT_EQ(s.element_name(2), "org$A#k(int):40");
  ASSERT_EQ(marks.size(), 2u);
  EXPECT_EQ(marks[0].element, 0u);
  EXPECT_EQ(marks[0].bug, "1");
  EXPECT_EQ(marks[1].element, 2u);
  EXPECT_EQ(marks[1].bug, "2:3");
}

TEST_F(GzoltarInput, CppNamesWithDoubleColonsAreNotMistakenForMarks) {
  write("name\nsrc/a.cpp#ns::f(int):12\nsrc/a.cpp#ns::g():3:7\n", "1 1 -\n", header_ + "t,FAIL,1,\n");
  std::vector<FaultMark> marks;
  const Spectrum s = read(&marks);
  EXPECT_TRUE(marks.empty());
  EXPECT_EQ(s.function(0), "ns::f(int)");
  EXPECT_EQ(s.element(0).first_line, 12u);
}

TEST_F(GzoltarInput, LegacyStyleLineNamesKeepTheirName) {
  write("name\norg.pkg.Class#123\n", "1 -\n", header_ + "t,FAIL,1,\n");
  const Spectrum s = read();
  EXPECT_EQ(s.element_name(0), "org.pkg.Class#123");
  EXPECT_EQ(s.file(0), "org.pkg.Class");
  EXPECT_EQ(s.element(0).first_line, 123u);
}

TEST_F(GzoltarInput, RaggedRowNamesFileAndLine) {
  write("name\na#f:1\na#f:2\na#f:3\n", "1 0 1 +\n1 0 -\n", header_ + "t1,PASS,1,\nt2,FAIL,1,\n");
  EXPECT_TRUE(starts_with(error(), path("matrix.txt") + ":2: row has 2 cells, expected 3")) << error();
}

TEST_F(GzoltarInput, TooWideRowIsAnError) {
  write("name\na#f:1\n", "1 0 +\n", header_ + "t1,PASS,1,\n");
  EXPECT_TRUE(starts_with(error(), path("matrix.txt") + ":1: row has 2 cells, expected 1")) << error();
}

TEST_F(GzoltarInput, CellsMustBeZeroOrOne) {
  write("name\na#f:1\na#f:2\n", "1 2 +\n", header_ + "t1,PASS,1,\n");
  EXPECT_TRUE(starts_with(error(), path("matrix.txt") + ":1: cell 2 is '2'")) << error();
  write("name\na#f:1\na#f:2\n", "x 0 +\n", header_ + "t1,PASS,1,\n");
  EXPECT_TRUE(starts_with(error(), path("matrix.txt") + ":1: cell 1 is 'x'")) << error();
  write("name\na#f:1\na#f:2\n", "10 0 +\n", header_ + "t1,PASS,1,\n");
  EXPECT_TRUE(starts_with(error(), path("matrix.txt") + ":1: cell 1 is '10'")) << error();
}

TEST_F(GzoltarInput, RowsMustEndWithAnOutcome) {
  write("name\na#f:1\n", "1\n", header_ + "t1,PASS,1,\n");
  EXPECT_TRUE(starts_with(error(), path("matrix.txt") + ":1: row ends without an outcome")) << error();
  write("name\na#f:1\n", "1 + 1\n", header_ + "t1,PASS,1,\n");
  EXPECT_TRUE(starts_with(error(), path("matrix.txt") + ":1: unexpected '1' after")) << error();
}

TEST_F(GzoltarInput, UnknownOutcomeIsAnError) {
  write("name\na#f:1\n", "1 +\n", header_ + "t1,SKIPPED,1,\n");
  EXPECT_TRUE(starts_with(error(), path("tests.csv") + ":2: unknown outcome 'SKIPPED'")) << error();
}

TEST_F(GzoltarInput, MalformedTestLineIsAnError) {
  write("name\na#f:1\n", "1 +\n", header_ + "just a name\n");
  EXPECT_TRUE(starts_with(error(), path("tests.csv") + ":2: expected name,outcome")) << error();
  write("name\na#f:1\n", "1 +\n", header_ + "t1,PASS,fast,\n");
  EXPECT_TRUE(starts_with(error(), path("tests.csv") + ":2: runtime 'fast'")) << error();
}

TEST_F(GzoltarInput, FewerRowsThanTestsIsAnError) {
  write("name\na#f:1\n", "1 +\n", header_ + "t1,PASS,1,\nt2,FAIL,1,\n");
  EXPECT_TRUE(starts_with(error(), path("matrix.txt") + ":2: matrix has 1 rows, but tests.csv lists 2"))
      << error();
}

TEST_F(GzoltarInput, MoreRowsThanTestsIsAnError) {
  write("name\na#f:1\n", "1 +\n0 -\n", header_ + "t1,PASS,1,\n");
  EXPECT_TRUE(starts_with(error(), path("matrix.txt") + ":2: more matrix rows than tests")) << error();
}

TEST_F(GzoltarInput, MatrixOutcomeMustAgreeWithTestsCsv) {
  write("name\na#f:1\n", "1 -\n", header_ + "t1,PASS,1,\n");
  EXPECT_TRUE(starts_with(error(), path("matrix.txt") + ":1: outcome - disagrees")) << error();
}

TEST_F(GzoltarInput, HeadersAreRequired) {
  write("a#f:1\n", "1 +\n", header_ + "t1,PASS,1,\n");
  EXPECT_TRUE(starts_with(error(), path("spectra.csv") + ":1: expected the header")) << error();
  write("name\na#f:1\n", "1 +\n", "t1,PASS,1,\n");
  EXPECT_TRUE(starts_with(error(), path("tests.csv") + ":1: expected the header")) << error();
}

TEST_F(GzoltarInput, BlankLineInsideTheElementListIsAnError) {
  write("name\na#f:1\n\na#f:2\n", "1 1 +\n", header_ + "t1,PASS,1,\n");
  EXPECT_TRUE(starts_with(error(), path("spectra.csv") + ":3: empty element name")) << error();
}

TEST_F(GzoltarInput, TrailingBlankLinesAreIgnored) {
  write("name\na#f:1\n\n\n", "1 +\n\n", header_ + "t1,PASS,1,\n\n");
  EXPECT_EQ(read().element_count(), 1u);
}

TEST_F(GzoltarInput, MissingFileNamesTheFile) {
  write("name\na#f:1\n", "1 +\n", header_ + "t1,PASS,1,\n");
  fs::remove(dir_ / "tests.csv");
  EXPECT_TRUE(starts_with(error(), path("tests.csv") + ": cannot read")) << error();
  EXPECT_THROW(read_gzoltar(dir_ / "nope"), Error);
}

}  // namespace
}  // namespace dlfl::io
