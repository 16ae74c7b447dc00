// `dlfl bugset reproduce --mbfl` on the calc fixture (reproduce_fixture/): each kept bug's
// buggy version gets one schemata build by the recipe's own commands, its tests rerun
// per mutant (CTest tests, a GoogleTest binary, or listed tests), and the hybrid, Metallaxis
// and MUSE rankings are evaluated beside the formulas; the record says what it cost, and
// a bug whose kill matrix cannot be measured stays kept with its SBFL results.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "../../cli/cli_runner.h"
#include "../../support/shell_output.h"
#include "dlfl/formats/spectrum_formats.h"
#include "dlfl/lab/bench/results_store.h"
#include "realbugs_fixture.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using dlfl::testing::run_dlfl;
using dlfl::testing::RunResult;

class BugsetReproduceMbfl : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    fixture_ = dlfl::testing::make_realbugs_fixture(dir_.path(), DLFL_REPRODUCE_FIXTURE, DLFL_BUGSCPP_FIXTURE, error);
    ASSERT_TRUE(error.empty()) << error;
  }
  // calc#1 (clamp returns lo above the range) reproduced into `out` with `recipe_text`
  // ("" = the generic recipe), mutation analysis on with a budget of 12: its one record.
  FaultRecord reproduce(const std::string& name, const std::string& recipe_text, const std::string& more = "") const {
    std::string recipe;
    if (!recipe_text.empty()) {
      const fs::path file = dir_ / (name + "-recipe.json");
      dlfl::testing::write_text(file, recipe_text);
      recipe = " --recipe " + file.string();
    }
    const RunResult r = run_dlfl("bugset reproduce " + (fixture_.lists / "dl.jsonl").string() +
                                 " --bug fixture+calc#1 --repos " + fixture_.repos.string() + " -o " + out(name).string() +
                                 " -q --build-jobs 2 --mbfl 12 --mbfl-per-line 3" + recipe + more);
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    const auto records = read_records(out(name) / std::string(kResultsFileName));
    EXPECT_EQ(records.size(), 1u) << name;
    return records.empty() ? FaultRecord{} : records.front();
  }
  fs::path out(const std::string& name) const { return dir_ / ("out-" + name); }

  dlfl::testing::TempDir dir_{"reproduce-mbfl"};
  dlfl::testing::RealbugsFixture fixture_;
};

const FormulaResult* result_named(const FaultRecord& r, const std::string& name) {
  for (const auto& f : r.results)
    if (f.formula == name) return &f;
  return nullptr;
}

// The clamp bug: Ochiai puts its line first alone, so the hybrid (Ochiai's order, its ties
// broken by Metallaxis) must too; the faulty line's own mutants are killed by the failing
// test, so Metallaxis finds it as well.
void expect_measured(const FaultRecord& clamp, const std::string& name) {
  ASSERT_TRUE(clamp.kept) << name << ": " << clamp.reason << ": " << clamp.detail << "\n" << clamp.tail;
  ASSERT_TRUE(clamp.mbfl.has_value()) << name;
  const MutationCost& cost = *clamp.mbfl;
  EXPECT_EQ(cost.failure, "") << name;
  EXPECT_GT(cost.compiled, 0u) << name;
  EXPECT_LE(cost.compiled, cost.generated) << name;
  EXPECT_LE(cost.compiled, 12u) << name;  // the budget; the top tie (one line) holds at most 3
  EXPECT_GT(cost.killed, 0u) << name;
  EXPECT_LE(cost.killed, cost.compiled) << name;
  EXPECT_GT(cost.runs, cost.compiled) << name;  // baselines, then at least one run per mutant
  EXPECT_GT(cost.build_seconds, 0.0) << name;
  EXPECT_GE(cost.seconds, cost.build_seconds + cost.run_seconds) << name;
  EXPECT_GT(cost.plain_build_seconds, 0.0) << name;
  const FormulaResult* ochiai = result_named(clamp, "ochiai");
  const FormulaResult* hybrid = result_named(clamp, "ochiai+hybrid");
  const FormulaResult* metallaxis = result_named(clamp, "ochiai+metallaxis");
  ASSERT_NE(ochiai, nullptr) << name;
  ASSERT_NE(hybrid, nullptr) << name;
  ASSERT_NE(metallaxis, nullptr) << name;
  ASSERT_NE(result_named(clamp, "muse"), nullptr) << name;
  ASSERT_NE(result_named(clamp, "tarantula+hybrid"), nullptr) << name;
  EXPECT_DOUBLE_EQ(ochiai->first_rank, 1.0) << name;
  EXPECT_DOUBLE_EQ(hybrid->first_rank, 1.0) << name;
  EXPECT_TRUE(metallaxis->found) << name;
  // 4 formulas plain, hybrid and Metallaxis per formula, MUSE once.
  EXPECT_EQ(clamp.results.size(), 4u + 8u + 1u) << name;
}

