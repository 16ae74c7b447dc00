// `dlfl collect` end to end on fixtures/mini, built with gcc --coverage and with clang
// source-based coverage: outcomes (pass, fail, crash, time-out, skip, early exit), the
// exact lines of small functions, crash coverage in LLVM continuous mode, the CTest and
// command-template sources, and the errors users hit.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>

#include "collect_test_support.h"
#include "dlfl/collect/binary_probe.h"
#include "dlfl/error.h"
#include "dlfl/formats/native_format.h"

namespace dlfl::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Lines = std::set<std::uint32_t>;

const fs::path kFixtures = DLFL_COLLECT_FIXTURES;
const std::string kRoot = std::string(DLFL_SOURCE_DIR) + "/tests/collect/fixtures/mini";
constexpr const char* kCalc = "src/calc.cpp";

struct Collected {
  CommandResult run;
  std::optional<Spectrum> spectrum;
};

// Runs `dlfl collect ARGS -o DIR/out.dlfl`; reads the spectrum when it was written.
Collected collect(const TempDir& dir, const std::string& args) {
  const fs::path out = dir / "out.dlfl";
  Collected c;
  c.run = run_shell(std::string(DLFL_BINARY) + " collect " + args + " -o " + out.string());
  if (fs::exists(out)) c.spectrum = io::read_native(out);
  return c;
}

std::string mini(const std::string& variant, const std::string& binary = "mini_tests") {
  return (kFixtures / variant / binary).string();
}

std::string common_args() { return "--source-root " + kRoot + " --exclude '*/tests/*' --timeout 2 -j2"; }

const TestCase& test_named(const Spectrum& s, const std::string& name) {
  const long t = test_index(s, name);
  EXPECT_GE(t, 0) << name;
  return s.tests()[static_cast<std::size_t>(std::max(t, 0L))];
}

std::vector<std::string> test_names(const Spectrum& s) {
  std::vector<std::string> names;
  for (const auto& t : s.tests()) names.push_back(t.name);
  return names;
}

