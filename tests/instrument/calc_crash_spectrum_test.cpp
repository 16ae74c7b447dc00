// The gcov and llvm paths' crash handler against the runtime path on calc's two crashing
// faults (`undefined_variable`: a NULL dereference; `unary_recursion`: a stack overflow),
// where every failing test dies of SIGSEGV. gcov and LLVM's profile runtime (outside its
// continuous mode) write nothing for a killed process, so without dlfl's handler the
// crashed tests would cover nothing; the runtime keeps what a crashed test reached by
// design (its map is written as the test runs). Both collections of the same tests must
// give every crashed test the same lines.
//
// Documented differences, left out of the comparison, that have nothing to do with
// crashes: the two element sets are not the same lines (gcov also counts lines no
// statement starts on, such as a function's opening line; the runtime has a probe per
// statement), and on a few lines the two count differently: gcov counts a `while (1) {`
// line only when the loop jumps back (at -O0 no code of that line runs on entry), the
// runtime's probe counts entering the loop. So the comparison is over the lines that are
// elements of both and on which both agree for every test that did not crash (most of
// the program, checked below).
//
// LLVM counts a region when it is entered and reports every line of an entered region as
// covered, so in a crashed test it also reports the lines after the crashing call in the
// regions still on the stack (the rest of `run_line`, `main`, the recursion's callers),
// which neither the runtime's statement probes nor gcov's arcs saw run. On the llvm path a
// crashed test must therefore cover every line the runtime saw, plus such lines only.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>

#include "calc_build.h"
#include "dlfl/formats/spectrum_formats.h"

namespace {

using namespace dlfl;
using namespace dlfl::testing;

using Line = std::pair<std::string, std::uint32_t>;

// Per test name: its status and the lines it covers among `lines`.
struct Reading {
  std::map<std::string, TestStatus> status;
  std::map<std::string, std::set<Line>> covered;
};

std::set<Line> element_lines(const Spectrum& s) {
  std::set<Line> lines;
  for (std::size_t e = 0; e < s.element_count(); ++e)
    if (s.element(e).first_line) lines.emplace(std::string(s.file(e)), s.element(e).first_line);
  return lines;
}

Reading read(const Spectrum& s, const std::set<Line>& lines) {
  Reading r;
  for (std::size_t t = 0; t < s.test_count(); ++t) {
    r.status[s.tests()[t].name] = s.tests()[t].status;
    auto& covered = r.covered[s.tests()[t].name];
    for (std::size_t e = 0; e < s.element_count(); ++e) {
      const Line line{std::string(s.file(e)), s.element(e).first_line};
      if (s.coverage().covers(t, e) && lines.contains(line)) covered.insert(line);
    }
  }
  return r;
}

// calc built by clang with LLVM source-based coverage (profile written at exit) in `dir`.
std::string build_calc_llvm(const fs::path& dir, const std::string& fault) {
  for (const std::string& command :
       {"CC=clang-14 cmake -S " + kCalcSource.string() + " -B " + dir.string() +
            " -G Ninja -DCMAKE_BUILD_TYPE= -DCMAKE_C_FLAGS='-O0 -fprofile-instr-generate -fcoverage-mapping' "
            "-DCALC_FAULT=" + fault,
        "cmake --build " + dir.string()}) {
    const Shell r = sh(command);
    if (r.exit_code != 0) return command + "\n" + r.output;
  }
  return {};
}

class CalcCrashSpectrum : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(CalcCrashSpectrum, CrashHandlerCoversWhatTheRuntimeCoversInCrashedTests) {
  const auto& [fault, backend] = GetParam();
  if (!have_program("gcov") || !have_program("cmake") || !have_program("ninja") || !have_program("gcc"))
    GTEST_SKIP() << "needs gcc, gcov, cmake, ninja";
  if (backend == "llvm" && (!have_program("clang-14") || !have_program("llvm-cov-14") || !have_program("llvm-profdata-14")))
    GTEST_SKIP() << "needs clang-14, llvm-cov-14 and llvm-profdata-14";
  const fs::path cache = fs::path(DLFL_CALC_E2E_DIR) / ("crash-" + fault);
  const CalcBuilds b = build_calc(cache, fault);
  ASSERT_TRUE(b.error.empty()) << b.error;
  const fs::path llvm_build = cache / "llvm";
  if (backend == "llvm") {
    const std::string error = build_calc_llvm(llvm_build, fault);
    ASSERT_TRUE(error.empty()) << error;
  }
  TempDir tmp;
  // The categories that reach the faults (unary minus, variables, errors): 90 of 305.
  std::istringstream all(slurp(kCalcSource / "tests/tests.txt"));
  std::string subset;
  for (std::string name; std::getline(all, name);)
    if (name.starts_with("unary_") || name.starts_with("vars_") || name.starts_with("error_")) subset += name + "\n";
  write_text(tmp / "tests.txt", subset);
  const std::string run_one = (kCalcSource / "tests/run_one.sh").string();
  const std::string common = std::string(DLFL_BINARY) + " collect -q -j2 --tests " + (tmp / "tests.txt").string();
  const fs::path program = backend == "llvm" ? llvm_build / "calc" : b.gcov_build / "calc";
  const Shell gcov = sh(common + " --cmd '" + run_one + " " + program.string() + " {}' --coverage " + backend +
                        (backend == "llvm" ? " --object " + program.string() : std::string()) + " --source-root " +
                        kCalcSource.string() + " -o " + (tmp / "gcov.dlfl").string());
  ASSERT_EQ(gcov.exit_code, 0) << gcov.output;
  const Shell runtime = sh(common + " --runtime --cmd '" + run_one + " " + (b.instr_build / "calc").string() +
                           " {}' --probe-map " + (b.instr_tree / instrument::kProbeMapFileName).string() + " -o " +
                           (tmp / "runtime.dlfl").string());
  ASSERT_EQ(runtime.exit_code, 0) << runtime.output;

