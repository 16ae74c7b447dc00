// `dlfl bugset reproduce` end to end on a git fixture (reproduce_fixture/make_clone.sh: a
// CMake + GoogleTest project with six fixed bugs) and its manifest: kept and discarded
// bugs, fail-to-pass tests and the ranks of the faulty lines; a run killed midway (every
// process of it) and resumed; bad input refused before anything changes in the clone.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "../../cli/cli_runner.h"
#include "../../support/shell_output.h"
#include "../../support/spectrum_canonical.h"
#include "dlfl/formats/spectrum_formats.h"
#include "dlfl/lab/bench/reproduce_runner.h"
#include "dlfl/lab/bench/results_store.h"
#include "dlfl/lab/eval/compare_table.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using dlfl::testing::run_dlfl;
using dlfl::testing::RunResult;
using dlfl::testing::slurp;

std::string shell(const std::string& command) { return dlfl::testing::shell_output(command); }

std::size_t line_count(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')); }

// SIGKILL to every process of a session, until none is left: a killed machine, not a
// polite interrupt (the builds and tests run in process groups of their own).
void kill_session(pid_t session) {
  for (int round = 0; round < 50; ++round) {
    bool any = false;
    for (const auto& entry : fs::directory_iterator("/proc")) {
      const std::string name = entry.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      std::ifstream stat(entry.path() / "stat");
      std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
      const auto paren = text.rfind(')');
      if (paren == std::string::npos) continue;
      std::istringstream fields(text.substr(paren + 2));
      std::string state;
      long ppid = 0, pgrp = 0, sid = 0;
      fields >> state >> ppid >> pgrp >> sid;
      if (sid == session && state != "Z") {
        ::kill(std::stoi(name), SIGKILL);
        any = true;
      }
    }
    if (!any) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

class BugsetReproduce : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string make = "sh " + (fs::path(DLFL_REPRODUCE_FIXTURE) / "make_clone.sh").string() + " " +
                             clone().string() + " >/dev/null 2>&1";
    ASSERT_EQ(std::system(make.c_str()), 0) << make;
    std::string manifest = slurp(fs::path(DLFL_REPRODUCE_FIXTURE) / "manifest.jsonl.in");
    for (int k = 1; k <= 6; ++k) {
      const std::string tag = "@FIX" + std::to_string(k) + "@";
      std::string hash = git("rev-parse fix" + std::to_string(k));
      hash.erase(hash.find_last_not_of('\n') + 1);
      manifest.replace(manifest.find(tag), tag.size(), hash);
    }
    dlfl::testing::write_text(manifest_path(), manifest);
    before_ = clone_state();
  }

  fs::path clone() const { return dir_ / "clones" / "calc"; }
  fs::path manifest_path() const { return dir_ / "manifest.jsonl"; }
  std::string git(const std::string& args) const { return shell("git -C " + clone().string() + " " + args); }
  // What a run must leave as it was: the checkout, its index, HEAD and the work tree list.
  std::string clone_state() const {
    return git("status --porcelain --untracked-files=all") + git("rev-parse HEAD") + git("worktree list --porcelain");
  }
  std::string reproduce(const std::string& selection, const fs::path& out) const {
    return "bugset reproduce " + manifest_path().string() + " " + selection + " --repos " +
           (dir_ / "clones").string() + " -o " + out.string() + " -q --build-jobs 2";
  }

  dlfl::testing::TempDir dir_{"reproduce"};
  std::string before_;
};

TEST_F(BugsetReproduce, ReproducesTheFixtureBugsKilledMidwayAndResumed) {
  const fs::path out = dir_ / "out";
  const fs::path store = out / std::string(kResultsFileName);
  // setsid: the run is a session of its own, so the kill reaches every process of it.
  const std::string start = "setsid " + std::string(DLFL_BINARY) + " " + reproduce("--project fixture+calc", out) +
                            " >" + (dir_ / "first.out").string() + " 2>&1 & echo $!";
  const pid_t pid = static_cast<pid_t>(std::stol(shell(start)));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  while (line_count(slurp(store)) < 1 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  kill_session(pid);
  const std::string stored = slurp(store);
  ASSERT_GE(line_count(stored), 1u) << slurp(dir_ / "first.out");
  ASSERT_LT(line_count(stored), 6u) << "the run ended before it could be killed";

  const RunResult second = run_dlfl(reproduce("--project fixture+calc", out));
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_THAT(second.err, HasSubstr(std::to_string(line_count(stored)) + " bugs were finished by an earlier run"));
  const std::string all = slurp(store);
  EXPECT_EQ(all.substr(0, stored.size()), stored);  // the killed run's records are kept as they were
  EXPECT_EQ(line_count(all), 6u);
  EXPECT_THAT(second.out, HasSubstr("dlfl bugset reproduce: 6 bugs, 3 kept, 3 discarded"));

  std::map<std::string, FaultRecord> records;
  {
    const ResultsStore results(store);
    for (const auto& r : results.records()) records[r.key()] = r;
  }
  ASSERT_EQ(records.size(), 6u);
  // Kept: the fail-to-pass test each fix brought in, and the faulty line's rank
  // (average, best, worst under Ochiai; every formula agrees on these spectra).
  struct Expected {
    const char* id;
    const char* failing;
    const char* faulty;
    double rank, best, worst;
  };
  const Expected expected[] = {
      {"fixture+calc#1", "Clamp.Above", "src/arith.cpp:9:calc::clamp(int, int, int)", 1, 1, 1},
      {"fixture+calc#2", "Saxpy.PartialBlock",
       "src/kernels/saxpy_kernel.cuh:23:calc::kernels::grid_size(unsigned long, unsigned int)", 13, 10, 16},
      {"fixture+calc#4", "Mean.Halves", "src/stats.cpp:9:calc::mean(std::vector<int, std::allocator<int> > const&)", 1.5,
       1, 2}};
  for (const Expected& e : expected) {
    const FaultRecord& r = records[e.id];
    ASSERT_TRUE(r.kept) << e.id << ": " << r.reason << " " << r.detail;
    EXPECT_THAT(r.failing_tests, ElementsAre(e.failing)) << e.id;
    EXPECT_THAT(r.faulty, ElementsAre(e.faulty)) << e.id;
    EXPECT_FALSE(r.fix_tests.empty()) << e.id;
    ASSERT_EQ(r.results.size(), 4u);
    for (const auto& f : r.results) {
      EXPECT_TRUE(f.found) << e.id << " " << f.formula;
      EXPECT_DOUBLE_EQ(f.first_rank, e.rank) << e.id << " " << f.formula;
      EXPECT_DOUBLE_EQ(f.first_rank_best, e.best) << e.id << " " << f.formula;
      EXPECT_DOUBLE_EQ(f.first_rank_worst, e.worst) << e.id << " " << f.formula;
    }
  }
  EXPECT_THAT(records["fixture+calc#4"].fix_tests, ElementsAre("tests/CMakeLists.txt", "tests/stats_test.cpp"));
  EXPECT_EQ(records["fixture+calc#2"].group, "extrinsic");
  EXPECT_EQ(records["fixture+calc#2"].bug_type, "GPU");
  EXPECT_EQ(records["fixture+calc#1"].group, "intrinsic");
  EXPECT_EQ(records["fixture+calc#4"].bug_type, "disputed");  // Model against Training
  // Discarded, with their reasons.
  EXPECT_EQ(records["fixture+calc#3"].reason, "no fail-to-pass test");  // the fix adds no test
  EXPECT_EQ(records["fixture+calc#5"].reason, "build failed");          // the buggy version does not compile
  EXPECT_THAT(records["fixture+calc#5"].detail, HasSubstr("src/format.cpp:8"));
  EXPECT_EQ(records["fixture+calc#6"].reason, "no C/C++ change");  // Python only

  const std::string discarded = slurp(out / "discarded.csv");
  EXPECT_EQ(line_count(discarded), 4u);
  EXPECT_THAT(discarded, HasSubstr("fixture+calc#6,unlabelled,,,0,no C/C++ change,"));
  eval::ResultTableOptions options;
  options.group = "real";
  EXPECT_EQ(eval::read_result_table(out / "results.csv", options).results.size(), 3u * 4u);
  const RunResult compare = run_dlfl("compare -i " + (out / "results.csv").string() + " --labels " +
                                     (out / "results.csv").string() + " --label-key bug --by group -m map");
  EXPECT_EQ(compare.exit_code, 0) << compare.err;
  EXPECT_THAT(compare.out, HasSubstr("extrinsic"));

  // The clone is as it was: no work tree left registered, the checkout untouched.
  EXPECT_EQ(clone_state(), before_);
  EXPECT_FALSE(fs::exists(out / "work"));
}

TEST_F(BugsetReproduce, BadInputIsOneErrorLineAndChangesNothing) {
  const fs::path out = dir_ / "out";
  auto refused = [&](const RunResult& r, const std::string& what) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_THAT(r.err, ::testing::StartsWith("dlfl: error: "));
    EXPECT_THAT(r.err, HasSubstr(what));
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_FALSE(fs::exists(out)) << what;
    EXPECT_EQ(clone_state(), before_) << what;
  };
  refused(run_dlfl(reproduce("--bug fixture+calc#9", out)), "no bug \"fixture+calc#9\" in this manifest");
  refused(run_dlfl(reproduce("--project other+thing", out)), "no bug of project \"other+thing\"");

  // Outputs inside the clone would show in its `git status`.
  std::string inside = reproduce("--bug fixture+calc#1", out);
  inside.replace(inside.find(" -o " + out.string()), 4 + out.string().size(), " -o " + (clone() / "out").string());
  const RunResult in_clone = run_dlfl(inside);
  EXPECT_EQ(in_clone.exit_code, 2);
  EXPECT_THAT(in_clone.err, HasSubstr("is inside the clone"));
  EXPECT_EQ(clone_state(), before_);

  // Another project's clone where calc's should be.
  const fs::path other = dir_ / "other";
  ASSERT_EQ(std::system(("git init -q " + other.string() + "/calc && git -C " + other.string() +
                         "/calc remote add origin https://github.com/someone/calc.git")
                            .c_str()),
            0);
  std::string args = reproduce("--bug fixture+calc#1", out);
  args.replace(args.find((dir_ / "clones").string()), (dir_ / "clones").string().size(), other.string());
  // A clone of other remotes is taken with a warning; this one lacks the fix, which refuses it.
  const RunResult other_clone = run_dlfl(args);
  EXPECT_EQ(other_clone.exit_code, 2) << other_clone.err;
  EXPECT_THAT(other_clone.err, HasSubstr("dlfl: warning: " + (other / "calc").string() +
                                         ": this clone's remotes (https://github.com/someone/calc.git) do not name "
                                         "fixture+calc's repository"));
  EXPECT_THAT(other_clone.err, HasSubstr("\ndlfl: error: " + (other / "calc").string() + ": the fix "));
  EXPECT_THAT(other_clone.err, HasSubstr("of bug fixture+calc#1 is not in this clone"));
  EXPECT_EQ(line_count(other_clone.err), 2u) << other_clone.err;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(clone_state(), before_);

  // A fix the clone does not have.
  std::string manifest = slurp(manifest_path());
  const std::string fix1 = git("rev-parse fix1").substr(0, 40);
  manifest.replace(manifest.find(fix1), 40, std::string(40, 'a'));
  dlfl::testing::write_text(manifest_path(), manifest);
  refused(run_dlfl(reproduce("--bug fixture+calc#1", out)), "the fix " + std::string(40, 'a') + " of bug fixture+calc#1 is not in this clone");

  // stats: the candidates, and with the clones, those with CMake at the root.
  const RunResult stats = run_dlfl("bugset stats " + manifest_path().string() + " --repos " + (dir_ / "clones").string());
  EXPECT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_THAT(stats.out, HasSubstr("Reproduction candidates (dlfl bugset reproduce): 4 (66.7%)"));
  EXPECT_THAT(stats.out, HasSubstr("with CMakeLists.txt at the root of the fix's parent: 3; without: 0; fix not in the clone: 1"));
  EXPECT_EQ(clone_state(), before_);
}

// Hostile manifests through the CLI: a DELETE entry that leads out of the work tree and a
// project name that is shell code or a path are one error line, and nothing outside dlfl's
// outputs is touched or run.
TEST_F(BugsetReproduce, HostileManifestsTouchNothingOutsideAndRunNothing) {
  const fs::path out = dir_ / "out";
  const fs::path victims = dir_ / "victims";
  dlfl::testing::write_text(victims / "notes_test.txt", "keep");
  dlfl::testing::write_text(victims / "tests" / "diary_test.txt", "keep");
  dlfl::testing::write_text(dir_ / "escaped+calc" / "keep.txt", "keep");
  const fs::path ran = dir_ / "ran";
  std::string line = slurp(manifest_path());
  line.resize(line.find('\n'));  // fixture+calc#1
  auto hostile = [&](const std::string& from, const std::string& to) {
    std::string bug = line;
    for (auto at = bug.find(from); at != std::string::npos; at = bug.find(from, at + to.size()))
      bug.replace(at, from.size(), to);
    return bug;
  };
  const std::string relative_victim = "tests/../../../../../../../../../../.." + victims.string() + "/notes_test.txt";
  const std::string deleted_test = R"({"old_name": "tests/arith_test.cpp", "new_name": "tests/arith_test.cpp", "change_type": "MODIFY")";
  const struct {
    std::string manifest, selection, what;
  } cases[] = {
      {hostile(deleted_test, R"({"old_name": ")" + relative_victim + R"(", "new_name": null, "change_type": "DELETE")"),
       "--bug fixture+calc#1", "\"old_name\" has a \"..\" component"},
      {hostile(deleted_test, R"({"old_name": ")" + (victims / "tests" / "diary_test.txt").string() +
                                 R"(", "new_name": null, "change_type": "DELETE")"),
       "--bug fixture+calc#1", "\"old_name\" is absolute"},
      {hostile("\"project\": \"fixture+calc\"", "\"project\": \"x$(touch " + ran.string() + ")+calc\""),
       "--project 'x$(touch " + ran.string() + ")+calc'", "is not a project name"},
      {hostile("\"project\": \"fixture+calc\"", "\"project\": \"../../../escaped+calc\""),
       "--project ../../../escaped+calc", "is not a project name"},
  };
  for (const auto& c : cases) {
    dlfl::testing::write_text(manifest_path(), c.manifest + "\n");
    const RunResult r = run_dlfl(reproduce(c.selection, out));
    EXPECT_EQ(r.exit_code, 2) << c.what << "\n" << r.err;
    EXPECT_THAT(r.err, ::testing::StartsWith("dlfl: error: " + manifest_path().string() + ":1: ")) << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.what));
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_EQ(slurp(victims / "notes_test.txt"), "keep");
    EXPECT_EQ(slurp(victims / "tests" / "diary_test.txt"), "keep");
    EXPECT_EQ(slurp(dir_ / "escaped+calc" / "keep.txt"), "keep");
    EXPECT_FALSE(fs::exists(ran)) << c.what;
    EXPECT_FALSE(fs::exists(out)) << c.what;
    EXPECT_EQ(clone_state(), before_) << c.what;
  }
}

