// collect() of a gtest binary under runtime coverage, on the purpose-built fixture: one run, restarts after a segfault,
// an abort, a timeout and an exit, partial coverage kept, nothing run twice.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>

#include "dlfl/collect/collector.h"
#include "dlfl/error.h"
#include "dlfl/probe_map/probe_map.h"
#include "../support/spectrum_lines.h"

namespace {

using dlfl::testing::lines_by_test;

namespace fs = std::filesystem;
using namespace dlfl;

collect::GtestBinary& gtest(collect::CollectRequest& r) { return std::get<collect::GtestBinary>(r.source); }

class RuntimeCollector : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device rd;
    dir_ = fs::temp_directory_path() / ("dlfl-rt-collect-" + std::to_string(rd()));
    fs::create_directories(dir_);
    // Probe i stands for line 100 + i of fixture.cpp; probe 0 also for line 1 (a site
    // list with two lines for one probe, as block probes have).
    instrument::ProbeMap map;
    map.root = "/src";
    map.probe_count = 16;
    map.files = {"fixture.cpp"};
    map.functions = {"f"};
    map.sites.push_back({0, 0, 1, 1, 0, instrument::ProbeSpace::host});
    for (std::uint32_t i = 0; i < 16; ++i) map.sites.push_back({i, 0, 100 + i, 1, 0, instrument::ProbeSpace::host});
    map.id = 0;  // the fixture registers map id 0 (unknown): no id check
    instrument::write_probe_map(map, dir_ / "probes.map");
  }
  void TearDown() override { fs::remove_all(dir_); }

  collect::CollectRequest options() const {
    collect::CollectRequest o;
    collect::GtestBinary gtest;
    gtest.binary = DLFL_RT_FIXTURE;
    gtest.env = {"FIXTURE_LOG=" + (dir_ / "ran.log").string()};
    o.source = gtest;
    o.coverage = collect::CoverageKind::runtime;
    o.probe_map = dir_ / "probes.map";
    o.timeout = std::chrono::milliseconds(3000);  // generous: death tests re-execute the binary
    o.work_dir = dir_;
    return o;
  }

  fs::path dir_;
};

// GoogleTest's words for Fixture.Fail's FAIL(): "FILE:LINE\nFailed\nMESSAGE".
bool is_fixture_failure(const std::string& message) {
  return std::regex_search(message, std::regex("rt_fixture\\.cpp:[0-9]+\nFailed\nan expected failure"));
}

