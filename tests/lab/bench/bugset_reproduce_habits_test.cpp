// `dlfl bugset reproduce` and real projects' habits, on two fixtures: a project whose
// CMake fetches a dependency at configure time (download_fixture/make_clones.sh), and
// the calc fixture reached through a mirror whose remote is another URL. A download is a
// discard that names the URL; a recipe that maps it to a local clone, given to the same
// output directory with --retry-discarded, reproduces the bug; every step's output is
// kept under OUT/logs/BUG and the failing step's tail is in discarded.csv. A third clone
// renames a CMake option between two bugs reproduced one after the other in one tree.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "../../cli/cli_runner.h"
#include "../../support/shell_output.h"
#include "dlfl/lab/bench/host_cpu.h"
#include "dlfl/lab/bench/results_store.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using dlfl::testing::run_dlfl;
using dlfl::testing::RunResult;
using dlfl::testing::slurp;

std::string rev_parse(const fs::path& clone, const std::string& rev) {
  const std::string out = dlfl::testing::shell_output("git -C '" + clone.string() + "' rev-parse " + rev);
  return out.substr(0, out.find('\n'));
}

std::size_t lines(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')); }

class BugsetReproduceHabits : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string make = "sh " + (fs::path(DLFL_DOWNLOAD_FIXTURE) / "make_clones.sh").string() + " " +
                             dir_.path().string() + "/f >/dev/null 2>&1";
    ASSERT_EQ(std::system(make.c_str()), 0) << make;
    const std::string fix = rev_parse(clones() / "fetchy", "fix1");
    ASSERT_EQ(fix.size(), 40u);
    dlfl::testing::write_text(manifest(),
                              R"({"id": "fixture+fetchy#1", "project": "fixture+fetchy", "fix_commit": ")" + fix +
                                  R"(", "files": [{"old_name": "src/fetchy.cpp", "new_name": "src/fetchy.cpp", )"
                                  R"("change_type": "MODIFY", "deleted_lines": [10], "added_lines": [10]}, )"
                                  R"({"old_name": "tests/fetchy_test.cpp", "new_name": "tests/fetchy_test.cpp", )"
                                  R"("change_type": "MODIFY", "added_lines": [9]}, )"
                                  R"({"old_name": "tests/CMakeLists.txt", "new_name": "tests/CMakeLists.txt", )"
                                  R"("change_type": "MODIFY", "added_lines": [5]}]})"
                                  "\n");
  }
  fs::path clones() const { return dir_ / "f" / "clones"; }
  fs::path manifest() const { return dir_ / "manifest.jsonl"; }
  // listy's bug #1 (fixed at tag `fixs`) with these ground-truth lines, and a recipe
  // naming its checks: the `bugset reproduce` command that writes to `out`.
  std::string listy_command(const std::string& deleted_lines, const fs::path& out) const {
    const std::string fix = rev_parse(clones() / "listy", "fixs");
    EXPECT_EQ(fix.size(), 40u);
    const fs::path listy_manifest = dir_ / "listy.jsonl";
    dlfl::testing::write_text(listy_manifest,
                              R"({"id": "fixture+listy#1", "project": "fixture+listy", "fix_commit": ")" + fix +
                                  R"(", "files": [{"old_name": "src/listy.cpp", "new_name": "src/listy.cpp", )"
                                  R"("change_type": "MODIFY", "deleted_lines": [)" + deleted_lines +
                                  R"(], "added_lines": [8]}]})"
                                  "\n");
    dlfl::testing::write_text(listy_recipe(),
                              R"({"test_list": "./listy_checks --list", "test_command": "./listy_checks {}"})");
    return "bugset reproduce " + listy_manifest.string() + " --project fixture+listy --repos " + clones().string() +
           " -o " + out.string() + " -q --build-jobs 2 --recipe " + listy_recipe().string();
  }
  // cachey's two bugs: #1 (plus() subtracted) and #2 (twice() tripled, its fix adds a test).
  fs::path cachey_manifest() const {
    const fs::path clone = clones() / "cachey";
    const std::string fixa = rev_parse(clone, "fixa");
    const std::string fixb = rev_parse(clone, "fixb");
    EXPECT_EQ(fixb.size(), 40u);
    const fs::path manifest = dir_ / "cachey.jsonl";
    dlfl::testing::write_text(
        manifest,
        R"({"id": "fixture+cachey#1", "project": "fixture+cachey", "fix_commit": ")" + fixa +
            R"(", "files": [{"old_name": "src/cachey.cpp", "new_name": "src/cachey.cpp", "change_type": "MODIFY", )"
            R"("deleted_lines": [4], "added_lines": [4]}]})"
            "\n"
            R"({"id": "fixture+cachey#2", "project": "fixture+cachey", "fix_commit": ")" + fixb +
            R"(", "files": [{"old_name": "src/cachey.cpp", "new_name": "src/cachey.cpp", "change_type": "MODIFY", )"
            R"("deleted_lines": [12], "added_lines": [12]}, {"old_name": "tests/CMakeLists.txt", )"
            R"("new_name": "tests/CMakeLists.txt", "change_type": "MODIFY", "added_lines": [5]}]})"
            "\n");
    return manifest;
  }
  fs::path listy_recipe() const { return dir_ / "listy-recipe.json"; }
  // The records a `bugset reproduce` command that succeeds writes to `out`.
  static std::vector<FaultRecord> records_of(const std::string& command, const fs::path& out) {
    const RunResult r = run_dlfl(command);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return read_records(out / std::string(kResultsFileName));
  }
  std::string reproduce(const fs::path& out, const std::string& more = "") const {
    return "bugset reproduce " + manifest().string() + " --bug fixture+fetchy#1 --repos " + clones().string() +
           " -o " + out.string() + " -q --build-jobs 2" + more;
  }
  dlfl::testing::TempDir dir_{"reproduce-habits"};
};

TEST_F(BugsetReproduceHabits, AConfigureTimeDownloadIsNamedThenMappedToALocalCloneOnRetry) {
  const fs::path out = dir_ / "out";
  const RunResult first = run_dlfl(reproduce(out));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const auto records = read_records(out / std::string(kResultsFileName));
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].kept);
  EXPECT_EQ(records[0].reason, "configure-time download");
  EXPECT_THAT(records[0].detail, HasSubstr("https://example.invalid/dep.git"));
  EXPECT_THAT(records[0].detail, HasSubstr("\"url_map\""));
  EXPECT_THAT(records[0].tail, HasSubstr("Configuring incomplete"));
  // The configure step's whole output is kept; discarded.csv shows its tail on one line.
  EXPECT_THAT(slurp(out / "logs" / "fixture+fetchy#1" / "buggy-configure.log"), HasSubstr("Could not resolve host"));
  const std::string discarded = slurp(out / "discarded.csv");
  EXPECT_EQ(lines(discarded), 2u) << discarded;
  EXPECT_THAT(discarded, HasSubstr("configure-time download"));

  // Without --retry-discarded the bug is finished; with it and a recipe that maps the URL,
  // it runs again in the same output directory and is kept.
  const std::string recipe = (dir_ / "recipe.json").string();
  dlfl::testing::write_text(recipe, R"({"url_map": {"https://example.invalid/dep.git": ")" +
                                        (dir_ / "f" / "dep").string() + R"("}})");
  const RunResult resumed = run_dlfl(reproduce(out, " --recipe fixture+fetchy=" + recipe));
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_THAT(resumed.err, HasSubstr("1 bugs were finished by an earlier run"));
  EXPECT_FALSE(read_records(out / std::string(kResultsFileName))[0].kept);

  const RunResult retried = run_dlfl(reproduce(out, " --recipe fixture+fetchy=" + recipe + " --retry-discarded"));
  ASSERT_EQ(retried.exit_code, 0) << retried.err;
  EXPECT_THAT(retried.err, HasSubstr("1 bugs discarded by an earlier run were run again"));
  const auto after = read_records(out / std::string(kResultsFileName));
  ASSERT_EQ(after.size(), 1u);
  const FaultRecord& r = after[0];
  ASSERT_TRUE(r.kept) << r.reason << ": " << r.detail;
  EXPECT_EQ(r.attempt, 2u);
  EXPECT_THAT(r.failing_tests, ::testing::ElementsAre("twice"));
  EXPECT_THAT(r.faulty, ::testing::ElementsAre("src/fetchy.cpp:10:twice(int)"));
  EXPECT_EQ(r.clone, (clones() / "fetchy").string());
  // Both recipes are kept with the results; the store holds both attempts, the later wins.
  std::size_t recipes = 0;
  for (const auto& entry : fs::directory_iterator(out / "recipes")) recipes += entry.path().string().find("fixture+fetchy-") != std::string::npos;
  EXPECT_EQ(recipes, 2u);
  EXPECT_EQ(lines(slurp(out / std::string(kResultsFileName))), 2u);
  EXPECT_EQ(lines(slurp(out / "discarded.csv")), 1u);  // the header only
}