// The runtime backend: the buggy and the fixed version each instrumented (`dlfl
// instrument`), built with the runtime and run once; the same bug is found at the same
// rank as with per-test gcov, and each record keeps its time.
TEST_F(BugsetReproduce, RuntimeBackendReproducesFromOneRunPerVersion) {
#ifndef DLFL_BENCH_HAVE_CLANG
  GTEST_SKIP() << "dlfl was built without Clang: no `dlfl instrument`";
#endif
  const fs::path recipe = dir_ / "runtime-recipe.json";
  dlfl::testing::write_text(recipe, R"({"backend": "runtime", "test_binary": "tests/calc_tests"})");
  const fs::path out = dir_ / "out-runtime";
  const RunResult r = run_dlfl(reproduce("--bug fixture+calc#1 --bug fixture+calc#3", out) + " --recipe " + recipe.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, FaultRecord> records;
  for (auto& record : read_records(out / std::string(kResultsFileName))) records[record.key()] = record;
  ASSERT_EQ(records.size(), 2u);
  const FaultRecord& clamp = records["fixture+calc#1"];
  ASSERT_TRUE(clamp.kept) << clamp.reason << ": " << clamp.detail << "\n" << clamp.tail;
  EXPECT_THAT(clamp.failing_tests, ElementsAre("Clamp.Above"));
  ASSERT_FALSE(clamp.results.empty());
  EXPECT_DOUBLE_EQ(clamp.results.front().first_rank, 1.0);
  EXPECT_GT(clamp.seconds, 0.0);
  EXPECT_EQ(records["fixture+calc#3"].reason, "no fail-to-pass test");
  // The instrumenter ran on both versions of the kept bug, and its output is kept.
  EXPECT_TRUE(fs::exists(out / "logs" / "fixture+calc#1" / "buggy-instrument.log"));
  EXPECT_TRUE(fs::exists(out / "logs" / "fixture+calc#1" / "fixed-instrument.log"));
  // The listener was compiled from source against the project's GoogleTest (a project's
  // own copy may be older than the prebuilt listener's), into the gtest program alone.
  EXPECT_THAT(dlfl::testing::slurp(out / "logs" / "fixture+calc#1" / "buggy-configure.log"),
              HasSubstr("dlfl: GoogleTest listener compiled into calc_tests\n"));
  EXPECT_EQ(clone_state(), before_);
}

// Test names are the code base's data: one that starts with '-' would reach test_command
// as an option (`sort {}` with `-o FILE` empties FILE); the bug is discarded, naming it,
// and nothing is touched.
TEST_F(BugsetReproduce, AListedTestNameStartingWithADashNeverBecomesAnOption) {
  const fs::path victim = dir_ / "victim.txt";
  dlfl::testing::write_text(victim, "precious\n");
  const fs::path recipe = dir_ / "dash-recipe.json";
  dlfl::testing::write_text(recipe, R"({"test_list": "printf '%s\\n' Clamp.Above -o)" + victim.string() +
                                        R"(", "test_command": "sort {} < /dev/null"})");
  const fs::path out = dir_ / "out-dash";
  const RunResult r = run_dlfl(reproduce("--bug fixture+calc#1", out) + " --recipe " + recipe.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto records = read_records(out / std::string(kResultsFileName));
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records.front().kept);
  EXPECT_EQ(records.front().reason, "tests fail to run");
  EXPECT_THAT(records.front().detail, HasSubstr("printed the test name '-o"));
  EXPECT_THAT(records.front().detail, HasSubstr("which starts with '-'"));
  EXPECT_EQ(dlfl::testing::slurp(victim), "precious\n");
  EXPECT_EQ(clone_state(), before_);
}

