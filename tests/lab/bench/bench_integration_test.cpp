// The tiny CI configuration of the whole `dlfl bench` pipeline: four mutants of the
// fixture subject (fixture/, 15 tests) through configure, mutate, instrument, incremental
// builds on two workers, runtime collection, ranking and evaluation; then resuming, the
// compare reader, and the errors. Needs a dlfl built with Clang 14 (mutants, instrumenter).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include "../../support/test_files.h"
#include "dlfl/lab/bench/results_store.h"
#include "dlfl/lab/eval/compare_table.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using dlfl::testing::slurp;

struct CliRun {
  int status = -1;
  std::string out, err;
};

CliRun run(const std::string& args, const fs::path& dir) {
  const fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
  const int status = std::system((std::string(DLFL_BINARY) + " " + args + " >" + out.string() + " 2>" + err.string()).c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, slurp(out), slurp(err)};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The fixture subject with each `from` replaced by its `to` (each must be there) and its
// root made absolute, written to DIR/NAME-subject.json.
fs::path subject_variant(const fs::path& dir, const std::string& name,
                         std::vector<std::pair<std::string, std::string>> edits) {
  std::string text = slurp(fs::path(DLFL_BENCH_FIXTURE) / "dlfl-subject.json");
  edits.emplace_back("\"kind\"", "\"root\": \"" + std::string(DLFL_BENCH_FIXTURE) + "\", \"kind\"");
  for (const auto& [from, to] : edits) {
    const auto at = text.find(from);
    if (at == std::string::npos) {
      ADD_FAILURE() << "the fixture subject has no " << from;
      continue;
    }
    text.replace(at, from.size(), to);
  }
  const fs::path file = dir / (name + "-subject.json");
  dlfl::testing::write_text(file, text);
  return file;
}

// Two mutants of a subject variant (seed 3) into OUT.
CliRun bench_two_mutants(const fs::path& subject_file, const fs::path& out, const fs::path& dir) {
  return run("bench --subject " + subject_file.string() + " --max 2 --seed 3 -q -o " + out.string(), dir);
}

class BenchPipeline : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef DLFL_BENCH_HAVE_CLANG
    GTEST_SKIP() << "dlfl was built without the Clang 14 development packages (no mutants, no instrumenter)";
#endif
  }
  const fs::path subject = fs::path(DLFL_BENCH_FIXTURE) / "dlfl-subject.json";
};

