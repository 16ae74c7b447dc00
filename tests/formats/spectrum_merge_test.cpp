// Tests for merge_spectra(): shards of one spectrum merge back into it; tests met in
// several inputs get their failing share; elements of one input only are kept;
// spectra of other code are refused with one line naming the input.
#include "dlfl/formats/spectrum_merge.h"

#include <gtest/gtest.h>

#include <random>

#include "../core/test_spectra.h"
#include "../support/spectrum_canonical.h"
#include "dlfl/counts.h"
#include "dlfl/error.h"
#include "dlfl/formats/native_format.h"
#include "../support/io_test_support.h"

namespace dlfl::io {
namespace {

using iotest::TempDir;
using testing::canonical;

// The tests of `s` whose index is in `keep`, with their coverage; all elements kept.
Spectrum subset(const Spectrum& s, const std::vector<std::size_t>& keep) {
  SpectrumBuilder b;
  for (std::size_t e = 0; e < s.element_count(); ++e) {
    const auto& r = s.element(e);
    if (r.kind == ElementKind::extrinsic)
      b.add_extrinsic(s.element_name(e));
    else
      b.add_element(s.file(e), r.first_line, r.last_line, s.function(e));
  }
  CoverageRows rows(s.coverage());
  for (const auto t : keep) b.add_test(s.tests()[t], rows.row(t));
  Spectrum out = std::move(b).finish();
  out.set_origin(s.origin());
  return out;
}

std::vector<fs::path> write_shards(const TempDir& dir, const Spectrum& s, std::size_t shards) {
  std::vector<std::vector<std::size_t>> parts(shards);
  for (std::size_t t = 0; t < s.test_count(); ++t) parts[t % shards].push_back(t);
  std::vector<fs::path> paths;
  for (std::size_t i = 0; i < shards; ++i) {
    paths.push_back(dir / ("shard-" + std::to_string(i) + ".dlfl"));
    write_native(subset(s, parts[i]), paths.back());
  }
  return paths;
}

TEST(SpectrumMerge, ShardsMergeBackIntoTheWhole) {
  TempDir dir;
  for (const double density : {0.05, 0.4}) {  // sparse and dense storage
    Spectrum whole = testing::random_spectrum(300, 90, density, 11);
    whole.set_origin({"/src/project", 0});
    const auto shards = write_shards(dir, whole, 4);
    const MergeStats stats = merge_spectra(shards, dir / "merged.dlfl", SpectrumFormat::native);
    EXPECT_EQ(stats.inputs, 4u);
    EXPECT_EQ(stats.tests, 90u);
    EXPECT_EQ(stats.shared_tests, 0u);
    EXPECT_EQ(stats.partial_elements, 0u);
    EXPECT_EQ(stats.covered_pairs, whole.coverage().nnz());
    const Spectrum merged = read_native(dir / "merged.dlfl");
    EXPECT_EQ(canonical(merged), canonical(whole)) << "density " << density;
    EXPECT_EQ(merged.coverage().is_dense(), whole.coverage().is_dense());
    EXPECT_EQ(merged.origin(), whole.origin());
    // Shards keep the element order, so the merged file ranks exactly as the whole.
    for (std::size_t e = 0; e < whole.element_count(); ++e) EXPECT_EQ(merged.element_name(e), whole.element_name(e));
    // Its failing rows are those of the whole.
    ASSERT_NE(merged.failing_coverage(), nullptr);
    const Counts a = compute_counts(whole), b = compute_counts(merged);
    EXPECT_TRUE((a.ef == b.ef).all() && (a.ep == b.ep).all());
  }
}

TEST(SpectrumMerge, OldFilesWithoutFailingRowsMergeToo) {
  TempDir dir;
  // A version-1 file (written by dlfl before failing rows existed) merged with itself
  // renamed: the rows are counted from the coverage instead.
  const fs::path v1 = fs::path(DLFL_SOURCE_DIR) / "tests/formats/fixtures/softmax_v1.dlfl";
  const Spectrum old = read_native(v1);
  EXPECT_EQ(old.failing_coverage(), nullptr);
  // A copy, not v1 twice: the same file named twice is read once.
  fs::copy_file(v1, dir / "copy.dlfl");
  const std::vector<fs::path> inputs{v1, dir / "copy.dlfl"};
  const MergeStats stats = merge_spectra(inputs, dir / "m.dlfl", SpectrumFormat::native);
  EXPECT_EQ(stats.shared_tests, old.test_count());
  EXPECT_EQ(stats.flaky_shared, 0u);
  const Spectrum merged = read_native(dir / "m.dlfl");
  EXPECT_EQ(canonical(merged), canonical(old));
  ASSERT_NE(merged.failing_coverage(), nullptr);
  const Counts a = compute_counts(old), b = compute_counts(merged);
  EXPECT_TRUE((a.ef == b.ef).all() && (a.ep == b.ep).all());
}

// A test run on two machines that failed on one: one test, weight 1/2, flaky, covering
// the union of both runs' coverage; the message comes from the failing run.
TEST(SpectrumMerge, ATestMetInSeveralInputsGetsItsFailingShare) {
  TempDir dir;
  SpectrumBuilder a, b;
  for (auto* s : {&a, &b}) {
    s->add_element("src/x.cpp", 1);
    s->add_element("src/x.cpp", 2);
    s->add_element("src/x.cpp", 3);
  }
  a.add_test(TestCase::pass("Net.Step"), {0});
  a.add_test(TestCase::fail("Net.Other"), {2});
  TestCase failed = TestCase::fail("Net.Step");
  failed.message = "rank 1 diverged";
  b.add_test(failed, {1});
  b.add_test(TestCase::pass("Net.Third"), {0});
  write_native(std::move(a).finish(), dir / "a.dlfl");
  write_native(std::move(b).finish(), dir / "b.dlfl");
  const std::vector<fs::path> inputs{dir / "a.dlfl", dir / "b.dlfl"};
  const MergeStats stats = merge_spectra(inputs, dir / "m.dlfl", SpectrumFormat::native);
  EXPECT_EQ(stats.tests, 3u);
  EXPECT_EQ(stats.shared_tests, 1u);
  EXPECT_EQ(stats.flaky_shared, 1u);
  const Spectrum m = read_native(dir / "m.dlfl");
  ASSERT_EQ(m.test_count(), 3u);
  EXPECT_EQ(m.tests()[0].name, "Net.Step");  // the order first met
  EXPECT_EQ(m.tests()[0].failure_weight, 0.5);
  EXPECT_EQ(m.tests()[0].status, TestStatus::flaky);
  EXPECT_EQ(m.tests()[0].message, "rank 1 diverged");
  EXPECT_TRUE(m.coverage().covers(0, 0));
  EXPECT_TRUE(m.coverage().covers(0, 1));
  EXPECT_FALSE(m.coverage().covers(0, 2));
  // Flaky outcomes: counts take the full path and see w = 1/2.
  const Counts c = compute_counts(m);
  EXPECT_EQ(c.ef(0), 0.5);
  EXPECT_EQ(c.ep(0), 1.5);
}

// Shards whose files differ (a CTest shard that never loaded a library): the union of
// the elements, sorted as collectors sort them; absent elements are not covered.
TEST(SpectrumMerge, ElementsOfOneInputOnlyAreKept) {
  TempDir dir;
  SpectrumBuilder a, b;
  a.add_element("src/a.cpp", 5, 5, "f");
  a.add_element("src/c.cpp", 1, 1, "h");
  a.add_test(TestCase::fail("A.one"), {0, 1});
  b.add_element("src/a.cpp", 5, 5, "f");
  b.add_element("src/b.cpp", 7, 7, "g");
  b.add_extrinsic("rank=1");
  b.add_test(TestCase::pass("B.one"), {0, 1, 2});
  write_native(std::move(a).finish(), dir / "a.dlfl");
  write_native(std::move(b).finish(), dir / "b.dlfl");
  const std::vector<fs::path> inputs{dir / "a.dlfl", dir / "b.dlfl"};
  const MergeStats stats = merge_spectra(inputs, dir / "m", SpectrumFormat::gzoltar);
  EXPECT_EQ(stats.elements, 4u);
  EXPECT_EQ(stats.partial_elements, 3u);
  const Spectrum m = read_spectrum(dir / "m");
  ASSERT_EQ(m.element_count(), 4u);
  EXPECT_EQ(m.element_name(0), "src/a.cpp#f:5");
  EXPECT_EQ(m.element_name(1), "src/b.cpp#g:7");
  EXPECT_EQ(m.element_name(2), "src/c.cpp#h:1");
  EXPECT_EQ(m.element_name(3), "rank=1");
  auto names = [&](std::size_t t) {
    std::vector<std::string> out;
    for (std::uint32_t e = 0; e < m.element_count(); ++e)
      if (m.coverage().covers(t, e)) out.push_back(m.element_name(e));
    return out;
  };
  EXPECT_EQ(names(0), (std::vector<std::string>{"src/a.cpp#f:5", "src/c.cpp#h:1"}));
  EXPECT_EQ(names(1), (std::vector<std::string>{"src/a.cpp#f:5", "src/b.cpp#g:7", "rank=1"}));
  EXPECT_EQ(dir.listing(), (std::vector<std::string>{"a.dlfl", "b.dlfl", "m", "m/matrix.txt", "m/spectra.csv",
                                                     "m/tests.csv"}));
}

std::string merge_error(const std::vector<fs::path>& inputs, const fs::path& out) {
  try {
    merge_spectra(inputs, out, SpectrumFormat::native);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(SpectrumMerge, SpectraOfOtherCodeAreRefusedInOneLine) {
  TempDir dir;
  Spectrum s = testing::random_spectrum(20, 10, 0.2, 5);
  s.set_origin({"/home/a/src", 7});
  write_native(s, dir / "a.dlfl");
  s.set_origin({"/home/b/src", 7});
  write_native(s, dir / "root.dlfl");
  s.set_origin({"/home/a/src", 8});
  write_native(s, dir / "map.dlfl");
  SpectrumBuilder other;
  other.add_element("file0.cpp", 1, 4, "other_function");
  other.add_test(TestCase::fail("x"), {0});
  write_native(std::move(other).finish(), dir / "function.dlfl");

  const std::string root = merge_error({dir / "a.dlfl", dir / "root.dlfl"}, dir / "out.dlfl");
  EXPECT_EQ(root, (dir / "root.dlfl").string() + ": collected under source root /home/b/src, but " +
                      (dir / "a.dlfl").string() +
                      " under /home/a/src: spectra of different checkouts cannot be merged");
  const std::string map = merge_error({dir / "a.dlfl", dir / "map.dlfl"}, dir / "out.dlfl");
  EXPECT_NE(map.find("map.dlfl: was collected with another probe map than"), std::string::npos) << map;
  const std::string function = merge_error({dir / "a.dlfl", dir / "function.dlfl"}, dir / "out.dlfl");
  EXPECT_NE(function.find("function.dlfl: element file0.cpp#other_function:1 (lines 1-4) is file0.cpp:1 (lines 1-1) in"),
            std::string::npos)
      << function;
  EXPECT_NE(function.find("not of the same code"), std::string::npos);
  for (const auto& message : {root, map, function}) EXPECT_EQ(message.find('\n'), std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "out.dlfl"));
  EXPECT_EQ(dir.listing().size(), 4u);  // nothing left behind
}

}  // namespace
}  // namespace dlfl::io
