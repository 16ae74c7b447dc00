// `dlfl collect --runtime` end to end on the runtime's purpose-built fixture binary
// (tests/runtime/fixture: tests that pass, fail, skip, crash, abort, hang and exit, with
// hand-placed probes): the spectrum written and read back, crashes and timeouts kept as
// failing tests with their partial coverage, the probe map found or missing, and the
// option combinations that make no sense refused before anything runs. With --snapshot,
// the fixture is run directly with DLFL_RT_FILE set, as pytest under the example conftest
// would be, and dlfl only converts the snapshot files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <map>
#include <set>

#include "cli_runner.h"
#include "dlfl/formats/spectrum_formats.h"
#include "dlfl_rt/dlfl_rt_file.h"
#include "../support/spectrum_canonical.h"
#include "../support/spectrum_lines.h"

namespace dlfl::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

#ifndef DLFL_RT_FLAKY
#define DLFL_RT_FLAKY ""
#endif
#ifdef DLFL_RT_FIXTURE
const std::string kFixture = DLFL_RT_FIXTURE;
#else
const std::string kFixture;
#endif

// A probe map for the fixture's 16 probes (map id 0, as the fixture registers, unless
// `id` says otherwise): probe i stands for line `first_line + i` of
// files[i * files.size() / 16]; probe 0 also covers line 1 of the first file.
void write_probe_map(const fs::path& path, const fs::path& root, const std::vector<std::string>& files,
                     std::uint32_t first_line = 100, const std::string& id = "0000000000000000") {
  std::string text = "dlfl-probe-map\t1\nroot\t" + root.string() + "\nprobes\t16\nid\t" + id + "\n";
  for (std::size_t f = 0; f < files.size(); ++f) text += "file\t" + std::to_string(f) + "\t" + files[f] + "\n";
  text += "function\t0\tfixture_body\n";
  text += "site\t0\t0\t1\t1\t0\th\n";
  for (std::uint32_t i = 0; i < 16; ++i)
    text += "site\t" + std::to_string(i) + "\t" + std::to_string(i * files.size() / 16) + "\t" +
            std::to_string(first_line + i) + "\t1\t0\th\n";
  write_text(path, text);
}

// A copy of the fixture at `path` (its runpath to libdlfl_rt is absolute, so it runs
// from anywhere): the probe map lookup starts from where the binary is.
void copy_fixture(const fs::path& path) {
  fs::create_directories(path.parent_path());
  fs::copy_file(kFixture, path);
}

// Overwrites `size` bytes of a snapshot file at `offset` (dlfl_rt_file_header fields).
void patch_snapshot(const fs::path& path, long offset, std::uint64_t value, std::size_t size) {
  std::FILE* f = std::fopen(path.c_str(), "r+b");
  ASSERT_NE(f, nullptr) << path;
  ASSERT_EQ(std::fseek(f, offset, SEEK_SET), 0);
  ASSERT_EQ(std::fwrite(&value, size, 1, f), 1u);
  std::fclose(f);
}

dlfl_rt_file_header read_header(const fs::path& path) {
  dlfl_rt_file_header h{};
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f) {
    if (std::fread(&h, sizeof h, 1, f) != 1) h = {};
    std::fclose(f);
  }
  return h;
}

// The file offset of the `index`th record (0-based) of a snapshot, -1 when there is none.
long record_offset(const fs::path& path, std::size_t index) {
  const dlfl_rt_file_header h = read_header(path);
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return -1;
  std::uint64_t at = h.records_offset;
  for (std::size_t i = 0; at < h.records_end; ++i) {
    dlfl_rt_record_header r{};
    if (std::fseek(f, static_cast<long>(at), SEEK_SET) != 0 || std::fread(&r, sizeof r, 1, f) != 1) break;
    if (i == index) {
      std::fclose(f);
      return static_cast<long>(at);
    }
    at += sizeof r + (r.name_length + 7) / 8 * 8 + (r.payload_bytes + 7) / 8 * 8;
  }
  std::fclose(f);
  return -1;
}