TEST_F(BenchPipeline, RunsResumesAndFeedsCompare) {
  dlfl::testing::TempDir dir("bench-e2e");
  const fs::path out = dir / "out";
  const std::string common = "bench --subject " + subject.string() +
                             " --max 4 --seed 1 -j 2 -q -t block,prfl,neighbors,flitsr -o " + out.string();

  // A first run stopped after two faults, as a killed run would be.
  const CliRun first = run(common + " --limit 2", dir.path());
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_THAT(first.err, HasSubstr("2 faults pending"));
  const auto stored = lines_of(slurp(out / std::string(kResultsFileName)));
  ASSERT_EQ(stored.size(), 2u);

  // The second run does the other two and recomputes nothing.
  const CliRun second = run(common, dir.path());
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_THAT(second.err, HasSubstr("2 faults were finished by an earlier run"));
  const auto all = lines_of(slurp(out / std::string(kResultsFileName)));
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0], stored[0]);
  EXPECT_EQ(all[1], stored[1]);
  EXPECT_THAT(second.out, HasSubstr("dlfl bench: 4 faults seeded"));

  ResultsStore store(out / std::string(kResultsFileName));
  std::size_t kept = 0;
  for (const auto& r : store.records()) {
    EXPECT_EQ(r.subject, "minicalc");
    if (!r.kept) {
      EXPECT_FALSE(r.reason.empty());
      EXPECT_TRUE(r.results.empty());
      continue;
    }
    ++kept;
    EXPECT_EQ(r.tests, 15u);
    EXPECT_GT(r.failing, 0u);
    EXPECT_LT(r.failing, r.tests);
    // The default formulas, then each with block, prfl, neighbors, flitsr.
    ASSERT_EQ(r.results.size(), 20u);
    EXPECT_EQ(r.results[4].formula, "ochiai+block");
    EXPECT_EQ(r.results[8].formula, "ochiai+prfl");
    EXPECT_EQ(r.results[19].formula, "barinel+flitsr");
    for (const auto& f : r.results) {
      // The mutated statement is instrumented, so every formula ranks it somewhere.
      EXPECT_TRUE(f.found) << r.fault << " " << f.formula;
      EXPECT_GE(f.first_rank, 1.0);
      EXPECT_LE(f.first_rank, static_cast<double>(r.elements));
    }
  }
  ASSERT_GT(kept, 0u) << "no mutant of the fixture was kept; see " << (out / "discarded.csv").string();

  // The per-bug CSV is compare's input as is.
  eval::ResultTableOptions options;
  options.group = "bench";
  const auto table = eval::read_result_table(out / "results.csv", options);
  EXPECT_EQ(table.results.size(), kept * 20);
  const CliRun compare =
      run("compare -i " + (out / "results.csv").string() + " --labels " + (out / "results.csv").string() +
              " --label-key bug --by group --top 1,3,5,10 -m exam,map",
          dir.path());
  EXPECT_EQ(compare.status, 0) << compare.err;
  EXPECT_THAT(compare.out, HasSubstr("ochiai"));
  EXPECT_TRUE(fs::exists(out / "summary.md"));
  EXPECT_TRUE(fs::exists(out / "discarded.csv"));

  // Resuming with another configuration would mix two benchmarks: refused.
  const CliRun other = run("bench --subject " + subject.string() + " --max 4 --seed 2 -q -o " + out.string(), dir.path());
  EXPECT_EQ(other.status, 2);
  EXPECT_THAT(other.err, HasSubstr("another benchmark configuration"));
}

// Multi-fault mode: pairs of the fixture's mutants that each fail a test alone (read from
// the single-fault run), seeded together, evaluated against both members' lines; resumable,
// read by compare; without or with the wrong single-fault run it is a one-line error.
TEST_F(BenchPipeline, MultiFaultCombinesMutantsThatFailAlone) {
  dlfl::testing::TempDir dir("bench-multi");
  const std::string work = " --work " + (dir / "work").string();
  const std::string subject_args = "bench --subject " + subject.string() + " --max 6 --seed 1 -j 2 -q" + work;
  const fs::path singles = dir / "singles", out = dir / "multi";
  const CliRun single = run(subject_args + " -o " + singles.string(), dir.path());
  ASSERT_EQ(single.status, 0) << single.err;
  std::map<std::string, bool> kept_alone;
  for (const auto& r : read_records(singles / std::string(kResultsFileName))) kept_alone[r.fault] = r.kept;

  const CliRun no_singles = run(subject_args + " --multi-fault 2 -o " + out.string(), dir.path());
  EXPECT_EQ(no_singles.status, 2);
  EXPECT_EQ(no_singles.err,
            "dlfl: error: bench: multi-fault mode needs --singles DIR, the output directory of the single-fault run\n");

  const CliRun stray = run(subject_args + " --combinations 3 -o " + out.string(), dir.path());
  EXPECT_EQ(stray.status, 2);
  EXPECT_EQ(stray.err, "dlfl: error: bench: --combinations is for multi-fault mode (--multi-fault MIN-MAX)\n");

  const std::string multi =
      subject_args + " -t flitsr,block-flitsr --multi-fault 2 --combinations 3 --singles " + singles.string() + " -o " +
      out.string();
  const CliRun first = run(multi + " --limit 1", dir.path());
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_THAT(first.err, HasSubstr("2 faults pending"));
  const CliRun second = run(multi, dir.path());
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_THAT(second.err, HasSubstr("1 faults were finished by an earlier run"));

  const auto records = read_records(out / std::string(kResultsFileName));
  ASSERT_EQ(records.size(), 3u);
  std::size_t kept = 0;
  for (const auto& r : records) {
    const auto plus = r.fault.find('+');
    ASSERT_NE(plus, std::string::npos) << r.fault;
    const std::string a = r.fault.substr(0, plus), b = r.fault.substr(plus + 1);
    EXPECT_TRUE(kept_alone.at(a) && kept_alone.at(b)) << r.fault;
    EXPECT_EQ(r.group, "traditional");  // the fixture's kept mutants are all traditional
    if (!r.kept) continue;
    ++kept;
    // Ground truth: both members' lines as file:LINE items (the members sit on two lines).
    EXPECT_TRUE(r.faulty_lines.empty());
    ASSERT_GE(r.faulty.size(), 2u) << r.fault;
    for (const auto& item : r.faulty) EXPECT_THAT(item, ::testing::MatchesRegex("src/[a-z]+\\.cpp:[0-9]+"));
    ASSERT_EQ(r.results.size(), 12u);  // 4 formulas, then each + flitsr, then each + block-flitsr
    EXPECT_EQ(r.results[4].formula, "ochiai+flitsr");
    EXPECT_EQ(r.results[8].formula, "ochiai+block-flitsr");
    for (const auto& f : r.results) {
      EXPECT_TRUE(f.found) << r.fault << " " << f.formula;
      EXPECT_GT(f.ap, 0.0);
      EXPECT_LE(f.ap, 1.0);
    }
  }
  ASSERT_GT(kept, 0u) << "no combination was kept; see " << (out / "discarded.csv").string();
  eval::ResultTableOptions options;
  options.group = "bench";
  EXPECT_EQ(eval::read_result_table(out / "results.csv", options).results.size(), kept * 12);

  // A single-fault run of another sample cannot vouch for these mutants.
  const CliRun other = run("bench --subject " + subject.string() + " --max 6 --seed 2 -q" + work +
                               " --multi-fault 2 --singles " + singles.string() + " -o " + (dir / "other").string(),
                           dir.path());
  EXPECT_EQ(other.status, 2);
  EXPECT_THAT(other.err, HasSubstr("the single-fault results are of other subjects, max or seed"));
}