// Outcomes every backend must agree on.
void expect_mini_outcomes(const Collected& c) {
  ASSERT_EQ(c.run.exit_code, 0) << c.run.err;
  ASSERT_TRUE(c.spectrum);
  const Spectrum& s = *c.spectrum;
  EXPECT_THAT(c.run.out, HasSubstr("collected 11 tests (4 failing, 1 crashed, 1 timed out), 1 skipped"));
  // Listing order; DISABLED_Never is never run, Skipped (GTEST_SKIP) is left out.
  EXPECT_THAT(test_names(s), ElementsAre("Calc.AddSmall", "Calc.AddClamped", "Calc.AbsPositive", "Calc.AbsNegative",
                                         "Calc.Crash", "Calc.Hang", "Calc.ExitEarly", "TypedCalc/0.Positive",
                                         "TypedCalc/1.Positive", "Small/AddParam.Works/0", "Small/AddParam.Works/1"));
  EXPECT_FALSE(test_named(s, "Calc.AddSmall").failed());
  const TestCase& wrong = test_named(s, "Calc.AbsNegative");
  EXPECT_EQ(wrong.status, TestStatus::failed);
  EXPECT_THAT(wrong.message, HasSubstr("Which is: -3"));
  const TestCase& crash = test_named(s, "Calc.Crash");
  EXPECT_EQ(crash.status, TestStatus::crashed);
  EXPECT_THAT(crash.message, HasSubstr("killed by signal 11 (SIGSEGV)"));
  const TestCase& hang = test_named(s, "Calc.Hang");
  EXPECT_EQ(hang.status, TestStatus::timed_out);
  EXPECT_GE(hang.runtime_ns, 2'000'000'000u);
  EXPECT_THAT(hang.message, HasSubstr("timed out after 2 s"));
  EXPECT_EQ(test_named(s, "Calc.ExitEarly").status, TestStatus::failed);
  EXPECT_FALSE(test_named(s, "Small/AddParam.Works/1").failed());
  // Only the library file: the test file is excluded, system headers always.
  for (std::size_t e = 0; e < s.element_count(); ++e) EXPECT_EQ(s.file(e), kCalc);
}

TEST(CollectGcov, GtestOutcomesAndExactLines) {
  TempDir dir;
  const Collected c = collect(dir, "--gtest " + mini("gcc") + " " + common_args());
  expect_mini_outcomes(c);
  if (!c.spectrum) return;
  const Spectrum& s = *c.spectrum;
  // gcov's instrumented lines of calc.cpp (closing braces after a return are not).
  const auto lines = element_lines(s, kCalc);
  std::vector<std::uint32_t> numbers;
  for (const auto& [line, function] : lines) numbers.push_back(line);
  EXPECT_THAT(numbers, ElementsAre(8, 9, 10, 11, 13, 16, 17, 18, 20, 23, 24, 25, 26, 27, 29, 30, 31));
  EXPECT_EQ(lines.at(9), "clamp_add(int, int, int)");
  EXPECT_EQ(lines.at(18), "buggy_abs(int)");
  EXPECT_EQ(lines.at(30), "hang()");
  EXPECT_EQ(covered_lines(s, "Calc.AddSmall", kCalc), (Lines{8, 9, 10, 13}));
  EXPECT_EQ(covered_lines(s, "Calc.AddClamped", kCalc), (Lines{8, 9, 10, 11}));
  EXPECT_EQ(covered_lines(s, "Calc.AbsPositive", kCalc), (Lines{16, 17, 20}));
  EXPECT_EQ(covered_lines(s, "Calc.AbsNegative", kCalc), (Lines{16, 17, 18}));
  EXPECT_EQ(covered_lines(s, "TypedCalc/1.Positive", kCalc), (Lines{16, 17, 20}));
  // libgcov writes at exit; dlfl's preloaded crash handler exits on SIGSEGV and on the
  // timeout's SIGTERM, so the crash keeps clamp_add and crash_after up to the raise, and
  // the killed hang keeps hang() up to the sleep. The outcomes stay crashed / timed out
  // (expect_mini_outcomes).
  EXPECT_EQ(covered_lines(s, "Calc.Crash", kCalc), (Lines{8, 9, 10, 13, 23, 24, 25, 26}));
  EXPECT_EQ(covered_lines(s, "Calc.Hang", kCalc), (Lines{29, 30}));
  EXPECT_THAT(c.run.err, HasSubstr("crash handler: libdlfl_crash_dump.so preloaded"));
  EXPECT_THAT(c.run.err, ::testing::Not(HasSubstr("without coverage")));
}

TEST(CollectGcov, CrashHandlerOffLosesTheCoverageOfKilledTests) {
  TempDir dir;
  const Collected c = collect(dir, "--gtest " + mini("gcc") + " " + common_args() + " --crash-handler off");
  expect_mini_outcomes(c);
  if (!c.spectrum) return;
  const Spectrum& s = *c.spectrum;
  // libgcov writes at exit: a process killed by a signal leaves nothing, and we say so.
  EXPECT_THAT(covered_lines(s, "Calc.Crash", kCalc), IsEmpty());
  EXPECT_THAT(covered_lines(s, "Calc.Hang", kCalc), IsEmpty());
  EXPECT_EQ(covered_lines(s, "Calc.AbsNegative", kCalc), (Lines{16, 17, 18}));
  EXPECT_THAT(c.run.err, HasSubstr("crash handler off (--crash-handler off)"));
  EXPECT_THAT(c.run.err, HasSubstr("2 failing tests without coverage"));
  EXPECT_THAT(c.run.err, HasSubstr("Calc.Crash, Calc.Hang"));
}

TEST(CollectGcov, CrashHandlerKeepsAbortAndFpeCoverageOfCommands) {
  TempDir dir;
  write_text(dir / "names", "4\nabort:-4\nfpe:4\n");
  const Collected c = collect(dir, "--tests " + (dir / "names").string() + " --cmd '" + mini("gcc", "calc_cli") +
                                       " {}' --coverage gcov " + common_args());
  ASSERT_EQ(c.run.exit_code, 0) << c.run.err;
  const Spectrum& s = *c.spectrum;
  EXPECT_FALSE(test_named(s, "4").failed());
  EXPECT_EQ(test_named(s, "abort:-4").status, TestStatus::crashed);
  EXPECT_THAT(test_named(s, "abort:-4").message, HasSubstr("SIGABRT"));
  EXPECT_EQ(test_named(s, "fpe:4").status, TestStatus::crashed);
  EXPECT_THAT(test_named(s, "fpe:4").message, HasSubstr("SIGFPE"));
  EXPECT_EQ(covered_lines(s, "abort:-4", kCalc), (Lines{16, 17, 18}));
  EXPECT_EQ(covered_lines(s, "fpe:4", kCalc), (Lines{16, 17, 20}));
}

// GoogleTest before 1.8.1 writes no JSON report (fixtures/mini/tests/old_gtest_main.cpp
// speaks 1.7's protocol): the first test is judged from its console lines, the program's
// later tests from XML reports; an aborting test keeps its coverage (the crash handler).
TEST(CollectGcov, GoogleTestOlderThanJsonReportsIsReadFromXmlAndTheConsole) {
  for (const bool xml : {true, false}) {
    TempDir dir;
    const fs::path out = dir / "out.dlfl";
    const CommandResult run = run_shell(std::string(xml ? "" : "OLD_GTEST_NO_XML=1 ") + DLFL_BINARY + " collect --gtest " +
                                        mini("gcc", "old_gtest_tests") + " --source-root " + kRoot +
                                        " --exclude '*/tests/*' --timeout 2 -j1 -o " + out.string());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const Spectrum s = io::read_native(out);
    EXPECT_THAT(test_names(s), ElementsAre("Old.AddSmall", "Old.AbsNegative", "Old.Aborts"));
    EXPECT_FALSE(test_named(s, "Old.AddSmall").failed()) << test_named(s, "Old.AddSmall").message;
    const TestCase& wrong = test_named(s, "Old.AbsNegative");
    EXPECT_EQ(wrong.status, TestStatus::failed);
    EXPECT_THAT(wrong.message, HasSubstr("Value of: buggy_abs(-3)\n  Actual: -3")) << xml;
    EXPECT_EQ(test_named(s, "Old.Aborts").status, TestStatus::crashed);
    EXPECT_THAT(run.err, HasSubstr("its GoogleTest predates JSON reports (older than 1.8.1); reading its XML reports"));
    EXPECT_EQ(covered_lines(s, "Old.AddSmall", kCalc), (Lines{8, 9, 10, 13}));
    EXPECT_EQ(covered_lines(s, "Old.AbsNegative", kCalc), (Lines{16, 17, 18}));
    EXPECT_EQ(covered_lines(s, "Old.Aborts", kCalc), (Lines{8, 9, 10, 11}));
  }
}

TEST(CollectErrors, NoGoogleTestResultAtAllIsOneReasonNotEveryTestFailing) {
  // A "GoogleTest binary" that lists tests but neither reports nor prints their results.
  TempDir dir;
  const fs::path fake = dir / "fake_tests";
  write_text(fake, "#!/bin/sh\ncase \"$1\" in --gtest_list_tests) printf 'S.\\n  a\\n  b\\n  c\\n';; esac\nexit 0\n");
  fs::permissions(fake, fs::perms::owner_all);
  const Collected c = collect(dir, "--gtest " + fake.string() + " --coverage gcov " + common_args());
  EXPECT_EQ(c.run.exit_code, 2);
  EXPECT_THAT(c.run.err, HasSubstr("none of the 3 GoogleTest tests reported a result"));
  EXPECT_THAT(c.run.err, HasSubstr("is " + fake.string() + " a GoogleTest program whose main() calls RUN_ALL_TESTS()"));
  EXPECT_THAT(c.run.err, ::testing::Not(HasSubstr("collected")));
  EXPECT_FALSE(c.spectrum);
}

TEST(CollectGcov, CrashHandlerKeepsTheCoverageOfASanitizerError) {
  // AddressSanitizer ends a process that reports an error with _exit(1), which writes no
  // gcov data; dlfl's ASAN_OPTIONS make it abort, and the crash handler keeps the coverage.
  TempDir dir;
  write_text(dir / "uaf.c",
             "#include <stdlib.h>\n"
             "int touched(int x) {\n"
             "  return x + 1;\n"
             "}\n"
             "int main(int argc, char** argv) {\n"
             "  int* p = calloc(4, sizeof(int));\n"
             "  int y = touched(argc) - 3;\n"
             "  if (argv[1][0] == 'u')\n"
             "    free(p);\n"
             "  int v = p[y];\n"
             "  if (argv[1][0] != 'u')\n"
             "    free(p);\n"
             "  return v;\n"
             "}\n");
  const CommandResult built = run_shell("cd " + dir.path().string() +
                                        " && gcc -O0 -g -fsanitize=address --coverage uaf.c -o uaf");
  if (built.exit_code != 0) GTEST_SKIP() << "gcc -fsanitize=address does not build here: " << built.err;
  write_text(dir / "names", "ok\nuse-after-free\n");
  const Collected c = collect(dir, "--tests " + (dir / "names").string() + " --cmd '" + (dir / "uaf").string() +
                                       " {}' --coverage gcov --source-root " + dir.path().string() + " --timeout 20");
  ASSERT_EQ(c.run.exit_code, 0) << c.run.err;
  const Spectrum& s = *c.spectrum;
  EXPECT_FALSE(test_named(s, "ok").failed());
  EXPECT_EQ(test_named(s, "use-after-free").status, TestStatus::crashed);
  EXPECT_THAT(test_named(s, "use-after-free").message, HasSubstr("killed by signal 6 (SIGABRT)"));
  // Up to the faulty read; the free() only this test reaches is there (gcov's counts past
  // an abnormal end are inferred from the block graph, so no exact set is asserted).
  const Lines covered = covered_lines(s, "use-after-free", "uaf.c");
  for (const std::uint32_t line : {2u, 3u, 6u, 7u, 8u, 9u, 10u}) EXPECT_TRUE(covered.contains(line)) << line;
  EXPECT_FALSE(covered_lines(s, "ok", "uaf.c").contains(9));
}

TEST(CollectErrors, EveryTestKilledIsSaidSoNotBlamedOnTheBuild) {
  // A library that aborts while it loads kills every test; without the crash handler no
  // test leaves gcov data, and the error says why instead of doubting the coverage flags.
  TempDir dir;
  write_text(dir / "names", "abort:-4\nabort:-5\n");
  const Collected c = collect(dir, "--tests " + (dir / "names").string() + " --cmd '" + mini("gcc", "calc_cli") +
                                       " {}' --coverage gcov --crash-handler off " + common_args());
  EXPECT_EQ(c.run.exit_code, 2);
  EXPECT_THAT(c.run.err, HasSubstr("none of the 2 tests wrote coverage data: every one was killed (2 crashed, 0 timed "
                                   "out), and a killed process writes none with this backend; the first, abort:-4: "));
  EXPECT_THAT(c.run.err, HasSubstr("SIGABRT"));
  EXPECT_THAT(c.run.err, ::testing::Not(HasSubstr("are the binaries built with")));
  EXPECT_FALSE(c.spectrum);
}

TEST(CollectGcov, BinaryProbeSeesTheDataPaths) {
  const auto info = collect::probe_binary(mini("gcc"));
  EXPECT_TRUE(info.elf);
  EXPECT_FALSE(info.llvm_coverage);
  ASSERT_EQ(info.gcda_paths.size(), 2u);  // calc.cpp.gcda, calc_test.cpp.gcda
  EXPECT_THAT(info.gcda_paths[0], HasSubstr("calc.cpp.gcda"));
  EXPECT_EQ(info.gcc_major, 12);
}

TEST(CollectGcov, GzoltarOutputAndNoTemporaryLeftovers) {
  TempDir dir;
  const Collected c = collect(dir, "--gtest " + mini("gcc") + " " + common_args() +
                                       " --filter 'Calc.Abs*' --work-dir " + dir.path().string() + " --gzoltar " +
                                       (dir / "gz").string());
  ASSERT_EQ(c.run.exit_code, 0) << c.run.err;
  EXPECT_THAT(slurp(dir / "gz/tests.csv"), HasSubstr("Calc.AbsNegative,FAIL,"));
  EXPECT_THAT(slurp(dir / "gz/spectra.csv"), HasSubstr("src/calc.cpp#buggy_abs(int):18\n"));
  // Only the outputs remain: the scratch directory is gone.
  std::vector<std::string> entries;
  for (const auto& e : fs::directory_iterator(dir.path())) entries.push_back(e.path().filename().string());
  std::sort(entries.begin(), entries.end());
  EXPECT_THAT(entries, ElementsAre("gz", "out.dlfl"));
}

TEST(CollectGcov, CtestDirectory) {
  TempDir dir;
  const Collected c = collect(dir, "--ctest " + (kFixtures / "gcc").string() + " " + common_args());
  ASSERT_EQ(c.run.exit_code, 0) << c.run.err;
  const Spectrum& s = *c.spectrum;
  // gtest_discover_tests' names; its SKIP_REGULAR_EXPRESSION skips Calc.Skipped.
  EXPECT_EQ(test_index(s, "Calc.Skipped"), -1);
  EXPECT_GE(test_index(s, "TypedCalc.Positive<int>"), 0);
  EXPECT_FALSE(test_named(s, "cli_positive").failed());
  EXPECT_TRUE(test_named(s, "cli_negative").failed());
  EXPECT_FALSE(test_named(s, "cli_expected_failure").failed());  // WILL_FAIL
  EXPECT_EQ(test_index(s, "cli_disabled"), -1);
  EXPECT_EQ(covered_lines(s, "cli_negative", kCalc), (Lines{16, 17, 18}));
  EXPECT_EQ(covered_lines(s, "Calc.AddSmall", kCalc), (Lines{8, 9, 10, 13}));
  EXPECT_THAT(c.run.err, HasSubstr("2 CTest tests are disabled or have no command"));
}

TEST(CollectGcov, NameListAndCommandTemplate) {
  TempDir dir;
  write_text(dir / "names", "4\n-4\n# a comment\n0\n");
  const Collected c = collect(dir, "--tests " + (dir / "names").string() + " --cmd '" + mini("gcc", "calc_cli") +
                                       " {}' --coverage gcov " + common_args());
  ASSERT_EQ(c.run.exit_code, 0) << c.run.err;
  const Spectrum& s = *c.spectrum;
  EXPECT_THAT(test_names(s), ElementsAre("4", "-4", "0"));
  EXPECT_TRUE(test_named(s, "-4").failed());
  EXPECT_THAT(test_named(s, "-4").message, HasSubstr("exit status 1"));
  EXPECT_EQ(covered_lines(s, "-4", kCalc), (Lines{16, 17, 18}));
  EXPECT_EQ(covered_lines(s, "4", kCalc), (Lines{16, 17, 20}));
}

// Test names are the code base's data: inside a command substitution, backquotes or a
// parameter expansion of the template, none runs code, and each reaches its command whole.
TEST(CollectGcov, HostileNamesInsideSubstitutionsRunNothing) {
  TempDir dir;
  const fs::path marker = dir / "marker";
  const std::string touch = "touch " + marker.string();
  write_text(dir / "names", "$(" + touch + ")\n`" + touch + "`\n'; " + touch + "; '\n\"; " + touch +
                                "; \"\n)\"; " + touch + "; \"(\n");
  // Each test checks that its command saw exactly the name it was listed with.
  write_text(dir / "check.sh", "[ \"$1\" = \"$DLFL_TEST_NAME\" ] && [ \"$2\" = \"$DLFL_TEST_NAME\" ]\n");
  const std::string command = "sh " + (dir / "check.sh").string() +
                              " \"$(printf %s {})\" \"`printf %s \"{}\"`\" && " + mini("gcc", "calc_cli") +
                              " \"${DLFL_UNSET:-4}\"";
  write_text(dir / "cmd", command);
  const Collected c = collect(dir, "--tests " + (dir / "names").string() + " --cmd \"$(cat " +
                                       (dir / "cmd").string() + ")\" --coverage gcov " + common_args());
  ASSERT_EQ(c.run.exit_code, 2) << c.run.err;  // no test fails: nothing to rank, said so
  EXPECT_FALSE(fs::exists(marker)) << "a test name ran code";
  EXPECT_THAT(c.run.err, HasSubstr("no failing test"));
  EXPECT_THAT(c.run.err, HasSubstr("5 tests"));
}

TEST(CollectGcov, DifferentialOracleJudgesByTheReferencesOutputAndStatus) {
  TempDir dir;
  write_text(dir / "names", "print:4\nprint:-4\n-4\nabort:-4\n");
  // The reference prints |N| for print:N and exits 0 with nothing printed otherwise; it
  // counts its runs in `ran`, so the cached second collection must not run it again.
  const std::string reference = "echo run >> " + (dir / "ran").string() +
                                "; case {} in print:*) echo {} | sed 's/^print:-*//';; esac";
  const std::string args = "--tests " + (dir / "names").string() + " --cmd '" + mini("gcc", "calc_cli") +
                           " {}' --coverage gcov " + common_args() + " --reference-cmd \"" + reference +
                           "\" --reference-cache " + (dir / "cache").string();
  for (int round = 0; round < 2; ++round) {
    const Collected c = collect(dir, args);
    ASSERT_EQ(c.run.exit_code, 0) << c.run.err;
    const Spectrum& s = *c.spectrum;
    EXPECT_FALSE(test_named(s, "print:4").failed());
    EXPECT_EQ(test_named(s, "print:-4").status, TestStatus::failed);
    EXPECT_THAT(test_named(s, "print:-4").message,
                HasSubstr("stdout differs from the reference's at line 1: '-4' instead of '4'"));
    EXPECT_THAT(test_named(s, "-4").message, HasSubstr("exit status 1, the reference's exit status 0"));
    EXPECT_EQ(test_named(s, "abort:-4").status, TestStatus::crashed);  // crashes fail as always
    EXPECT_EQ(covered_lines(s, "print:-4", kCalc), (Lines{16, 17, 18}));
    EXPECT_THAT(c.run.err, HasSubstr("differential oracle"));
  }
  EXPECT_EQ(slurp(dir / "ran"), "run\nrun\nrun\nrun\n");  // once per test, then cached

  // GoogleTest tests judge themselves: the oracle is refused in one line, exit 2.
  const Collected g = collect(dir, "--gtest " + mini("gcc") + " " + common_args() + " --reference-cmd 'true {}'");
  EXPECT_EQ(g.run.exit_code, 2);
  EXPECT_THAT(g.run.err, HasSubstr("a reference command judges --tests/--cmd suites"));
}

#if DLFL_COLLECT_HAVE_CLANG
TEST(CollectLlvm, FindsTheBuildTreesInstrumentedExecutablesNotItsObjectFiles) {
  // The object files carry the same coverage sections; llvm-cov wants the linked binaries.
  // calc_cli, mini_tests and old_gtest_tests are the clang build's; the gcc build's carry
  // gcov data paths.
  EXPECT_EQ(collect::find_llvm_coverage_binaries(kFixtures / "clang"),
            (std::vector<fs::path>{kFixtures / "clang" / "calc_cli", kFixtures / "clang" / "mini_tests",
                                   kFixtures / "clang" / "old_gtest_tests"}));
  EXPECT_TRUE(collect::find_llvm_coverage_binaries(kFixtures / "gcc").empty());
  EXPECT_THROW(collect::find_llvm_coverage_binaries(kFixtures / "no-such-build"), dlfl::Error);
}

TEST(CollectLlvm, ContinuousModeKeepsCoverageOfKilledTests) {
  const auto info = collect::probe_binary(mini("clang"));
  EXPECT_TRUE(info.llvm_coverage);
  EXPECT_TRUE(info.llvm_continuous_capable);
  EXPECT_EQ(info.clang_major, 14);
  TempDir dir;
  const Collected c = collect(dir, "--gtest " + mini("clang") + " " + common_args());
  expect_mini_outcomes(c);
  if (!c.spectrum) return;
  const Spectrum& s = *c.spectrum;
  // LLVM counts lines by regions: a closing brace that ends a region is a line too.
  EXPECT_EQ(covered_lines(s, "Calc.AddSmall", kCalc), (Lines{8, 9, 10, 13, 14}));
  EXPECT_EQ(covered_lines(s, "Calc.AddClamped", kCalc), (Lines{8, 9, 10, 11, 12, 14}));
  EXPECT_EQ(covered_lines(s, "Calc.AbsNegative", kCalc), (Lines{16, 17, 18, 19, 21}));
  // The counters live in the mapped profile: the crash keeps clamp_add and crash_after,
  // the killed hang keeps hang().
  EXPECT_EQ(covered_lines(s, "Calc.Crash", kCalc), (Lines{8, 9, 10, 13, 14, 23, 24, 25, 26, 27}));
  EXPECT_EQ(covered_lines(s, "Calc.Hang", kCalc), (Lines{29, 30, 31}));
  EXPECT_EQ(element_lines(s, kCalc).at(10), "clamp_add(int, int, int)");
  EXPECT_THAT(c.run.err, ::testing::Not(HasSubstr("without coverage")));
  EXPECT_THAT(c.run.err, HasSubstr("continuous mode: killed tests keep their coverage"));
}

// The tests' executable and the shared library it loads each map their counters onto a
// profile file of their own: the library's lines are all there, the killed tests' too.
TEST(CollectLlvm, ContinuousModeKeepsTheCoverageOfASharedLibrary) {
  const fs::path library = kFixtures / "clang-shared" / "libcalc.so";
  ASSERT_TRUE(collect::probe_binary(library.string()).llvm_continuous_capable);
  TempDir dir;
  const Collected c =
      collect(dir, "--gtest " + mini("clang-shared") + " --object " + library.string() + " " + common_args());
  expect_mini_outcomes(c);
  if (!c.spectrum) return;
  const Spectrum& s = *c.spectrum;
  EXPECT_EQ(covered_lines(s, "Calc.AddSmall", kCalc), (Lines{8, 9, 10, 13, 14}));
  EXPECT_EQ(covered_lines(s, "Calc.AbsNegative", kCalc), (Lines{16, 17, 18, 19, 21}));
  EXPECT_EQ(covered_lines(s, "Calc.Crash", kCalc), (Lines{8, 9, 10, 13, 14, 23, 24, 25, 26, 27}));
  EXPECT_EQ(covered_lines(s, "Calc.Hang", kCalc), (Lines{29, 30, 31}));
}

TEST(CollectLlvm, WithoutCounterRelocationKilledTestsHaveNoCoverage) {
  EXPECT_FALSE(collect::probe_binary(mini("clang-plain")).llvm_continuous_capable);
  TempDir dir;
  const Collected c =
      collect(dir, "--gtest " + mini("clang-plain") + " " + common_args() + " --coverage llvm --crash-handler off");
  expect_mini_outcomes(c);
  if (!c.spectrum) return;
  EXPECT_EQ(covered_lines(*c.spectrum, "Calc.AddSmall", kCalc), (Lines{8, 9, 10, 13, 14}));
  EXPECT_THAT(covered_lines(*c.spectrum, "Calc.Crash", kCalc), IsEmpty());
  EXPECT_THAT(c.run.err, HasSubstr("LLVM continuous mode is off"));
  EXPECT_THAT(c.run.err, HasSubstr("2 failing tests without coverage"));
}

TEST(CollectLlvm, CrashHandlerGivesWhatContinuousModeGives) {
  // Without counter relocation the profile is written at exit; the crash handler makes the
  // killed tests exit, so their lines must equal those continuous mode keeps (above).
  TempDir dir;
  const Collected c = collect(dir, "--gtest " + mini("clang-plain") + " " + common_args() + " --coverage llvm");
  expect_mini_outcomes(c);
  if (!c.spectrum) return;
  EXPECT_EQ(covered_lines(*c.spectrum, "Calc.Crash", kCalc), (Lines{8, 9, 10, 13, 14, 23, 24, 25, 26, 27}));
  EXPECT_EQ(covered_lines(*c.spectrum, "Calc.Hang", kCalc), (Lines{29, 30, 31}));
  EXPECT_THAT(c.run.err, HasSubstr("crash handler: libdlfl_crash_dump.so preloaded"));
  EXPECT_THAT(c.run.err, ::testing::Not(HasSubstr("without coverage")));
}

TEST(CollectLlvm, WrongBackendForTheBinary) {
  TempDir dir;
  const Collected c = collect(dir, "--gtest " + mini("clang") + " " + common_args() + " --coverage gcov");
  EXPECT_EQ(c.run.exit_code, 2);
  EXPECT_THAT(c.run.err, HasSubstr("built with LLVM coverage, not gcov: use --coverage llvm"));
  EXPECT_FALSE(c.spectrum);
}

TEST(CollectLlvm, MismatchedLlvmTools) {
  TempDir dir;
  write_text(dir / "llvm-cov", "#!/bin/sh\necho 'Fake LLVM version 99.0.0'\n");
  fs::permissions(dir / "llvm-cov", fs::perms::owner_all);
  const Collected c =
      collect(dir, "--gtest " + mini("clang") + " " + common_args() + " --llvm-cov " + (dir / "llvm-cov").string());
  EXPECT_EQ(c.run.exit_code, 2);
  EXPECT_THAT(c.run.err, HasSubstr("built by clang 14 but"));
  EXPECT_THAT(c.run.err, HasSubstr("is LLVM 99"));
  EXPECT_FALSE(c.spectrum);
}
#endif

TEST(CollectErrors, NoFailingTestWritesNothing) {
  TempDir dir;
  const Collected c = collect(dir, "--gtest " + mini("gcc") + " " + common_args() + " --filter 'Calc.Add*'");
  EXPECT_EQ(c.run.exit_code, 2);
  EXPECT_THAT(c.run.err, HasSubstr("no failing test among the 2 tests: nothing to localize"));
  EXPECT_FALSE(c.spectrum);
}

TEST(CollectErrors, FilterKeepsNothing) {
  TempDir dir;
  const Collected c = collect(dir, "--gtest " + mini("gcc") + " " + common_args() + " --filter 'Nope.*'");
  EXPECT_EQ(c.run.exit_code, 2);
  EXPECT_THAT(c.run.err, HasSubstr("the filter 'Nope.*' keeps no test"));
}

TEST(CollectErrors, BinaryWithoutCoverage) {
  TempDir dir;
  // This test binary is a GoogleTest binary built without coverage.
  const Collected d = collect(dir, "--gtest " + fs::read_symlink("/proc/self/exe").string());
  EXPECT_EQ(d.run.exit_code, 2);
  EXPECT_THAT(d.run.err, HasSubstr("is not built with coverage instrumentation"));
  EXPECT_FALSE(d.spectrum);
}

TEST(CollectErrors, EverythingExcluded) {
  TempDir dir;
  const Collected c = collect(dir, "--gtest " + mini("gcc") + " " + common_args() + " --filter 'Calc.Abs*' --exclude '*.cpp'");
  EXPECT_EQ(c.run.exit_code, 2);
  EXPECT_THAT(c.run.err, HasSubstr("no instrumented line is left after the source root and the excludes"));
  EXPECT_FALSE(c.spectrum);
}

TEST(CollectErrors, MissingOrMismatchedGcov) {
  TempDir dir;
  Collected c = collect(dir, "--gtest " + mini("gcc") + " " + common_args() + " --gcov /nonexistent/gcov");
  EXPECT_EQ(c.run.exit_code, 2);
  EXPECT_THAT(c.run.err, HasSubstr("--gcov /nonexistent/gcov: no such executable"));
  write_text(dir / "gcov", "#!/bin/sh\necho 'gcov (Fake) 99.1.0'\n");
  fs::permissions(dir / "gcov", fs::perms::owner_all);
  c = collect(dir, "--gtest " + mini("gcc") + " " + common_args() + " --gcov " + (dir / "gcov").string());
  EXPECT_EQ(c.run.exit_code, 2);
  EXPECT_THAT(c.run.err, HasSubstr(".gcno: written by gcc 12 (version stamp 'B22*')"));
  EXPECT_THAT(c.run.err, HasSubstr("is gcov 99"));
  EXPECT_FALSE(c.spectrum);
}

TEST(CollectErrors, UnreadableCoverageNamesTheTest) {
  TempDir dir;
  // A gcov that reports the data as corrupted, as gcov does for a damaged .gcda.
  write_text(dir / "gcov",
             "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'gcov (Fake) 12.2.0'; exit 0; fi\n"
             "for f; do last=$f; done; echo \"$last:corrupted\" >&2\n");
  fs::permissions(dir / "gcov", fs::perms::owner_all);
  const Collected c = collect(dir, "--gtest " + mini("gcc") + " " + common_args() + " --filter 'Calc.AddSmall' --gcov " +
                                       (dir / "gcov").string());
  EXPECT_EQ(c.run.exit_code, 2);
  EXPECT_THAT(c.run.err, HasSubstr("coverage data of test Calc.AddSmall is unreadable"));
  EXPECT_THAT(c.run.err, HasSubstr(".gcda:corrupted"));
  EXPECT_FALSE(c.spectrum);
}

TEST(CollectErrors, UsageMistakes) {
  TempDir dir;
  EXPECT_EQ(run_shell(std::string(DLFL_BINARY) + " collect --gtest " + mini("gcc")).exit_code, 2);  // no -o
  Collected c = collect(dir, "--gtest " + mini("gcc") + " --ctest " + (kFixtures / "gcc").string());
  EXPECT_EQ(c.run.exit_code, 2);
  EXPECT_THAT(c.run.err, HasSubstr("give exactly one test source"));
  c = collect(dir, "--tests " + (dir / "names").string());
  EXPECT_THAT(c.run.err, HasSubstr("--tests needs --cmd"));
  c = collect(dir, "--gtest /nonexistent/tests");
  EXPECT_THAT(c.run.err, HasSubstr("/nonexistent/tests: no such GoogleTest binary"));
  c = collect(dir, "--gtest " + mini("gcc") + " --source-root /nonexistent/root");
  EXPECT_THAT(c.run.err, HasSubstr("/nonexistent/root: the source root is not a directory"));
}

TEST(CollectInterrupt, SigintStopsRunningTestsAndCleansUp) {
  TempDir dir;
  fs::create_directories(dir / "work");
  // Calc.Hang sleeps 60 s; SIGINT after 1 s must end everything within a few seconds.
  const std::string command = std::string(DLFL_BINARY) + " collect --gtest " + mini("gcc") +
                              " --filter 'Calc.Hang' --timeout 120 --work-dir " + (dir / "work").string() + " -o " +
                              (dir / "out.dlfl").string() + " 2>" + (dir / "err").string() +
                              " & pid=$!; sleep 1; kill -INT $pid; wait $pid; echo $?";
  const auto started = std::chrono::steady_clock::now();
  const CommandResult r = run_shell(command);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
  EXPECT_EQ(r.out, "2\n");
  EXPECT_THAT(slurp(dir / "err"), HasSubstr("interrupted"));
  EXPECT_TRUE(fs::is_empty(dir / "work"));
  EXPECT_FALSE(fs::exists(dir / "out.dlfl"));
}

// SIGKILL cannot be handled: the killed collect's scratch directory stays, and the next
// collect in the same place removes it once it ends (the kernel released its lock).
TEST(CollectInterrupt, SigkillLeavesNothingPastTheNextCollect) {
  TempDir dir;
  const fs::path work = dir / "work";
  fs::create_directories(work);
  // Killed once Calc.Hang runs (its directory t0 exists).
  const std::string kill_command =
      std::string(DLFL_BINARY) + " collect --gtest " + mini("gcc") +
      " --filter 'Calc.Hang' --timeout 120 --work-dir " + work.string() + " -o " + (dir / "out.dlfl").string() +
      " 2>/dev/null & pid=$!; for i in $(seq 200); do ls -d " + work.string() +
      "/dlfl-collect-*/t0 >/dev/null 2>&1 && break; sleep 0.1; done; kill -s KILL $pid; wait $pid; echo $?";
  const CommandResult killed = run_shell(kill_command);
  EXPECT_EQ(killed.out, "137\n");
  // The test it ran (a process group of its own) outlives it; end it, or it would write
  // into the scratch directory when it ends.
  for (const auto& proc : fs::directory_iterator("/proc")) {
    const std::string pid = proc.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    if (slurp(proc.path() / "cmdline").find(work.string()) != std::string::npos) ::kill(std::stoi(pid), SIGKILL);
  }
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(work)) left.push_back(e.path().filename().string());
  ASSERT_EQ(left.size(), 1u);
  EXPECT_TRUE(left[0].starts_with("dlfl-collect-")) << left[0];

  const Collected next =
      collect(dir, "--gtest " + mini("gcc") + " --filter 'Calc.Abs*' --work-dir " + work.string() + " " + common_args());
  EXPECT_EQ(next.run.exit_code, 0) << next.run.err;
  EXPECT_TRUE(fs::is_empty(work)) << "the killed run's " << left[0] << " is reclaimed";
}

