// The C example subject (examples/calc, a plain C program whose tests are ~300 input
// files run one per process by tests/run_one.sh) end to end with its crashing fault
// `undefined_variable` seeded: per-test gcov through `dlfl collect --tests/--cmd`, and
// `dlfl instrument` on its C compilation database, built with $(dlfl config) into a plain
// C program with the runtime and no GoogleTest.
#include <gtest/gtest.h>

#include <optional>

#include "dlfl/instrument/probe_map.h"
#include "dlfl/io/spectrum_formats.h"
#include "calc_build.h"

namespace {

using namespace dlfl;
using namespace dlfl::testing;

const fs::path kCalc = kCalcSource;

// Runs every test of the suite through run_one.sh with `calc`; name → exit status.
std::map<std::string, int> run_suite(const fs::path& calc, const std::string& env = "") {
  const Shell r = sh("while read -r t; do " + env + " " + (kCalc / "tests/run_one.sh").string() + " " + calc.string() +
                     " $t >/dev/null 2>&1; echo \"$t $?\"; done < " + (kCalc / "tests/tests.txt").string());
  std::map<std::string, int> out;
  std::istringstream in(r.output);
  std::string name;
  for (int status; in >> name >> status;) out[name] = status;
  return out;
}

class Calc : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_program("gcov") || !have_program("cmake") || !have_program("ninja") || !have_program("gcc"))
      GTEST_SKIP() << "needs gcc, gcov, cmake, ninja";
    // One cache per test: ctest runs the two at once, in separate processes.
    b_ = build_calc(fs::path(DLFL_CALC_E2E_DIR) / ::testing::UnitTest::GetInstance()->current_test_info()->name(),
                    "undefined_variable");
    ASSERT_TRUE(b_.error.empty()) << b_.error;
  }
  CalcBuilds b_;
};

// `dlfl collect --tests/--cmd` with gcov: every test a process; the crashes are seen as
// crashes and keep the coverage they reached (dlfl's crash handler flushes gcov's
// counters before the signal takes the process), the faulty line included.
TEST_F(Calc, GcovCollectsTheFileSuiteThroughTestsAndCmd) {
  TempDir tmp;
  const Shell gcov = sh(std::string(DLFL_BINARY) + " collect -q --tests " + (kCalc / "tests/tests.txt").string() +
                        " --cmd '" + (kCalc / "tests/run_one.sh").string() + " " +
                        (b_.gcov_build / "calc").string() + " {}' --coverage gcov -j2 --source-root " +
                        kCalc.string() + " -o " + (tmp / "gcov.dlfl").string());
  ASSERT_EQ(gcov.exit_code, 0) << gcov.output;
  EXPECT_NE(gcov.output.find("collected 305 tests (8 failing, 8 crashed)"), std::string::npos) << gcov.output;
  const Spectrum s = io::read_spectrum(tmp / "gcov.dlfl");
  ASSERT_EQ(s.test_count(), 305u);
  std::set<std::string> files;
  std::optional<std::size_t> faulty;  // faults/faults.json: undefined_variable
  for (std::size_t e = 0; e < s.element_count(); ++e) {
    files.insert(std::string(s.file(e)));
    if (s.file(e) == "src/eval.c" && s.element(e).first_line == 67) faulty = e;
  }
  EXPECT_EQ(files, (std::set<std::string>{"src/builtins.c", "src/eval.c", "src/format.c", "src/lexer.c",
                                          "src/main.c", "src/parser.c", "src/vars.c"}));
  ASSERT_TRUE(faulty.has_value());
  std::size_t crashed = 0, passing_on_faulty_line = 0;
  for (std::size_t t = 0; t < s.test_count(); ++t) {
    if (!s.tests()[t].failed()) {
      passing_on_faulty_line += s.coverage().covers(t, *faulty);
      continue;
    }
    EXPECT_EQ(s.tests()[t].status, TestStatus::crashed) << s.tests()[t].name;
    EXPECT_TRUE(s.coverage().covers(t, *faulty)) << s.tests()[t].name << " crashed without reaching the faulty line";
    ++crashed;
  }
  EXPECT_EQ(crashed, 8u);
  EXPECT_GT(passing_on_faulty_line, 0u);  // every test reading a defined variable runs it too
}

// The C compilation database instruments, the probed copy builds into a plain C program
// with the runtime and without GoogleTest, and every test gives the same verdict as on
// the original (probes change no behaviour; the 8 crashes stay crashes).
TEST_F(Calc, InstrumentedCProgramPassesAndFailsTheSameTests) {
  EXPECT_EQ(sh("ldd " + (b_.instr_build / "calc").string() + " | grep -c gtest").output, "0\n");
  EXPECT_EQ(sh("ldd " + (b_.instr_build / "calc").string() + " | grep -c dlfl_rt").output, "1\n");
  const auto map = instrument::read_probe_map(b_.instr_tree / instrument::kProbeMapFileName);
  EXPECT_EQ(map.files.size(), 7u);  // the .c files (the headers hold no function bodies)
  EXPECT_GT(map.probe_count, 300u);
  TempDir tmp;
  const auto original = run_suite(b_.gcov_build / "calc");
  const auto probed = run_suite(b_.instr_build / "calc", "DLFL_RT_FILE=" + (tmp / "run.map").string());
  ASSERT_EQ(original.size(), 305u);
  EXPECT_EQ(probed, original);
  std::size_t crashes = 0;
  for (const auto& [name, status] : probed) crashes += status > 128;
  EXPECT_EQ(crashes, 8u);
}

}  // namespace
