// Tests for GZoltar's legacy matrix/spectra pair: no headers, tests named test_N.
#include "dlfl/formats/legacy_format.h"

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

TEST(LegacyFormat, ReadsDefects4JStyleFiles) {
  TempDir dir;
  write_file(dir / "spectra", "org.jfree.chart.Foo#12\norg.jfree.chart.Foo#13\norg.jfree.Bar#7\n");
  write_file(dir / "matrix", "1 1 0 +\n1 0 1 -\n0 0 0 +\n");
  const Spectrum s = read_legacy(dir.path());
  ASSERT_EQ(s.element_count(), 3u);
  ASSERT_EQ(s.test_count(), 3u);
  EXPECT_EQ(s.element_name(0), "org.jfree.chart.Foo#12");
  EXPECT_EQ(s.file(2), "org.jfree.Bar");
  EXPECT_EQ(s.element(2).first_line, 7u);
  EXPECT_EQ(s.tests()[0].name, "test_1");
  EXPECT_EQ(s.tests()[2].name, "test_3");
  EXPECT_TRUE(s.tests()[1].failed());
  EXPECT_FALSE(s.tests()[2].failed());
  EXPECT_EQ(CoverageRows(s.coverage()).row(1).size(), 2u);
}

TEST(LegacyFormat, ByteOrderMarksAreSkipped) {
  TempDir dir;
  write_file(dir / "spectra", "\xEF\xBB\xBF" "A#1\nA#2\n");
  write_file(dir / "matrix", "\xEF\xBB\xBF" "1 0 -\n0 1 +\n");
  const Spectrum s = read_legacy(dir.path());
  EXPECT_EQ(s.element_name(0), "A#1");
  EXPECT_EQ(s.test_count(), 2u);
}

TEST(LegacyFormat, PathMayNameTheMatrixFile) {
  TempDir dir;
  write_file(dir / "spectra", "A#1\n");
  write_file(dir / "matrix", "1 -\n");
  EXPECT_EQ(read_legacy(dir / "matrix").test_count(), 1u);
}

TEST(LegacyFormat, WritesHeaderlessFiles) {
  TempDir dir;
  SpectrumBuilder b;
  b.add_element("A", 1, 1, {}, "A#1");
  b.add_element("A", 2, 2, {}, "A#2");
  b.add_test(TestCase::fail("named"), {1});
  EXPECT_EQ(write_legacy(std::move(b).finish(), dir / "matrix"), 0u);
  EXPECT_EQ(read_file(dir / "spectra"), "A#1\nA#2\n");
  EXPECT_EQ(read_file(dir / "matrix"), "0 1 -\n");
  EXPECT_EQ(dir.listing(), (std::vector<std::string>{"matrix", "spectra"}));
}

TEST(LegacyFormat, RoundTripLosesOnlyTestNamesAndDetails) {
  TempDir dir;
  const Spectrum original = sample_spectrum();
  write_legacy(original, dir / "out");
  const Spectrum back = read_legacy(dir / "out");
  expect_same_spectrum(original, back, Compare{.last_line = true, .test_names = false, .test_details = false});
  EXPECT_EQ(back.tests()[1].name, "test_2");
  EXPECT_EQ(back.element(2).kind, ElementKind::extrinsic);
}

TEST(LegacyFormat, EmptySpectrumRoundTrips) {
  TempDir dir;
  write_legacy(SpectrumBuilder().finish(), dir / "matrix");
  EXPECT_EQ(read_file(dir / "matrix"), "");
  const Spectrum back = read_legacy(dir / "matrix");
  EXPECT_EQ(back.element_count(), 0u);
  EXPECT_EQ(back.test_count(), 0u);
}

TEST(LegacyFormat, FlakyTestsBecomeFailures) {
  TempDir dir;
  SpectrumBuilder b;
  b.add_element("a.cpp", 1);
  b.add_test(TestCase::flaky("t", 2, 3), {0});
  EXPECT_EQ(write_legacy(std::move(b).finish(), dir / "matrix"), 1u);
  EXPECT_EQ(read_legacy(dir.path()).tests()[0].failure_weight, 1.0);
}

TEST(LegacyFormat, BadRowsNameFileAndLine) {
  TempDir dir;
  write_file(dir / "spectra", "A#1\nA#2\n");
  write_file(dir / "matrix", "1 0 +\n1 -\n");
  try {
    read_legacy(dir.path());
    FAIL() << "expected dlfl::Error";
  } catch (const Error& e) {
    EXPECT_TRUE(starts_with(e.what(), (dir / "matrix").string() + ":2: row has 1 cells, expected 2"))
        << e.what();
  }
  write_file(dir / "matrix", "1 0 +\n\n1 1 -\n");
  try {
    read_legacy(dir.path());
    FAIL() << "expected dlfl::Error";
  } catch (const Error& e) {
    EXPECT_TRUE(starts_with(e.what(), (dir / "matrix").string() + ":2: empty matrix row")) << e.what();
  }
}

TEST(LegacyFormat, MissingSpectraFileNamesIt) {
  TempDir dir;
  write_file(dir / "matrix", "+\n");
  try {
    read_legacy(dir / "matrix");
    FAIL() << "expected dlfl::Error";
  } catch (const Error& e) {
    EXPECT_TRUE(starts_with(e.what(), (dir / "spectra").string() + ": cannot read")) << e.what();
  }
}

}  // namespace
}  // namespace dlfl::io