// The per-test gcov backend, for users without the instrumenter: same pipeline, the
// fixture built with --coverage and each test run alone.
// A work directory shared by two benchmarks: the second one's --max gets its own sample,
// not the first one's cached mutants.
TEST_F(BenchPipeline, SharedWorkDirectorySamplesAgainForAnotherMax) {
  dlfl::testing::TempDir dir("bench-shared-work");
  const std::string common = "bench --subject " + subject.string() + " --seed 1 -j 1 -q --limit 1 --work " +
                             (dir / "work").string();
  const CliRun first = run(common + " --max 2 -o " + (dir / "out1").string(), dir.path());
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_THAT(first.err, HasSubstr("1 faults pending"));
  const CliRun second = run(common + " --max 3 -o " + (dir / "out2").string(), dir.path());
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_THAT(second.err, HasSubstr("2 faults pending"));
}

TEST_F(BenchPipeline, GcovBackend) {
  dlfl::testing::TempDir dir("bench-gcov");
  const fs::path file = subject_variant(dir.path(), "gcov", {{"\"runtime\"", "\"gcov\""}});
  const fs::path out = dir / "out";
  const CliRun r = bench_two_mutants(file, out, dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  ResultsStore store(out / std::string(kResultsFileName));
  ASSERT_EQ(store.records().size(), 2u);
  std::size_t kept = 0;
  for (const auto& record : store.records()) {
    if (!record.kept) continue;
    ++kept;
    EXPECT_EQ(record.tests, 15u);
    for (const auto& f : record.results) EXPECT_TRUE(f.found) << record.fault << " " << f.formula;
  }
  EXPECT_GT(kept, 0u);
}

// --mbfl: each kept fault's kill matrix from the original sources with the fault in (not
// the instrumented copy), the mutation techniques beside the formulas and the same from
// the mutants off the seeded line, whose own mutants the record counts; the budget is
// part of the configuration.
TEST_F(BenchPipeline, MbflAddsMutationTechniquesAndTheirBiasBound) {
  dlfl::testing::TempDir dir("bench-mbfl");
  const fs::path out = dir / "out";
  const std::string common = "bench --subject " + subject.string() + " --max 2 --seed 3 -q -o " + out.string();
  const CliRun r = run(common + " --mbfl 10 --mbfl-per-line 3", dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  ResultsStore store(out / std::string(kResultsFileName));
  std::size_t kept = 0;
  for (const auto& record : store.records()) {
    if (!record.kept) continue;
    ++kept;
    ASSERT_TRUE(record.mbfl.has_value()) << record.fault;
    const MutationCost& cost = *record.mbfl;
    EXPECT_EQ(cost.failure, "") << record.fault;
    EXPECT_GT(cost.compiled, 0u) << record.fault;
    EXPECT_LE(cost.on_faulty_lines, cost.compiled) << record.fault;
    // A mutant on the faulty line means the line was examined.
    ASSERT_TRUE(cost.faulty_lines_examined.has_value()) << record.fault;
    if (cost.on_faulty_lines > 0) {
      EXPECT_GE(*cost.faulty_lines_examined, 1u) << record.fault;
    }
    EXPECT_GT(cost.runs, cost.compiled) << record.fault;
    std::map<std::string, FormulaResult> by_name;
    for (const auto& f : record.results) by_name[f.formula] = f;
    ASSERT_TRUE(by_name.contains("ochiai+hybrid")) << record.fault;
    ASSERT_TRUE(by_name.contains("ochiai+hybrid-other-lines")) << record.fault;
    ASSERT_TRUE(by_name.contains("muse-other-lines")) << record.fault;
    const FormulaResult& ochiai = by_name["ochiai"];
    // The hybrid only reorders Ochiai's ties: the faulty line stays inside its tie.
    for (const char* name : {"ochiai+hybrid", "ochiai+hybrid-other-lines"}) {
      EXPECT_GE(by_name[name].first_rank, ochiai.first_rank_best) << record.fault << " " << name;
      EXPECT_LE(by_name[name].first_rank, ochiai.first_rank_worst) << record.fault << " " << name;
    }
    // With no mutant left on any line, the hybrid is Ochiai's order, ties kept.
    if (cost.on_faulty_lines == cost.compiled) {
      EXPECT_DOUBLE_EQ(by_name["ochiai+hybrid-other-lines"].first_rank, ochiai.first_rank) << record.fault;
    }
  }
  EXPECT_GT(kept, 0u);
  // The subject's own sources were never touched, and another budget is another run.
  EXPECT_EQ(std::system(("git -C " + fs::path(DLFL_BENCH_FIXTURE).string() + " diff --quiet -- .").c_str()), 0);
  const CliRun other = run(common + " --mbfl 20", dir.path());
  EXPECT_NE(other.status, 0);
}

// A test_list's tests under the runtime: one instrumented process each, linked with the
// runtime alone; the GoogleTest listener is C++ and would break a C driver's link (gcc,
// no libstdc++).
TEST_F(BenchPipeline, RuntimeBackendRunsListedTestsOneProcessEach) {
  dlfl::testing::TempDir dir("bench-runtime-listed");
  const fs::path file = subject_variant(
      dir.path(), "listed",
      {{R"("test_binary": "minicalc_tests",)",
        R"("test_list": "./minicalc_check --list", "test_command": "./minicalc_check {}",)"},
       {R"("cmake --build {build} -j {jobs}")", R"("cmake --build {build} -j {jobs} --target minicalc_check")"}});
  const fs::path out = dir / "out";
  const CliRun r = bench_two_mutants(file, out, dir.path());
  ASSERT_EQ(r.status, 0) << r.err;
  const auto records = read_records(out / std::string(kResultsFileName));
  ASSERT_EQ(records.size(), 2u);
  std::size_t kept = 0;
  for (const auto& record : records) {
    if (!record.kept) continue;
    ++kept;
    EXPECT_EQ(record.tests, 7u);  // minicalc_check's cases
    EXPECT_GT(record.failing, 0u);
    EXPECT_GT(record.elements, 0u);
    for (const auto& f : record.results) EXPECT_TRUE(f.found) << record.fault << " " << f.formula;
  }
  EXPECT_GT(kept, 0u);
  const std::string cache = slurp(out / "work" / "minicalc" / "worker0" / "build" / "CMakeCache.txt");
  EXPECT_THAT(cache, HasSubstr("-ldlfl_rt"));
  EXPECT_THAT(cache, Not(HasSubstr("dlfl_rt_gtest")));
}

TEST(BenchCommand, BadSubjectFileIsOneErrorLine) {
  dlfl::testing::TempDir dir("bench-bad");
  dlfl::testing::write_text(dir / "s.json", R"({"name": "x", "configure": "true", "build": "true"})");
  const CliRun r = run("bench --subject " + (dir / "s.json").string() + " -o " + (dir / "out").string(), dir.path());
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "dlfl: error: " + (dir / "s.json").string() + ": missing field \"test_binary\" (or give test_list and test_command)\n");
  EXPECT_FALSE(fs::exists(dir / "out" / "results.csv"));
}

}  // namespace
}  // namespace dlfl::bench

