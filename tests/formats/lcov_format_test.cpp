// Tests for the lcov interchange: exact round trip, geninfo-style input, errors with
// file:line, and genhtml --show-details accepting what dlfl writes.
#include "dlfl/formats/lcov_format.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "dlfl/error.h"
#include "dlfl/formats/spectrum_formats.h"
#include "../support/io_test_support.h"

namespace dlfl::io {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using iotest::TempDir;

// Two files; a lambda's lines interrupt its enclosing function; a line outside any
// function; an element no test runs; a test that runs nothing; names genhtml would
// rewrite, two of which collide once rewritten.
Spectrum lcov_spectrum() {
  SpectrumBuilder b;
  b.add_element("src/grid.cpp", 10, 10, "tl::compute_grid(long, long)");          // 0
  b.add_element("src/grid.cpp", 11, 11, "tl::compute_grid(long, long)::{lambda()#1}");  // 1
  b.add_element("src/grid.cpp", 12, 12, "tl::compute_grid(long, long)");          // 2
  b.add_element("src/grid.cpp", 30, 30, "tl::tile(long)");                        // 3
  b.add_element("/abs/include/t.h", 3, 3, "");                                    // 4
  b.add_element("/abs/include/t.h", 7, 7, "tl::T::size() const");                 // 5, never run
  b.add_test(TestCase::fail("Grid.Ceil/0"), {0, 1, 2, 4});
  b.add_test(TestCase::fail("Grid.Crash", TestStatus::crashed), {0, 3});
  b.add_test(TestCase::fail("Grid_Crash", TestStatus::timed_out), {3});
  b.add_test(TestCase::flaky("Grid.Flaky", 1, 3), {2});
  b.add_test(TestCase::pass("Tile, \"quoted\""), {3, 4});
  b.add_test(TestCase::pass("Nothing.Run"), {});
  return std::move(b).finish();
}

void expect_same_outcomes(const Spectrum& a, const Spectrum& b) {
  ASSERT_EQ(a.test_count(), b.test_count());
  for (std::size_t t = 0; t < a.test_count(); ++t) {
    EXPECT_EQ(a.tests()[t].failure_weight, b.tests()[t].failure_weight) << t;
    EXPECT_EQ(a.tests()[t].status, b.tests()[t].status) << t;
  }
}

TEST(LcovFormat, RoundTripIsExact) {
  TempDir dir;
  const Spectrum original = lcov_spectrum();
  EXPECT_EQ(write_lcov(original, dir / "s.info"), 0u);
  const Spectrum back = read_lcov(dir / "s.info");
  iotest::expect_same_spectrum(original, back, {.test_details = false});
  expect_same_outcomes(original, back);
  // The same through the format-agnostic entry points.
  EXPECT_EQ(detect_spectrum_format(dir / "s.info"), SpectrumFormat::lcov);
  EXPECT_EQ(infer_output_format(dir / "t.lcov"), SpectrumFormat::lcov);
  write_spectrum(back, dir / "t.lcov", SpectrumFormat::lcov);
  EXPECT_EQ(iotest::read_file(dir / "t.lcov"), iotest::read_file(dir / "s.info"));
}

TEST(LcovFormat, WritesABaselineAndOneSectionPerTest) {
  TempDir dir;
  write_lcov(lcov_spectrum(), dir / "s.info");
  std::string text = iotest::read_file(dir / "s.info");
  // First a comment naming the sidecar written with it (tests/formats/companion_files_test.cpp).
  EXPECT_THAT(text, ::testing::StartsWith("# dlfl companion .tests.csv "));
  text.erase(0, text.find('\n') + 1);
  EXPECT_THAT(text, ::testing::StartsWith("TN:\nSF:src/grid.cpp\nFN:10,tl::compute_grid(long, long)\n"
                                          "FN:11,tl::compute_grid(long, long)::{lambda()#1}\n"
                                          "FN:12,tl::compute_grid(long, long)\nFN:30,tl::tile(long)\n"
                                          "DA:10,0\nDA:11,0\nDA:12,0\nDA:30,0\nLF:4\nLH:0\nend_of_record\n"));
  EXPECT_THAT(text, HasSubstr("TN:Grid_Ceil_0\nSF:src/grid.cpp\nFNDA:1,tl::compute_grid(long, long)\n"
                              "FNDA:1,tl::compute_grid(long, long)::{lambda()#1}\nDA:10,1\nDA:11,1\nDA:12,1\n"
                              "LF:3\nLH:3\nend_of_record\nSF:/abs/include/t.h\nDA:3,1\nLF:1\nLH:1\nend_of_record\n"));
  // Grid.Crash and Grid_Crash both become Grid_Crash: the second gets a suffix.
  EXPECT_THAT(text, HasSubstr("TN:Grid_Crash\n"));
  EXPECT_THAT(text, HasSubstr("TN:Grid_Crash_2\n"));
  EXPECT_TRUE(text.ends_with("TN:Nothing_Run\n"));  // a test that ran nothing is a bare TN
  EXPECT_EQ(iotest::read_file(dir / "s.tests.csv"),
            "name,outcome,failure_weight\nGrid.Ceil/0,FAIL,1\nGrid.Crash,CRASH,1\nGrid_Crash,TIMEOUT,1\n"
            "Grid.Flaky,FLAKY,0.3333333333333333\n\"Tile, \"\"quoted\"\"\",PASS,0\nNothing.Run,PASS,0\n");
}

TEST(LcovFormat, TestNamesAsLcovHoldsThem) {
  EXPECT_THAT(lcov_test_names({"a.b", "a_b", "a b", "ok_1"}), ElementsAre("a_b", "a_b_2", "a_b_3", "ok_1"));
}

TEST(LcovFormat, ReadsGeninfoStyleTracefiles) {
  TempDir dir;
  // What `lcov -c -t NAME` per test and `lcov -a` give: absolute paths, several
  // sections of one test, line checksums, lcov 2.x FN with an end line, a negative count,
  // records dlfl skips; with a BOM and CRLF line ends.
  iotest::write_file(dir / "t.info",
                     "\xEF\xBB\xBFTN:first\r\nSF:/src/a.cpp\r\nFN:1,5,f(int, int)\r\nFNDA:1,f(int, int)\r\n"
                     "FNF:1\r\nFNH:1\r\nDA:2,3,abcdef\r\nDA:3,0\r\nBRDA:2,0,0,1\r\nLF:2\r\nLH:1\r\nend_of_record\r\n"
                     "TN:second\r\nSF:/src/a.cpp\r\nDA:2,0\r\nDA:3,-1\r\nend_of_record\r\nSF:/src/b.cpp\r\n"
                     "FN:10,g\r\nDA:11,1\r\nend_of_record\r\nTN:first\r\nSF:/src/b.cpp\r\nDA:11,2\r\n"
                     "end_of_record\r\n");
  iotest::write_file(dir / "t.tests.csv", "name,outcome,failure_weight\nsecond,PASS,0\nfirst,FAIL,1\nthird,PASS,0\n");
  const Spectrum s = read_lcov(dir / "t.info");
  ASSERT_EQ(s.element_count(), 3u);
  EXPECT_EQ(s.element_name(0), "/src/a.cpp#f(int, int):2");
  EXPECT_EQ(s.element_name(1), "/src/a.cpp#f(int, int):3");
  EXPECT_EQ(s.element_name(2), "/src/b.cpp#g:11");
  ASSERT_EQ(s.test_count(), 3u);
  EXPECT_EQ(s.tests()[1].name, "first");
  EXPECT_TRUE(s.tests()[1].failed());
  auto tests_of = [&](std::uint32_t e) {
    const auto t = s.coverage().tests_of(e);
    return std::vector<std::uint32_t>(t.begin(), t.end());
  };
  EXPECT_THAT(tests_of(0), ElementsAre(1));     // first: count 3
  EXPECT_THAT(tests_of(1), ElementsAre());      // 0 and -1
  EXPECT_THAT(tests_of(2), ElementsAre(0, 1));  // second, and first's second section
}

struct BadTrace {
  std::string body;
  std::string error;  // expected what(), after the file name
};

class LcovErrors : public ::testing::TestWithParam<BadTrace> {};

TEST_P(LcovErrors, OneLineWithFileAndLine) {
  TempDir dir;
  iotest::write_file(dir / "bad.info", GetParam().body);
  iotest::write_file(dir / "bad.tests.csv", "name,outcome,failure_weight\nt,FAIL,1\n");
  try {
    read_lcov(dir / "bad.info");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), (dir / "bad.info").string() + ":" + GetParam().error);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, LcovErrors,
    ::testing::Values(
        BadTrace{"TN:t\nSF:a.cpp\nDA:1,1\nSF:b.cpp\nDA:2,1\nend_of_record\n",
                 "4: SF inside the SF record of line 2: missing end_of_record"},
        BadTrace{"TN:t\nSF:a.cpp\nDA:1,1\nTN:t\n", "4: TN inside the SF record of line 2: missing end_of_record"},
        BadTrace{"TN:t\nSF:a.cpp\nDA:1,1\n",
                 "2: the SF record that starts here has no end_of_record (the file ends inside it)"},
        BadTrace{"TN:t\nDA:1,1\n", "2: DA outside an SF record"},
        BadTrace{"TN:t\nSF:a.cpp\nend_of_record\nFN:3,f\n", "4: FN outside an SF record"},
        BadTrace{"TN:t\nSF:a.cpp\nDA:1,many\nend_of_record\n", "3: execution count 'many' is not a number"},
        BadTrace{"TN:t\nSF:a.cpp\nDA:x1,1\nend_of_record\n", "3: line number 'x1' is not a number"},
        BadTrace{"TN:t\nSF:a.cpp\nDA:0,1\nend_of_record\n", "3: line numbers start at 1"},
        BadTrace{"TN:t\nSF:a.cpp\nDA:5\nend_of_record\n", "3: expected DA:LINE,..."},
        BadTrace{"TN:u\nSF:a.cpp\nDA:1,1\nend_of_record\n", "1: test 'u' is not in bad.tests.csv"},
        BadTrace{"end_of_record\n", "1: end_of_record without an SF record"},
        BadTrace{"TN:t\nSF:a.cpp\nthis is no record\nend_of_record\n",
                 "3: expected an lcov record KEY:VALUE or end_of_record, found 'this is no record'"},
        BadTrace{"TN:t\n:1,1\n", "2: expected an lcov record KEY:VALUE or end_of_record, found ':1,1'"},
        BadTrace{"TN:t\nSF:a.cpp\nDA:1,1\nend_of_record\n" + std::string(300, 'x'),
                 "5: expected an lcov record KEY:VALUE or end_of_record, found '" + std::string(60, 'x') + "...'"},
        BadTrace{std::string("TN:t\nSF:a\0.cpp\n", 15), "2: NUL byte: not an lcov tracefile"}));