// Containers and CI runners share /tmp across PID namespaces: a live collect whose PID
// this namespace cannot see (its name carries a PID that is dead here) keeps its scratch
// directory while another collect runs and ends in the same place.
TEST(CollectInterrupt, ALiveScratchDirectoryOfAnotherPidNamespaceSurvives) {
  if (run_shell("unshare --pid --fork true 2>&1").exit_code != 0)
    GTEST_SKIP() << "this kernel or sandbox forbids a new PID namespace (unshare --pid --fork): "
                 << run_shell("unshare --pid --fork true 2>&1").out;
  // A PID free in this namespace, for the other namespace's collect to run as.
  auto pid = static_cast<pid_t>(std::stol(slurp("/proc/sys/kernel/pid_max")) - 1);
  while (pid > 1000 && (::kill(pid, 0) == 0 || errno != ESRCH)) --pid;
  TempDir dir;
  const fs::path work = dir / "work";
  fs::create_directories(work);
  const std::string inner = std::string(DLFL_BINARY) + " collect --gtest " + mini("gcc") +
                            " --filter Calc.Hang --timeout 120 --work-dir " + work.string() + " -o " +
                            (dir / "inner.dlfl").string();
  // The shell is the namespace's PID 1; the collect it forks after setting the last PID
  // gets `pid`.
  const std::string start = "unshare --pid --fork --kill-child sh -c 'echo " + std::to_string(pid - 1) +
                            " > /proc/sys/kernel/ns_last_pid && " + inner + "' >/dev/null 2>&1 & echo $!";
  const CommandResult started = run_shell(start);
  const pid_t unshare_pid = std::stoi(started.out);
  const std::string live = "dlfl-collect-" + std::to_string(pid) + "-";
  bool running = false;
  for (int i = 0; i < 200 && !running; ++i) {
    for (const auto& e : fs::directory_iterator(work))
      running = running || (e.path().filename().string().starts_with(live) && fs::exists(e.path() / "t0"));
    if (!running) ::usleep(100'000);
  }
  ASSERT_TRUE(running) << "the collect in the other namespace did not start as PID " << pid;

  const Collected next =
      collect(dir, "--gtest " + mini("gcc") + " --filter 'Calc.Abs*' --work-dir " + work.string() + " " + common_args());
  EXPECT_EQ(next.run.exit_code, 0) << next.run.err;
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(work)) left.push_back(e.path().filename().string());
  ASSERT_EQ(left.size(), 1u);
  EXPECT_TRUE(left[0].starts_with(live)) << left[0];
  EXPECT_TRUE(fs::exists(work / left[0] / "t0")) << "the live run's scratch directory was reclaimed";
  ::kill(unshare_pid, SIGKILL);  // --kill-child ends the other namespace with it
  run_shell("while kill -0 " + std::to_string(unshare_pid) + " 2>/dev/null; do sleep 0.1; done");
}

}  // namespace
}  // namespace dlfl::testing