TEST_F(BugsetReproduceMbfl, CtestGoogleTestAndListedTestsEachGiveAKillMatrixAndItsCost) {
  const FaultRecord generic = reproduce("ctest", "");
  expect_measured(generic, "ctest");
  // The kill matrix is kept beside the spectrum; its mutants sit on lines of the spectrum
  // and its tests are the spectrum's.
  const fs::path spectra = out("ctest") / "spectra";
  const Spectrum kills = io::read_spectrum(spectra / "fixture+calc#1.kill-matrix.dlfl");
  const Spectrum lines = io::read_spectrum(spectra / "fixture+calc#1.dlfl");
  ASSERT_EQ(kills.element_count(), generic.mbfl->compiled);
  // Mutants of clamp's conditions: the lines the failing test runs (the faulty `return lo;`
  // has none: no operator changes a variable's return).
  for (std::size_t e = 0; e < kills.element_count(); ++e) {
    EXPECT_EQ(kills.file(e), "src/arith.cpp");
    EXPECT_TRUE(kills.element(e).first_line == 6 || kills.element(e).first_line == 8) << kills.element(e).first_line;
  }
  EXPECT_EQ(kills.test_count(), lines.test_count());
  EXPECT_TRUE(fs::exists(out("ctest") / "logs" / "fixture+calc#1" / "kill-matrix.log"));
  EXPECT_FALSE(generic.mbfl->plain_build_uncached);  // the buggy build with coverage stands in
  // The same bug with its GoogleTest binary named (runtime backend: the schemata build is
  // plain, its tests the binary's) and with listed tests run one process each.
  expect_measured(reproduce("gtest", R"({"backend": "runtime", "test_binary": "tests/calc_tests"})"), "gtest");
  expect_measured(reproduce("listed", R"({"test_list": "tests/calc_tests --gtest_list_tests | awk '/^[^ ]/ {{s = $1} /^  / {{print s $1}'",
                                          "test_command": "tests/calc_tests --gtest_filter={}"})"),
                  "listed");
}

// --mbfl-plain-build: the schemata build is compared with the same commands' build of the
// buggy version without mutants (kill-matrix --plain-build, no ccache), which the record
// says. Without --mbfl the option is an error.
TEST_F(BugsetReproduceMbfl, APlainBuildOfTheSameCommandsIsTimedOnRequest) {
  const FaultRecord clamp = reproduce("plain", "", " --mbfl-plain-build");
  expect_measured(clamp, "plain");
  ASSERT_TRUE(clamp.mbfl);
  EXPECT_TRUE(clamp.mbfl->plain_build_uncached);
  const RunResult alone = run_dlfl("bugset reproduce " + (fixture_.lists / "dl.jsonl").string() +
                                   " --bug fixture+calc#1 --repos " + fixture_.repos.string() + " -o " +
                                   out("alone").string() + " --mbfl-plain-build");
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_THAT(alone.err, HasSubstr("give --mbfl N too"));
}

// Without a compilation database kill-matrix cannot parse the sources: the record says
// so, and the bug stays kept with the formulas' results alone.
TEST_F(BugsetReproduceMbfl, ABugWithoutAKillMatrixKeepsItsSpectrumResults) {
  const FaultRecord clamp = reproduce(
      "nodb", R"({"configure": "cmake -S {source} -B {build} -G Ninja -DCMAKE_CXX_FLAGS='-O0 {cflags}' -DCMAKE_EXE_LINKER_FLAGS='{ldflags}' -DCMAKE_EXPORT_COMPILE_COMMANDS=OFF"})");
  ASSERT_TRUE(clamp.kept) << clamp.reason << ": " << clamp.detail;
  ASSERT_TRUE(clamp.mbfl.has_value());
  EXPECT_THAT(clamp.mbfl->failure, HasSubstr("no compilation database"));
  EXPECT_EQ(clamp.results.size(), 4u);
  EXPECT_DOUBLE_EQ(clamp.results.front().first_rank, 1.0);
  EXPECT_FALSE(fs::exists(out("nodb") / "spectra" / "fixture+calc#1.kill-matrix.dlfl"));
}

