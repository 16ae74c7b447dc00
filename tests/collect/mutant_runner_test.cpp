// run_mutants() on shell-script tests that react to DLFL_MUTANT: kills by verdict, by
// failure message, by crash and by time-out; flaky tests left out; only the tests that
// can see a mutant run; a rerun reads the journal back instead of running again.
#include "dlfl/collect/mutant_runner.h"

#include <gtest/gtest.h>

#include "collect_test_support.h"
#include "dlfl/error.h"

namespace dlfl::collect {
namespace {

using dlfl::testing::kill_lines;
using dlfl::testing::slurp;
using dlfl::testing::TempDir;

// Lines a.cpp:1 and a.cpp:2; f1 fails and runs both, p1 runs line 1, p2 and flaky line 2,
// p3 neither.
Spectrum original() {
  SpectrumBuilder b;
  b.add_element("a.cpp", 1);
  b.add_element("a.cpp", 2);
  b.add_test(TestCase::fail("f1"), {0, 1});
  b.add_test(TestCase::pass("p1"), {0});
  b.add_test(TestCase::pass("p2"), {1});
  b.add_test(TestCase::pass("p3"), {});
  b.add_test(TestCase::pass("flaky"), {1});
  return std::move(b).finish();
}

TestCommand script(const std::string& name, const std::string& body) {
  TestCommand t;
  t.name = name;
  t.argv = {"/bin/sh", "-c", body};
  t.through_shell = true;
  return t;
}

struct Fixture {
  TempDir dir{"mutant-runner"};
  Spectrum spectrum = original();
  MutantRunRequest request() const {
    MutantRunRequest r;
    r.spectrum = &spectrum;
    r.mutants = {{1, "a.cpp", 1, "negate_condition", "f"},
                 {2, "a.cpp", 2, "constant_replace", "f"},
                 {3, "a.cpp", 2, "delete_statement", "f"}};
    const std::string log = (dir / "ran").string();
    const std::string counter = (dir / "first-run").string();
    auto logged = [&](const std::string& name, const std::string& body) {
      return script(name, "echo \"" + name + " ${DLFL_MUTANT:-none}\" >> " + log + "; " + body);
    };
    r.tests = {
        // Mutant 1 makes it pass, mutant 3 fail with another message.
        logged("f1", "case \"$DLFL_MUTANT\" in 1) exit 0;; 3) echo other; exit 1;; *) echo same; exit 1;; esac"),
        logged("p1", "if [ \"$DLFL_MUTANT\" = 1 ]; then kill -SEGV $$; fi; exit 0"),
        logged("p2", "if [ \"$DLFL_MUTANT\" = 2 ]; then sleep 30; fi; exit 0"),
        logged("p3", "exit 0"),
        // Passes the first time only (mkdir is atomic, so also when both runs overlap).
        logged("flaky", "mkdir " + counter + " 2>/dev/null"),
    };
    r.journal = dir / "journal.jsonl";
    r.schemata_digest = 42;
    r.scratch = dir / "scratch";
    r.jobs = 2;
    r.min_timeout = std::chrono::milliseconds(700);
    r.kill_grace = std::chrono::milliseconds(200);
    return r;
  }
};

TEST(MutantRunner, KillsByVerdictMessageCrashAndTimeOut) {
  Fixture f;
  MutantRunRequest r = f.request();
  std::vector<std::string> warnings;
  r.warn = [&](std::string_view w) { warnings.emplace_back(w); };
  const MutantRunResult result = run_mutants(r);
  ASSERT_FALSE(result.interrupted);
  EXPECT_EQ(kill_lines(result.kill_matrix), (std::vector<std::string>{"a.cpp:1 negate_condition #1: f1 p1",
                                                                 "a.cpp:2 constant_replace #2: p2",
                                                                 "a.cpp:2 delete_statement #3: f1"}));
  EXPECT_EQ(result.killed, 3u);
  // Flaky on the original: left out of the runs and of the kill matrix, with a warning.
  EXPECT_EQ(result.left_out, std::vector<std::string>{"flaky"});
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("flaky"), std::string::npos);
  ASSERT_EQ(result.kill_matrix.test_count(), 4u);
  EXPECT_TRUE(result.kill_matrix.tests()[0].failed());
  // p3 runs no mutated line: never run. Baselines: f1 p1 p2 flaky twice; mutants: 1 runs
  // f1 p1; 2 and 3 run f1 p2.
  const std::string ran = slurp(f.dir / "ran");
  EXPECT_EQ(ran.find("p3"), std::string::npos);
  EXPECT_EQ(result.runs, 8u + 6u);
  EXPECT_EQ(result.reused, 0u);
  EXPECT_NE(ran.find("f1 3"), std::string::npos);
  EXPECT_EQ(ran.find("p1 2"), std::string::npos);  // mutant 2 is not on p1's line
}

TEST(MutantRunner, ARerunReadsTheJournalBack) {
  Fixture f;
  const MutantRunResult first = run_mutants(f.request());
  const std::string ran = slurp(f.dir / "ran");
  const MutantRunResult second = run_mutants(f.request());
  EXPECT_EQ(second.runs, 0u);
  EXPECT_EQ(second.reused, first.runs);
  EXPECT_EQ(slurp(f.dir / "ran"), ran);  // nothing ran again
  EXPECT_EQ(kill_lines(second.kill_matrix), kill_lines(first.kill_matrix));
}

TEST(MutantRunner, AJournalCutShortResumesAndAnotherSchemataIsRefused) {
  Fixture f;
  const MutantRunResult first = run_mutants(f.request());
  // A kill in the middle of writing: the last record loses its end.
  std::string journal = slurp(f.dir / "journal.jsonl");
  journal.resize(journal.size() - 5);
  dlfl::testing::write_text(f.dir / "journal.jsonl", journal);
  const MutantRunResult resumed = run_mutants(f.request());
  EXPECT_EQ(resumed.runs, 1u);
  EXPECT_EQ(kill_lines(resumed.kill_matrix), kill_lines(first.kill_matrix));

  MutantRunRequest other = f.request();
  other.schemata_digest = 7;
  try {
    run_mutants(other);
    ADD_FAILURE() << "a journal of another schemata was accepted";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("journal.jsonl:1: holds the results of another mutant schemata"), std::string::npos)
        << e.message();
  }
}

TEST(MutantRunner, ANeededTestWithoutCommandIsAnError) {
  Fixture f;
  MutantRunRequest r = f.request();
  r.tests.erase(r.tests.begin());  // f1
  EXPECT_THROW(run_mutants(r), Error);
  EXPECT_FALSE(std::filesystem::exists(f.dir / "ran"));
}

}  // namespace
}  // namespace dlfl::collect