// fetchy#2's version asks for dep's `master`, which the dep clone lacks (it has `main`,
// which moved on in 2025 and no longer builds with fetchy): the download resolves to dep
// as of the buggy commit's date, logged and recorded; a recipe's url_pin overrides it.
TEST_F(BugsetReproduceHabits, ADownloadOfABranchTheCloneLacksIsPinnedToTheBugsDate) {
  const std::string fix = rev_parse(clones() / "fetchy", "fix2");
  const fs::path manifest = dir_ / "fetchy2.jsonl";
  dlfl::testing::write_text(manifest, R"({"id": "fixture+fetchy#2", "project": "fixture+fetchy", "fix_commit": ")" + fix +
                                          R"(", "files": [{"old_name": "src/fetchy.cpp", "new_name": "src/fetchy.cpp", )"
                                          R"("change_type": "MODIFY", "deleted_lines": [6], "added_lines": [6]}]})"
                                          "\n");
  const fs::path dep = dir_ / "f" / "dep";
  const std::string dep_then = rev_parse(dep, "main~1");  // 2023
  const std::string dep_now = rev_parse(dep, "main");     // 2025: dep_factor() renamed
  const auto command = [&](const fs::path& out, const std::string& pin) {
    const fs::path recipe = out.string() + "-recipe.json";
    dlfl::testing::write_text(recipe, R"({"url_map": {"https://example.invalid/dep.git": ")" + dep.string() + "\"}" +
                                          (pin.empty() ? "" : R"(, "url_pin": {"https://example.invalid/dep.git": ")" + pin + "\"}") +
                                          "}");
    return "bugset reproduce " + manifest.string() + " --project fixture+fetchy --repos " + clones().string() + " -o " + out.string() +
           " --build-jobs 2 --recipe fixture+fetchy=" + recipe.string();
  };
  const RunResult r = run_dlfl(command(dir_ / "out", ""));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string pinned = "master=" + dep_then.substr(0, 12) + ", main=" + dep_then.substr(0, 12) +
                             " (as of 2024-03-01T12:00:00+00:00)";
  EXPECT_THAT(r.err, HasSubstr("fixture+fetchy#2: downloads pinned: https://example.invalid/dep.git: " + pinned));
  // Each version's test runs say how far they are (a real suite runs for half an hour).
  EXPECT_THAT(r.err, HasSubstr("fixture+fetchy#2: buggy-tests: 3 tests...\n"));
  EXPECT_THAT(r.err, ::testing::ContainsRegex("fixture\\+fetchy#2: buggy-tests: 3 tests run in [0-9]+ s, 1 failing"));
  auto records = read_records(dir_ / "out" / std::string(kResultsFileName));
  ASSERT_EQ(records.size(), 1u);
  ASSERT_TRUE(records[0].kept) << records[0].reason << ": " << records[0].detail;
  EXPECT_THAT(records[0].failing_tests, ::testing::ElementsAre("plus"));
  EXPECT_THAT(records[0].downloads, ::testing::ElementsAre("https://example.invalid/dep.git: " + pinned));
  // The user's dep clone is as it was: no `master`, `main` at 2025.
  EXPECT_EQ(rev_parse(dep, "main"), dep_now);
  EXPECT_EQ(rev_parse(dep, "--verify -q master"), "");

  // Pinned by the recipe to today's dep: fetchy of 2024 no longer builds against it.
  records = records_of(command(dir_ / "out-now", dep_now), dir_ / "out-now");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].kept);
  EXPECT_EQ(records[0].reason, "build failed");
  EXPECT_THAT(records[0].downloads, ::testing::ElementsAre(HasSubstr("(url_pin " + dep_now + ")")));
  EXPECT_THAT(slurp(dir_ / "out-now" / "logs" / "fixture+fetchy#2" / "buggy-build.log"), HasSubstr("dep_factor"));
}