// A recipe's "prepare" edits each checkout, the one the mutation analysis parses too: here
// it writes the header every unit is compiled with (-include), which the checkout's clean
// removes. The same edit made by the configure command reaches the builds but not the
// analysis's parse.
TEST_F(BugsetReproduceMbfl, ARecipesPrepareEditsTheCheckoutTheMutationAnalysisParses) {
  const std::string edit = "printf '#define CALC_PREPARED 1\\n' > {source}/src/prepared.h && echo prepared";
  const std::string cmake =
      "cmake -S {source} -B {build} -G Ninja -DCMAKE_CXX_FLAGS='-O0 {cflags} -include {source}/src/prepared.h' "
      "-DCMAKE_EXE_LINKER_FLAGS='{ldflags}' -DCMAKE_EXPORT_COMPILE_COMMANDS=ON";
  const FaultRecord prepared = reproduce("prepare", R"({"prepare": ")" + edit + R"(", "configure": ")" + cmake + R"("})");
  expect_measured(prepared, "prepare");
  for (const char* version : {"buggy", "fixed"})
    EXPECT_THAT(dlfl::testing::slurp(out("prepare") / "logs" / "fixture+calc#1" / (std::string(version) + "-prepare.log")),
                HasSubstr("prepared"))
        << version;
  EXPECT_THAT(dlfl::testing::slurp(out("prepare") / "recipes" / ("fixture+calc-" + prepared.recipe + ".json")),
              HasSubstr("\"prepare\""));

  const FaultRecord configured = reproduce("in-configure", R"({"configure": ")" + edit + " && " + cmake + R"("})");
  ASSERT_TRUE(configured.kept) << configured.reason << ": " << configured.detail;
  ASSERT_TRUE(configured.mbfl.has_value());
  EXPECT_THAT(configured.mbfl->failure, HasSubstr("clang reported errors"));

  // A prepare that fails discards the bug before anything is built, and says which step.
  const FaultRecord failed = reproduce("prepare-fails", R"({"prepare": "echo no such edit >&2; exit 3"})");
  EXPECT_FALSE(failed.kept);
  EXPECT_EQ(failed.reason, "build failed");
  EXPECT_THAT(failed.detail, HasSubstr("preparing the buggy version: exit status 3"));
  EXPECT_THAT(failed.tail, HasSubstr("no such edit"));
}

// The budget is part of the output directory's configuration: results with another
// budget are never mixed into it.
TEST_F(BugsetReproduceMbfl, AnotherBudgetIsAnotherConfiguration) {
  const fs::path out = dir_ / "out";
  const std::string base = "bugset reproduce " + (fixture_.lists / "dl.jsonl").string() + " --bug fixture+calc#5 --repos " +
                           fixture_.repos.string() + " -o " + out.string() + " -q --build-jobs 2";
  const RunResult first = run_dlfl(base + " --mbfl 5");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const RunResult other = run_dlfl(base + " --mbfl 6");
  EXPECT_NE(other.exit_code, 0);
  EXPECT_THAT(other.err, HasSubstr("--mbfl"));
  const RunResult none = run_dlfl(base);
  EXPECT_NE(none.exit_code, 0);
}