// The whole fixture through `binary`: every outcome, partial coverage, nothing run twice.
// Returns the collection's stats.
collect::CollectStats expect_every_tests_coverage(const collect::CollectRequest& o,
                                                         const fs::path& ran_log) {
  const auto result = collect::collect(o);
  const Spectrum& s = result.spectrum;

  // Skip is left out; everything else is in listing order.
  std::vector<std::string> names;
  for (const auto& t : s.tests()) names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"Fixture.Pass1", "Fixture.Segv", "Fixture.Pass2", "Fixture.Abort",
                                             "Fixture.Hang", "Fixture.Fail", "Fixture.DeathFast",
                                             "Fixture.DeathThreadsafe", "Fixture.Pass3", "Fixture.Exit",
                                             "Fixture.Pass4"}));
  auto status = [&](const std::string& name) {
    for (const auto& t : s.tests())
      if (t.name == name) return t.status;
    ADD_FAILURE() << name;
    return TestStatus::passed;
  };
  EXPECT_EQ(status("Fixture.Pass1"), TestStatus::passed);
  EXPECT_EQ(status("Fixture.Segv"), TestStatus::crashed);
  EXPECT_EQ(status("Fixture.Abort"), TestStatus::crashed);
  EXPECT_EQ(status("Fixture.Hang"), TestStatus::timed_out);
  EXPECT_EQ(status("Fixture.Fail"), TestStatus::failed);
  EXPECT_EQ(status("Fixture.DeathFast"), TestStatus::passed);
  EXPECT_EQ(status("Fixture.Exit"), TestStatus::failed);
  EXPECT_EQ(status("Fixture.Pass4"), TestStatus::passed);
  // A crash's message: how the binary ended and the tail of its output, which is the
  // test's own (GTEST_BRIEF leaves out the lines of the tests that passed before it).
  for (const auto& t : s.tests())
    if (t.name == "Fixture.Segv") {
      EXPECT_EQ(t.message.rfind("killed by signal 11 (SIGSEGV)\n", 0), 0u) << t.message;
      EXPECT_NE(t.message.find("the Segv test's own output"), std::string::npos) << t.message;
      EXPECT_EQ(t.message.find("[       OK ] Fixture.Pass1"), std::string::npos) << t.message;
    }
  // GoogleTest's words for the failure, "FILE:LINE\nMESSAGE", as its JSON report has them,
  // from the listener's messages file: kept although a later test ended the process.
  for (const auto& t : s.tests())
    if (t.name == "Fixture.Fail") {
      EXPECT_TRUE(is_fixture_failure(t.message)) << t.message;
    }

  // Every test also has the static-initialisation coverage (probe 0: lines 1 and 100).
  const auto lines = lines_by_test(s);
  using L = std::set<std::uint32_t>;
  EXPECT_EQ(lines.at("Fixture.Pass1"), (L{1, 100, 101}));
  EXPECT_EQ(lines.at("Fixture.Segv"), (L{1, 100, 102}));  // partial: not line 113
  EXPECT_EQ(lines.at("Fixture.Pass2"), (L{1, 100, 103}));
  EXPECT_EQ(lines.at("Fixture.Abort"), (L{1, 100, 104}));
  EXPECT_EQ(lines.at("Fixture.Hang"), (L{1, 100, 105}));
  EXPECT_EQ(lines.at("Fixture.Fail"), (L{1, 100, 106}));
  EXPECT_EQ(lines.at("Fixture.DeathFast"), (L{1, 100, 107, 108}));        // child's probe 8
  EXPECT_EQ(lines.at("Fixture.DeathThreadsafe"), (L{1, 100, 111, 112}));  // child's own file
  EXPECT_EQ(lines.at("Fixture.Pass3"), (L{1, 100, 110}));
  EXPECT_EQ(lines.at("Fixture.Exit"), (L{1, 100, 114}));
  EXPECT_EQ(lines.at("Fixture.Pass4"), (L{1, 100, 115}));

  EXPECT_EQ(result.stats.processes, 5u);  // first run + restarts after Segv, Abort, Hang, Exit
  EXPECT_EQ(result.stats.crashed, 2u);
  EXPECT_EQ(result.stats.timed_out, 1u);
  EXPECT_EQ(result.stats.failing, 5u);
  EXPECT_EQ(result.stats.skipped, 1u);
  EXPECT_EQ(s.element_count(), 17u);  // lines 1 and 100..115

  // No test body ran twice.
  std::ifstream log(ran_log);
  std::multiset<std::string> ran;
  for (std::string line; std::getline(log, line);) ran.insert(line);
  for (const auto& name : ran) EXPECT_EQ(ran.count(name), 1u) << name;
  EXPECT_EQ(ran.size(), 12u);
  return result.stats;
}

TEST_F(RuntimeCollector, CrashAbortTimeoutAndExitKeepEveryTestsCoverage) {
  expect_every_tests_coverage(options(), dir_ / "ran.log");
}

// Tests slow enough that the collector reads ended tests while the binary runs: the same
// spectrum, outcomes and messages; the outside coverage (static initialisation) still
// joins every test, also those read before their process ended.
TEST_F(RuntimeCollector, TestsReadWhileTheBinaryRunsGiveTheSameSpectrum) {
  auto o = options();
  gtest(o).env.push_back("FIXTURE_SLOW_MS=60");
  const auto stats = expect_every_tests_coverage(o, dir_ / "ran.log");
  EXPECT_GT(stats.streamed, 0u);
  EXPECT_LE(stats.streamed, 12u);
}

// The same for a failing test read while the binary runs: its message is read then.
TEST_F(RuntimeCollector, AFailingTestReadWhileTheBinaryRunsHasItsMessage) {
  auto o = options();
  gtest(o).env.push_back("FIXTURE_SLOW_MS=60");
  o.filter = "Fixture.Pass1:Fixture.Fail:Fixture.Pass2:Fixture.Pass3";
  o.include_outside_tests = false;
  const auto result = collect::collect(o);
  ASSERT_EQ(result.spectrum.test_count(), 4u);
  EXPECT_GE(result.stats.streamed, 2u);  // the last one may be read at the end
  for (const auto& t : result.spectrum.tests())
    if (t.name == "Fixture.Fail") {
      EXPECT_EQ(t.status, TestStatus::failed);
      EXPECT_TRUE(is_fixture_failure(t.message)) << t.message;
    }
  EXPECT_EQ(lines_by_test(result.spectrum).at("Fixture.Pass3"), (std::set<std::uint32_t>{110}));
}