TEST_F(BugsetReproduceHabits, AMirrorWithAnotherRemoteIsUsedWithAWarningAndNamedInTheResults) {
  // A local mirror of the clone: its origin is the path it was cloned from.
  const fs::path mirror = dir_ / "mirrors" / "fetchy";
  ASSERT_EQ(std::system(("git clone -q '" + (clones() / "fetchy").string() + "' '" + mirror.string() + "'").c_str()), 0);
  const std::string recipe = (dir_ / "recipe.json").string();
  dlfl::testing::write_text(recipe, R"({"url_map": {"https://example.invalid/dep.git": ")" +
                                        (dir_ / "f" / "dep").string() + R"("}})");
  std::string command = reproduce(dir_ / "out", " --recipe " + recipe);
  command.replace(command.find(clones().string()), clones().string().size(), (dir_ / "mirrors").string());
  const RunResult r = run_dlfl(command);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("dlfl: warning: " + mirror.string() + ": this clone's remotes (" +
                               (clones() / "fetchy").string() + ") do not name fixture+fetchy's repository"));
  const auto records = read_records(dir_ / "out" / std::string(kResultsFileName));
  ASSERT_EQ(records.size(), 1u);
  EXPECT_TRUE(records[0].kept) << records[0].reason << ": " << records[0].detail;
  EXPECT_EQ(records[0].clone, mirror.string());
}