// --mbfl-operators chooses the mutants' operators, which the record names (in catalog
// order); --mbfl-pytest-batch reaches kill-matrix with a recipe's listed tests and the
// record says it: a test command whose {} cannot take several names gives no kill matrix,
// saying why; one that can but is not pytest writes no JUnit report, so each test runs
// alone, as the log warns. Both options need --mbfl and are part of OUT's configuration.
TEST_F(BugsetReproduceMbfl, OperatorsAndPytestBatchesReachKillMatrixAndTheRecord) {
  const std::string list = R"("test_list": "tests/calc_tests --gtest_list_tests | awk '/^[^ ]/ {{s = $1} /^  / {{print s $1}'")";
  const std::string options = " --mbfl-operators relational_replace,negate_condition --mbfl-pytest-batch 4";
  const FaultRecord glued = reproduce("glued", "{" + list + R"(, "test_command": "tests/calc_tests --gtest_filter={}"})",
                                      options);
  ASSERT_TRUE(glued.mbfl);
  EXPECT_THAT(glued.mbfl->failure, HasSubstr("a word of its own"));
  const FaultRecord clamp = reproduce(
      "chosen", "{" + list + R"(, "test_command": "sh -c 'exec tests/calc_tests --gtest_filter=\"$0\"' {}"})", options);
  expect_measured(clamp, "chosen");
  ASSERT_TRUE(clamp.mbfl);
  EXPECT_EQ(clamp.mbfl->operators, (std::vector<std::string>{"negate_condition", "relational_replace"}));
  EXPECT_EQ(clamp.mbfl->pytest_batch, 4u);
  const Spectrum kills = io::read_spectrum(out("chosen") / "spectra" / "fixture+calc#1.kill-matrix.dlfl");
  for (std::size_t e = 0; e < kills.element_count(); ++e)
    EXPECT_THAT(kills.element_name(e), ::testing::ContainsRegex(" (negate_condition|relational_replace) #"));
  EXPECT_THAT(dlfl::testing::slurp(out("chosen") / "logs" / "fixture+calc#1" / "kill-matrix.log"),
              HasSubstr("is the test command pytest?"));
  const std::string base = "bugset reproduce " + (fixture_.lists / "dl.jsonl").string() + " --bug fixture+calc#1 --repos " +
                           fixture_.repos.string() + " -o " + out("chosen").string();
  const RunResult all = run_dlfl(base + " --mbfl 12 --mbfl-per-line 3");
  EXPECT_NE(all.exit_code, 0);  // another configuration of OUT
  const RunResult alone = run_dlfl(base + " --mbfl-operators negate_condition");
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_THAT(alone.err, HasSubstr("give --mbfl N too"));
}

// The rows of an eval.csv of this bug and technique, in file order.
std::string rows_of(const fs::path& csv, const std::string& prefix) {
  std::istringstream in(dlfl::testing::slurp(csv));
  std::string line, rows;
  while (std::getline(in, line))
    if (line.starts_with(prefix)) rows += line + "\n";
  return rows;
}

// scripts/realbugs.sh --mbfl: the kept bug's kill matrix gives the techniques ochiai-hybrid,
// ochiai-metallaxis and muse and the page's cost table; --record keeps it compressed in
// the lists, from which a --no-reproduce run ranks it alike.
TEST_F(BugsetReproduceMbfl, TheStudyScriptRanksKeepsAndReusesTheKillMatrix) {
  const std::string script = "DLFL=" + std::string(DLFL_BINARY) + " bash " + std::string(DLFL_REALBUGS_SCRIPT) +
                             " --lists " + fixture_.lists.string() + " --side dl ";
  const fs::path run = dir_ / "study";
  const auto reproduced = dlfl::testing::capture_shell(script + "--repos " + fixture_.repos.string() +
                                                       " --bug fixture+calc#1 --mbfl 8 --record -o " + run.string() + " 2>&1");
  ASSERT_EQ(reproduced.status, 0) << reproduced.out;
  const std::string page = dlfl::testing::slurp(run / "results.md");
  EXPECT_THAT(page, HasSubstr("Mutation analysis per bug"));
  EXPECT_THAT(page, HasSubstr("| fixture+calc#1 | "));
  EXPECT_THAT(page, HasSubstr("| ochiai-hybrid | line | 1 | 1.00 |"));
  const std::string hybrid = rows_of(run / "dl" / "eval.csv", "fixture+calc#1,ochiai-hybrid,");
  const std::string muse = rows_of(run / "dl" / "eval.csv", "fixture+calc#1,muse,");
  EXPECT_FALSE(hybrid.empty());
  EXPECT_FALSE(muse.empty());
  EXPECT_TRUE(fs::exists(fixture_.lists / "spectra" / "dl" / "fixture+calc#1.kill-matrix.dlfl.xz"));
  EXPECT_THAT(dlfl::testing::slurp(fixture_.lists / "dl.jsonl"), HasSubstr("\"mbfl\": {"));
  // From the lists alone: the same rows, and the cost table from the entry.
  const fs::path again = dir_ / "again";
  const auto listed = dlfl::testing::capture_shell(script + "--no-reproduce -o " + again.string() + " 2>&1");
  ASSERT_EQ(listed.status, 0) << listed.out;
  EXPECT_EQ(rows_of(again / "dl" / "eval.csv", "fixture+calc#1,ochiai-hybrid,"), hybrid);
  EXPECT_EQ(rows_of(again / "dl" / "eval.csv", "fixture+calc#1,muse,"), muse);
}

}  // namespace
}  // namespace dlfl::bench