// --repeat N is --gtest_repeat=N in one process, each run a slot of its own: a test
// failing k of its N runs weighs k/N and covers what any run covered.
TEST_F(RuntimeCollector, RepeatRunsEveryTestNTimesInOneProcess) {
  auto o = options();
  gtest(o).binary = DLFL_RT_FLAKY;
  o.filter = "Flaky.EveryOtherRun:Flaky.Pass";
  o.repeat = 4;
  const auto result = collect::collect(o);
  EXPECT_EQ(result.stats.processes, 1u);
  ASSERT_EQ(result.spectrum.test_count(), 2u);
  const TestCase& flaky = result.spectrum.tests()[0];
  EXPECT_EQ(flaky.name, "Flaky.EveryOtherRun");
  EXPECT_DOUBLE_EQ(flaky.failure_weight, 0.5);  // runs 2 and 4 of 4 failed
  EXPECT_EQ(flaky.status, TestStatus::flaky);
  EXPECT_NE(flaky.message.find("warm-cache"), std::string::npos) << flaky.message;
  EXPECT_EQ(result.spectrum.tests()[1].status, TestStatus::passed);
  EXPECT_EQ(result.flaky, (std::vector<std::string>{"Flaky.EveryOtherRun 2/4"}));
  const auto lines = lines_by_test(result.spectrum);
  using L = std::set<std::uint32_t>;
  EXPECT_EQ(lines.at("Flaky.EveryOtherRun"), (L{101, 102}));  // the passing and the failing runs' lines
  EXPECT_EQ(lines.at("Flaky.Pass"), (L{104}));
  EXPECT_EQ(result.stats.failing, 1u);
}

// A crash in the second of three runs: the runs still missing are made up in restarts
// (the tests a run behind first), and the crashed run counts as one failing run.
TEST_F(RuntimeCollector, RepeatMakesUpTheRunsACrashCutShort) {
  auto o = options();
  gtest(o).binary = DLFL_RT_FLAKY;
  o.repeat = 3;
  const auto result = collect::collect(o);
  // Process 1: EveryOtherRun pass, fail; CrashSecond pass, crash; Pass once. Process 2:
  // Pass twice. Process 3: EveryOtherRun and CrashSecond once more (fresh counters: pass).
  EXPECT_EQ(result.stats.processes, 3u);
  std::map<std::string, const TestCase*> by_name;
  for (const auto& t : result.spectrum.tests()) by_name[t.name] = &t;
  ASSERT_EQ(by_name.size(), 3u);
  EXPECT_DOUBLE_EQ(by_name.at("Flaky.EveryOtherRun")->failure_weight, 1.0 / 3);
  EXPECT_DOUBLE_EQ(by_name.at("Flaky.CrashSecond")->failure_weight, 1.0 / 3);
  EXPECT_EQ(by_name.at("Flaky.CrashSecond")->status, TestStatus::flaky);
  EXPECT_EQ(by_name.at("Flaky.Pass")->failure_weight, 0.0);
  EXPECT_EQ(result.flaky, (std::vector<std::string>{"Flaky.EveryOtherRun 1/3", "Flaky.CrashSecond 1/3"}));
  std::vector<std::string> order;
  for (const auto& t : result.spectrum.tests()) order.push_back(t.name);
  EXPECT_EQ(order, (std::vector<std::string>{"Flaky.EveryOtherRun", "Flaky.CrashSecond", "Flaky.Pass"}));
}

// The listener compiled from source in the program's own build (as a project that vendors
// its GoogleTest does) brackets the tests exactly as the prebuilt one.
TEST_F(RuntimeCollector, ListenerCompiledFromSourceInTheProgramsBuild) {
  auto o = options();
  gtest(o).binary = DLFL_RT_FIXTURE_SOURCE;
  expect_every_tests_coverage(o, dir_ / "ran.log");
}