TEST_F(BugsetReproduceHabits, EachBugConfiguresWithAFreshCacheSoARenamedOptionDoesNotLeakIntoTheNext) {
  // Bug 1's version defines CACHEY_LEGACY_MODE; bug 2's treats that option, if the cache
  // still holds it, as obsolete and does not compile. One worker builds both in one tree.
  const fs::path out = dir_ / "out";
  const RunResult r = run_dlfl("bugset reproduce " + cachey_manifest().string() + " --project fixture+cachey --repos " +
                               clones().string() + " -o " + out.string() + " -q -j 1 --build-jobs 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto records = read_records(out / std::string(kResultsFileName));
  ASSERT_EQ(records.size(), 2u);
  for (const auto& record : records) {
    EXPECT_TRUE(record.kept) << record.key() << ": " << record.reason << ": " << record.detail;
    EXPECT_EQ(record.failing_tests.size(), 1u) << record.key();
    // Each record names the CPU it was reproduced on.
    EXPECT_EQ(record.host, host_cpu()) << record.key();
  }
  // The second bug's configure ran in the first one's build tree, from a fresh cache.
  EXPECT_THAT(slurp(out / "logs" / "fixture+cachey#2" / "buggy-configure.log"),
              ::testing::Not(HasSubstr("CACHEY_LEGACY_MODE is obsolete")));
}

TEST_F(BugsetReproduceHabits, ABugsOwnRecipeComesBeforeItsProjects) {
  // cachey#2 runs its tests through its own recipe (two of them, by another driver than
  // CTest), listed once the test files its fix changed ({fix_tests}: tests/CMakeLists.txt,
  // which gains `twice`) are in the buggy tree; #1, of the same project, through the
  // generic one.
  const fs::path own = dir_ / "cachey-2.json";
  dlfl::testing::write_text(own, R"({"test_list": "cd {source} && grep -q 'NAME twice' {fix_tests} </dev/null && )"
                                 R"(echo zero && echo twice", "test_command": "tests/cachey_tests {}"})");
  const fs::path out = dir_ / "out";
  const std::string command = "bugset reproduce " + cachey_manifest().string() + " --project fixture+cachey --repos " +
                              clones().string() + " -o " + out.string() + " -q -j 1 --build-jobs 2";
  const RunResult r = run_dlfl(command + " --recipe fixture+cachey#2=" + own.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto records = read_records(out / std::string(kResultsFileName));
  ASSERT_EQ(records.size(), 2u);
  for (const auto& record : records) ASSERT_TRUE(record.kept) << record.key() << ": " << record.reason << ": " << record.detail;
  const FaultRecord& first = records[0].fault == "1" ? records[0] : records[1];
  const FaultRecord& second = records[0].fault == "1" ? records[1] : records[0];
  EXPECT_EQ(first.tests, 2u);   // CTest's zero and plus
  EXPECT_EQ(second.tests, 2u);  // the own recipe's two, not CTest's three
  EXPECT_THAT(second.failing_tests, ::testing::ElementsAre("twice"));
  EXPECT_NE(first.recipe, second.recipe);
  EXPECT_THAT(slurp(out / "recipes" / ("fixture+cachey#2-" + second.recipe + ".json")), HasSubstr("tests/cachey_tests {}"));
  EXPECT_TRUE(fs::exists(out / "recipes" / ("fixture+cachey-" + first.recipe + ".json")));

  // A recipe for a bug that is not selected is refused before anything runs.
  const RunResult stray = run_dlfl(command + " --recipe fixture+cachey#9=" + own.string());
  EXPECT_EQ(stray.exit_code, 2);
  EXPECT_THAT(stray.err, HasSubstr("--recipe fixture+cachey#9=...: no selected bug is fixture+cachey#9"));
}

