// pytest batches: the command line, the JUnit report, and run_mutants() with batches of
// real pytest cases (Debian's /usr/bin/python3 -m pytest) that react to DLFL_MUTANT,
// judged as one-a-process runs judge them: a crash inside a case kills by that case, the
// cases that passed before it are done and the rest runs again batched; what a time-out
// leaves runs alone.
#include "dlfl/collect/pytest_batch.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "collect_test_support.h"
#include "dlfl/collect/mutant_runner.h"
#include "dlfl/error.h"

namespace dlfl::collect {
namespace {

using dlfl::testing::kill_lines;
using dlfl::testing::slurp;
using dlfl::testing::TempDir;
using Kind = TestOutcome::Kind;

TEST(PytestBatch, NodeIdsGetPytestsJunitNames) {
  using Names = std::pair<std::string, std::string>;
  EXPECT_EQ(junit_names("tests/compute/test_sampling.py::test_x[int32]"),
            (Names{"tests.compute.test_sampling", "test_x[int32]"}));
  EXPECT_EQ(junit_names("onnx/test/shape_inference_test.py::TestShapeInference::test_onehot"),
            (Names{"onnx.test.shape_inference_test.TestShapeInference", "test_onehot"}));
  // Parameters keep their '/' and '::', the path part loses ".py" only at its end.
  EXPECT_EQ(junit_names("t.pyx/a.py::C::t[a/b::c]"), (Names{"t.pyx.a.C", "t[a/b::c]"}));
}

TEST(PytestBatch, TheTemplatesPlaceholderBecomesEveryName) {
  EXPECT_EQ(batch_command_text("cd /src && python3 -m pytest -q {}"), "cd /src && python3 -m pytest -q \"$@\"");
  EXPECT_EQ(batch_command_text("pytest {} ; echo {}"), "pytest \"$@\" ; echo \"$@\"");
  for (const char* refused : {"pytest '{}'", "pytest \"{}\"", "pytest -k={}", "pytest {}x", "pytest `echo {}`",
                              "pytest ${X:-{}}", "pytest"})
    EXPECT_THROW(batch_command_text(refused), Error) << refused;
}

TEST(PytestBatch, TheReportPathIsOneWordForPytestsShlex) {
  EXPECT_EQ(batch_addopts("", "/tmp/a b/junit.xml"), "-v -v --junitxml='/tmp/a b/junit.xml'");
  EXPECT_EQ(batch_addopts("-x", "/tmp/it's.xml"), "-x -v -v --junitxml='/tmp/it'\"'\"'s.xml'");
}

TEST(PytestBatch, VerboseOutputNamesTheCaseAProcessEndedIn) {
  const std::vector<std::string> ids = {"t.py::test_a", "t.py::test_b[1]", "t.py::C::test_c"};
  const std::string started = "============ test session starts ============\ncollected 3 items\n\n"
                              "t.py::test_a PASSED                [ 33%]\n";
  EXPECT_EQ(unfinished_case(started + "t.py::test_b[1] ", ids), "t.py::test_b[1]");
  EXPECT_EQ(unfinished_case(started + "t.py::C::test_c <- base.py ", ids), "t.py::C::test_c");
  EXPECT_EQ(unfinished_case(started, ids), std::nullopt);  // between cases
  EXPECT_EQ(unfinished_case(started + "t.py::test_z ", ids), std::nullopt);
  EXPECT_EQ(unfinished_case("t.py::test_a", ids), std::nullopt);  // no blank: not pytest's start of a case
  EXPECT_EQ(unfinished_case("", ids), std::nullopt);
}

TEST(PytestBatch, VerboseOutputNamesTheCasesThatPassed) {
  const std::vector<std::string> ids = {"t.py::test_a", "t.py::test_b[1]", "t.py::C::test_c", "t.py::test_d"};
  const std::string out = "t.py::test_a PASSED                [ 25%]\n"
                          "t.py::test_b[1] FAILED             [ 50%]\n"
                          "t.py::C::test_c <- base.py SKIPPED (no GPU) [ 75%]\n"
                          "t.py::test_x PASSED                [ 80%]\n"
                          "t.py::test_d ";
  EXPECT_EQ(passed_cases(out, ids), (std::vector<std::string>{"t.py::test_a", "t.py::C::test_c"}));
  EXPECT_TRUE(passed_cases("", ids).empty());
}

TEST(PytestBatch, TheJunitReportGivesEachCasesOutcome) {
  const std::string xml = R"(<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">
    <testcase classname="t" name="test_ok" time="0.25"/>
    <testcase classname="t" name="test_bad[1]" time="0.5"><failure message="AssertionError: assert 1 == 2">trace</failure></testcase>
    <testcase classname="t" name="test_setup" time="0.1"><error message="failed on setup with &quot;E&quot;">e</error></testcase>
    <testcase classname="t" name="test_skip" time="0"><skipped type="pytest.skip" message="no GPU">s</skipped></testcase>
    <testcase classname="t.C" name="test_m" time="0.01"><failure message="">x</failure></testcase>
    <testcase classname="t" name="test_other" time="1"/>
  </testsuite></testsuites>)";
  const auto cases = parse_pytest_junit(
      xml, {"t.py::test_ok", "t.py::test_bad[1]", "t.py::test_setup", "t.py::test_skip", "t.py::C::test_m", "t.py::gone"},
      "junit.xml");
  ASSERT_EQ(cases.size(), 5u);  // gone: no testcase; test_other: not asked for
  EXPECT_EQ(cases.at("t.py::test_ok").kind, Kind::passed);
  EXPECT_DOUBLE_EQ(cases.at("t.py::test_ok").seconds, 0.25);
  EXPECT_EQ(cases.at("t.py::test_bad[1]").kind, Kind::failed);
  EXPECT_EQ(cases.at("t.py::test_bad[1]").message, "AssertionError: assert 1 == 2");
  EXPECT_EQ(cases.at("t.py::test_setup").kind, Kind::failed);
  EXPECT_EQ(cases.at("t.py::test_setup").message, "failed on setup with \"E\"");
  EXPECT_EQ(cases.at("t.py::test_skip").kind, Kind::passed);  // as a lone case's exit status 0 says
  EXPECT_EQ(cases.at("t.py::C::test_m").message, "failure without a message");
  // Two ids with one pair of names: neither is trusted.
  EXPECT_TRUE(parse_pytest_junit(xml, {"t.py::test_ok", "t::test_ok"}, "junit.xml").empty());
  EXPECT_THROW(parse_pytest_junit("<html/>", {}, "junit.xml"), Error);
  EXPECT_THROW(parse_pytest_junit("<testsuites><testsuite>", {}, "junit.xml"), Error);
}

bool have_pytest() { return std::system("/usr/bin/python3 -m pytest --version >/dev/null 2>&1") == 0; }

// Lines m.cpp:1 and m.cpp:2. test_f fails and runs both; test_p1 runs line 1; test_p2
// line 2; test_p3 neither. Mutant 1 makes test_f pass and test_p1 crash the interpreter,
// mutant 2 makes test_p2 hang, mutant 3 changes test_f's message, mutant 4 kills nothing,
// mutant 5 crashes test_p1 only.
struct PytestFixture {
  TempDir dir{"pytest-batch"};
  Spectrum spectrum;
  PytestFixture() {
    testing::write_text(dir / "test_m.py", R"(import os, time
M = os.environ.get("DLFL_MUTANT", "none")
with open("ran.log", "a") as log:
    log.write("process " + M + "\n")

def test_f():
    if M != "1":
        raise AssertionError("changed" if M == "3" else "same")

def test_p1():
    if M in ("1", "5"):
        os.abort()

def test_p2():
    if M == "2":
        time.sleep(60)

def test_p3():
    pass
)");
    SpectrumBuilder b;
    b.add_element("m.cpp", 1);
    b.add_element("m.cpp", 2);
    b.add_test(TestCase::fail("test_m.py::test_f"), {0, 1});
    b.add_test(TestCase::pass("test_m.py::test_p1"), {0});
    b.add_test(TestCase::pass("test_m.py::test_p2"), {1});
    b.add_test(TestCase::pass("test_m.py::test_p3"), {});
    spectrum = std::move(b).finish();
  }
  std::string command() const {
    return "cd '" + dir.path().string() + "' && /usr/bin/python3 -m pytest -q -p no:cacheprovider {}";
  }
  MutantRunRequest request(std::size_t batch, const std::string& journal) const {
    MutantRunRequest r;
    r.spectrum = &spectrum;
    r.mutants = {{1, "m.cpp", 1, "negate_condition", "f"},
                 {2, "m.cpp", 2, "constant_replace", "f"},
                 {3, "m.cpp", 2, "delete_statement", "f"},
                 {4, "m.cpp", 1, "delete_statement", "f"},
                 {5, "m.cpp", 1, "unary_delete", "f"}};
    std::vector<std::string> names;
    for (const auto& t : spectrum.tests()) names.push_back(t.name);
    r.tests = make_template_commands(names, command());
    r.pytest_template = command();
    r.pytest_batch = batch;
    r.journal = dir / journal;
    r.schemata_digest = 7;
    r.scratch = dir / ("scratch-" + journal);
    r.jobs = 2;
    r.min_timeout = std::chrono::milliseconds(1500);
    r.timeout_factor = 3;
    r.kill_grace = std::chrono::milliseconds(200);
    return r;
  }
};

TEST(PytestBatch, BatchesKillAsRunsAloneDoAndACrashNamesItsCase) {
  if (!have_pytest()) GTEST_SKIP() << "/usr/bin/python3 -m pytest is not installed (Debian: python3-pytest)";
  PytestFixture f;
  std::vector<std::string> warnings;
  MutantRunRequest r = f.request(10, "batched.jsonl");
  r.warn = [&](std::string_view w) { warnings.emplace_back(w); };
  const MutantRunResult batched = run_mutants(r);
  ASSERT_FALSE(batched.interrupted);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  // Batched, test_f's failure message is pytest's exception line, the same in both
  // baseline runs, so mutant 3's other message kills.
  EXPECT_EQ(kill_lines(batched.kill_matrix),
            (std::vector<std::string>{"m.cpp:1 negate_condition #1: test_m.py::test_f test_m.py::test_p1",
                                      "m.cpp:2 constant_replace #2: test_m.py::test_p2",
                                      "m.cpp:2 delete_statement #3: test_m.py::test_f", "m.cpp:1 delete_statement #4:",
                                      "m.cpp:1 unary_delete #5: test_m.py::test_p1"}));
  EXPECT_EQ(batched.killed, 4u);
  EXPECT_TRUE(batched.left_out.empty());
  // Processes: two baseline batches; a batch a mutant (test_p3 runs no mutated line).
  // Mutant 1's crashed inside test_p1 after the output said test_f PASSED, so nothing ran
  // again; mutant 2's timed out inside test_p2, so test_f ran alone, after two baseline
  // runs alone. Mutant 5's crashed inside test_p1 after test_f FAILED, whose message
  // only a report has, so test_f ran again in a second batch.
  EXPECT_EQ(batched.batches, 2u + 1 + 1 + 1 + 1 + 2);
  // Runs: 3 tests in each baseline batch; test_f passed and test_p1 crashed in mutant 1's;
  // test_p2 timed out in mutant 2's; 2 in mutant 3's and 4's; alone, test_f's baselines
  // and its run with mutant 2; test_p1 crashed and test_f failed in mutant 5's two.
  EXPECT_EQ(batched.runs, 2u * 3 + 2 + 1 + 2 + 2 + 2 + 1 + 2);
  // Each process imports the test module once: 8 batches and 3 runs alone.
  const std::string log = slurp(f.dir / "ran.log");
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 11);

