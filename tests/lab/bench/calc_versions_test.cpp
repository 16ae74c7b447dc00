// `dlfl versions` end to end on examples/calc's faulty versions (versions/*.patch, the
// seeded faults as SIR-style patches): four versions, two of which crash in every
// failing test, built with --coverage, the 305 tests collected with per-test gcov and
// judged by the differential oracle against the original's build; the ground truth from
// each patch's diff; a run stopped by --limit and resumed; results.csv read by
// `dlfl compare`; bad input refused in one line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "../../cli/cli_runner.h"
#include "../../support/have_program.h"
#include "dlfl/lab/bench/results_store.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using dlfl::testing::have_program;
using dlfl::testing::run_dlfl;
using dlfl::testing::RunResult;
using dlfl::testing::slurp;

const fs::path kCalc = fs::path(DLFL_SOURCE_DIR) / "examples/calc";

std::string versions_command(const std::vector<std::string>& versions, const fs::path& out) {
  std::string command = "versions --original " + kCalc.string();
  for (const auto& v : versions) command += " " + (kCalc / "versions" / (v + ".patch")).string();
  return command + " --tests " + (kCalc / "tests/tests.txt").string() +
         " --cmd '{build}/calc {source}/tests/cases/{}.calc' -f ochiai,dstar2 --test-jobs 2 -q -o '" + out.string() + "'";
}

std::map<std::string, FaultRecord> stored(const fs::path& out) {
  std::map<std::string, FaultRecord> records;
  std::istringstream in(slurp(out / std::string(kResultsFileName)));
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) {
    FaultRecord r = parse_record(line, "results.jsonl", ++n);
    records.emplace(r.fault, std::move(r));
  }
  return records;
}

TEST(CalcVersions, BatchReproducesTheFaultyVersionsWithTheDifferentialOracle) {
  if (!have_program("gcc") || !have_program("gcov") || !have_program("cmake") || !have_program("ninja") ||
      !have_program("git") || !have_program("diff"))
    GTEST_SKIP() << "needs gcc, gcov, cmake, ninja, git and diff";
  dlfl::testing::TempDir dir{"calc-versions"};
  // A blank in -o: {build} and {source} in the recipe and --cmd are quoted for the shell.
  const fs::path out = dir / "out dir";
  const std::vector<std::string> versions{"min_last_arg", "negative_zero", "undefined_variable", "unary_recursion"};

  // Two versions now, the other two resumed by the next run.
  const RunResult first = run_dlfl(versions_command(versions, out) + " --limit 2");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(stored(out).size(), 2u);
  const RunResult second = run_dlfl(versions_command(versions, out));
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_THAT(second.err, HasSubstr("2 versions were finished by an earlier run"));

  const auto records = stored(out);
  ASSERT_EQ(records.size(), 4u);
  // failing tests (faults/check_faults.sh's counts with the expected outputs) and the
  // truth from the diff: a changed executable line, or the executable lines around a
  // deleted statement (its neighbours in the version's numbering).
  const std::map<std::string, std::pair<std::size_t, std::vector<std::string>>> expected{
      {"min_last_arg", {11, {"src/builtins.c:31:f_min"}}},
      {"negative_zero", {8, {"src/format.c:7:format_number", "src/format.c:10:format_number"}}},
      {"undefined_variable", {8, {"src/eval.c:63:eval_node", "src/eval.c:66:eval_node"}}},
      {"unary_recursion", {29, {"src/parser.c:123:unary", "src/parser.c:126:unary"}}},
  };
  for (const auto& [name, want] : expected) {
    SCOPED_TRACE(name);
    const FaultRecord& r = records.at(name);
    ASSERT_TRUE(r.kept) << r.reason << ": " << r.detail;
    EXPECT_EQ(r.tests, 305u);
    EXPECT_EQ(r.failing, want.first);
    EXPECT_EQ(r.faulty, want.second);
    ASSERT_EQ(r.results.size(), 2u);
    EXPECT_EQ(r.results[0].formula, "ochiai");
    EXPECT_TRUE(r.results[0].found);
  }
  // The crashing versions: the crashed tests keep their coverage (crash handler), so the
  // faulty lines lead instead of tying with every line (rank ~180 of ~370 without it).
  EXPECT_LE(records.at("unary_recursion").results[0].first_rank, 3.0);
  EXPECT_LE(records.at("undefined_variable").results[0].first_rank, 10.0);

  const RunResult compare = run_dlfl("compare -i '" + (out / "results.csv").string() + "'");
  ASSERT_EQ(compare.exit_code, 0) << compare.err;
  EXPECT_THAT(compare.out, HasSubstr("dstar2"));
  EXPECT_THAT(compare.out, HasSubstr("ochiai"));
}

TEST(CalcVersions, BadInputIsOneLineAndExitTwo) {
  dlfl::testing::TempDir dir{"calc-versions-bad"};
  const RunResult missing = run_dlfl(versions_command({"no_such_version"}, dir / "out"));
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("no_such_version.patch: no such faulty version"));
  EXPECT_EQ(std::count(missing.err.begin(), missing.err.end(), '\n'), 1) << missing.err;
  EXPECT_FALSE(fs::exists(dir / "out"));

  const RunResult twice = run_dlfl(versions_command({"min_last_arg", "min_last_arg"}, dir / "out"));
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_THAT(twice.err, HasSubstr("two versions named \"min_last_arg\""));

  std::string no_name = versions_command({"min_last_arg"}, dir / "out");
  no_name.replace(no_name.find("{}.calc"), 7, "x.calc");
  const RunResult bad_cmd = run_dlfl(no_name);
  EXPECT_EQ(bad_cmd.exit_code, 2);
  EXPECT_THAT(bad_cmd.err, HasSubstr("has no {} for the test name"));
  EXPECT_FALSE(fs::exists(dir / "out"));
}

}  // namespace
}  // namespace dlfl::bench
