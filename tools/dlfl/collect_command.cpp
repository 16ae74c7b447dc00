// `dlfl collect`: runs a test suite one test per process with per-test coverage and
// writes the line spectrum.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <iostream>
#include <sstream>

#include "cli_support.h"
#include "commands.h"
#include "dlfl/collect/collector.h"
#include "dlfl/error.h"
#include "dlfl/io/gzoltar_format.h"
#include "dlfl/io/spectrum_formats.h"

namespace dlfl::cli {
namespace {

struct CollectCliOptions {
  collect::CollectOptions collect;
  std::string gtest, ctest, tests, command;
  std::string coverage = "auto";
  double timeout_s = 300;
  std::string output, gzoltar;
  bool quiet = false;
};

// SIGINT/SIGTERM: ask the collector to kill the running tests and clean up, instead of
// dying and leaving them (in their own process groups, out of the terminal's reach).
std::atomic<bool> g_interrupted{false};
extern "C" void on_interrupt(int) { g_interrupted.store(true); }

class InterruptGuard {
 public:
  InterruptGuard() {
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  ~InterruptGuard() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

std::string plural(std::size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

void run_collect(CollectCliOptions& o) {
  auto& c = o.collect;
  const int sources = !o.gtest.empty() + !o.ctest.empty() + !o.tests.empty();
  if (sources != 1) throw Error("give exactly one test source: --gtest BINARY, --ctest DIR or --tests FILE --cmd CMD");
  if (!o.tests.empty() && o.command.empty()) throw Error("--tests needs --cmd 'COMMAND {}'");
  if (o.tests.empty() && !o.command.empty()) throw Error("--cmd goes with --tests FILE");
  if (o.output.empty() && o.gzoltar.empty()) throw Error("nowhere to write the spectrum: give -o FILE and/or --gzoltar DIR");
  if (!o.gtest.empty()) {
    c.source = collect::TestSourceKind::gtest;
    c.gtest_binary = o.gtest;
  } else if (!o.ctest.empty()) {
    c.source = collect::TestSourceKind::ctest;
    c.ctest_dir = o.ctest;
  } else {
    c.source = collect::TestSourceKind::command_template;
    c.test_list = o.tests;
    c.command_template = o.command;
  }
  const std::string kind = CLI::detail::to_lower(o.coverage);
  c.coverage = kind == "gcov"   ? collect::CoverageKind::gcov
               : kind == "llvm" ? collect::CoverageKind::llvm
                                : collect::CoverageKind::automatic;
  c.timeout = std::chrono::milliseconds(static_cast<long long>(std::llround(o.timeout_s * 1000)));
  c.interrupt = &g_interrupted;

  const auto style = o.quiet ? collect::ProgressStyle::none : collect::progress_style_for(STDERR_FILENO);
  const auto progress = collect::make_progress(style, std::cerr);
  g_interrupted = false;
  collect::CollectResult result;
  {
    InterruptGuard guard;
    result = collect::collect(c, *progress);
  }
  for (const auto& w : result.warnings) warn(w);
  const auto& s = result.stats;
  if (s.failing == 0)
    throw Error("no failing test among the " + plural(s.tests, "test") +
                ": nothing to localize, so no spectrum was written");
  if (!o.gzoltar.empty()) io::write_gzoltar(result.spectrum, o.gzoltar);
  if (!o.output.empty()) io::write_spectrum(result.spectrum, o.output, io::infer_output_format(o.output));

  std::ostringstream line;
  line << "collected " << plural(s.tests, "test") << " (" << s.failing << " failing";
  if (s.crashed) line << ", " << s.crashed << " crashed";
  if (s.timed_out) line << ", " << s.timed_out << " timed out";
  line << ")";
  if (s.skipped) line << ", " << s.skipped << " skipped";
  line << ", " << plural(s.elements, "element") << ", " << std::fixed;
  line.precision(1);
  line << s.seconds << " s (" << collect::coverage_kind_name(s.backend) << ", " << plural(s.jobs, "job") << ")";
  line << " -> " << (o.output.empty() ? o.gzoltar : o.output);
  if (!o.output.empty() && !o.gzoltar.empty()) line << ", " << o.gzoltar;
  std::cout << line.str() << '\n';
}

}  // namespace

void add_collect_command(CLI::App& app) {
  auto o = std::make_shared<CollectCliOptions>();
  auto& c = o->collect;
  auto* cmd = app.add_subcommand(
      "collect",
      "Run a test suite one test per process with per-test coverage (gcov or llvm-cov) and write the line "
      "spectrum.\n"
      "Elements are the instrumented lines of the kept files (run or not), named file#function:line.\n"
      "Example: dlfl collect --gtest build/tensorlite_tests --source-root . --exclude '*/tests/*' -o sfl.dlfl");
  cmd->add_option("--gtest", o->gtest, "GoogleTest binary: each listed test (--gtest_list_tests) runs alone, in the current directory")
      ->group("Test source (one)");
  cmd->add_option("--ctest", o->ctest, "CTest build directory: each test of `ctest --show-only=json-v1` runs alone")
      ->group("Test source (one)");
  cmd->add_option("--tests", o->tests, "File of test names, one a line, run with --cmd")->group("Test source (one)");
  cmd->add_option("--cmd", o->command,
                  "Command template for --tests, run by /bin/sh -c; {} is replaced by the quoted test name")
      ->group("Test source (one)");
  cmd->add_option("--filter", c.filter, "Only tests matching this GoogleTest-style filter, e.g. 'Softmax*:Conv*-*Slow*'");

  cmd->add_option("--coverage", o->coverage,
                  "Coverage backend: gcov (gcc --coverage), llvm (clang -fprofile-instr-generate -fcoverage-mapping), "
                  "auto (default: from the binaries)")
      ->check(CLI::IsMember({"auto", "gcov", "llvm"}, CLI::ignore_case))
      ->group("Coverage");
  cmd->add_option("--object", c.objects,
                  "llvm: another instrumented binary or shared library to read the coverage mapping from (repeatable; "
                  "required for --tests)")
      ->group("Coverage");
  cmd->add_option("--gcov", c.tools.gcov, "gcov to use (default: gcov-N for the gcc that built the .gcno, else gcov)")
      ->group("Coverage");
  cmd->add_option("--llvm-profdata", c.tools.llvm_profdata,
                  "llvm-profdata to use (default: llvm-profdata-N for the clang that built the binary)")
      ->group("Coverage");
  cmd->add_option("--llvm-cov", c.tools.llvm_cov, "llvm-cov to use (default: llvm-cov-N as above)")->group("Coverage");

  cmd->add_option("--source-root", c.paths.source_root,
                  "Keep only files under DIR, named relative to it (default: all files, absolute paths)")
      ->group("Elements");
  cmd->add_option("--exclude", c.paths.excludes,
                  "Leave out files whose path (relative to --source-root, else absolute) matches this glob "
                  "(fnmatch, * crosses /, '*/tests/*' also matches tests/ at the root); repeatable: '*/tests/*' "
                  "'third_party/*'")
      ->group("Elements");
  cmd->add_flag("--include-system", c.paths.include_system,
                "Keep system headers too (/usr/include, /usr/lib, /usr/local/include, /usr/local/lib, /usr/share)")
      ->group("Elements");

  cmd->add_option("-j,--jobs", c.jobs, "Tests run in parallel (default: hardware threads)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--timeout", o->timeout_s,
                  "Seconds per test before its process group is killed (SIGTERM, SIGKILL 2 s later) and it is recorded "
                  "as timed out; a CTest TIMEOUT property wins; 0 = none (default: 300)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--work-dir", c.work_dir, "Where the per-test scratch directories go (default: the temp directory)");
  cmd->add_flag("--keep-work", c.keep_work, "Keep the scratch directories (coverage files, reports) for inspection");
  cmd->add_option("-o,--output", o->output,
                  "Spectrum file, written atomically: .dlfl = native, a directory = GZoltar, .../matrix = legacy")
      ->group("Output");
  cmd->add_option("--gzoltar", o->gzoltar, "Also write the spectrum as a GZoltar directory")->group("Output");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress display or notes (warnings and the summary stay)")->group("Output");
  cmd->callback([o] { run_collect(*o); });
}

}  // namespace dlfl::cli