TEST_F(BugsetReproduceHabits, TheLlvmBackendSeesTheCodeOfTheProjectsSharedLibraries) {
  // cachey's code is a library its tests link; built shared with clang's source-based
  // coverage, its lines are in the library's coverage mapping, not the tests' executable,
  // and llvm-cov names only the lines of the binaries it is given.
  const fs::path recipe = dir_ / "shared-llvm.json";
  dlfl::testing::write_text(recipe, R"({"backend": "llvm", "cmake_args": ["-DCMAKE_C_COMPILER=clang-14", )"
                                    R"("-DCMAKE_CXX_COMPILER=clang++-14", "-DBUILD_SHARED_LIBS=ON"]})");
  const fs::path out = dir_ / "out";
  const RunResult r = run_dlfl("bugset reproduce " + cachey_manifest().string() + " --bug fixture+cachey#1 --repos " +
                               clones().string() + " -o " + out.string() + " -q --build-jobs 2 --recipe " + recipe.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto records = read_records(out / std::string(kResultsFileName));
  ASSERT_EQ(records.size(), 1u);
  ASSERT_TRUE(records[0].kept) << records[0].reason << ": " << records[0].detail;
  EXPECT_THAT(records[0].failing_tests, ::testing::ElementsAre("plus"));
  ASSERT_FALSE(records[0].results.empty());
  EXPECT_TRUE(records[0].results[0].found);
  EXPECT_GT(records[0].elements, 0u);
}

TEST_F(BugsetReproduceHabits, AGoogleTestWithoutJsonReportsAndAnAbortingTestIsReproducedUnderGcov) {
  // oldy's test program speaks GoogleTest 1.7 (no JSON report), is built only under the
  // project's OLDY_BUILD_TESTS, and its fail-to-pass test aborts on the buggy version: the
  // generic recipe turns the option on, the XML reports and console lines give the
  // outcomes, and the crash handler keeps the aborting test's coverage, so the faulty line
  // is ranked from a real spectrum instead of a tie of every line.
  const fs::path clone = clones() / "oldy";
  const fs::path manifest = dir_ / "oldy.jsonl";
  dlfl::testing::write_text(manifest,
                            R"({"id": "fixture+oldy#1", "project": "fixture+oldy", "fix_commit": ")" +
                                rev_parse(clone, "fixo") +
                                R"(", "files": [{"old_name": "src/oldy.cpp", "new_name": "src/oldy.cpp", )"
                                R"("change_type": "MODIFY", "deleted_lines": [10], "added_lines": [10]}]})"
                                "\n");
  const fs::path recipe = dir_ / "oldy-recipe.json";
  dlfl::testing::write_text(recipe, R"({"test_binary": "oldy_tests"})");
  const fs::path out = dir_ / "out";
  const RunResult r = run_dlfl("bugset reproduce " + manifest.string() + " --bug fixture+oldy#1 --repos " +
                               clones().string() + " -o " + out.string() + " --build-jobs 2 --recipe " + recipe.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("test options turned on (generic recipe): -DOLDY_BUILD_TESTS=ON"));
  const auto records = read_records(out / std::string(kResultsFileName));
  ASSERT_EQ(records.size(), 1u);
  ASSERT_TRUE(records[0].kept) << records[0].reason << ": " << records[0].detail;
  EXPECT_THAT(records[0].failing_tests, ::testing::ElementsAre("Div.Negative"));
  EXPECT_EQ(records[0].tests, 3u);
  ASSERT_FALSE(records[0].results.empty());
  // Ochiai: the abort (only the failing test reaches it) first, then safe_div's first two
  // lines (both Div tests reach them), the faulty `if (b <= 0)` among them.
  const auto& ochiai = records[0].results[0];
  EXPECT_TRUE(ochiai.found);
  EXPECT_DOUBLE_EQ(ochiai.first_rank_best, 2);
  EXPECT_DOUBLE_EQ(ochiai.first_rank_worst, 3);
}

TEST_F(BugsetReproduceHabits, TestsAProgramListsRunOneProcessEachWithTheirNamesQuoted) {
  // listy has no CTest tests: its checks program lists them (names with blanks, a quote
  // and `$(touch pwned)`) and runs one by name. The recipe says how.
  const fs::path recipe = listy_recipe();
  const fs::path out = dir_ / "out";
  const std::string command = listy_command("8", out);
  const auto records = records_of(command, out);
  ASSERT_EQ(records.size(), 1u);
  const FaultRecord& record = records[0];
  ASSERT_TRUE(record.kept) << record.reason << ": " << record.detail;
  EXPECT_EQ(record.tests, 3u);  // every listed check ran, the odd names too
  EXPECT_THAT(record.failing_tests, ::testing::ElementsAre("scale by one"));
  EXPECT_THAT(record.faulty, ::testing::ElementsAre("src/listy.cpp:8:scale(int, int)"));
  // A name is data: the substitution in it ran nowhere.
  for (const auto& entry : fs::recursive_directory_iterator(dir_.path()))
    EXPECT_NE(entry.path().filename(), "pwned") << entry.path();

  // A list command that prints nothing, or fails, discards the bug and says why.
  for (const auto& [list, why] : {std::pair{"./listy_checks --list >/dev/null", "printed no test name"},
                                  std::pair{"./no_such_program --list", "listing the tests (test_list): exit status 127"},
                                  std::pair{"echo 'E   cannot import name helper' >&2; echo '1 failed collecting' >&2; exit 1",
                                            "exit status 1; 1 failed collecting"}}) {
    dlfl::testing::write_text(recipe, std::string(R"({"test_list": ")") + list +
                                          R"(", "test_command": "./listy_checks {}"})");
    std::string again = command;
    again.replace(again.find(out.string()), out.string().size(), (dir_ / "out-unlisted").string());
    fs::remove_all(dir_ / "out-unlisted");
    const RunResult unlisted = run_dlfl(again);
    ASSERT_EQ(unlisted.exit_code, 0) << unlisted.err;
    const auto discarded = read_records(dir_ / "out-unlisted" / std::string(kResultsFileName));
    ASSERT_EQ(discarded.size(), 1u);
    EXPECT_FALSE(discarded[0].kept);
    EXPECT_EQ(discarded[0].reason, "tests fail to run");
    EXPECT_THAT(discarded[0].detail, HasSubstr(why));
  }
  // The failed listing's whole output is in the bug's log, not only its last line (as
  // pytest's collection errors come before its summary).
  EXPECT_THAT(slurp(dir_ / "out-unlisted" / "logs" / "fixture+listy#1" / "buggy-tests.log"),
              HasSubstr("E   cannot import name helper"));
}


TEST_F(BugsetReproduceHabits, ListingTheTestsLeavesTheBuildTreesCoverageAlone) {
  // The list command runs the coverage build (as pytest imports the library it collects
  // from). Its .gcda files must not land in the build tree: there they outlive the
  // version, and a later listing over rebuilt objects ends in libgcov's checksum errors,
  // which bury the listing's own. The command fails if any .gcda is there after it ran.
  const fs::path out = dir_ / "out";
  const std::string command = listy_command("8", out);
  dlfl::testing::write_text(listy_recipe(),
                            R"({"test_list": "./listy_checks --list && if find . -name '*.gcda' | grep -q .; )"
                            R"(then echo 'the listing wrote coverage into the build tree' >&2; exit 1; fi", )"
                            R"("test_command": "./listy_checks {}"})");
  const auto records = records_of(command, out);
  ASSERT_EQ(records.size(), 1u);
  ASSERT_TRUE(records[0].kept) << records[0].reason << ": " << records[0].detail;
  EXPECT_THAT(records[0].failing_tests, ::testing::ElementsAre("scale by one"));
  EXPECT_EQ(records[0].tests, 3u);
}