namespace dlfl::bench {
namespace {

// A subject whose unmutated build fails: one error line naming the subject file and the
// log that holds the build's output.
TEST(BenchCommand, FailingBuildIsOneErrorLine) {
  dlfl::testing::TempDir dir("bench-badbuild");
  dlfl::testing::write_text(dir / "src" / "a.cpp", "int f() { return 1; }\n");
  dlfl::testing::write_text(dir / "s.json", R"({"name": "broken", "root": "src", "backend": "gcov",
      "configure": "true", "build": "echo 'a.cpp:1: error: no' && false", "test_binary": "t"})");
  const fs::path out = dir / "out";
  // The gcov backend needs no instrumenter; mutants come from an existing manifest.
  dlfl::testing::write_text(out / "work" / "broken" / "mutants" / "mutants.jsonl", "");
  const CliRun r = run("bench -q --subject " + (dir / "s.json").string() + " -o " + out.string(), dir.path());
  EXPECT_EQ(r.status, 2);
  const std::string log = (out / "work/broken/worker0/build/dlfl-bench-failed.log").string();
  EXPECT_EQ(r.err, "dlfl: error: " + (dir / "s.json").string() + ": building the unmutated " +
                       (out / "work/broken/worker0/src").string() + " failed (exit status 1); its output is in " +
                       log + "\n");
  EXPECT_THAT(slurp(log), HasSubstr("a.cpp:1: error: no"));
}

}  // namespace
}  // namespace dlfl::bench