namespace dlfl::testing {
namespace {

// --repeat, --extrinsic-env and --gtest-params end to end (gcov): the collection runs
// twice, the extrinsic elements are covered by exactly the tests that ran under them.
TEST(CollectExtrinsic, RepeatedRunWithEnvironmentAndGtestParameters) {
  TempDir dir;
  const Collected c = collect(dir, common_args() + " --gtest " + mini("gcc") +
                                       " --filter 'Calc.Add*:Calc.AbsNegative:TypedCalc*:Small*' --repeat 2 "
                                       "--extrinsic-env DLFL_TEST_BACKEND --gtest-params --quiet");
  ASSERT_EQ(c.run.exit_code, 0) << c.run.err;
  ASSERT_TRUE(c.spectrum);
  const Spectrum& s = *c.spectrum;
  EXPECT_THAT(c.run.out, HasSubstr("collected 7 tests (1 failing), "));
  EXPECT_THAT(c.run.out, HasSubstr("(gcov, 2 jobs, 2 runs)"));
  std::map<std::string, std::set<std::string>> tests_of;
  for (std::uint32_t e = 0; e < s.element_count(); ++e) {
    if (s.element(e).kind != ElementKind::extrinsic) continue;
    for (std::size_t t = 0; t < s.test_count(); ++t)
      if (s.coverage().covers(t, e)) tests_of[s.element_name(e)].insert(s.tests()[t].name);
  }
  EXPECT_EQ(tests_of["TypeParam=int"], (std::set<std::string>{"TypedCalc/0.Positive"}));
  EXPECT_EQ(tests_of["TypeParam=long"], (std::set<std::string>{"TypedCalc/1.Positive"}));
  EXPECT_EQ(tests_of["GetParam()=1"], (std::set<std::string>{"Small/AddParam.Works/1"}));
  EXPECT_EQ(tests_of["DLFL_TEST_BACKEND="].size(), 7u);
  EXPECT_EQ(tests_of.size(), 5u);
  EXPECT_DOUBLE_EQ(test_named(s, "Calc.AbsNegative").failure_weight, 1.0);  // failed both runs
}

}  // namespace
}  // namespace dlfl::testing
