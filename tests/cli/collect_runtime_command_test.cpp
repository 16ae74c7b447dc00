// `dlfl collect --runtime` end to end on the runtime's purpose-built fixture binary
// (tests/runtime/fixture: tests that pass, fail, skip, crash, abort, hang and exit, with
// hand-placed probes): the spectrum written and read back, crashes and timeouts kept as
// failing tests with their partial coverage, the probe map found or missing, and the
// option combinations that make no sense refused before anything runs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "cli_runner.h"
#include "dlfl/io/spectrum_formats.h"

namespace dlfl::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

#ifdef DLFL_RT_FIXTURE
const std::string kFixture = DLFL_RT_FIXTURE;
#else
const std::string kFixture;
#endif

// A probe map for the fixture's 16 probes (map id 0, as the fixture registers): probe i
// stands for line `first_line + i` of files[i * files.size() / 16]; probe 0 also covers
// line 1 of the first file.
void write_probe_map(const fs::path& path, const fs::path& root, const std::vector<std::string>& files,
                     std::uint32_t first_line = 100) {
  std::string text = "dlfl-probe-map\t1\nroot\t" + root.string() + "\nprobes\t16\nid\t0000000000000000\n";
  for (std::size_t f = 0; f < files.size(); ++f) text += "file\t" + std::to_string(f) + "\t" + files[f] + "\n";
  text += "function\t0\tfixture_body\n";
  text += "site\t0\t0\t1\t1\t0\th\n";
  for (std::uint32_t i = 0; i < 16; ++i)
    text += "site\t" + std::to_string(i) + "\t" + std::to_string(i * files.size() / 16) + "\t" +
            std::to_string(first_line + i) + "\t1\t0\th\n";
  write_text(path, text);
}

// Covered first lines of each test of a spectrum, by test name.
std::map<std::string, std::set<std::uint32_t>> lines_by_test(const Spectrum& s) {
  std::map<std::string, std::set<std::uint32_t>> out;
  for (std::size_t t = 0; t < s.test_count(); ++t) {
    auto& lines = out[s.tests()[t].name];
    for (std::uint32_t e = 0; e < s.element_count(); ++e)
      if (s.coverage().covers(t, e)) lines.insert(s.element(e).first_line);
  }
  return out;
}

std::map<std::string, TestStatus> status_by_test(const Spectrum& s) {
  std::map<std::string, TestStatus> out;
  for (const auto& t : s.tests()) out[t.name] = t.status;
  return out;
}

// A copy of the fixture at `path` (its runpath to libdlfl_rt is absolute, so it runs
// from anywhere): the probe map lookup starts from where the binary is.
void copy_fixture(const fs::path& path) {
  fs::create_directories(path.parent_path());
  fs::copy_file(kFixture, path);
}

class CollectRuntime : public ::testing::Test {
 protected:
  void SetUp() override {
    if (kFixture.empty()) GTEST_SKIP() << "the runtime fixture binary is not built (tests/runtime)";
  }
  TempDir dir_{"cli-collect-runtime"};
  std::string q(const fs::path& p) const { return "'" + p.string() + "'"; }
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

TEST_F(CollectRuntime, RefusesCombinationsThatMakeNoSense) {
  write_probe_map(dir_ / "probes.map", dir_.path(), {"fixture.cpp"});
  const std::string out = q(dir_ / "out.dlfl");
  const std::string gtest = " --gtest " + q(kFixture) + " --probe-map " + q(dir_ / "probes.map");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"collect --runtime" + gtest + " --coverage gcov -o " + out, "--coverage gcov exclude each other"},
      {"collect --runtime --ctest " + q(dir_.path()) + " -o " + out, "give --gtest BINARY, not --ctest"},
      {"collect --runtime --tests " + q(dir_ / "probes.map") + " --cmd 'true {}' -o " + out, "not --ctest/--tests"},
      {"collect --runtime -o " + out, "--runtime needs --gtest BINARY"},
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