class CollectRuntime : public ::testing::Test {
 protected:
  void SetUp() override {
    if (kFixture.empty()) GTEST_SKIP() << "the runtime fixture binary is not built (tests/runtime)";
  }
  TempDir dir_{"cli-collect-runtime"};
  std::string q(const fs::path& p) const { return "'" + p.string() + "'"; }
  // Runs the fixture on `filter` with DLFL_RT_FILE=snapshot, as a harness dlfl did not
  // start would (the fixture's own listener brackets the tests).
  void run_fixture(const fs::path& snapshot, const std::string& filter) const {
    const std::string cmd =
        "DLFL_RT_FILE=" + q(snapshot) + " " + q(kFixture) + " --gtest_filter='" + filter + "' >/dev/null 2>&1";
    (void)std::system(cmd.c_str());  // fails and crashes on purpose
    ASSERT_TRUE(fs::exists(snapshot)) << cmd;
  }
};

TEST_F(CollectRuntime, WritesTheSpectrumWithCrashedAndTimedOutTestsKept) {
  write_probe_map(dir_ / "probes.map", dir_.path(), {"fixture.cpp"});
  const fs::path out = dir_ / "out.dlfl";
  const RunResult r = run_dlfl("collect --runtime --gtest " + q(kFixture) + " --probe-map " + q(dir_ / "probes.map") +
                               " --timeout 3 -o " + q(out) + " --gzoltar " + q(dir_ / "gz") + " --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("collected 11 tests (5 failing, 2 crashed, 1 timed out), 1 skipped, 17 elements, "));
  EXPECT_THAT(r.out, HasSubstr(" s (runtime, 5 processes) -> " + out.string() + ", " + (dir_ / "gz").string()));
  // One warning per test that ended the binary, naming how.
  EXPECT_THAT(r.err, HasSubstr("dlfl: warning: Fixture.Segv: ended the test binary, killed by signal 11"));
  EXPECT_THAT(r.err, HasSubstr("dlfl: warning: Fixture.Abort: ended the test binary, killed by signal 6"));
  EXPECT_THAT(r.err, HasSubstr("dlfl: warning: Fixture.Hang: timed out after 3000 ms"));
  EXPECT_THAT(r.err, HasSubstr("dlfl: warning: Fixture.Exit: ended the test binary, exit status 3"));

  const Spectrum s = io::read_spectrum(out);
  const auto status = status_by_test(s);
  ASSERT_EQ(s.test_count(), 11u);  // Fixture.Skip is left out
  EXPECT_EQ(status.count("Fixture.Skip"), 0u);
  EXPECT_EQ(status.at("Fixture.Pass1"), TestStatus::passed);
  EXPECT_EQ(status.at("Fixture.Segv"), TestStatus::crashed);
  EXPECT_EQ(status.at("Fixture.Abort"), TestStatus::crashed);
  EXPECT_EQ(status.at("Fixture.Hang"), TestStatus::timed_out);
  EXPECT_EQ(status.at("Fixture.Fail"), TestStatus::failed);
  EXPECT_EQ(status.at("Fixture.Exit"), TestStatus::failed);
  EXPECT_EQ(status.at("Fixture.Pass4"), TestStatus::passed);  // ran after three restarts

  // Partial coverage up to the crash, plus static initialisation (probe 0: lines 1, 100).
  const auto lines = lines_by_test(s);
  using L = std::set<std::uint32_t>;
  EXPECT_EQ(lines.at("Fixture.Segv"), (L{1, 100, 102}));
  EXPECT_EQ(lines.at("Fixture.Hang"), (L{1, 100, 105}));
  EXPECT_EQ(lines.at("Fixture.Pass4"), (L{1, 100, 115}));
  EXPECT_EQ(s.file(0), "fixture.cpp");  // relative to the probe map's root
  EXPECT_EQ(s.function(0), "fixture_body");

  // The GZoltar copy holds the same tests.
  const Spectrum gz = io::read_spectrum(dir_ / "gz");
  EXPECT_EQ(gz.test_count(), 11u);
  EXPECT_EQ(gz.element_count(), 17u);
}

TEST_F(CollectRuntime, FindsTheProbeMapAboveTheBinary) {
  // dlfl instrument --out instr; cmake -S instr -B instr/build: the map is two levels up.
  write_probe_map(dir_ / "instr" / "dlfl-probes.map", dir_ / "instr", {"src/ops.cpp"});
  copy_fixture(dir_ / "instr" / "build" / "tests" / "fixture");
  const RunResult r = run_dlfl("collect --runtime --gtest " + q(dir_ / "instr" / "build" / "tests" / "fixture") +
                               " --filter 'Fixture.Pass*:Fixture.Fail' -o " + q(dir_ / "out.dlfl"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("probe map: " + (dir_ / "instr" / "dlfl-probes.map").string()));
  EXPECT_THAT(r.out, StartsWith("collected 5 tests (1 failing), 17 elements"));
  EXPECT_EQ(io::read_spectrum(dir_ / "out.dlfl").file(0), "src/ops.cpp");
}

TEST_F(CollectRuntime, FindsTheProbeMapThroughACMakeBuildDirectoryOutsideTheTree) {
  // cmake -S instr -B build-instr: CMakeCache.txt names the instrumented tree.
  write_probe_map(dir_ / "instr" / "dlfl-probes.map", dir_ / "instr", {"src/ops.cpp"});
  write_text(dir_ / "build-instr" / "CMakeCache.txt",
             "# cache\nCMAKE_HOME_DIRECTORY:INTERNAL=" + (dir_ / "instr").string() + "\n");
  copy_fixture(dir_ / "build-instr" / "bin" / "fixture");
  const RunResult r = run_dlfl("collect --runtime --gtest " + q(dir_ / "build-instr" / "bin" / "fixture") +
                               " --filter 'Fixture.Pass1:Fixture.Fail' -o " + q(dir_ / "out.dlfl"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("probe map: " + (dir_ / "instr" / "dlfl-probes.map").string()));
  EXPECT_TRUE(fs::exists(dir_ / "out.dlfl"));
}

TEST_F(CollectRuntime, MissingProbeMapIsAnErrorThatNamesTheOption) {
  copy_fixture(dir_ / "lonely" / "fixture");
  const RunResult r =
      run_dlfl("collect --runtime --gtest " + q(dir_ / "lonely" / "fixture") + " -o " + q(dir_ / "out.dlfl"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err,
              StartsWith("dlfl: error: " + (dir_ / "lonely" / "fixture").string() + ": found no dlfl-probes.map"));
  EXPECT_THAT(r.err, HasSubstr("--probe-map"));
  EXPECT_FALSE(fs::exists(dir_ / "out.dlfl"));

  const RunResult given = run_dlfl("collect --runtime --gtest " + q(kFixture) + " --probe-map " +
                                   q(dir_ / "nowhere.map") + " -o " + q(dir_ / "out.dlfl"));
  EXPECT_EQ(given.exit_code, 2);
  EXPECT_THAT(given.err, StartsWith("dlfl: error: " + (dir_ / "nowhere.map").string() + ": "));
  EXPECT_FALSE(fs::exists(dir_ / "out.dlfl"));
}

TEST_F(CollectRuntime, NoFailingTestWritesNothing) {
  write_probe_map(dir_ / "probes.map", dir_.path(), {"fixture.cpp"});
  const RunResult r = run_dlfl("collect --runtime --gtest " + q(kFixture) + " --probe-map " + q(dir_ / "probes.map") +
                               " --filter 'Fixture.Pass*' -o " + q(dir_ / "out.dlfl"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("dlfl: error: no failing test among the 4 tests"));
  EXPECT_FALSE(fs::exists(dir_ / "out.dlfl"));
}

// Without the listener dlfl sees no test begin: the first run, however long a test of it
// hangs, ends after one test's limit with the one error that says what to link.
TEST_F(CollectRuntime, ABinaryWithoutTheListenerIsOneErrorEvenWhenATestHangs) {
#ifndef DLFL_RT_UNLISTED
  GTEST_SKIP() << "the fixture without the listener is not built (tests/runtime)";
#else
  write_probe_map(dir_ / "probes.map", dir_.path(), {"fixture.cpp"});
  const RunResult r = run_dlfl("collect --runtime --gtest " + q(DLFL_RT_UNLISTED) + " --probe-map " +
                               q(dir_ / "probes.map") + " --timeout 2 -o " + q(dir_ / "out.dlfl"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, StartsWith("dlfl: error: " + std::string(DLFL_RT_UNLISTED) + ": ran (killed by signal 11"));
  EXPECT_THAT(r.err, HasSubstr("but wrote no coverage snapshot"));
  EXPECT_THAT(r.err, HasSubstr("$(dlfl config --libs --gtest)"));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out.dlfl"));
  // A run that only hangs: stopped after the limit, not left running.
  const RunResult hung = run_dlfl("collect --runtime --gtest " + q(DLFL_RT_UNLISTED) + " --probe-map " +
                                  q(dir_ / "probes.map") + " --timeout 2 --filter 'Fixture.Pass1:Fixture.Hang' -o " +
                                  q(dir_ / "out.dlfl"));
  EXPECT_EQ(hung.exit_code, 2);
  EXPECT_THAT(hung.err, HasSubstr(": ran (stopped: no test seen for 2000 ms) but wrote no coverage snapshot"));
  EXPECT_FALSE(fs::exists(dir_ / "out.dlfl"));
#endif
}

TEST_F(CollectRuntime, SourceRootAndExcludesPickTheElements) {
  // Probes 0-7 in src/ops.cpp (lines 10-17), 8-15 in tests/ops_test.cpp (lines 18-25).
  fs::create_directories(dir_ / "src");
  write_probe_map(dir_ / "probes.map", dir_.path(), {"src/ops.cpp", "tests/ops_test.cpp"}, 10);
  const std::string base = "collect --runtime --gtest " + q(kFixture) + " --probe-map " + q(dir_ / "probes.map") +
                           " --filter 'Fixture.Pass*:Fixture.Fail' -q -o " + q(dir_ / "out.dlfl");

  RunResult r = run_dlfl(base + " --exclude 'tests/*'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Spectrum s = io::read_spectrum(dir_ / "out.dlfl");
  ASSERT_EQ(s.element_count(), 9u);  // line 1 and lines 10-17
  for (std::size_t e = 0; e < s.element_count(); ++e) EXPECT_EQ(s.file(e), "src/ops.cpp");
  // Pass3 and Pass4 reach only probes of the left-out file: static initialisation stays.
  EXPECT_EQ(lines_by_test(s).at("Fixture.Pass3"), (std::set<std::uint32_t>{1, 10}));
  EXPECT_EQ(lines_by_test(s).at("Fixture.Fail"), (std::set<std::uint32_t>{1, 10, 16}));

  r = run_dlfl(base + " --source-root " + q(dir_ / "src"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  s = io::read_spectrum(dir_ / "out.dlfl");
  EXPECT_EQ(s.element_count(), 9u);
  EXPECT_EQ(s.file(0), "ops.cpp");

  fs::remove(dir_ / "out.dlfl");
  r = run_dlfl(base + " --exclude '*.cpp'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("check --source-root and --exclude"));
  EXPECT_FALSE(fs::exists(dir_ / "out.dlfl"));
}

TEST_F(CollectRuntime, KeepWorkKeepsTheSnapshots) {
  write_probe_map(dir_ / "probes.map", dir_.path(), {"fixture.cpp"});
  fs::create_directories(dir_ / "work");
  const RunResult r = run_dlfl("collect --runtime --gtest " + q(kFixture) + " --probe-map " + q(dir_ / "probes.map") +
                               " --filter 'Fixture.Pass1:Fixture.Fail' --work-dir " + q(dir_ / "work") +
                               " --keep-work -o " + q(dir_ / "out.dlfl"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("dlfl: kept the snapshot files in " + (dir_ / "work").string() + "/dlfl-runtime-"));
  std::size_t snapshots = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir_ / "work")) snapshots += e.path().filename() == "run-0.map";
  EXPECT_EQ(snapshots, 1u);
}

TEST_F(CollectRuntime, SnapshotsOfRunsItDidNotStartBecomeOneSpectrum) {
  write_probe_map(dir_ / "probes.map", dir_.path(), {"fixture.cpp"});
  // Process 1 dies in Fixture.Segv (Pass2 never runs); process 2 runs to its end.
  run_fixture(dir_ / "run.map", "Fixture.Pass1:Fixture.Segv:Fixture.Pass2");
  run_fixture(dir_ / "run2.map", "Fixture.Fail:Fixture.Skip:Fixture.Pass3");
  const fs::path out = dir_ / "out.dlfl";
  const RunResult r = run_dlfl("collect --runtime --snapshot " + q(dir_ / "run.map") + " --snapshot " +
                               q(dir_ / "run2.map") + " --probe-map " + q(dir_ / "probes.map") + " -o " + q(out) +
                               " --gzoltar " + q(dir_ / "gz"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("collected 4 tests (2 failing, 1 crashed), 1 skipped, 17 elements, "));
  EXPECT_THAT(r.out, HasSubstr(" s (runtime, 2 snapshots) -> " + out.string() + ", " + (dir_ / "gz").string()));
  EXPECT_THAT(r.err, HasSubstr("dlfl: warning: Fixture.Segv: the process (pid "));
  EXPECT_THAT(r.err, HasSubstr("ended during this test; recorded as failing (crashed) with the coverage it reached"));

  const Spectrum s = io::read_spectrum(out);
  ASSERT_EQ(s.test_count(), 4u);
  std::vector<std::string> names;
  for (const auto& t : s.tests()) names.push_back(t.name);
  // Snapshots in the order given, then their tests in the order they began.
  EXPECT_EQ(names, (std::vector<std::string>{"Fixture.Pass1", "Fixture.Segv", "Fixture.Fail", "Fixture.Pass3"}));
  const auto status = status_by_test(s);
  EXPECT_EQ(status.at("Fixture.Pass1"), TestStatus::passed);
  EXPECT_EQ(status.at("Fixture.Segv"), TestStatus::crashed);
  EXPECT_EQ(status.at("Fixture.Fail"), TestStatus::failed);
  EXPECT_EQ(status.at("Fixture.Pass3"), TestStatus::passed);
  // Each process's static initialisation (probe 0: lines 1, 100) goes to its own tests.
  const auto lines = lines_by_test(s);
  using L = std::set<std::uint32_t>;
  EXPECT_EQ(lines.at("Fixture.Pass1"), (L{1, 100, 101}));
  EXPECT_EQ(lines.at("Fixture.Segv"), (L{1, 100, 102}));  // up to the crash, not probe 13 after it
  EXPECT_EQ(lines.at("Fixture.Fail"), (L{1, 100, 106}));
  EXPECT_EQ(lines.at("Fixture.Pass3"), (L{1, 100, 110}));
  EXPECT_EQ(s.file(0), "fixture.cpp");
  EXPECT_EQ(io::read_spectrum(dir_ / "gz").test_count(), 4u);
}

// --repeat N on a GoogleTest binary: --gtest_repeat=N in one process, every run bracketed
// on its own, the deliberately nondeterministic test weighted k/N and listed as flaky.
TEST_F(CollectRuntime, RepeatWeighsANondeterministicTestByItsFailingRuns) {
  write_probe_map(dir_ / "probes.map", dir_.path(), {"flaky.cpp"});
  const RunResult r = run_dlfl("collect --runtime --gtest " + q(DLFL_RT_FLAKY) + " --filter 'Flaky.EveryOtherRun:Flaky.Pass'" +
                               " --repeat 4 --probe-map " + q(dir_ / "probes.map") + " -q -o " + q(dir_ / "out.dlfl"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("collected 2 tests (1 failing), "));
  EXPECT_THAT(r.out, HasSubstr("(runtime, 1 process, 4 runs)"));
  EXPECT_THAT(r.out, HasSubstr("\nelements by language: cpp 17\n"));
  EXPECT_THAT(r.out, HasSubstr("\nflaky: Flaky.EveryOtherRun 2/4\n"));
  const Spectrum s = io::read_spectrum(dir_ / "out.dlfl");
  ASSERT_EQ(s.test_count(), 2u);
  EXPECT_EQ(s.tests()[0].name, "Flaky.EveryOtherRun");
  EXPECT_DOUBLE_EQ(s.tests()[0].failure_weight, 0.5);
  EXPECT_EQ(s.tests()[0].status, TestStatus::flaky);
  EXPECT_EQ(lines_by_test(s).at("Flaky.EveryOtherRun"), (std::set<std::uint32_t>{101, 102}));
  // The language goes into the rankings too.
  const RunResult csv = run_dlfl("rank " + q(dir_ / "out.dlfl") + " --format csv --top 1");
  EXPECT_THAT(csv.out, StartsWith("rank,rank_best,rank_worst,element,file,line,function,kind,language,score,"));
  // The top line, 101, is covered by the flaky test only: weight 0.5 adds 0.5 to ef and
  // 0.5 to ep; the passing test does not cover it (np 1).
  EXPECT_THAT(csv.out, HasSubstr(",flaky.cpp,101,fixture_body,code,cpp,"));
  EXPECT_THAT(csv.out, HasSubstr(",0.5,0.5,0,1\n"));
}

TEST_F(CollectRuntime, SnapshotTestRunTwiceIsOneTestFlakyWhenOnlySomeRunsFailed) {
  write_probe_map(dir_ / "probes.map", dir_.path(), {"fixture.cpp"});
  run_fixture(dir_ / "a.map", "Fixture.Pass1:Fixture.Fail");
  run_fixture(dir_ / "b.map", "Fixture.Fail:Fixture.Pass2");
  const std::string args = " --probe-map " + q(dir_ / "probes.map") + " -q -o " + q(dir_ / "out.dlfl");
  // a.map given twice (as `--snapshot run.map run.map*` may): read once.
  RunResult r = run_dlfl("collect --runtime --snapshot " + q(dir_ / "a.map") + " --snapshot " + q(dir_ / "a.map") +
                         " --snapshot " + q(dir_ / "b.map") + args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("collected 3 tests (1 failing), 17 elements, "));
  EXPECT_THAT(r.out, HasSubstr("(runtime, 2 snapshots)"));
  EXPECT_THAT(r.err, HasSubstr("dlfl: warning: Fixture.Fail: ran 2 times (2 failed); recorded once"));
  Spectrum s = io::read_spectrum(dir_ / "out.dlfl");
  EXPECT_EQ(status_by_test(s).at("Fixture.Fail"), TestStatus::failed);
  EXPECT_EQ(lines_by_test(s).at("Fixture.Fail"), (std::set<std::uint32_t>{1, 100, 106}));

  // Fixture.Fail passed in b.map (gtest runs in definition order: Pass2 is record 0, Fail
  // record 1): one test, failing in one run of two.
  const long fail_record = record_offset(dir_ / "b.map", 1);
  ASSERT_GT(fail_record, 0);
  patch_snapshot(dir_ / "b.map", fail_record + static_cast<long>(offsetof(dlfl_rt_record_header, outcome)), 0, 4);
  r = run_dlfl("collect --runtime --snapshot " + q(dir_ / "a.map") + " --snapshot " + q(dir_ / "b.map") + args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("dlfl: warning: Fixture.Fail: ran 2 times (1 failed); recorded once with the "
                               "coverage of all runs, as flaky"));
  s = io::read_spectrum(dir_ / "out.dlfl");
  EXPECT_EQ(status_by_test(s).at("Fixture.Fail"), TestStatus::flaky);
  const auto fail = std::find_if(s.tests().begin(), s.tests().end(),
                                 [](const TestCase& t) { return t.name == "Fixture.Fail"; });
  ASSERT_NE(fail, s.tests().end());
  EXPECT_DOUBLE_EQ(fail->failure_weight, 0.5);
}

TEST_F(CollectRuntime, SnapshotSourceRootAndExcludesPickTheElements) {
  write_probe_map(dir_ / "probes.map", dir_.path(), {"src/ops.cpp", "tests/ops_test.cpp"}, 10);
  fs::create_directories(dir_ / "src");
  run_fixture(dir_ / "run.map", "Fixture.Pass*:Fixture.Fail");
  const std::string base = "collect --runtime --snapshot " + q(dir_ / "run.map") + " --probe-map " +
                           q(dir_ / "probes.map") + " -o " + q(dir_ / "out.dlfl");
  RunResult r = run_dlfl(base + " --exclude 'tests/*'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Spectrum s = io::read_spectrum(dir_ / "out.dlfl");
  ASSERT_EQ(s.element_count(), 9u);  // line 1 and lines 10-17
  for (std::size_t e = 0; e < s.element_count(); ++e) EXPECT_EQ(s.file(e), "src/ops.cpp");
  EXPECT_EQ(lines_by_test(s).at("Fixture.Pass4"), (std::set<std::uint32_t>{1, 10}));

  r = run_dlfl(base + " --source-root " + q(dir_ / "src"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(io::read_spectrum(dir_ / "out.dlfl").file(0), "ops.cpp");
}

TEST_F(CollectRuntime, SnapshotOfAnotherProbeMapIsRefusedNamingBothFiles) {
  write_probe_map(dir_ / "probes.map", dir_.path(), {"fixture.cpp"}, 100, "0000000000005678");
  run_fixture(dir_ / "run.map", "Fixture.Pass1:Fixture.Fail");
  // The header's map_id: as code instrumented with another map writes it.
  const long map_id = offsetof(dlfl_rt_file_header, map_id);
  patch_snapshot(dir_ / "run.map", map_id, 0x1234, 8);
  const RunResult r = run_dlfl("collect --runtime --snapshot " + q(dir_ / "run.map") + " --probe-map " +
                               q(dir_ / "probes.map") + " -o " + q(dir_ / "out.dlfl"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, StartsWith("dlfl: error: " + (dir_ / "run.map").string() +
                                ": was written by code instrumented with another probe map than " +
                                (dir_ / "probes.map").string()));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  EXPECT_FALSE(fs::exists(dir_ / "out.dlfl"));

  // The same id is accepted.
  patch_snapshot(dir_ / "run.map", map_id, 0x5678, 8);
  EXPECT_EQ(run_dlfl("collect --runtime --snapshot " + q(dir_ / "run.map") + " --probe-map " +
                     q(dir_ / "probes.map") + " -q -o " + q(dir_ / "out.dlfl"))
                .exit_code,
            0);
}

TEST_F(CollectRuntime, SnapshotWithoutAFailingTestOrAnyTestWritesNothing) {
  write_probe_map(dir_ / "probes.map", dir_.path(), {"fixture.cpp"});
  run_fixture(dir_ / "run.map", "Fixture.Pass*");
  const std::string args = " --probe-map " + q(dir_ / "probes.map") + " -o " + q(dir_ / "out.dlfl");
  RunResult r = run_dlfl("collect --runtime --snapshot " + q(dir_ / "run.map") + args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("dlfl: error: no failing test among the 4 tests"));
  EXPECT_FALSE(fs::exists(dir_ / "out.dlfl"));

  // No record: only the outside map, as when no harness bracketed tests.
  patch_snapshot(dir_ / "run.map", offsetof(dlfl_rt_file_header, records_end),
                 read_header(dir_ / "run.map").records_offset, 8);
  r = run_dlfl("collect --runtime --snapshot " + q(dir_ / "run.map") + args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, StartsWith("dlfl: error: " + (dir_ / "run.map").string() + ": holds no test: "));
  EXPECT_FALSE(fs::exists(dir_ / "out.dlfl"));

  r = run_dlfl("collect --runtime --snapshot " + q(dir_ / "missing.map") + args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, StartsWith("dlfl: error: " + (dir_ / "missing.map").string() + ": "));
  EXPECT_FALSE(fs::exists(dir_ / "out.dlfl"));
}

TEST_F(CollectRuntime, RefusesCombinationsThatMakeNoSense) {
  write_probe_map(dir_ / "probes.map", dir_.path(), {"fixture.cpp"});
  const std::string out = q(dir_ / "out.dlfl");
  const std::string gtest = " --gtest " + q(kFixture) + " --probe-map " + q(dir_ / "probes.map");
  // Refused before the snapshot is read: it need not be one.
  const std::string snapshot = " --snapshot " + q(dir_ / "probes.map") + " --probe-map " + q(dir_ / "probes.map");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"collect --runtime" + gtest + " --coverage gcov -o " + out, "--coverage gcov exclude each other"},
      {"collect --runtime --ctest " + q(dir_.path()) + gtest + " -o " + out, "--runtime takes one of --gtest"},
      {"collect --runtime --tests " + q(dir_ / "probes.map") + " -o " + out, "--tests needs --cmd"},
      {"collect --runtime -o " + out, "--runtime needs --gtest BINARY (built from a `dlfl instrument` tree), --ctest "
                                      "DIR, --tests FILE --cmd CMD, or --snapshot FILE"},
      {"collect --runtime" + gtest + " --snapshot " + q(dir_ / "probes.map") + " -o " + out,
       "--runtime takes one of --gtest BINARY, --ctest DIR, --tests FILE --cmd CMD or --snapshot FILE"},
      {"collect --runtime --snapshot " + q(dir_ / "probes.map") + " -o " + out, "--snapshot needs --probe-map MAP"},
      {"collect --runtime" + snapshot + " --filter 'Fixture.*' -o " + out, "--filter steers a run of the tests"},
      {"collect --runtime" + snapshot + " --timeout 3 -o " + out, "--timeout steers a run of the tests"},
      {"collect --runtime" + snapshot + " -j 1 -o " + out, "--jobs steers a run of the tests"},
      {"collect --runtime" + snapshot + " --keep-work -o " + out, "--keep-work steers a run of the tests"},
      {"collect --runtime" + snapshot + " --coverage llvm -o " + out, "--coverage llvm exclude each other"},
      {"collect --runtime" + snapshot, "nowhere to write the spectrum"},
      {"collect" + snapshot + " -o " + out, "--snapshot goes with --runtime"},
      {"collect --runtime" + gtest + " -j 2 -o " + out, "-j 2 cannot be honoured"},
      {"collect --runtime" + gtest + " --object " + q(kFixture) + " -o " + out, "--object is for gcov/llvm"},
      {"collect --runtime" + gtest + " --include-system -o " + out, "--include-system is for gcov/llvm"},
      {"collect --runtime" + gtest, "nowhere to write the spectrum"},
      {"collect --gtest " + q(kFixture) + " --probe-map " + q(dir_ / "probes.map") + " -o " + out,
       "--probe-map goes with --runtime"},
  };
  for (const auto& [args, message] : cases) {
    const RunResult r = run_dlfl(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_THAT(r.err, StartsWith("dlfl: error: ")) << args;
    EXPECT_THAT(r.err, HasSubstr(message)) << args;
    EXPECT_FALSE(fs::exists(dir_ / "out.dlfl")) << args;
  }
}

}  // namespace
}  // namespace dlfl::testing

namespace dlfl::testing {
namespace {

// --shard on the runtime path: the shards of one binary (GoogleTest's split) and of
// snapshots (split by name), merged, are the unsharded spectrum, tests in any order.
TEST_F(CollectRuntime, ShardsMergeIntoTheUnshardedSpectrum) {
  write_probe_map(dir_ / "probes.map", dir_.path(), {"fixture.cpp"});
  const std::string filter = " --filter 'Fixture.Pass*:Fixture.Fail:Fixture.Segv' --timeout 3 --quiet";
  const std::string common = "collect --runtime --gtest " + q(kFixture) + " --probe-map " + q(dir_ / "probes.map");
  ASSERT_EQ(run_dlfl(common + filter + " -o " + q(dir_ / "whole.dlfl")).exit_code, 0);
  std::string shards;
  for (int i = 0; i < 3; ++i) {
    const fs::path out = dir_ / ("shard-" + std::to_string(i) + ".dlfl");
    const RunResult r = run_dlfl(common + filter + " --shard " + std::to_string(i) + "/3 -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr(", shard " + std::to_string(i) + "/3 -> "));
    shards += " " + q(out);
  }
  const RunResult m = run_dlfl("merge" + shards + " -o " + q(dir_ / "merged.dlfl"));
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_THAT(m.out, StartsWith("merged 3 spectra: "));
  const Spectrum whole = io::read_spectrum(dir_ / "whole.dlfl");
  const Spectrum merged = io::read_spectrum(dir_ / "merged.dlfl");
  EXPECT_EQ(whole.test_count(), 6u);  // Pass1-4, Fail, Segv
  EXPECT_EQ(canonical(merged), canonical(whole));
  EXPECT_EQ(merged.origin(), whole.origin());

  // Snapshots: every shard converts the same files, keeping the tests of its names.
  run_fixture(dir_ / "run.map", "Fixture.Pass1:Fixture.Fail:Fixture.Pass2:Fixture.Pass3");
  const std::string convert =
      "collect --runtime --snapshot " + q(dir_ / "run.map") + " --probe-map " + q(dir_ / "probes.map") + " -q";
  ASSERT_EQ(run_dlfl(convert + " -o " + q(dir_ / "snap.dlfl")).exit_code, 0);
  shards.clear();
  for (int i = 0; i < 2; ++i) {
    const fs::path out = dir_ / ("snap-" + std::to_string(i) + ".dlfl");
    const RunResult r = run_dlfl(convert + " --shard " + std::to_string(i) + "/2 -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    shards += " " + q(out);
  }
  ASSERT_EQ(run_dlfl("merge" + shards + " -o " + q(dir_ / "snap-merged.dlfl")).exit_code, 0);
  EXPECT_EQ(canonical(io::read_spectrum(dir_ / "snap-merged.dlfl")), canonical(io::read_spectrum(dir_ / "snap.dlfl")));
}

}  // namespace
}  // namespace dlfl::testing