// The runtime backend without a GoogleTest binary: the CTest tests, or a recipe's listed
// tests, each run as an instrumented process of its own, whose whole coverage is that
// test's. The faulty line is first alone, as with gcov: coverage of one test did not
// leak into another's. The tests' own code is no element, even where it is instrumented
// (as a header-only library's tests must be).
TEST_F(BugsetReproduce, RuntimeBackendRunsCtestAndListedTestsOneProcessEach) {
#ifndef DLFL_BENCH_HAVE_CLANG
  GTEST_SKIP() << "dlfl was built without Clang: no `dlfl instrument`";
#endif
  const std::map<std::string, std::string> recipes{
      {"ctest", R"({"backend": "runtime"})"},
      {"listed", R"({"backend": "runtime", "instrument_exclude": [],
                     "test_list": "tests/calc_tests --gtest_list_tests | awk '/^[^ ]/ {{s = $1} /^  / {{print s $1}'",
                     "test_command": "tests/calc_tests --gtest_filter={}"})"}};
  std::map<std::string, std::size_t> tests, elements;
  for (const auto& [name, text] : recipes) {
    const fs::path recipe = dir_ / (name + "-recipe.json");
    dlfl::testing::write_text(recipe, text);
    const fs::path out = dir_ / ("out-" + name);
    const RunResult r = run_dlfl(reproduce("--bug fixture+calc#1", out) + " --recipe " + recipe.string());
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    const auto records = read_records(out / std::string(kResultsFileName));
    ASSERT_EQ(records.size(), 1u) << name;
    const FaultRecord& clamp = records.front();
    ASSERT_TRUE(clamp.kept) << name << ": " << clamp.reason << ": " << clamp.detail << "\n" << clamp.tail;
    EXPECT_THAT(clamp.failing_tests, ElementsAre("Clamp.Above")) << name;
    EXPECT_THAT(clamp.faulty, ElementsAre("src/arith.cpp:9:calc::clamp")) << name;
    ASSERT_EQ(clamp.results.size(), 4u) << name;
    for (const auto& f : clamp.results) {
      EXPECT_DOUBLE_EQ(f.first_rank_best, 1.0) << name << " " << f.formula;
      EXPECT_DOUBLE_EQ(f.first_rank_worst, 1.0) << name << " " << f.formula;
    }
    EXPECT_TRUE(fs::exists(out / "logs" / "fixture+calc#1" / "buggy-instrument.log")) << name;
    tests[name] = clamp.tests;
    elements[name] = clamp.elements;
  }
  EXPECT_GT(tests["ctest"], 1u);
  EXPECT_EQ(tests["listed"], tests["ctest"]);
  EXPECT_GT(elements["ctest"], 0u);
  EXPECT_EQ(elements["listed"], elements["ctest"]);
  EXPECT_EQ(clone_state(), before_);
}