  const Spectrum g = io::read_spectrum(tmp / "gcov.dlfl");
  const Spectrum r = io::read_spectrum(tmp / "runtime.dlfl");
  std::set<Line> lines;
  const auto gcov_lines = element_lines(g), runtime_lines = element_lines(r);
  std::set_intersection(gcov_lines.begin(), gcov_lines.end(), runtime_lines.begin(), runtime_lines.end(),
                        std::inserter(lines, lines.begin()));
  EXPECT_GT(lines.size(), 250u) << gcov_lines.size() << " gcov lines, " << runtime_lines.size() << " probed lines";
  Reading from_gcov = read(g, lines), from_runtime = read(r, lines);
  ASSERT_EQ(from_gcov.status, from_runtime.status);  // the same verdicts, crashes included
  // Lines the two count differently in tests that ran to the end (see above).
  std::set<Line> differ;
  for (const auto& [name, status] : from_gcov.status) {
    if (status == TestStatus::crashed) continue;
    const auto& a = from_gcov.covered.at(name);
    const auto& b = from_runtime.covered.at(name);
    std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(differ, differ.begin()));
  }
  EXPECT_LT(differ.size(), backend == "llvm" ? 12u : 5u);
  for (const auto& line : differ) {
    lines.erase(line);
    for (auto* reading : {&from_gcov, &from_runtime})
      for (auto& [name, covered] : reading->covered) covered.erase(line);
  }
  EXPECT_GT(lines.size(), 250u);

  std::size_t crashed = 0, region_tails = 0;
  for (const auto& [name, status] : from_gcov.status) {
    if (status != TestStatus::crashed) continue;
    ++crashed;
    EXPECT_GT(from_gcov.covered.at(name).size(), 20u) << name << ": the crashed test lost its " << backend << " coverage";
    const auto& a = from_gcov.covered.at(name);
    const auto& b = from_runtime.covered.at(name);
    std::string only_gcov, only_runtime;
    for (const auto& [file, line] : a)
      if (!b.contains({file, line})) only_gcov += " " + file + ":" + std::to_string(line);
    for (const auto& [file, line] : b)
      if (!a.contains({file, line})) only_runtime += " " + file + ":" + std::to_string(line);
    if (backend == "llvm") {
      region_tails += std::count(only_gcov.begin(), only_gcov.end(), ' ');
      EXPECT_TRUE(only_runtime.empty()) << name << ": llvm lost lines the runtime saw:" << only_runtime;
    } else {
      EXPECT_TRUE(only_gcov.empty() && only_runtime.empty())
          << name << ": only gcov covers" << only_gcov << "; only the runtime covers" << only_runtime;
    }
  }
  EXPECT_GT(crashed, 0u);
  std::cout << fault << " (" << backend << "): " << crashed << " crashed tests compared on " << lines.size() << " lines (" << differ.size()
            << " lines counted differently in the other tests left out)";
  if (backend == "llvm") std::cout << "; " << region_tails << " (test, line) pairs of entered regions past the crash";
  std::cout << "\n";
}

INSTANTIATE_TEST_SUITE_P(CrashingFaults, CalcCrashSpectrum,
                         ::testing::Combine(::testing::Values("undefined_variable", "unary_recursion"),
                                            ::testing::Values("gcov", "llvm")),
                         [](const auto& info) { return std::get<0>(info.param) + "_" + std::get<1>(info.param); });

}  // namespace
