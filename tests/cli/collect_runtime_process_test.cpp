// `dlfl collect --runtime` with --tests/--cmd and --ctest: one process per test (a plain C
// program linked with libdlfl_rt, no GoogleTest), run in parallel; outcomes from the exit
// status and CTest's properties; crashed and timed-out tests keep their coverage; what a
// test forks or starts counts for it; the errors stay one line with exit 2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "cli_runner.h"
#include "dlfl/formats/spectrum_formats.h"
#include "../support/have_program.h"
#include "../support/spectrum_lines.h"

namespace dlfl::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

#ifdef DLFL_RT_PROCESS
const std::string kProcess = DLFL_RT_PROCESS;
const std::string kOtherMapProcess = DLFL_RT_PROCESS_OTHER_MAP;
#else
const std::string kProcess, kOtherMapProcess;
#endif

// The fixture's 16 probes: probe i is line 200 + i of rt_process.c (map id 0, as it
// registers, which is "unknown" and accepted; the other-map build registers 0x77).
void write_probe_map(const fs::path& path, const fs::path& root) {
  std::string text = "dlfl-probe-map\t1\nroot\t" + root.string() + "\nprobes\t16\nid\t0000000000000055\n";
  text += "file\t0\trt_process.c\nfunction\t0\tmain\n";
  for (int i = 0; i < 16; ++i) text += "site\t" + std::to_string(i) + "\t0\t" + std::to_string(200 + i) + "\t1\t0\th\n";
  write_text(path, text);
}

std::string q(const fs::path& p) { return "'" + p.string() + "'"; }

class CollectRuntimeProcess : public ::testing::Test {
 protected:
  void SetUp() override {
    if (kProcess.empty()) GTEST_SKIP() << "the runtime process fixture is not built (tests/runtime)";
    write_probe_map(dir_ / "dlfl-probes.map", dir_.path());
  }
  TempDir dir_{"cli-collect-runtime-process"};
};

