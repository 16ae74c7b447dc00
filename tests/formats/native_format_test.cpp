// Tests for the native binary format: lossless round trips, mapped views, and clear
// errors for truncated, foreign or corrupted files.
#include "dlfl/formats/native_format.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>

#include "dlfl/error.h"
#include "dlfl/failing_coverage.h"
#include "../support/io_test_support.h"

namespace dlfl::io {
namespace {

using iotest::expect_same_spectrum;
using iotest::read_file;
using iotest::sample_spectrum;
using iotest::starts_with;
using iotest::TempDir;
using iotest::write_file;

Spectrum flaky_spectrum() {
  SpectrumBuilder b;
  b.add_element("src/conv.cu", 10, 14, "conv2d_kernel");
  b.add_extrinsic("dtype=half");
  b.add_element("src/x.cpp", 3);
  TestCase t = TestCase::flaky("ConvTest.Half", 3, 10);
  t.runtime_ns = 99;
  t.message = "mismatch at [3]";
  b.add_test(t, {0, 1});
  TestCase crash = TestCase::fail("ConvTest.Crash", TestStatus::crashed);
  crash.message = "SIGSEGV";
  b.add_test(crash, {0, 2});
  b.add_test(TestCase::pass("ConvTest.Float"), {0});
  return std::move(b).finish();
}

std::string error_of(const fs::path& path, NativeReadOptions options = {}) {
  try {
    read_native(path, options);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(NativeFormat, RoundTripIsLosslessIncludingFlakyTestsAndExtrinsicElements) {
  TempDir dir;
  const Spectrum original = flaky_spectrum();
  write_native(original, dir / "s.dlfl");
  const Spectrum back = read_native(dir / "s.dlfl");
  expect_same_spectrum(original, back);
  EXPECT_DOUBLE_EQ(back.tests()[0].failure_weight, 0.3);
  EXPECT_EQ(back.tests()[0].status, TestStatus::flaky);
  EXPECT_EQ(back.tests()[1].status, TestStatus::crashed);
  EXPECT_EQ(back.element(0).last_line, 14u);
  EXPECT_EQ(back.element(1).kind, ElementKind::extrinsic);
}

TEST(NativeFormat, SampleSpectrumRoundTrips) {
  TempDir dir;
  const Spectrum original = sample_spectrum();
  write_native(original, dir / "s.dlfl");
  expect_same_spectrum(original, read_native(dir / "s.dlfl"));
}

TEST(NativeFormat, EmptySpectrumRoundTrips) {
  TempDir dir;
  write_native(SpectrumBuilder().finish(), dir / "empty.dlfl");
  const Spectrum back = read_native(dir / "empty.dlfl");
  EXPECT_EQ(back.element_count(), 0u);
  EXPECT_EQ(back.test_count(), 0u);
  EXPECT_EQ(back.coverage().nnz(), 0u);
}

// The file a memory address is mapped from, per /proc/self/maps ("" for heap/anonymous).
std::string mapped_file_of(const void* address) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  while (std::getline(maps, line)) {
    std::uintptr_t lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx", &lo, &hi) != 2 || a < lo || a >= hi) continue;
    const auto slash = line.find('/');
    return slash == std::string::npos ? "" : line.substr(slash);
  }
  return "";
}

TEST(NativeFormat, ReadingMapsTheBigArraysInsteadOfCopying) {
  TempDir dir;
  const fs::path file = fs::canonical(dir.path()) / "s.dlfl";
  write_native(flaky_spectrum(), file);
  Spectrum back = read_native(file);
  // Every big array is a view into the mapping of the file itself, not a heap copy
  // (what Column::is_view() reports for the columns the reader builds).
  ASSERT_TRUE(back.coverage().is_dense()) << "small and dense: stored as bits";
  EXPECT_EQ(mapped_file_of(back.coverage().all_bits().data()), file.string());
  EXPECT_EQ(mapped_file_of(back.elements().data()), file.string());
  EXPECT_EQ(mapped_file_of(back.strings().offsets().data()), file.string());
  EXPECT_EQ(mapped_file_of(back.strings().blob().data()), file.string());
  // The test list is copied: tests are few and hold std::strings.
  EXPECT_EQ(mapped_file_of(back.tests()[0].name.data()), "");

  // The mapping outlives the file name and is shared by copies of the spectrum.
  fs::remove(file);
  const Spectrum copy = back;
  back = Spectrum();
  EXPECT_EQ(copy.element_name(0), "src/conv.cu#conv2d_kernel:10");
  EXPECT_EQ(CoverageRows(copy.coverage()).row(1)[1], 2u);
}

TEST(NativeFormat, SparseCoverageIsMappedToo) {
  TempDir dir;
  const fs::path file = fs::canonical(dir.path()) / "sparse.dlfl";
  SpectrumBuilder b;
  for (std::uint32_t line = 1; line <= 200; ++line) b.add_element("src/big.cpp", line);
  for (std::uint32_t t = 0; t < 100; ++t) b.add_test(TestCase::pass("t" + std::to_string(t)), {t, t + 100});
  const Spectrum s = std::move(b).finish();
  ASSERT_FALSE(s.coverage().is_dense());
  write_native(s, file);
  const Spectrum back = read_native(file);
  ASSERT_FALSE(back.coverage().is_dense());
  EXPECT_EQ(mapped_file_of(back.coverage().test_ids().data()), file.string());
  EXPECT_EQ(mapped_file_of(back.coverage().offsets().data()), file.string());
  expect_same_spectrum(s, back);
}

TEST(NativeFormat, MappingIsReleasedWithTheLastView) {
  TempDir dir;
  const fs::path file = fs::canonical(dir.path()) / "s.dlfl";
  write_native(flaky_spectrum(), file);
  const void* indices = nullptr;
  {
    const Spectrum back = read_native(file);
    indices = back.coverage().all_bits().data();
    EXPECT_EQ(mapped_file_of(indices), file.string());
  }
  EXPECT_NE(mapped_file_of(indices), file.string());
}

TEST(NativeFormat, FileStartsWithMagicAndVersion) {
  TempDir dir;
  write_native(flaky_spectrum(), dir / "s.dlfl");
  const std::string bytes = read_file(dir / "s.dlfl");
  ASSERT_GE(bytes.size(), 32u);
  EXPECT_EQ(bytes.substr(0, 8), "DLFLSPEC");
  std::uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  EXPECT_EQ(version, kNativeVersion);
  std::uint64_t size = 0;
  std::memcpy(&size, bytes.data() + 16, 8);
  EXPECT_EQ(size, bytes.size());
  EXPECT_TRUE(has_native_magic(dir / "s.dlfl"));
}

TEST(NativeFormat, WritingIsDeterministic) {
  TempDir dir;
  write_native(flaky_spectrum(), dir / "a.dlfl");
  write_native(flaky_spectrum(), dir / "b.dlfl");
  EXPECT_EQ(read_file(dir / "a.dlfl"), read_file(dir / "b.dlfl"));
}

TEST(NativeFormat, TruncatedFilesAreReportedAtEveryCutPoint) {
  TempDir dir;
  write_native(flaky_spectrum(), dir / "s.dlfl");
  const std::string bytes = read_file(dir / "s.dlfl");
  for (const std::size_t cut : {std::size_t{0}, std::size_t{5}, std::size_t{8}, std::size_t{31},
                                std::size_t{32}, std::size_t{100}, bytes.size() / 2, bytes.size() - 1}) {
    SCOPED_TRACE("cut at " + std::to_string(cut));
    write_file(dir / "cut.dlfl", bytes.substr(0, cut));
    const std::string message = error_of(dir / "cut.dlfl");
    EXPECT_TRUE(starts_with(message, (dir / "cut.dlfl").string() + ": truncated")) << message;
  }
}

TEST(NativeFormat, FlippedByteIsAChecksumError) {
  TempDir dir;
  write_native(flaky_spectrum(), dir / "s.dlfl");
  const std::string bytes = read_file(dir / "s.dlfl");
  for (const std::size_t at : {std::size_t{12}, std::size_t{40}, bytes.size() / 2, bytes.size() - 1}) {
    SCOPED_TRACE("flip at " + std::to_string(at));
    std::string bad = bytes;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    write_file(dir / "bad.dlfl", bad);
    const std::string message = error_of(dir / "bad.dlfl");
    EXPECT_TRUE(starts_with(message, (dir / "bad.dlfl").string() + ": checksum mismatch")) << message;
  }
}

TEST(NativeFormat, UnverifiedReadStillRejectsBrokenStructure) {
  TempDir dir;
  write_native(flaky_spectrum(), dir / "s.dlfl");
  std::string bytes = read_file(dir / "s.dlfl");
  // The last coverage word (the end of section 7 or 8, whichever holds the coverage; the
  // section table is at 32): make it name a test out of range.
  std::uint64_t end = 0;
  for (std::size_t entry = 32; entry + 32 <= bytes.size() && end == 0; entry += 32) {
    std::uint32_t id = 0;
    std::uint64_t offset = 0, size = 0;
    std::memcpy(&id, bytes.data() + entry, 4);
    std::memcpy(&offset, bytes.data() + entry + 8, 8);
    std::memcpy(&size, bytes.data() + entry + 16, 8);
    if ((id == 7 || id == 8) && size > 0) end = offset + size;
  }
  ASSERT_GE(end, 4u);
  const std::uint32_t huge = 1000;
  std::memcpy(bytes.data() + end - 4, &huge, 4);
  write_file(dir / "bad.dlfl", bytes);
  EXPECT_TRUE(starts_with(error_of(dir / "bad.dlfl"), (dir / "bad.dlfl").string() + ": checksum"));
  const std::string message = error_of(dir / "bad.dlfl", {.verify_checksum = false});
  EXPECT_TRUE(starts_with(message, (dir / "bad.dlfl").string() + ": coverage:")) << message;
}

// A writer that got the structure wrong still computes a valid checksum: these are
// the issue #14 reproducers (rank and convert crashed on them). The spectra are built
// without validation, written, and must be refused on reading, checksum or not.
Spectrum spectrum_with(Coverage coverage) {
  StringPool pool;
  std::vector<ElementRecord> records(coverage.elements());
  std::vector<TestCase> tests;
  for (std::size_t t = 0; t < coverage.tests(); ++t) tests.push_back(TestCase::pass("T" + std::to_string(t)));
  return Spectrum(std::move(pool), std::move(records), std::move(tests), std::move(coverage));
}

TEST(NativeFormat, ValidChecksumDoesNotExcuseBrokenStructure) {
  TempDir dir;
  struct Case {
    std::string name;
    Coverage coverage;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"test id past the test count", Coverage(2, std::vector<std::uint64_t>{0, 1, 2}, std::vector<std::uint32_t>{0, 7}, false),
       "coverage: element 1 is covered by test 7 of 2"},
      {"decreasing offsets", Coverage(2, std::vector<std::uint64_t>{0, 2, 1, 2}, std::vector<std::uint32_t>{0, 1}, false),
       "coverage: offsets decrease or pass the id array at element 1"},
      {"offset past the ids", Coverage(2, std::vector<std::uint64_t>{0, 9, 2}, std::vector<std::uint32_t>{0, 1}, false),
       "coverage: offsets decrease or pass the id array at element 0"},
      {"unsorted ids", Coverage(2, std::vector<std::uint64_t>{0, 2}, std::vector<std::uint32_t>{1, 0}, false),
       "coverage: tests of element 0 are not sorted and unique"},
      {"tail bits", Coverage::dense(3, 1, std::vector<std::uint64_t>{0b1001}, false),
       "coverage: element 0 is covered by a test past the last"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    write_native(spectrum_with(c.coverage), dir / "bad.dlfl");
    for (const bool checksum : {true, false}) {
      const std::string message = error_of(dir / "bad.dlfl", {.verify_checksum = checksum});
      EXPECT_EQ(message, (dir / "bad.dlfl").string() + ": " + c.expected);
    }
  }
}

// The failing rows are a copy of the failing tests' rows of the matrix that counts read
// instead of the matrix. A writer that got them wrong (or a file edited with its
// checksum fixed up) would rank differently from the same spectrum converted: refused,
// checksum or not, in sparse and dense files.
TEST(NativeFormat, FailingRowsThatDisagreeWithTheMatrixAreRefused) {
  TempDir dir;
  // Elements 0..2; T0 (failing) covers 0 and 1, T1 (passing) 1 and 2, T2 (failing) 2.
  auto spectrum = [](bool dense) {
    SpectrumBuilder b;
    for (std::uint32_t l = 1; l <= 3; ++l) b.add_element("a.cpp", l, l, "f");
    b.add_test(TestCase::fail("T0"), {0, 1});
    b.add_test(TestCase::pass("T1"), {1, 2});
    b.add_test(TestCase::fail("T2"), {2});
    Spectrum s = std::move(b).finish();
    if (dense)
      s = Spectrum(s.strings(), std::vector<ElementRecord>(s.elements().begin(), s.elements().end()), s.tests(),
                   s.coverage().to_dense());
    return s;
  };
  struct Case {
    std::string name;
    std::vector<std::uint64_t> offsets;
    std::vector<std::uint32_t> elements;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"an element missing", {0, 1, 2}, {0, 2}, "the failing rows hold 2 covered pairs, the coverage matrix 3 for the failing tests"},
      {"an element added", {0, 3, 4}, {0, 1, 2, 2}, "the failing rows give test 0 element 2, which the coverage matrix does not"},
      {"rows swapped", {0, 1, 3}, {2, 0, 1}, "the failing rows give test 0 element 2, which the coverage matrix does not"},
  };
  for (const bool dense : {false, true})
    for (const auto& c : cases) {
      SCOPED_TRACE(c.name + (dense ? ", dense" : ", sparse"));
      Spectrum s = spectrum(dense);
      s.attach_failing_coverage(FailingCoverage(3, 3, std::vector<std::uint32_t>{0, 2}, c.offsets, c.elements));
      write_native(s, dir / "bad.dlfl");
      for (const bool checksum : {true, false})
        EXPECT_EQ(error_of(dir / "bad.dlfl", {.verify_checksum = checksum}), (dir / "bad.dlfl").string() + ": " + c.expected);
    }
  // The rows the writer builds itself read back.
  write_native(spectrum(false), dir / "good.dlfl");
  EXPECT_EQ(read_native(dir / "good.dlfl").failing_coverage()->elements().size(), 3u);
}

TEST(NativeFormat, ElementNamingAStringOutsideThePoolIsRefused) {
  TempDir dir;
  write_native(flaky_spectrum(), dir / "s.dlfl");
  std::string bytes = read_file(dir / "s.dlfl");
  // Section table entry 3 (elements) at 32 + 2 * 32; its offset field at +8. The first
  // record's file id is its first 4 bytes.
  std::uint64_t elements_at = 0;
  std::memcpy(&elements_at, bytes.data() + 32 + 2 * 32 + 8, 8);
  const std::uint32_t missing = 1000;
  std::memcpy(bytes.data() + elements_at, &missing, 4);
  write_file(dir / "bad.dlfl", bytes);
  EXPECT_EQ(error_of(dir / "bad.dlfl", {.verify_checksum = false}),
            (dir / "bad.dlfl").string() + ": spectrum: element 0 names a string that does not exist");
}

TEST(NativeFormat, BadMagicIsNotANativeSpectrum) {
  TempDir dir;
  write_file(dir / "text.dlfl", "name\nthis is not a native spectrum at all, clearly\n");
  EXPECT_TRUE(starts_with(error_of(dir / "text.dlfl"), (dir / "text.dlfl").string() + ": not a dlfl native spectrum (bad magic)"))
      << error_of(dir / "text.dlfl");
  write_file(dir / "short", "nope");
  EXPECT_TRUE(starts_with(error_of(dir / "short"), (dir / "short").string() + ": not a dlfl native"));
  EXPECT_FALSE(has_native_magic(dir / "text.dlfl"));
}

TEST(NativeFormat, NewerVersionIsRefused) {
  TempDir dir;
  write_native(flaky_spectrum(), dir / "s.dlfl");
  std::string bytes = read_file(dir / "s.dlfl");
  const std::uint32_t version = kNativeVersion + 1;
  std::memcpy(bytes.data() + 8, &version, 4);
  write_file(dir / "v2.dlfl", bytes);
  EXPECT_TRUE(starts_with(error_of(dir / "v2.dlfl"), (dir / "v2.dlfl").string() + ": unsupported native spectrum version " +
                                                         std::to_string(kNativeVersion + 1)))
      << error_of(dir / "v2.dlfl");
}

// Files written before version 2 (no origin, no failing rows) still read.
TEST(NativeFormat, Version1FilesStillRead) {
  const fs::path v1 = fs::path(DLFL_SOURCE_DIR) / "tests/formats/fixtures/softmax_v1.dlfl";
  std::uint32_t version = 0;
  std::memcpy(&version, read_file(v1).data() + 8, 4);
  ASSERT_EQ(version, 1u);
  const Spectrum s = read_native(v1);
  EXPECT_EQ(s.test_count(), 8u);
  EXPECT_EQ(s.element_count(), 12u);
  EXPECT_EQ(s.failing_coverage(), nullptr);
  EXPECT_EQ(s.origin(), SpectrumOrigin{});
}

// Elements carry their language in byte 21 of their record; files written before that
// hold 0 there, and reading infers the language from the extensions as collectors do.
TEST(NativeFormat, LanguagesRoundTripAndOlderFilesGetThemInferred) {
  TempDir dir;
  SpectrumBuilder b;
  b.add_element("ops.py", 3, 3, "forward");
  b.add_element("gen/kernel", 5, 5, "k", {}, Language::cuda);  // only the record knows
  b.add_element("ops.cpp", 7);
  b.add_extrinsic("dtype=half");
  b.add_test(TestCase::fail("t"), {0, 1, 2, 3});
  write_native(std::move(b).finish(), dir / "s.dlfl");
  const Spectrum back = read_native(dir / "s.dlfl");
  EXPECT_EQ(back.element(0).language, Language::python);
  EXPECT_EQ(back.element(1).language, Language::cuda);
  EXPECT_TRUE(back.elements().data() != nullptr);

  std::string bytes = read_file(dir / "s.dlfl");
  std::uint64_t elements_at = 0;  // section table entry 3 (elements), offset field
  std::memcpy(&elements_at, bytes.data() + 32 + 2 * 32 + 8, 8);
  for (std::size_t e = 0; e < 4; ++e) bytes[elements_at + 24 * e + 21] = 0;  // as an older writer left it
  write_file(dir / "old.dlfl", bytes);
  const Spectrum old = read_native(dir / "old.dlfl", {.verify_checksum = false});
  EXPECT_EQ(old.element(0).language, Language::python);
  EXPECT_EQ(old.element(1).language, Language::unknown);  // no extension to go by
  EXPECT_EQ(old.element(2).language, Language::cpp);
  EXPECT_EQ(old.element(3).language, Language::extrinsic);

  bytes[elements_at + 21] = 42;
  write_file(dir / "bad.dlfl", bytes);
  EXPECT_EQ(error_of(dir / "bad.dlfl", {.verify_checksum = false}),
            (dir / "bad.dlfl").string() + ": spectrum: element 0 has an unknown language 42");

  const Spectrum v1 = read_native(fs::path(DLFL_SOURCE_DIR) / "tests/formats/fixtures/softmax_v1.dlfl");
  for (std::size_t e = 0; e < v1.element_count(); ++e)
    EXPECT_EQ(v1.element(e).language, language_of_path(v1.file(e))) << v1.element_name(e);
  EXPECT_NE(v1.element(0).language, Language::unknown);
}

// Version 2 keeps the origin and the failing rows.
TEST(NativeFormat, OriginAndFailingRowsRoundTrip) {
  TempDir dir;
  Spectrum s = flaky_spectrum();
  s.set_origin({"/work/src", 0x1234abcdULL});
  write_native(s, dir / "s.dlfl");
  const Spectrum back = read_native(dir / "s.dlfl");
  EXPECT_EQ(back.origin(), s.origin());
  ASSERT_NE(back.failing_coverage(), nullptr);
  EXPECT_EQ(std::vector<std::uint32_t>(back.failing_coverage()->tests().begin(), back.failing_coverage()->tests().end()),
            (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(std::vector<std::uint32_t>(back.failing_coverage()->row(1).begin(), back.failing_coverage()->row(1).end()),
            (std::vector<std::uint32_t>{0, 2}));
}

// With fractional outcomes the reader drops the failing rows' pages after checking them
// (counts do not read them); they are still there, from the file, for whoever reads them.
TEST(NativeFormat, FailingRowsStayReadableAfterTheReaderDropsTheirPages) {
  TempDir dir;
  SpectrumBuilder b;
  constexpr std::uint32_t kElements = 20000;  // 80 KB per row: whole pages to drop
  for (std::uint32_t e = 0; e < kElements; ++e) b.add_element("src/big.cpp", e + 1);
  std::vector<std::uint32_t> all(kElements), evens;
  for (std::uint32_t e = 0; e < kElements; ++e) {
    all[e] = e;
    if (e % 2 == 0) evens.push_back(e);
  }
  b.add_test(TestCase::fail("Big.Fails"), all);
  b.add_test(TestCase::flaky("Big.Flaky", 1, 2), evens);
  b.add_test(TestCase::pass("Big.Passes"), {1});
  write_native(std::move(b).finish(), dir / "big.dlfl");
  const Spectrum back = read_native(dir / "big.dlfl");
  ASSERT_FALSE(back.binary_outcomes());
  ASSERT_NE(back.failing_coverage(), nullptr);
  const FailingCoverage& rows = *back.failing_coverage();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(std::vector<std::uint32_t>(rows.row(0).begin(), rows.row(0).end()), all);
  EXPECT_EQ(std::vector<std::uint32_t>(rows.row(1).begin(), rows.row(1).end()), evens);
}

TEST(NativeFormat, SectionOutOfBoundsIsReported) {
  TempDir dir;
  write_native(flaky_spectrum(), dir / "s.dlfl");
  std::string bytes = read_file(dir / "s.dlfl");
  // First section entry (at 32): its offset field at +8; point it past the end.
  const std::uint64_t offset = (bytes.size() + 64) & ~std::uint64_t{7};
  std::memcpy(bytes.data() + 32 + 8, &offset, 8);
  write_file(dir / "oob.dlfl", bytes);
  const std::string message = error_of(dir / "oob.dlfl", {.verify_checksum = false});
  EXPECT_TRUE(starts_with(message, (dir / "oob.dlfl").string() + ": section 'string blob' out of bounds")) << message;
}

TEST(NativeFormat, TrailingGarbageIsReported) {
  TempDir dir;
  write_native(flaky_spectrum(), dir / "s.dlfl");
  write_file(dir / "long.dlfl", read_file(dir / "s.dlfl") + "xx");
  EXPECT_NE(error_of(dir / "long.dlfl").find("2 unexpected bytes"), std::string::npos);
}

TEST(NativeFormat, MissingFileAndFailedWrite) {
  TempDir dir;
  EXPECT_TRUE(starts_with(error_of(dir / "none.dlfl"), (dir / "none.dlfl").string() + ": cannot read"));
  EXPECT_THROW(write_native(flaky_spectrum(), dir / "no/such/dir/s.dlfl"), Error);
  EXPECT_TRUE(dir.listing().empty());
}

TEST(NativeFormat, OverwritesAnExistingFileAtomically) {
  TempDir dir;
  write_native(sample_spectrum(), dir / "s.dlfl");
  write_native(flaky_spectrum(), dir / "s.dlfl");
  EXPECT_EQ(read_native(dir / "s.dlfl").element_count(), 3u);
  EXPECT_EQ(dir.listing(), std::vector<std::string>{"s.dlfl"});
}

}  // namespace
}  // namespace dlfl::io