TEST_F(BugsetReproduceHabits, AChangeOfLinesNoCoverageRecordsGivesTheExecutableLinesNextToIt) {
  // listy's fix changes line 8, but this manifest's fix deletes lines 1 and 2 (an
  // #include and a blank line): no ranking could find those, as when gcc attributes the
  // code of a multi-line macro invocation to one line. The one ground-truth rule takes
  // the executable lines next to such a change instead (lib/lab/bench/fix_truth.cpp).
  const fs::path out = dir_ / "out";
  const RunResult r = run_dlfl(listy_command("1, 2", out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto records = read_records(out / std::string(kResultsFileName));
  ASSERT_EQ(records.size(), 1u);
  ASSERT_TRUE(records[0].kept) << records[0].reason << ": " << records[0].detail;
  ASSERT_FALSE(records[0].faulty.empty());
  for (const auto& line : records[0].faulty) {
    EXPECT_THAT(line, ::testing::StartsWith("src/listy.cpp:"));
    EXPECT_NE(line, "src/listy.cpp:1");
    EXPECT_NE(line, "src/listy.cpp:2");
  }
}

TEST_F(BugsetReproduceHabits, TheFixRunsOnlyTheListedTestsThatFailedOnTheBuggyVersion) {
  // pytest's names ("file::test") are no GoogleTest filter: the fixed version's run keeps
  // the failing names of the list itself, so a suite of slow tests is not run twice.
  const fs::path out = dir_ / "out";
  const std::string command = listy_command("8", out);
  const fs::path ran = dir_ / "ran.txt";
  dlfl::testing::write_text(listy_recipe(), R"({"test_list": "./listy_checks --list | sed 's/^/checks::/'", )"
                                            R"("test_command": "n={}; echo \"$n\" >> )" + ran.string() +
                                                R"(; ./listy_checks \"${{n#checks::}\""})");
  const auto records = records_of(command, out);
  ASSERT_EQ(records.size(), 1u);
  ASSERT_TRUE(records[0].kept) << records[0].reason << ": " << records[0].detail;
  EXPECT_THAT(records[0].failing_tests, ::testing::ElementsAre("checks::scale by one"));
  EXPECT_EQ(records[0].tests, 3u);
  // Three runs on the buggy version, then the failing one alone on the fix.
  const std::string runs = slurp(ran);
  EXPECT_EQ(lines(runs), 4u) << runs;
  EXPECT_THAT(runs, ::testing::EndsWith("checks::scale by one\n")) << runs;
}

TEST_F(BugsetReproduceHabits, ATestFailingWithoutCoverageOnBothVersionsIsNoFailToPass) {
  // The one failing check ends before it can write coverage, on the buggy version and on
  // the fix alike (a test that needs a missing model file and crashes): the fixed run has
  // no coverage at all, which answers the question it asks rather than failing to run.
  const fs::path out = dir_ / "out";
  const std::string command = listy_command("8", out);
  dlfl::testing::write_text(listy_recipe(), R"({"test_list": "./listy_checks --list", )"
                                            R"("test_command": "test {} = 'scale by one' && exit 3 || ./listy_checks {}"})");
  const auto records = records_of(command, out);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].kept);
  EXPECT_EQ(records[0].reason, "no fail-to-pass test");
  EXPECT_THAT(records[0].detail, HasSubstr("1 tests fail on the buggy version and none passes on the fixed one: scale by one"));
}

