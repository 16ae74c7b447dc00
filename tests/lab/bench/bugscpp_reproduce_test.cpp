// `dlfl bugset import bugscpp` and `dlfl bugset reproduce` on BugsC++ defects, end to end
// through the CLI, on a fixture in BugsC++'s layout (bugscpp_fixture/make_fixture.sh: a
// tiny C project with a plain Makefile whose test program runs the check named by line
// DPP_TEST_INDEX of an extra file): one defect reproduced and ranked, one whose failing
// case is not the one meta.json lists, discarded with the cases that differ; one whose
// listed case is killed on both versions.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "../../cli/cli_runner.h"
#include "../../support/shell_output.h"
#include "dlfl/formats/spectrum_formats.h"
#include "dlfl/lab/bench/results_store.h"
#include "dlfl/lab/eval/bugset_manifest.h"
#include "dlfl/lab/mutate/operators.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using dlfl::testing::run_dlfl;
using dlfl::testing::RunResult;
using dlfl::testing::slurp;

std::string shell(const std::string& command) { return dlfl::testing::shell_output(command); }

class BugsCppReproduce : public ::testing::Test {
 protected:
  void SetUp() override { make_fixture(fixture(), ""); }
  static void make_fixture(const fs::path& dir, const std::string& options) {
    const std::string make = "sh " + (fs::path(DLFL_BUGSCPP_FIXTURE) / "make_fixture.sh").string() + " " +
                             dir.string() + " " + options + " >/dev/null 2>&1";
    ASSERT_EQ(std::system(make.c_str()), 0) << make;
  }
  fs::path fixture() const { return dir_ / "fixture"; }
  fs::path clones() const { return fixture() / "clones"; }
  std::string git(const std::string& args) const {
    return shell("git -C " + (clones() / "ministr").string() + " " + args);
  }
  std::string clone_state() const {
    return git("status --porcelain --untracked-files=all") + git("rev-parse HEAD") + git("worktree list --porcelain");
  }

  dlfl::testing::TempDir dir_{"bugscpp"};
};