// A listener that writes no failure messages file (one compiled by an older dlfl): the
// messages come from GoogleTest's JSON report instead. That report is written at the
// program's end, so unlike the listener's file it has nothing when a later test ends the
// process (in the whole fixture, Fixture.Exit follows Fixture.Fail): a process that ends
// normally here.
TEST_F(RuntimeCollector, WithoutTheListenersMessagesTheJsonReportGivesThem) {
  const fs::path wrapper = dir_ / "old-listener.sh";
  std::ofstream(wrapper) << "#!/bin/sh\nunset DLFL_RT_MESSAGES\nexec '" << DLFL_RT_FIXTURE << "' \"$@\"\n";
  fs::permissions(wrapper, fs::perms::owner_all);
  auto o = options();
  gtest(o).binary = wrapper;
  o.filter = "Fixture.Pass1:Fixture.Fail:Fixture.Pass2";
  o.keep_work = true;
  const auto result = collect::collect(o);
  // One run counted: the one begun beside the listing stopped when the listing showed the
  // older listener; the JSON report is the second start's.
  EXPECT_EQ(result.stats.processes, 1u);
  EXPECT_TRUE(fs::exists(result.work_dir / "run-1.json"));
  ASSERT_EQ(result.spectrum.test_count(), 3u);
  const TestCase& failed = result.spectrum.tests()[2];  // listing order: Pass1, Pass2, Fail
  EXPECT_EQ(failed.name, "Fixture.Fail");
  EXPECT_TRUE(is_fixture_failure(failed.message)) << failed.message;
  EXPECT_EQ(lines_by_test(result.spectrum).at("Fixture.Fail"), (std::set<std::uint32_t>{1, 100, 106}));
}