  // One a process: the same verdict, crash and time-out kills. test_f's message there is
  // the end of pytest's output with its timing ("1 failed in 0.05s"): where the two
  // baseline runs happen to share it, any mutant run with another timing kills by
  // message, so test_f's kills of mutants 2 to 5 are left open.
  const MutantRunResult alone = run_mutants(f.request(0, "alone.jsonl"));
  const auto alone_kills = kill_lines(alone.kill_matrix);
  ASSERT_EQ(alone_kills.size(), 5u);
  EXPECT_EQ(alone_kills[0], "m.cpp:1 negate_condition #1: test_m.py::test_f test_m.py::test_p1");
  EXPECT_THAT(alone_kills[1], ::testing::EndsWith(" test_m.py::test_p2"));
  EXPECT_EQ(alone.batches, 0u);

  // A rerun reads everything back, batches included.
  const MutantRunResult again = run_mutants(f.request(10, "batched.jsonl"));
  EXPECT_EQ(again.runs, 0u);
  EXPECT_EQ(again.batches, 0u);
  EXPECT_EQ(kill_lines(again.kill_matrix), kill_lines(batched.kill_matrix));
}

// A mutant that crashes every case: after 8 crashes the batch's rest runs one a process.
TEST(PytestBatch, AMutantThatCrashesCaseAfterCaseEndsUpRunningAlone) {
  if (!have_pytest()) GTEST_SKIP() << "/usr/bin/python3 -m pytest is not installed (Debian: python3-pytest)";
  TempDir dir{"pytest-batch-crashes"};
  testing::write_text(dir / "test_c.py", R"(import os, pytest
@pytest.mark.parametrize("i", range(10))
def test_c(i):
    if os.environ.get("DLFL_MUTANT") == "1":
        os.abort()

def test_f():
    assert False
)");
  SpectrumBuilder b;
  b.add_element("c.cpp", 1);
  std::vector<std::string> names = {"test_c.py::test_f"};
  b.add_test(TestCase::fail(names[0]), {0});
  for (int i = 0; i < 10; ++i) {
    names.push_back("test_c.py::test_c[" + std::to_string(i) + "]");
    b.add_test(TestCase::pass(names.back()), {0});
  }
  const Spectrum spectrum = std::move(b).finish();
  const std::string command = "cd '" + dir.path().string() + "' && /usr/bin/python3 -m pytest -q -p no:cacheprovider {}";
  MutantRunRequest r;
  r.spectrum = &spectrum;
  r.mutants = {{1, "c.cpp", 1, "delete_statement", "f"}};
  r.tests = make_template_commands(names, command);
  r.pytest_template = command;
  r.pytest_batch = 20;
  r.journal = dir / "journal.jsonl";
  r.scratch = dir / "scratch";
  r.jobs = 2;
  const MutantRunResult result = run_mutants(r);
  // test_f fails first in every batch, then a case crashes: 8 batches, each naming one
  // crashed case; test_f and the last two cases then run alone (with their baselines).
  EXPECT_EQ(result.batches, 2u + 8);
  EXPECT_EQ(result.runs, 2u * 11 + 8 + 3 * 2 + 3);
  const auto lines = kill_lines(result.kill_matrix);
  ASSERT_EQ(lines.size(), 1u);
  for (int i = 0; i < 10; ++i) EXPECT_THAT(lines[0], ::testing::HasSubstr("test_c[" + std::to_string(i) + "]"));
  EXPECT_THAT(lines[0], ::testing::Not(::testing::HasSubstr("test_f")));
}