TEST_F(BugsCppReproduce, ImportsTheTaxonomyAndReproducesOneDefectDiscardingTheMismatch) {
  const fs::path manifest = dir_ / "bugscpp.jsonl";
  const RunResult imported = run_dlfl("bugset import bugscpp " + fixture().string() + " -o " + manifest.string());
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_THAT(imported.err, HasSubstr("imported 2 BugsC++ defects"));
  const std::vector<eval::BugReport> bugs = eval::read_manifest(manifest);
  ASSERT_EQ(bugs.size(), 2u);
  EXPECT_EQ(bugs[0].id, "ministr#1");
  EXPECT_EQ(bugs[1].id, "ministr#2");
  EXPECT_EQ(bugs[0].fix_commit, git("rev-parse HEAD~1").substr(0, 40));
  EXPECT_EQ(bugs[1].fix_commit, git("rev-parse HEAD").substr(0, 40));
  // Ground truth: the line the buggy patch writes, which the fix deletes.
  ASSERT_EQ(bugs[0].files.size(), 1u);
  EXPECT_EQ(bugs[0].files[0].old_name, "src/mathx.c");
  EXPECT_THAT(bugs[0].files[0].deleted_lines, ElementsAre(7u));
  EXPECT_THAT(bugs[0].files[0].added_lines, ElementsAre(7u));
  EXPECT_THAT(bugs[1].files.at(0).deleted_lines, ElementsAre(13u));
  ASSERT_TRUE(bugs[0].bugscpp);
  EXPECT_THAT(bugs[0].bugscpp->cases, ElementsAre(2u));
  EXPECT_EQ(bugs[0].bugscpp->common_patch.path, "0001-common.patch");
  EXPECT_EQ(bugs[0].bugscpp->extra_files.at(0).path, ".dpp/test_list");

  const std::string before = clone_state();
  const fs::path out = dir_ / "out";
  const RunResult run = run_dlfl("bugset reproduce " + manifest.string() + " --project ministr --repos " +
                                 clones().string() + " --bugscpp " + fixture().string() + " -o " + out.string() +
                                 " -q --build-jobs 2");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("dlfl bugset reproduce: 2 bugs, 1 kept, 1 discarded"));
  std::map<std::string, FaultRecord> records;
  {
    const ResultsStore store(out / std::string(kResultsFileName));
    for (const auto& r : store.records()) records[r.key()] = r;
  }
  ASSERT_EQ(records.size(), 2u);

  const FaultRecord& kept = records["ministr#1"];
  ASSERT_TRUE(kept.kept) << kept.reason << ": " << kept.detail;
  EXPECT_EQ(kept.group, "traditional");
  EXPECT_EQ(kept.kind, "traditional");
  EXPECT_THAT(kept.failing_tests, ElementsAre("2"));  // clamp_high, the case meta.json lists
  EXPECT_EQ(kept.tests, 4u);
  EXPECT_THAT(kept.faulty, ElementsAre("src/mathx.c:7:clamp"));
  ASSERT_EQ(kept.results.size(), 4u);
  for (const auto& f : kept.results) {
    // Only the failing case runs the faulty `return lo;`: first under every formula.
    EXPECT_TRUE(f.found) << f.formula;
    EXPECT_DOUBLE_EQ(f.first_rank, 1) << f.formula;
    EXPECT_DOUBLE_EQ(f.first_rank_worst, 1) << f.formula;
  }

  // The harness's __gcov_flush and the test command's python + cgi.escape ran on this host
  // (the stand-ins of BugsC++'s images); each step's output is kept; the spectrum and truth
  // are kept for re-ranking with other techniques.
  EXPECT_THAT(slurp(out / "logs" / "ministr#1" / "buggy-build.log"), HasSubstr("check.c"));
  EXPECT_TRUE(fs::exists(out / "logs" / "ministr#1" / "fixed-build.log"));
  EXPECT_EQ(slurp(out / "spectra" / "ministr#1.truth"), "src/mathx.c:7:clamp\n");
  const RunResult ranked = run_dlfl("rank " + (out / "spectra" / "ministr#1.dlfl").string() + " --format csv -n 1");
  ASSERT_EQ(ranked.exit_code, 0) << ranked.err;
  EXPECT_THAT(ranked.out, HasSubstr("src/mathx.c,7,"));
  EXPECT_FALSE(fs::exists(out / "spectra" / "ministr#2.dlfl"));

  const FaultRecord& mismatch = records["ministr#2"];
  EXPECT_FALSE(mismatch.kept);
  EXPECT_EQ(mismatch.reason, "failing cases differ");
  EXPECT_THAT(mismatch.detail, HasSubstr("meta.json lists case(s) 1 as failing; on the buggy version case(s) 4 fail "
                                         "(listed but passing: 1; failing but not listed: 4)"));
  EXPECT_THAT(slurp(out / "discarded.csv"), HasSubstr("failing cases differ"));
  EXPECT_THAT(slurp(out / "results.csv"), HasSubstr("ministr,ministr#1,ochiai,traditional,traditional,traditional,,src/mathx.c,7,"));

  EXPECT_EQ(clone_state(), before);
  EXPECT_FALSE(fs::exists(out / "work"));
}

