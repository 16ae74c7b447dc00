// merge_spectra() checks each native input while it merges it (its checksum and its
// coverage's structure, range by range): a damaged or wrongly written input found on
// the way is one line naming it, and no output nor temporary file is left behind.
#include <gtest/gtest.h>

#include <cstring>

#include "../core/test_spectra.h"
#include "dlfl/error.h"
#include "dlfl/formats/native_format.h"
#include "dlfl/formats/spectrum_merge.h"
#include "../support/io_test_support.h"

namespace dlfl::io {
namespace {

using iotest::read_file;
using iotest::TempDir;
using iotest::write_file;

std::string merge_error(const std::vector<fs::path>& inputs, const fs::path& out, SpectrumFormat format) {
  try {
    merge_spectra(inputs, out, format);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// Where section `id` is in a native file image: {offset, size} (see native_format.h).
std::pair<std::uint64_t, std::uint64_t> section_of(const std::string& bytes, std::uint32_t id) {
  std::uint32_t count = 0;
  std::memcpy(&count, bytes.data() + 12, 4);
  for (std::uint32_t i = 0; i < count; ++i) {
    const char* entry = bytes.data() + 32 + 32 * i;
    std::uint32_t entry_id = 0;
    std::uint64_t offset = 0, size = 0;
    std::memcpy(&entry_id, entry, 4);
    std::memcpy(&offset, entry + 8, 8);
    std::memcpy(&size, entry + 16, 8);
    if (entry_id == id) return {offset, size};
  }
  return {0, 0};
}

// Shards of one spectrum: the same element table, tests dealt round-robin; stored sparse
// (checked as merged) unless `dense`, which is checked in full when read.
std::vector<fs::path> write_shards(const TempDir& dir, std::size_t shards, bool dense = false) {
  const Spectrum whole = dense ? testing::random_spectrum(400, 48, 0.3, 3) : testing::random_spectrum(400, 800, 0.01, 3);
  std::vector<fs::path> paths;
  for (std::size_t i = 0; i < shards; ++i) {
    SpectrumBuilder b;
    for (std::size_t e = 0; e < whole.element_count(); ++e)
      b.add_element(whole.file(e), whole.element(e).first_line, whole.element(e).last_line, whole.function(e));
    CoverageRows rows(whole.coverage());
    for (std::size_t t = i; t < whole.test_count(); t += shards) b.add_test(whole.tests()[t], rows.row(t));
    paths.push_back(dir / ("shard-" + std::to_string(i) + ".dlfl"));
    write_native(std::move(b).finish(), paths.back());
  }
  return paths;
}

std::vector<std::string> names(const std::vector<fs::path>& paths) {
  std::vector<std::string> out;
  for (const auto& p : paths) out.push_back(p.filename().string());
  return out;
}

// A checksum mismatch that breaks no structure (a test id moved up within its row, a
// test name's letter changed) lets the merge run to the end: the checksum, checked last,
// still refuses the input before the output is committed.
TEST(SpectrumMergeChecks, DamageFoundAtTheEndStillLeavesNoOutput) {
  TempDir dir;
  const auto shards = write_shards(dir, 4);
  const std::string original = read_file(shards[2]);
  ASSERT_FALSE(read_native(shards[2]).coverage().is_dense());

  std::string moved_id = original;  // an id k followed by one >= k + 2 becomes k + 1
  const auto [ids_at, ids_size] = section_of(moved_id, 7);
  const auto [offsets_at, offsets_size] = section_of(moved_id, 6);
  bool done = false;
  for (std::uint64_t e = 0; e + 1 < offsets_size / 8 && !done; ++e) {
    std::uint64_t lo = 0, hi = 0;
    std::memcpy(&lo, moved_id.data() + offsets_at + 8 * e, 8);
    std::memcpy(&hi, moved_id.data() + offsets_at + 8 * (e + 1), 8);
    for (std::uint64_t k = lo; k + 1 < hi && !done; ++k) {
      std::uint32_t a = 0, b = 0;
      std::memcpy(&a, moved_id.data() + ids_at + 4 * k, 4);
      std::memcpy(&b, moved_id.data() + ids_at + 4 * (k + 1), 4);
      if (b >= a + 2) {
        ++a;
        std::memcpy(moved_id.data() + ids_at + 4 * k, &a, 4);
        done = true;
      }
    }
  }
  ASSERT_TRUE(done);
  ASSERT_GT(ids_size, 0u);
  std::string renamed = original;
  const auto [text_at, text_size] = section_of(renamed, 5);
  ASSERT_GT(text_size, 0u);
  renamed[text_at] = static_cast<char>(renamed[text_at] ^ 0x01);

  for (const auto& [what, bytes] : {std::pair{"moved id", moved_id}, std::pair{"renamed test", renamed}}) {
    for (const auto format : {SpectrumFormat::native, SpectrumFormat::gzoltar}) {
      SCOPED_TRACE(std::string(what) + (format == SpectrumFormat::native ? ", native" : ", gzoltar"));
      write_file(shards[2], bytes);
      // The damaged file by itself: read_native says the same.
      EXPECT_THROW(read_native(shards[2]), Error);
      EXPECT_EQ(merge_error(shards, dir / "out", format),
                shards[2].string() + ": checksum mismatch: the file is corrupted");
      EXPECT_EQ(dir.listing(), names(shards));  // no output, no temporary
    }
  }
  write_file(shards[2], original);
  merge_spectra(shards, dir / "out.dlfl", SpectrumFormat::native);
  EXPECT_EQ(read_native(dir / "out.dlfl").test_count(), 800u);
}

// The inputs after the first are read by two threads: with several damaged ones, the
// error is still the first damaged input's in the order given, whichever thread met it.
TEST(SpectrumMergeChecks, OfSeveralDamagedInputsTheFirstInOrderIsReported) {
  TempDir dir;
  const auto shards = write_shards(dir, 8);
  for (const std::size_t first_bad : {std::size_t{1}, std::size_t{2}, std::size_t{6}}) {
    std::vector<std::string> originals;
    for (const auto& s : shards) originals.push_back(read_file(s));
    for (std::size_t i = first_bad; i < shards.size(); i += 2) {
      std::string bytes = originals[i];
      const auto [text_at, text_size] = section_of(bytes, 5);  // a test's name
      ASSERT_GT(text_size, 0u);
      bytes[text_at] = static_cast<char>(bytes[text_at] ^ 0x01);
      write_file(shards[i], bytes);
    }
    EXPECT_EQ(merge_error(shards, dir / "out.dlfl", SpectrumFormat::native),
              shards[first_bad].string() + ": checksum mismatch: the file is corrupted");
    EXPECT_EQ(dir.listing(), names(shards));  // no output, no temporary
    for (std::size_t i = 0; i < shards.size(); ++i) write_file(shards[i], originals[i]);
  }
}

// Damage that breaks the structure is reported as the damage it is, wherever the merge
// meets it first (section table, element table, coverage rows).
TEST(SpectrumMergeChecks, DamageThatBreaksStructureIsAChecksumError) {
  for (const bool dense : {false, true}) {
  TempDir dir;
  const auto shards = write_shards(dir, 3, dense);
  const std::string original = read_file(shards[1]);
  ASSERT_EQ(read_native(shards[1]).coverage().is_dense(), dense);
  const auto [coverage_at, coverage_size] = section_of(original, dense ? 8 : 7);
  const auto [elements_at, elements_size] = section_of(original, 3);
  for (const std::uint64_t at : {std::uint64_t{40}, elements_at + 1, coverage_at + coverage_size / 2 + 3}) {
    SCOPED_TRACE("byte " + std::to_string(at) + (dense ? ", dense" : ", sparse"));
    std::string bad = original;
    bad[at] = static_cast<char>(bad[at] ^ 0x40);
    write_file(shards[1], bad);
    EXPECT_EQ(merge_error(shards, dir / "out.dlfl", SpectrumFormat::native),
              shards[1].string() + ": checksum mismatch: the file is corrupted");
    EXPECT_EQ(dir.listing(), names(shards));
  }
  }
}

// A spectrum a faulty writer built without validation: an element table of `elements`
// default records (the same in every file), tests `prefix`0..; correct checksum.
void write_unchecked(const fs::path& path, Coverage coverage, const std::string& prefix) {
  std::vector<ElementRecord> records(coverage.elements());
  std::vector<TestCase> tests;
  for (std::size_t t = 0; t < coverage.tests(); ++t) tests.push_back(TestCase::pass(prefix + std::to_string(t)));
  write_native(Spectrum(StringPool(), std::move(records), std::move(tests), std::move(coverage)), path);
}

// The issue #14 reproducers as merge inputs: a valid checksum over a broken structure.
// Found mid-merge (shards with disjoint tests: while copying rows; shared tests: while
// counting them), the input is refused in one line before anything is committed.
TEST(SpectrumMergeChecks, BrokenStructureUnderAValidChecksumIsRefused) {
  TempDir dir;
  struct Case {
    std::string name;
    std::size_t elements;
    std::vector<std::uint64_t> offsets;
    std::vector<std::uint32_t> ids;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"test id past the test count", 2, {0, 1, 2}, {0, 7}, "coverage: element 1 is covered by test 7 of 2"},
      {"decreasing offsets", 3, {0, 2, 1, 2}, {0, 1}, "coverage: offsets decrease or pass the id array at element 1"},
      {"offset past the ids", 2, {0, 9, 2}, {0, 1}, "coverage: offsets decrease or pass the id array at element 0"},
      {"unsorted ids", 1, {0, 2}, {1, 0}, "coverage: tests of element 0 are not sorted and unique"},
  };
  for (const auto& c : cases) {
    for (const bool shared_tests : {false, true}) {
      for (const auto format : {SpectrumFormat::native, SpectrumFormat::gzoltar}) {
        SCOPED_TRACE(c.name + (shared_tests ? ", shared tests" : ", disjoint tests") +
                     (format == SpectrumFormat::native ? ", native" : ", gzoltar"));
        const fs::path good = dir / "good.dlfl", bad = dir / "bad.dlfl";
        write_unchecked(good, Coverage(2, std::vector<std::uint64_t>(c.elements + 1, 0), std::vector<std::uint32_t>{}),
                        "A");
        write_unchecked(bad, Coverage(2, c.offsets, c.ids, false), shared_tests ? "A" : "B");
        const std::string message = merge_error({good, bad}, dir / "out", format);
        EXPECT_EQ(message, bad.string() + ": " + c.expected);
        EXPECT_EQ(dir.listing(), (std::vector<std::string>{"bad.dlfl", "good.dlfl"}));
        // First or last: the same.
        EXPECT_EQ(merge_error({bad, good}, dir / "out", format), message);
        EXPECT_EQ(dir.listing(), (std::vector<std::string>{"bad.dlfl", "good.dlfl"}));
      }
    }
  }
}

}  // namespace
}  // namespace dlfl::io