namespace dlfl::bench {
namespace {

// Two subjects of one name would share a work directory and each other's fault records.
TEST(BenchCommand, TwoSubjectsOfOneNameAreRefused) {
  dlfl::testing::TempDir dir("bench-names");
  const std::string subject =
      R"({"name": "same", "root": ".", "backend": "gcov", "configure": "true", "build": "true", "test_binary": "t"})";
  dlfl::testing::write_text(dir / "a" / "s.json", subject);
  dlfl::testing::write_text(dir / "b" / "s.json", subject);
  const CliRun r = run("bench -q --subject " + (dir / "a" / "s.json").string() + " --subject " +
                           (dir / "b" / "s.json").string() + " -o " + (dir / "out").string(),
                       dir.path());
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "dlfl: error: " + (dir / "b" / "s.json").string() + ": subject name \"same\" is also the name of " +
                       (dir / "a" / "s.json").string() + ": each subject of a benchmark needs its own name\n");
  EXPECT_FALSE(fs::exists(dir / "out" / "work" / "same"));
}

// Work trees copy the subject: an output directory inside the subject would be copied
// into itself.
TEST(BenchCommand, WorkDirectoryInsideTheSubjectIsRefused) {
  dlfl::testing::TempDir dir("bench-inside");
  dlfl::testing::write_text(dir / "s.json",
                            R"({"name": "inside", "root": ".", "backend": "gcov", "configure": "true", "build": "true",
                                "test_binary": "t"})");
  const CliRun r = run("bench -q --subject " + (dir / "s.json").string() + " -o " + (dir / "out").string(), dir.path());
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("is inside the subject's source tree"));
  EXPECT_FALSE(fs::exists(dir / "out" / "work" / "inside"));
}

}  // namespace
}  // namespace dlfl::bench