TEST_F(CollectRuntimeProcess, TestsAndCmdRunEachTestAsItsOwnProcessesInParallel) {
  write_text(dir_ / "tests.txt", "pass\nfail\nsegv\nabort\nhang\nfork\nexec\nbracket\ntwice\n");
  // "twice" runs the program two times, one after the other: both count. The others are
  // exec'd by the shell, so a crash is a signal, not the shell's exit status 128 + N.
  const std::string cmd = "case {} in twice) " + q(kProcess) + " pass && " + q(kProcess) + " exec-child;; *) exec " +
                          q(kProcess) + " {};; esac";
  const fs::path out = dir_ / "out.dlfl";
  const RunResult r = run_dlfl("collect --runtime --tests " + q(dir_ / "tests.txt") + " --cmd \"" + cmd +
                               "\" --probe-map " + q(dir_ / "dlfl-probes.map") + " -j 2 --timeout 2 -q -o " + q(out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("collected 9 tests (4 failing, 2 crashed, 1 timed out), 16 elements, "));
  EXPECT_THAT(r.out, HasSubstr("(runtime, 2 jobs)"));
  const Spectrum s = io::read_spectrum(out);
  const auto status = status_by_test(s);
  EXPECT_EQ(status.at("pass"), TestStatus::passed);
  EXPECT_EQ(status.at("fail"), TestStatus::failed);
  EXPECT_EQ(status.at("segv"), TestStatus::crashed);
  EXPECT_EQ(status.at("abort"), TestStatus::crashed);
  EXPECT_EQ(status.at("hang"), TestStatus::timed_out);
  EXPECT_EQ(status.at("fork"), TestStatus::passed);
  // Line 200 is static initialisation: every process reaches it.
  const auto lines = lines_by_test(s);
  EXPECT_EQ(lines.at("pass"), (std::set<std::uint32_t>{200, 201}));
  EXPECT_EQ(lines.at("fail"), (std::set<std::uint32_t>{200, 202}));
  EXPECT_EQ(lines.at("segv"), (std::set<std::uint32_t>{200, 203}));  // not 215, after the crash
  EXPECT_EQ(lines.at("abort"), (std::set<std::uint32_t>{200, 204}));
  EXPECT_EQ(lines.at("hang"), (std::set<std::uint32_t>{200, 205}));
  EXPECT_EQ(lines.at("fork"), (std::set<std::uint32_t>{200, 206, 207}));  // 207: the fork child
  EXPECT_EQ(lines.at("exec"), (std::set<std::uint32_t>{200, 208, 209}));  // 209: the re-executed child
  EXPECT_EQ(lines.at("bracket"), (std::set<std::uint32_t>{200, 210, 211, 212}));  // its own brackets ignored
  EXPECT_EQ(lines.at("twice"), (std::set<std::uint32_t>{200, 201, 209}));
  const auto fail = std::find_if(s.tests().begin(), s.tests().end(), [](const TestCase& t) { return t.name == "fail"; });
  ASSERT_NE(fail, s.tests().end());
  EXPECT_THAT(fail->message, HasSubstr("an expected failure"));  // the output's tail
}

// A CTest directory written by hand (what `ctest --show-only=json-v1` reads), with the
// probe map found in it; WILL_FAIL and PASS_REGULAR_EXPRESSION decide as CTest would.
TEST_F(CollectRuntimeProcess, CtestHonoursTheTestsProperties) {
  const std::string p = kProcess;
  write_text(dir_ / "CTestTestfile.cmake",
             "add_test(pass \"" + p + "\" pass)\n"
             "add_test(fail \"" + p + "\" fail)\n"
             "add_test(expected_fail \"" + p + "\" fail)\n"
             "set_tests_properties(expected_fail PROPERTIES WILL_FAIL TRUE)\n"
             "add_test(needs_output \"" + p + "\" pass)\n"
             "set_tests_properties(needs_output PROPERTIES PASS_REGULAR_EXPRESSION \"never printed\")\n"
             "add_test(segv \"" + p + "\" segv)\n"
             "add_test(fork \"" + p + "\" fork)\n");
  const fs::path out = dir_ / "out.dlfl";
  const RunResult r = run_dlfl("collect --runtime --ctest " + q(dir_.path()) + " -j 2 -o " + q(out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("dlfl: probe map: " + (dir_ / "dlfl-probes.map").string()));
  EXPECT_THAT(r.out, StartsWith("collected 6 tests (3 failing, 1 crashed)"));
  const Spectrum s = io::read_spectrum(out);
  const auto status = status_by_test(s);
  EXPECT_EQ(status.at("pass"), TestStatus::passed);
  EXPECT_EQ(status.at("fail"), TestStatus::failed);
  EXPECT_EQ(status.at("expected_fail"), TestStatus::passed);
  EXPECT_EQ(status.at("needs_output"), TestStatus::failed);
  EXPECT_EQ(status.at("segv"), TestStatus::crashed);
  const auto lines = lines_by_test(s);
  EXPECT_EQ(lines.at("expected_fail"), (std::set<std::uint32_t>{200, 202}));
  EXPECT_EQ(lines.at("segv"), (std::set<std::uint32_t>{200, 203}));
  EXPECT_EQ(lines.at("fork"), (std::set<std::uint32_t>{200, 206, 207}));
}

TEST_F(CollectRuntimeProcess, ErrorsAreOneLineWithExitTwo) {
  write_text(dir_ / "tests.txt", "pass\nfail\n");
  const std::string tests = "collect --runtime --tests " + q(dir_ / "tests.txt") + " -q -o " + q(dir_ / "out.dlfl");
  const std::string map = " --probe-map " + q(dir_ / "dlfl-probes.map");
  const std::vector<std::pair<std::string, std::string>> cases = {
      // Programs not built with the runtime write no snapshot.
      {tests + " --cmd 'sh -c \"test {} = pass\"'" + map, "none of the 2 tests wrote a runtime snapshot"},
      // A program instrumented with another probe map (its id differs from the map's).
      {tests + " --cmd " + q(kOtherMapProcess) + "' {}'" + map,
       "ran a program instrumented with another probe map than " + (dir_ / "dlfl-probes.map").string()},
      {tests + " --cmd " + q(kProcess) + "' {}'", "--runtime --tests needs --probe-map MAP"},
      {tests + " --cmd " + q(kProcess) + "' {}' --probe-map " + q(dir_ / "missing.map"),
       (dir_ / "missing.map").string() + ": cannot open the probe map"},
      {"collect --runtime --ctest " + q(dir_ / "nowhere") + " -q -o " + q(dir_ / "out.dlfl"), "nowhere"},
  };
  for (const auto& [args, message] : cases) {
    const RunResult r = run_dlfl(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_THAT(r.err, StartsWith("dlfl: error: ")) << args;
    EXPECT_THAT(r.err, HasSubstr(message)) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "out.dlfl")) << args;
  }
}

}  // namespace
}  // namespace dlfl::testing