TEST(PytestBatch, ACommandThatWritesNoReportRunsEachTestAlone) {
  TempDir dir{"pytest-batch-none"};
  SpectrumBuilder b;
  b.add_element("m.cpp", 1);
  b.add_test(TestCase::fail("f"), {0});
  b.add_test(TestCase::pass("p"), {0});
  const Spectrum spectrum = std::move(b).finish();
  // Not pytest: fails for "f" unless mutant 1 is on; passes for "p".
  const std::string command = "for t in {}; do :; done; test \"$DLFL_TEST_NAME\" != f || test \"$DLFL_MUTANT\" = 1";
  MutantRunRequest r;
  r.spectrum = &spectrum;
  r.mutants = {{1, "m.cpp", 1, "negate_condition", "f"}};
  r.tests = make_template_commands({"f", "p"}, command);
  r.pytest_template = command;
  r.pytest_batch = 5;
  r.journal = dir / "journal.jsonl";
  r.scratch = dir / "scratch";
  std::vector<std::string> warnings;
  r.warn = [&](std::string_view w) { warnings.emplace_back(w); };
  const MutantRunResult result = run_mutants(r);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("is the test command pytest?"), std::string::npos) << warnings[0];
  EXPECT_EQ(kill_lines(result.kill_matrix), std::vector<std::string>{"m.cpp:1 negate_condition #1: f"});
  EXPECT_EQ(result.batches, 2u);  // the two baseline batches; then every run alone
  EXPECT_EQ(result.runs, 4u + 2u);
}

TEST(PytestBatch, APlaceholderThatCannotTakeSeveralNamesIsRefusedBeforeAnyRun) {
  TempDir dir{"pytest-batch-refused"};
  SpectrumBuilder b;
  b.add_element("m.cpp", 1);
  b.add_test(TestCase::fail("f"), {0});
  const Spectrum spectrum = std::move(b).finish();
  MutantRunRequest r;
  r.spectrum = &spectrum;
  r.mutants = {{1, "m.cpp", 1, "negate_condition", "f"}};
  r.tests = make_template_commands({"f"}, "touch ran; pytest '{}'");
  r.pytest_template = "touch ran; pytest '{}'";
  r.pytest_batch = 5;
  r.journal = dir / "journal.jsonl";
  r.scratch = dir / "scratch";
  EXPECT_THROW(run_mutants(r), Error);
  r.pytest_template.clear();
  EXPECT_THROW(run_mutants(r), Error);
  EXPECT_FALSE(std::filesystem::exists(dir / "journal.jsonl"));
}

}  // namespace
}  // namespace dlfl::collect