// A program whose own GoogleTest is older than the prebuilt listener's: one line, exit 2
// when collecting, and no listener (but a normal run) otherwise; never a crash.
TEST_F(RuntimeCollector, PrebuiltListenerRefusesAnOlderGoogleTestInOneLine) {
  const std::string run = std::string("'") + DLFL_RT_OLD_GTEST + "' 2>'" + (dir_ / "err").string() + "'";
  int status = std::system(("DLFL_RT_FILE='" + (dir_ / "run.map").string() + "' " + run).c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << status;
  std::ifstream err(dir_ / "err");
  const std::string text((std::istreambuf_iterator<char>(err)), {});
  EXPECT_EQ(text.rfind("dlfl_rt: error: this program links a GoogleTest older than 1.10", 0), 0u) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
  status = std::system(("env -u DLFL_RT_FILE " + run).c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

// A run in which the runtime refused to collect says the runtime's own reason, not
// "wrote no coverage snapshot".
TEST_F(RuntimeCollector, TheRuntimesRefusalIsTheError) {
  const fs::path wrapper = dir_ / "refusing.sh";
  std::ofstream(wrapper) << "#!/bin/sh\ncase \"$*\" in *--gtest_list_tests*) exec '" << DLFL_RT_FIXTURE
                         << "' \"$@\";; esac\necho 'dlfl_rt: error: this program links a GoogleTest older than 1.10 "
                            "(a vendored copy?)' >&2\nexit 2\n";
  fs::permissions(wrapper, fs::perms::owner_all);
  auto o = options();
  gtest(o).binary = wrapper;
  try {
    collect::collect(o);
    FAIL() << "a run that wrote no snapshot was taken";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(wrapper.string() + ": ran (exit status 2) and its dlfl runtime refused: this program links a "
                                           "GoogleTest older than 1.10 (a vendored copy?)"),
              std::string::npos)
        << what;
    EXPECT_EQ(what.find("wrote no coverage snapshot"), std::string::npos) << what;
  }
}

TEST_F(RuntimeCollector, FilterAndOutsideCoverageOption) {
  auto o = options();
  o.filter = "Fixture.Pass*";
  o.include_outside_tests = false;
  const auto result = collect::collect(o);
  ASSERT_EQ(result.spectrum.test_count(), 4u);
  EXPECT_EQ(result.stats.processes, 1u);
  const auto lines = lines_by_test(result.spectrum);
  EXPECT_EQ(lines.at("Fixture.Pass3"), (std::set<std::uint32_t>{110}));
}

TEST_F(RuntimeCollector, WarnsAboutEveryTestThatEndedTheBinary) {
  auto o = options();
  o.filter = "Fixture.Pass1:Fixture.Segv:Fixture.Exit:Fixture.Pass2";
  const auto result = collect::collect(o);
  EXPECT_EQ(result.stats.processes, 2u);  // Pass1 Segv | Pass2 Exit: nothing left to restart on
  std::vector<std::string> ended;
  for (const auto& w : result.warnings)
    if (w.find("ended the test binary") != std::string::npos) ended.push_back(w.substr(0, w.find(':')));
  EXPECT_EQ(ended, (std::vector<std::string>{"Fixture.Segv", "Fixture.Exit"}));
  EXPECT_EQ(result.stats.no_coverage, 0u);  // static initialisation counts
  EXPECT_EQ(result.stats.elements, 17u);
  EXPECT_TRUE(result.work_dir.empty());  // not kept
}

TEST_F(RuntimeCollector, PathFilterKeepsTheLinesOfTheKeptFilesOnly) {
  // Probes 0-7 in src/a.cpp, 8-15 in tests/t.cpp, under a root that exists.
  instrument::ProbeMap map;
  map.root = dir_.string();
  map.probe_count = 16;
  map.files = {"src/a.cpp", "tests/t.cpp"};
  map.functions = {"f"};
  for (std::uint32_t i = 0; i < 16; ++i) map.sites.push_back({i, i / 8, 10 + i, 1, 0, instrument::ProbeSpace::host});
  instrument::write_probe_map(map, dir_ / "two.map");
  auto o = options();
  o.probe_map = dir_ / "two.map";
  o.filter = "Fixture.Pass*:Fixture.Fail";
  o.include_outside_tests = false;
  o.paths.excludes = {"tests/*"};
  auto result = collect::collect(o);
  ASSERT_EQ(result.spectrum.element_count(), 8u);
  for (std::size_t e = 0; e < 8; ++e) EXPECT_EQ(result.spectrum.file(e), "src/a.cpp");
  // Pass3 (probe 10) and Pass4 (probe 15) reach only tests/t.cpp: no coverage left.
  EXPECT_EQ(result.stats.no_coverage, 2u);
  ASSERT_FALSE(result.warnings.empty());
  EXPECT_EQ(result.warnings.back(), "2 passing tests without coverage: Fixture.Pass3, Fixture.Pass4");

  o.paths.excludes.clear();
  o.paths.source_root = dir_ / "src";
  fs::create_directories(dir_ / "src");
  result = collect::collect(o);
  ASSERT_EQ(result.spectrum.element_count(), 8u);
  EXPECT_EQ(result.spectrum.file(0), "a.cpp");

  o.paths.source_root.clear();
  o.paths.excludes = {"*.cpp"};
  EXPECT_THROW(collect::collect(o), Error);
}

// No test reaching any probe is one warning that says what to check (a plain build run
// instead of the instrumented one), not a list of every test.
TEST_F(RuntimeCollector, NoTestReachingAProbeIsOneWarning) {
  instrument::ProbeMap map;
  map.root = dir_.string();
  map.probe_count = 16;
  map.files = {"src/a.cpp", "tests/t.cpp"};
  map.functions = {"f"};
  for (std::uint32_t i = 0; i < 16; ++i) map.sites.push_back({i, i / 8, 10 + i, 1, 0, instrument::ProbeSpace::host});
  instrument::write_probe_map(map, dir_ / "two.map");
  auto o = options();
  o.probe_map = dir_ / "two.map";
  o.filter = "Fixture.Pass3:Fixture.Pass4";  // they reach tests/t.cpp only
  o.include_outside_tests = false;
  o.paths.excludes = {"tests/*"};
  const auto result = collect::collect(o);
  EXPECT_EQ(result.stats.no_coverage, 2u);
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_EQ(result.warnings.front().rfind("no test reached any of the 16 probes of the probe map", 0), 0u)
      << result.warnings.front();
}

TEST_F(RuntimeCollector, ReportsBadInputs) {
  auto o = options();
  o.filter = "Nothing.*";
  EXPECT_THROW(collect::collect(o), Error);
  o = options();
  o.probe_map = dir_ / "missing.map";
  EXPECT_THROW(collect::collect(o), Error);
}

}  // namespace