TEST_F(BugsetReproduceHabits, ABuggyTimeoutIsFailToPassOnlyWhereTheFixPassesWellInsideTheLimit) {
  // "scale by one" fails on the buggy version by hanging past the 3 s limit. A fix that
  // passes it at once cured a hang: fail-to-pass. A fix that passes it in 2 s (over a
  // quarter of the limit) shows a slow test near its limit, whose buggy timeout measures
  // the machine's load: left out.
  for (const auto& [fixed_run, kept] : {std::pair{"true", true}, std::pair{"sleep 2", false}}) {
    const fs::path out = dir_ / (kept ? "out-hang" : "out-slow");
    const std::string command = listy_command("8", out);
    dlfl::testing::write_text(listy_recipe(), std::string(R"({"test_list": "./listy_checks --list", )") +
                                                  R"("test_command": "if ./listy_checks {}; then test {} != 'scale by one' || )" +
                                                  fixed_run + R"(; else sleep 30; fi", "timeouts": {"test": 3}})");
    const auto records = records_of(command, out);
    ASSERT_EQ(records.size(), 1u);
    const fs::path log = out / "logs" / "fixture+listy#1" / "fail-to-pass.log";
    if (kept) {
      ASSERT_TRUE(records[0].kept) << records[0].reason << ": " << records[0].detail;
      EXPECT_THAT(records[0].failing_tests, ::testing::ElementsAre("scale by one"));
      EXPECT_FALSE(fs::exists(log));
    } else {
      EXPECT_FALSE(records[0].kept);
      EXPECT_EQ(records[0].reason, "no fail-to-pass test");
      EXPECT_THAT(records[0].detail, HasSubstr("none passes on the fixed one well inside the time limit (1 timed out on "
                                               "the buggy version and took more than a quarter of that time on the fixed one)"));
      EXPECT_THAT(slurp(log), HasSubstr("scale by one"));
    }
  }
}