TEST(LcovFormat, ATracefileWithoutARecordIsAnError) {
  TempDir dir;
  iotest::write_file(dir / "t.tests.csv", "name,outcome,failure_weight\nt,FAIL,1\n");
  for (const std::string& body : {std::string(), std::string("\n\n"), std::string(1 << 20, '\0')}) {
    iotest::write_file(dir / "t.info", body);
    EXPECT_THROW(read_lcov(dir / "t.info"), Error);
  }
  iotest::write_file(dir / "t.info", "\n");
  EXPECT_THAT([&] { read_lcov(dir / "t.info"); },
              ::testing::ThrowsMessage<Error>(::testing::StartsWith(
                  (dir / "t.info").string() + ": holds no lcov record (TN:, SF:, DA:, ..., end_of_record)")));
  // Record types dlfl does not use, lcov 2.x's among them, are still records.
  iotest::write_file(dir / "t.info", "VER:2\nTN:t\nSF:a.cpp\nFNL:0,1,2\nDA:1,1\nend_of_record\n");
  EXPECT_EQ(read_lcov(dir / "t.info").element_count(), 1u);
}

TEST(LcovFormat, MissingSidecarNamesIt) {
  TempDir dir;
  iotest::write_file(dir / "x.info", "TN:t\nSF:a.cpp\nDA:1,1\nend_of_record\n");
  try {
    read_lcov(dir / "x.info");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("x.tests.csv"));
  }
}