// --mbfl on a BugsC++ defect: the buggy version built plainly under bear gives the
// compilation database, kill-matrix builds the schemata copy with the defect's build
// commands and runs its cases with its test commands (the hidden .dpp/test_list copied
// in), and the hybrid and MUSE rankings come beside the formulas.
TEST_F(BugsCppReproduce, AKeptDefectGetsItsKillMatrixFromItsOwnCommands) {
  const fs::path manifest = dir_ / "bugscpp.jsonl";
  ASSERT_EQ(run_dlfl("bugset import bugscpp " + fixture().string() + " -o " + manifest.string()).exit_code, 0);
  const fs::path out = dir_ / "out";
  const RunResult run = run_dlfl("bugset reproduce " + manifest.string() + " --bug ministr#1 --repos " +
                                 clones().string() + " --bugscpp " + fixture().string() + " -o " + out.string() +
                                 " -q --build-jobs 2 --mbfl 20 --mbfl-per-line 4 --mbfl-plain-build");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const ResultsStore store(out / std::string(kResultsFileName));
  ASSERT_EQ(store.records().size(), 1u);
  const FaultRecord& clamp = store.records().front();
  ASSERT_TRUE(clamp.kept) << clamp.reason << ": " << clamp.detail;
  ASSERT_TRUE(clamp.mbfl.has_value());
  const MutationCost& cost = *clamp.mbfl;
  ASSERT_EQ(cost.failure, "") << slurp(out / "logs" / "ministr#1" / "kill-matrix.log");
  EXPECT_GT(cost.compiled, 0u);
  EXPECT_LE(cost.compiled, 20u);
  EXPECT_GT(cost.killed, 0u);  // clamp's conditions: case 2 (and others) see their mutants
  EXPECT_GT(cost.runs, cost.compiled);
  EXPECT_GT(cost.plain_build_seconds, 0.0);
  EXPECT_GT(cost.build_seconds, 0.0);
  EXPECT_THAT(slurp(out / "logs" / "ministr#1" / "plain-build.log"), HasSubstr("mathx.c"));
  // --mbfl-plain-build: the time is of the defect's build commands on a copy without
  // mutants (kill-matrix --plain-build), not of the bear build above.
  EXPECT_TRUE(cost.plain_build_uncached);
  std::map<std::string, double> first;
  for (const auto& f : clamp.results) first[f.formula] = f.first_rank;
  ASSERT_TRUE(first.contains("ochiai+hybrid"));
  ASSERT_TRUE(first.contains("muse"));
  EXPECT_DOUBLE_EQ(first["ochiai+hybrid"], 1.0);  // Ochiai has the faulty line first alone
  // ... so its top tie, always examined whole, holds a faulty line.
  ASSERT_TRUE(cost.faulty_lines_examined.has_value());
  EXPECT_GE(*cost.faulty_lines_examined, 1u);
  // The settings the mutants were chosen by, for a rerun to match.
  EXPECT_EQ(cost.budget, 20u);
  EXPECT_EQ(cost.per_line, 4u);
  EXPECT_EQ(cost.operators.size(), mutate::kOperatorCount);
  const Spectrum kills = io::read_spectrum(out / "spectra" / "ministr#1.kill-matrix.dlfl");
  EXPECT_EQ(kills.element_count(), cost.compiled);
  EXPECT_EQ(kills.test_count(), 4u);
  for (std::size_t e = 0; e < kills.element_count(); ++e) EXPECT_EQ(kills.file(e), "src/mathx.c");
}

// A listed case killed on both versions writes no coverage on the fixed one, where only
// its outcome matters: the defect has no fail-to-pass case, its tests did run.
TEST_F(BugsCppReproduce, ACaseKilledOnBothVersionsIsNoFailToPass) {
  const fs::path crashing = dir_ / "crashing";
  make_fixture(crashing, "--crashing");
  const fs::path manifest = dir_ / "bugscpp.jsonl";
  const RunResult imported = run_dlfl("bugset import bugscpp " + crashing.string() + " -o " + manifest.string());
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  const fs::path out = dir_ / "out";
  const RunResult run = run_dlfl("bugset reproduce " + manifest.string() + " --bug ministr#3 --repos " +
                                 (crashing / "clones").string() + " --bugscpp " + crashing.string() + " -o " +
                                 out.string() + " -q --build-jobs 2");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const ResultsStore store(out / std::string(kResultsFileName));
  ASSERT_EQ(store.records().size(), 1u);
  const FaultRecord& r = store.records().front();
  EXPECT_FALSE(r.kept);
  EXPECT_EQ(r.reason, "no fail-to-pass test");
  EXPECT_EQ(r.detail, "the listed case(s) 3 fail on the fixed version too");
}