TEST_F(BugsetReproduceHabits, SubmodulesComeFromTheMappedClonesAndOnlyThoseTheRecipeNames) {
  // subby's submodules are third_party/dep, which it builds with, and gpu, which it does
  // not need; neither URL can be reached. Git refuses local submodule clones unless the
  // file transport is allowed, so the mapped one must be allowed explicitly.
  const fs::path clone = clones() / "subby";
  const std::string fix = rev_parse(clone, "fixu");
  ASSERT_EQ(fix.size(), 40u);
  const fs::path subby_manifest = dir_ / "subby.jsonl";
  dlfl::testing::write_text(subby_manifest,
                            R"({"id": "fixture+subby#1", "project": "fixture+subby", "fix_commit": ")" + fix +
                                R"(", "files": [{"old_name": "src/subby.cpp", "new_name": "src/subby.cpp", )"
                                R"("change_type": "MODIFY", "deleted_lines": [10], "added_lines": [10]}, )"
                                R"({"old_name": "tests/subby_test.cpp", "new_name": "tests/subby_test.cpp", )"
                                R"("change_type": "MODIFY", "added_lines": [14]}]})"
                                "\n");
  const fs::path recipe = dir_ / "subby-recipe.json";
  const std::string dep_map = R"("url_map": {"https://example.invalid/dep.git": ")" + (dir_ / "f" / "dep").string() + "\"}";
  const fs::path out = dir_ / "out";
  const std::string command = "bugset reproduce " + subby_manifest.string() + " --project fixture+subby --repos " +
                              clones().string() + " -o " + out.string() + " -q --build-jobs 2 --recipe " +
                              recipe.string();

  // Every submodule by default: the unmapped gpu is a download that failed, named.
  dlfl::testing::write_text(recipe, "{" + dep_map + "}");
  const RunResult all = run_dlfl(command);
  ASSERT_EQ(all.exit_code, 0) << all.err;
  auto records = read_records(out / std::string(kResultsFileName));
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].reason, "configure-time download");
  EXPECT_THAT(records[0].detail, HasSubstr("https://example.invalid/gpu.git"));

  // Only the submodule it needs, from its mapped local clone: kept. A recipe in a
  // repository names that clone inside --repos ({repos}); a named submodule this version
  // does not have (a later version's) is left out.
  ASSERT_EQ(std::system(("git clone -q '" + (dir_ / "f" / "dep").string() + "' '" + (clones() / "fixture+dep").string() +
                         "'").c_str()),
            0);
  dlfl::testing::write_text(
      recipe, R"({"url_map": {"https://example.invalid/dep.git": "{repos}/fixture+dep"},
                  "submodules": ["third_party/dep", "third_party/later"]})");
  const RunResult named = run_dlfl(command + " --retry-discarded");
  ASSERT_EQ(named.exit_code, 0) << named.err;
  records = read_records(out / std::string(kResultsFileName));
  ASSERT_EQ(records.size(), 1u);
  const FaultRecord& r = records[0];
  ASSERT_TRUE(r.kept) << r.reason << ": " << r.detail << "\n" << r.tail;
  EXPECT_THAT(r.failing_tests, ::testing::ElementsAre("twice"));
  EXPECT_THAT(r.faulty, ::testing::ElementsAre("src/subby.cpp:10:twice(int)"));
  const std::string fetched = slurp(out / "logs" / "fixture+subby#1" / "buggy-submodules.log");
  EXPECT_THAT(fetched, HasSubstr("third_party/dep"));
  EXPECT_THAT(fetched, ::testing::Not(HasSubstr("gpu")));
  // The stored recipe keeps {repos} as written: the digest does not depend on where the clones are.
  std::size_t with_placeholder = 0;
  for (const auto& entry : fs::directory_iterator(out / "recipes"))
    with_placeholder += slurp(entry.path()).find("\"{repos}/fixture+dep\"") != std::string::npos;
  EXPECT_EQ(with_placeholder, 1u);
}

}  // namespace
}  // namespace dlfl::bench