TEST(LcovFormat, RefusesWhatLcovCannotHold) {
  TempDir dir;
  SpectrumBuilder extrinsic;
  extrinsic.add_extrinsic("device=cuda");
  extrinsic.add_test(TestCase::fail("t"), {0});
  EXPECT_THROW(write_lcov(std::move(extrinsic).finish(), dir / "a.info"), Error);
  SpectrumBuilder block;
  block.add_element("a.cpp", 3, 5, "f");
  block.add_test(TestCase::fail("t"), {0});
  EXPECT_THROW(write_lcov(std::move(block).finish(), dir / "b.info"), Error);
  SpectrumBuilder twice;
  twice.add_element("a.cpp", 3, 3, "f");
  twice.add_element("a.cpp", 3, 3, "g");
  twice.add_test(TestCase::fail("t"), {0});
  EXPECT_THROW(write_lcov(std::move(twice).finish(), dir / "c.info"), Error);
  EXPECT_THAT(dir.listing(), ::testing::IsEmpty());  // nothing half-written
}

// genhtml (Debian's lcov) renders the per-test file with --show-details.
TEST(LcovFormat, GenhtmlShowDetailsAcceptsIt) {
  if (std::system("genhtml --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "genhtml is not installed (Debian lcov)";
  TempDir dir;
  // genhtml reads the sources: give it files with enough lines.
  std::string lines;
  for (int i = 1; i <= 40; ++i) lines += "int line" + std::to_string(i) + ";\n";
  fs::create_directories(dir / "src");
  fs::create_directories(dir / "abs");
  iotest::write_file(dir / "src/grid.cpp", lines);
  iotest::write_file(dir / "abs/t.h", lines);
  SpectrumBuilder b;
  b.add_element("src/grid.cpp", 10, 10, "tl::compute_grid(long)");
  b.add_element("src/grid.cpp", 30, 30, "tl::tile(long)");
  b.add_element((dir / "abs/t.h").string(), 3, 3, "");
  b.add_test(TestCase::fail("Grid.Ceil/0"), {0, 2});
  b.add_test(TestCase::pass("Tile.Pass"), {1, 2});
  write_lcov(std::move(b).finish(), dir / "s.info");
  const std::string command = "cd " + dir.path().string() + " && genhtml --show-details --quiet -o html s.info > genhtml.log 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << iotest::read_file(dir / "genhtml.log");
  EXPECT_TRUE(fs::exists(dir / "html/index.html"));
  // --show-details: the directory's detail page lists each file's tests.
  const std::string details = iotest::read_file(dir / "html/src/index-detail.html");
  EXPECT_THAT(details, HasSubstr("Grid_Ceil_0"));
  EXPECT_THAT(details, HasSubstr("Tile_Pass"));
  EXPECT_THAT(iotest::read_file(dir / "genhtml.log"), ::testing::Not(HasSubstr("WARNING")));
}

}  // namespace
}  // namespace dlfl::io