// A record as two tasks that reproduced the bug alike write it: not the time taken.
// A record without what differs between two runs alike: the time, and the failing
// step's output tail (ninja prints its progress in the order parallel jobs end).
std::string outcome(FaultRecord r) {
  r.seconds = 0;
  r.tail.clear();
  return record_to_json(r);
}

std::map<std::string, std::string> outcomes(const fs::path& out) {
  std::map<std::string, std::string> by_key;
  for (const auto& r : read_records(out / std::string(kResultsFileName))) by_key[r.key()] = outcome(r);
  return by_key;
}

// The split of `--shard I/N` (FNV-1a of the bug id mod N): 0/2 holds calc#1 and calc#5,
// 1/2 calc#4. Joined, the shards are the unsharded run; a join refuses what would make a
// study that one machine would not have made.
TEST_F(BugsetReproduce, ShardsSplitTheBugsAndJoinIntoWhatOneRunWrites) {
  const std::string bugs = "--bug fixture+calc#1 --bug fixture+calc#4 --bug fixture+calc#5";
  const fs::path whole = dir_ / "whole", s0 = dir_ / "s0", s1 = dir_ / "s1", joined = dir_ / "joined";
  ASSERT_EQ(run_dlfl(reproduce(bugs, whole)).exit_code, 0);
  const RunResult first = run_dlfl(reproduce(bugs, s0) + " --shard 0/2");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_THAT(first.out, HasSubstr("dlfl bugset reproduce: 2 bugs, 1 kept, 1 discarded"));
  EXPECT_THAT(slurp(s0 / std::string(kShardFileName)), HasSubstr("\"shard\": \"0/2\""));
  // A shard directory is that shard's: resumed as another one, it is refused.
  const RunResult other = run_dlfl(reproduce(bugs, s0) + " --shard 1/2");
  EXPECT_NE(other.exit_code, 0);
  EXPECT_THAT(other.err, HasSubstr("holds results of another reproduction configuration"));

  const RunResult missing = run_dlfl("bugset join " + s0.string() + " -o " + joined.string());
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
  EXPECT_THAT(missing.err, HasSubstr("shard 1/2 is missing: none of the directories given holds it"));
  EXPECT_FALSE(fs::exists(joined / std::string(kResultsFileName)));

  const RunResult second = run_dlfl(reproduce(bugs, s1) + " --shard 1/2");
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_THAT(second.out, HasSubstr("dlfl bugset reproduce: 1 bugs, 1 kept, 0 discarded"));
  const RunResult join = run_dlfl("bugset join " + s1.string() + " " + s0.string() + " -o " + joined.string());
  ASSERT_EQ(join.exit_code, 0) << join.err;
  EXPECT_THAT(join.err, HasSubstr("2 shards joined into " + joined.string() + ": 3 bugs, 3 new"));
  EXPECT_THAT(join.out, HasSubstr("dlfl bugset reproduce: 3 bugs, 2 kept, 1 discarded"));
  EXPECT_EQ(outcomes(joined), outcomes(whole));
  // The spectra and truths are the unsharded run's (test times aside); the files with
  // build output are the shard's own, copied.
  EXPECT_EQ(dlfl::testing::canonical(io::read_spectrum(joined / "spectra/fixture+calc#1.dlfl")),
            dlfl::testing::canonical(io::read_spectrum(whole / "spectra/fixture+calc#1.dlfl")));
  EXPECT_EQ(slurp(joined / "spectra/fixture+calc#4.truth"), slurp(whole / "spectra/fixture+calc#4.truth"));
  for (const char* file : {"logs/fixture+calc#5/buggy-build.log", "spectra/fixture+calc#1.dlfl"})
    EXPECT_EQ(slurp(joined / file), slurp(s0 / file)) << file;
  EXPECT_EQ(slurp(joined / std::string(kReproduceConfigFileName)), slurp(whole / std::string(kReproduceConfigFileName)));
  // Joined again: nothing new. The joined directory is an ordinary one: a run resumes it.
  const RunResult again = run_dlfl("bugset join " + s0.string() + " " + s1.string() + " -o " + joined.string());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.err, HasSubstr(": 3 bugs, 0 new"));
  const RunResult resumed = run_dlfl(reproduce(bugs, joined));
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_THAT(resumed.err, HasSubstr("3 bugs were finished by an earlier run"));

  // A shard whose task did not finish names its bugs without a result.
  const fs::path cut = dir_ / "cut";
  fs::copy(s0, cut, fs::copy_options::recursive);
  std::string store = slurp(cut / std::string(kResultsFileName));
  store.erase(store.find('\n') + 1);
  dlfl::testing::write_text(cut / std::string(kResultsFileName), store);
  const std::string left = read_records(cut / std::string(kResultsFileName)).front().key() == "fixture+calc#1"
                               ? "fixture+calc#5" : "fixture+calc#1";
  const RunResult unfinished = run_dlfl("bugset join " + cut.string() + " " + s1.string() + " -o " + (dir_ / "j2").string());
  EXPECT_EQ(unfinished.exit_code, 2);
  EXPECT_THAT(unfinished.err, HasSubstr("shard 0/2 is unfinished: 1 of its 2 bugs have no result (" + left + ")"));
  // The same shard twice, an unsharded directory, a bug recorded otherwise by OUT.
  const RunResult twice = run_dlfl("bugset join " + s0.string() + " " + cut.string() + " -o " + (dir_ / "j3").string());
  EXPECT_THAT(twice.err, HasSubstr("shard 0/2 given twice"));
  const RunResult unsharded = run_dlfl("bugset join " + whole.string() + " -o " + (dir_ / "j4").string());
  EXPECT_THAT(unsharded.err, HasSubstr("is this the output directory of `dlfl bugset reproduce --shard I/N`?"));
  const fs::path differs = dir_ / "differs";
  fs::create_directories(differs);
  fs::copy_file(whole / std::string(kReproduceConfigFileName), differs / std::string(kReproduceConfigFileName));
  FaultRecord changed = read_records(s1 / std::string(kResultsFileName)).front();
  changed.failing_tests = {"Other.Test"};
  dlfl::testing::write_text(differs / std::string(kResultsFileName), record_to_json(changed) + "\n");
  const RunResult conflict = run_dlfl("bugset join " + s0.string() + " " + s1.string() + " -o " + differs.string());
  EXPECT_EQ(conflict.exit_code, 2);
  EXPECT_THAT(conflict.err, HasSubstr("bug fixture+calc#4 is recorded differently by " + differs.string() +
                                      " and shard 1/2 (" + s1.string() + ")"));
  EXPECT_FALSE(fs::exists(differs / "spectra"));

  for (const char* bad : {"2/2", "1", "a/b"}) {
    const RunResult refused = run_dlfl(reproduce(bugs, dir_ / "bad") + " --shard " + bad);
    EXPECT_NE(refused.exit_code, 0) << bad;
    EXPECT_THAT(refused.err, HasSubstr("expected I/N with 0 <= I < N")) << bad;
  }
  EXPECT_FALSE(fs::exists(dir_ / "bad"));
  EXPECT_EQ(clone_state(), before_);
}

}  // namespace
}  // namespace dlfl::bench
