// Tests for format names, detection and the read/write dispatch.
#include "dlfl/formats/spectrum_formats.h"

#include <gtest/gtest.h>

#include "dlfl/error.h"
#include "../support/io_test_support.h"

namespace dlfl::io {
namespace {

using iotest::expect_same_spectrum;
using iotest::sample_spectrum;
using iotest::TempDir;
using iotest::write_file;

TEST(SpectrumFormats, NamesParseCaseInsensitively) {
  EXPECT_EQ(parse_spectrum_format("gzoltar"), SpectrumFormat::gzoltar);
  EXPECT_EQ(parse_spectrum_format("Legacy"), SpectrumFormat::legacy);
  EXPECT_EQ(parse_spectrum_format("NATIVE"), SpectrumFormat::native);
  EXPECT_EQ(parse_spectrum_format("lcov"), SpectrumFormat::lcov);
  EXPECT_EQ(spectrum_format_name(SpectrumFormat::legacy), "legacy");
  try {
    parse_spectrum_format("csv");
    FAIL() << "expected dlfl::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("gzoltar, legacy, native, matrix-market or lcov"), std::string::npos);
  }
}

TEST(SpectrumFormats, OutputFormatFollowsThePath) {
  EXPECT_EQ(infer_output_format("run/s.dlfl"), SpectrumFormat::native);
  EXPECT_EQ(infer_output_format("run/matrix"), SpectrumFormat::legacy);
  EXPECT_EQ(infer_output_format("run/sfl/txt"), SpectrumFormat::gzoltar);
}

TEST(SpectrumFormats, EveryFormatRoundTripsThroughDetection) {
  TempDir dir;
  const Spectrum original = sample_spectrum();
  const std::pair<fs::path, SpectrumFormat> outputs[] = {
      {dir / "txt", SpectrumFormat::gzoltar},
      {dir / "legacy/matrix", SpectrumFormat::legacy},
      {dir / "s.dlfl", SpectrumFormat::native},
  };
  fs::create_directory(dir / "legacy");
  for (const auto& [path, format] : outputs) {
    SCOPED_TRACE(path.string());
    EXPECT_EQ(write_spectrum(original, path, infer_output_format(path)), 0u);
    EXPECT_EQ(detect_spectrum_format(path), format);
    const Spectrum back = read_spectrum(path);
    expect_same_spectrum(original, back,
                         {.last_line = true,
                          .test_names = format != SpectrumFormat::legacy,
                          .test_details = format != SpectrumFormat::legacy});
  }
  EXPECT_EQ(detect_spectrum_format(dir / "legacy"), SpectrumFormat::legacy);
  EXPECT_EQ(detect_spectrum_format(dir / "txt/matrix.txt"), SpectrumFormat::gzoltar);
}

TEST(SpectrumFormats, FlakyTestsAreCountedByLossyFormatsOnly) {
  TempDir dir;
  SpectrumBuilder b;
  b.add_element("a.cpp", 1);
  b.add_test(TestCase::flaky("t", 1, 2), {0});
  const Spectrum s = std::move(b).finish();
  EXPECT_EQ(write_spectrum(s, dir / "txt", SpectrumFormat::gzoltar), 1u);
  EXPECT_EQ(write_spectrum(s, dir / "s.dlfl", SpectrumFormat::native), 0u);
  EXPECT_EQ(read_spectrum(dir / "s.dlfl").tests()[0].failure_weight, 0.5);
}

TEST(SpectrumFormats, UndetectablePathsAreErrorsNamingThem) {
  TempDir dir;
  write_file(dir / "notes.txt", "hello");
  for (const auto& path : {dir / "notes.txt", dir / "missing", dir.path()}) {
    try {
      detect_spectrum_format(path);
      FAIL() << "expected dlfl::Error for " << path;
    } catch (const Error& e) {
      EXPECT_TRUE(iotest::starts_with(e.what(), path.string() + ": ")) << e.what();
    }
  }
}

}  // namespace
}  // namespace dlfl::io