namespace dlfl::testing {
namespace {

// The element names test `name` covers.
std::set<std::string> covered_names(const Spectrum& s, const std::string& name) {
  std::set<std::string> out;
  for (std::size_t t = 0; t < s.test_count(); ++t)
    if (s.tests()[t].name == name)
      for (std::uint32_t e = 0; e < s.element_count(); ++e)
        if (s.coverage().covers(t, e)) out.insert(s.element_name(e));
  return out;
}

// A test run as `mpirun -np 2 PROGRAM`: each rank writes its own snapshot (the runtime
// reads the rank Open MPI gives it), collection joins them into one test, failing when
// any rank fails, covering `rank=K` for each rank it ran on.
TEST_F(CollectRuntimeProcess, MpiRanksOfOneTestAreOneTestWithRankElements) {
  if (!dlfl::testing::have_program("mpirun")) GTEST_SKIP() << "mpirun (openmpi-bin) is not installed";
  write_text(dir_ / "tests.txt", "ranks-pass\nranks-fail\nsingle\n");
  const std::string mpirun = "mpirun --oversubscribe --allow-run-as-root -np 2 ";
  // ranks-fail: rank 1 fails, rank 0 passes.
  const std::string cmd = "case {} in ranks-pass) " + mpirun + q(kProcess) + " pass;; ranks-fail) " + mpirun +
                          "sh -c 'if [ \\$OMPI_COMM_WORLD_RANK = 1 ]; then exec " + kProcess + " fail; else exec " +
                          kProcess + " pass; fi';; *) exec " + q(kProcess) + " pass;; esac";
  const fs::path out = dir_ / "out.dlfl";
  const RunResult r = run_dlfl("collect --runtime --tests " + q(dir_ / "tests.txt") + " --cmd \"" + cmd +
                               "\" --probe-map " + q(dir_ / "dlfl-probes.map") + " -j 1 --timeout 60 -q -o " + q(out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("collected 3 tests (1 failing), 18 elements, ")) << r.out;
  const Spectrum s = io::read_spectrum(out);
  const auto status = status_by_test(s);
  EXPECT_EQ(status.at("ranks-pass"), TestStatus::passed);
  EXPECT_EQ(status.at("ranks-fail"), TestStatus::failed);
  using N = std::set<std::string>;
  EXPECT_EQ(covered_names(s, "ranks-pass"), (N{"rt_process.c#main:200", "rt_process.c#main:201", "rank=0", "rank=1"}));
  EXPECT_EQ(covered_names(s, "ranks-fail"),
            (N{"rt_process.c#main:200", "rt_process.c#main:201", "rt_process.c#main:202", "rank=0", "rank=1"}));
  EXPECT_EQ(covered_names(s, "single"), (N{"rt_process.c#main:200", "rt_process.c#main:201"}));
}

}  // namespace
}  // namespace dlfl::testing