// A manifest is data: a "bugscpp" member's commands never run. Without the checkout the
// defect's commands come from, and with a manifest whose commands differ from the
// checkout's, nothing runs and nothing is checked out.
TEST_F(BugsCppReproduce, AManifestsCommandsNeverRun) {
  const fs::path manifest = dir_ / "bugscpp.jsonl";
  ASSERT_EQ(run_dlfl("bugset import bugscpp " + fixture().string() + " -o " + manifest.string()).exit_code, 0);
  const fs::path marker = dir_ / "marker";
  std::string text = slurp(manifest);
  // Every build and test command of the first defect becomes `touch MARKER`.
  const auto line_end = text.find('\n');
  nlohmann::json first = nlohmann::json::parse(text.substr(0, line_end));
  for (const char* key : {"build", "build_coverage", "test", "test_coverage"})
    first["bugscpp"][key] = nlohmann::json::array({"touch " + marker.string()});
  const fs::path hostile = dir_ / "hostile.jsonl";
  dlfl::testing::write_text(hostile, first.dump() + "\n");
  const std::string before = clone_state();
  const fs::path out = dir_ / "out";
  const std::string run = "bugset reproduce " + hostile.string() + " --project ministr --repos " + clones().string() +
                          " -o " + out.string() + " -q --build-jobs 2";

  const RunResult without = run_dlfl(run);
  EXPECT_EQ(without.exit_code, 2);
  EXPECT_EQ(without.err, "dlfl: error: " + hostile.string() +
                             ": bug ministr#1 is a BugsC++ defect: its build and test commands come from the BugsC++ "
                             "checkout you name with --bugscpp DIR, never from a manifest\n");
  const RunResult differing = run_dlfl(run + " --bugscpp " + fixture().string());
  EXPECT_EQ(differing.exit_code, 2);
  EXPECT_THAT(differing.err, HasSubstr(hostile.string() + ": bug ministr#1: its \"bugscpp\" commands, patches or files "
                                       "differ from the defect in " + fixture().string()));
  EXPECT_EQ(std::count(differing.err.begin(), differing.err.end(), '\n'), 1) << differing.err;
  EXPECT_FALSE(fs::exists(marker));
  EXPECT_FALSE(fs::exists(out / "work"));
  EXPECT_EQ(clone_state(), before);
}

// OUT/work as a link (a scratch disk, a received OUT, or a trap) is used, and when the
// bugs are done the link stays and what it leads to is never removed.
TEST_F(BugsCppReproduce, ASymlinkedWorkDirectoryDeletesNothing) {
  const fs::path manifest = dir_ / "bugscpp.jsonl";
  ASSERT_EQ(run_dlfl("bugset import bugscpp " + fixture().string() + " -o " + manifest.string()).exit_code, 0);
  const fs::path home = dir_ / "home", out = dir_ / "out";
  dlfl::testing::write_text(home / "thesis.tex", "years of work");
  fs::create_directories(out);
  fs::create_directory_symlink(home, out / "work");
  const RunResult run = run_dlfl("bugset reproduce " + manifest.string() + " --bug ministr#1 --repos " +
                                 clones().string() + " --bugscpp " + fixture().string() + " -o " + out.string() +
                                 " --build-jobs 2");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("1 bugs, 1 kept"));
  EXPECT_THAT(run.err, HasSubstr("is a symbolic link: the work trees it leads to are left in place"));
  EXPECT_TRUE(fs::is_symlink(out / "work"));
  EXPECT_EQ(slurp(home / "thesis.tex"), "years of work");
}

TEST_F(BugsCppReproduce, ImportRefusesAPatchLeavingTheTree) {
  const fs::path patch = fixture() / "bugscpp" / "taxonomy" / "ministr" / "patch" / "0002-buggy.patch";
  dlfl::testing::write_text(patch, "--- a/src/x.c\n+++ /tmp/x.c\n@@ -1 +1 @@\n-a\n+b\n");
  const RunResult r = run_dlfl("bugset import bugscpp " + fixture().string() + " -o " + (dir_ / "m.jsonl").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "dlfl: error: " + patch.string() + ":1: the path \"/tmp/x.c\" is not inside the tree (absolute, or with '..')\n");
  EXPECT_FALSE(fs::exists(dir_ / "m.jsonl"));
}

}  // namespace
}  // namespace dlfl::bench
