// `dlfl merge` as a user runs it: the summary line, flaky shares, and bad input (missing,
// foreign or mismatched inputs) as one line with exit code 2 and no output left behind.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_runner.h"
#include "dlfl/formats/native_format.h"
#include "dlfl/formats/spectrum_formats.h"

namespace dlfl::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class MergeCommand : public ::testing::Test {
 protected:
  TempDir dir_{"cli-merge"};
  std::string q(const fs::path& p) const { return "'" + p.string() + "'"; }
  void write(const fs::path& path, std::initializer_list<std::pair<TestCase, std::vector<std::uint32_t>>> tests,
             const std::string& root = "/src") const {
    SpectrumBuilder b;
    for (std::uint32_t line = 1; line <= 4; ++line) b.add_element("src/net.cpp", line, line, "step");
    for (const auto& [test, covered] : tests) b.add_test(test, covered);
    Spectrum s = std::move(b).finish();
    s.set_origin({root, 0});
    io::write_native(s, path);
  }
  // Exit 2, one line "dlfl: error: ...", nothing written.
  void expect_refused(const std::string& args, const std::string& message) const {
    const RunResult r = run_dlfl("merge " + args + " -o " + q(dir_ / "out.dlfl"));
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_THAT(r.err, StartsWith("dlfl: error: " + message)) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "out.dlfl"));
  }
};

TEST_F(MergeCommand, JoinsShardsAndReportsFlakyShares) {
  write(dir_ / "a.dlfl", {{TestCase::fail("T.one"), {0, 1}}, {TestCase::pass("T.two"), {1, 2}}});
  write(dir_ / "b.dlfl", {{TestCase::pass("T.one"), {0, 3}}, {TestCase::pass("T.three"), {2}}});
  const RunResult r = run_dlfl("merge " + q(dir_ / "a.dlfl") + " " + q(dir_ / "b.dlfl") + " -o " + q(dir_ / "m.dlfl"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "merged 2 spectra: 3 tests (1 failing, 1 met in several inputs), 4 elements, 6 covered pairs -> " +
                       (dir_ / "m.dlfl").string() + "\n");
  EXPECT_THAT(r.err, HasSubstr("dlfl: warning: 1 of the 1 tests met in several inputs failed in some only"));
  const Spectrum m = io::read_spectrum(dir_ / "m.dlfl");
  EXPECT_EQ(m.tests()[0].failure_weight, 0.5);
  EXPECT_EQ(m.origin().source_root, "/src");
  // And it ranks: line 1 (run by T.one only) first.
  const RunResult rank = run_dlfl("rank " + q(dir_ / "m.dlfl") + " --top 1 --format csv");
  EXPECT_THAT(rank.out, HasSubstr("src/net.cpp#step:1"));
}

TEST_F(MergeCommand, BadInputIsOneLineExitTwo) {
  write(dir_ / "a.dlfl", {{TestCase::fail("T.one"), {0}}});
  write(dir_ / "other-root.dlfl", {{TestCase::pass("T.two"), {0}}}, "/elsewhere");
  write_text(dir_ / "text.dlfl", "not a spectrum\n");
  expect_refused(q(dir_ / "a.dlfl") + " " + q(dir_ / "missing.dlfl"), (dir_ / "missing.dlfl").string() + ": ");
  expect_refused(q(dir_ / "a.dlfl") + " " + q(dir_ / "other-root.dlfl"),
                 (dir_ / "other-root.dlfl").string() + ": collected under source root /elsewhere, but ");
  expect_refused(q(dir_ / "a.dlfl") + " " + q(dir_ / "text.dlfl"), (dir_ / "text.dlfl").string() + ": ");
  const RunResult none = run_dlfl("merge -o " + q(dir_ / "out.dlfl"));
  EXPECT_EQ(none.exit_code, 2);
  std::size_t entries = 0;  // a.dlfl, other-root.dlfl, text.dlfl: nothing added
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_.path())) ++entries;
  EXPECT_EQ(entries, 3u);
}

// Two spectra with no element and no test in common (of two programs, merged by
// mistake), or one with a source root beside one without: refused, unless asked for.
// One rule for duplicate names: a file named twice is one input (merge X X is X), and one
// spectrum holding a name twice (T1 PASS and T1 FAIL) is refused, never made a flaky test.
TEST_F(MergeCommand, DuplicateNamesHaveOneRule) {
  const fs::path x = dir_ / "x.dlfl";
  write(x, {{TestCase::fail("T1"), {0, 1}}, {TestCase::pass("T2"), {1, 2}}});
  ASSERT_EQ(run_dlfl("merge " + q(x) + " -o " + q(dir_ / "once.dlfl")).exit_code, 0);
  const RunResult twice = run_dlfl("merge " + q(x) + " " + q(x) + " -o " + q(dir_ / "twice.dlfl"));
  ASSERT_EQ(twice.exit_code, 0) << twice.err;
  EXPECT_EQ(slurp(dir_ / "twice.dlfl"), slurp(dir_ / "once.dlfl"));

  const fs::path gz = dir_ / "dup";
  write_text(gz / "spectra.csv", "name\nsrc/a.cpp#f():1\nsrc/a.cpp#f():2\n");
  write_text(gz / "matrix.txt", "1 0 +\n1 1 -\n");
  write_text(gz / "tests.csv", "name,outcome,runtime,stacktrace\nT1,PASS,1,\nT1,FAIL,1,\n");
  expect_refused(q(gz), gz.string() + ": test 'T1' appears twice");
}

TEST_F(MergeCommand, UnrelatedInputsNeedAllowDisjoint) {
  write(dir_ / "a.dlfl", {{TestCase::fail("T.one"), {0, 1}}});
  SpectrumBuilder b;
  b.add_element("lib/other.py", 7, 7, "g");
  b.add_test(TestCase::pass("test_other"), {0});
  Spectrum other = std::move(b).finish();
  other.set_origin({"/src", 0});
  io::write_native(other, dir_ / "other.dlfl");
  write(dir_ / "rootless.dlfl", {{TestCase::pass("T.two"), {1}}}, "");

  const std::string unrelated = q(dir_ / "a.dlfl") + " " + q(dir_ / "other.dlfl");
  expect_refused(unrelated, (dir_ / "other.dlfl").string() + ": shares no element and no test with " +
                                (dir_ / "a.dlfl").string() +
                                ": spectra of different programs? give --allow-disjoint to merge them anyway");
  expect_refused(q(dir_ / "a.dlfl") + " " + q(dir_ / "rootless.dlfl"),
                 (dir_ / "rootless.dlfl").string() + ": has no source root, but " + (dir_ / "a.dlfl").string() +
                     " was collected under /src: nothing says they are of the same code; give --allow-disjoint");

  RunResult r = run_dlfl("merge " + unrelated + " --allow-disjoint -q -o " + q(dir_ / "m.dlfl"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(io::read_spectrum(dir_ / "m.dlfl").element_count(), 5u);
  r = run_dlfl("merge " + q(dir_ / "rootless.dlfl") + " " + q(dir_ / "a.dlfl") + " --allow-disjoint -q -o " +
               q(dir_ / "m.dlfl"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(io::read_spectrum(dir_ / "m.dlfl").origin().source_root, "/src");
  r = run_dlfl("merge --help");
  EXPECT_THAT(r.out, HasSubstr("--allow-disjoint"));
}

}  // namespace
}  // namespace dlfl::testing
