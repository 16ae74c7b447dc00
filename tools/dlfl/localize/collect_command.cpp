// `dlfl collect`: runs a test suite one test per process with per-test coverage and
// writes the line spectrum; with --runtime, runs an instrumented GoogleTest binary once,
// or converts the runtime snapshots of a run someone else started (--snapshot).
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <functional>
#include <iostream>
#include <filesystem>
#include <sstream>

#include "cli_support.h"
#include "commands.h"
#include "dlfl/limits.h"
#include "dlfl/collect/collector.h"
#include "dlfl/collect/progress.h"
#include "dlfl/error.h"
#include "dlfl/formats/gzoltar_format.h"
#include "dlfl/formats/spectrum_formats.h"
#include "runtime_layout.h"

namespace dlfl::cli {
namespace {

namespace fs = std::filesystem;

struct CollectCliOptions {
  // The settings the options fill in directly; the source and the settings with defaults
  // of their own are added by request_of().
  collect::CollectRequest request;
  std::string gtest, ctest, tests, command;
  std::string reference_command, reference_cache;
  std::string coverage = "auto";
  std::string crash_handler = "auto";
  double timeout_s = 300;
  unsigned jobs = 0;
  std::string output, gzoltar;
  bool quiet = false;
  bool runtime = false;
  std::string probe_map;
  std::vector<std::string> snapshots;
  // pytest runs (python/dlfl_pytest): one spectrum of Python and C++ lines.
  std::string pytest_run, pytest_report, coverage_py;
  std::vector<std::string> leave_out;  // python, c++, extrinsic
  unsigned repeat = 1;
  std::string shard;  // "I/N"
};

using Given = std::function<bool(const char*)>;

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

bool pytest_mode(const CollectCliOptions& o) {
  return !o.pytest_run.empty() || !o.pytest_report.empty() || !o.coverage_py.empty();
}

// The one test source the options name; the checks are about the options themselves (one
// source, --tests with --cmd), in the words of the mode.
collect::CollectSource source_of(const CollectCliOptions& o) {
  if (pytest_mode(o)) {
    if (!o.gtest.empty() || !o.ctest.empty() || !o.tests.empty())
      throw Error("--pytest-run/--pytest-report/--coverage-py read a pytest run; they do not go with --gtest, --ctest "
                  "or --tests");
    collect::PytestRun run{.directory = o.pytest_run, .report = o.pytest_report, .coverage_json = o.coverage_py};
    run.snapshots.assign(o.snapshots.begin(), o.snapshots.end());
    for (const auto& what : o.leave_out) {
      if (what == "python") run.python = false;
      else if (what == "c++") run.cpp = false;
      else run.extrinsic = false;
    }
    return run;
  }
  const int sources = !o.gtest.empty() + !o.ctest.empty() + !o.tests.empty() + !o.snapshots.empty();
  if (o.runtime && sources > 1)
    throw Error("--runtime takes one of --gtest BINARY, --ctest DIR, --tests FILE --cmd CMD or --snapshot FILE "
                "(--snapshot reads the snapshot files of a run that already happened)");
  if (o.runtime && sources == 0)
    throw Error("--runtime needs --gtest BINARY (built from a `dlfl instrument` tree), --ctest DIR, --tests FILE --cmd "
                "CMD, or --snapshot FILE (the DLFL_RT_FILE of a run, e.g. under pytest)");
  if (!o.runtime && sources != 1)
    throw Error("give exactly one test source: --gtest BINARY, --ctest DIR or --tests FILE --cmd CMD");
  if (!o.tests.empty() && o.command.empty()) throw Error("--tests needs --cmd 'COMMAND {}'");
  if (o.tests.empty() && !o.command.empty()) throw Error("--cmd goes with --tests FILE");
  if (!o.reference_command.empty() && o.tests.empty())
    throw Error("a reference command judges --tests/--cmd suites; GoogleTest and CTest tests judge themselves");
  if (!o.snapshots.empty()) return collect::RuntimeSnapshots{{o.snapshots.begin(), o.snapshots.end()}};
  if (!o.gtest.empty()) return collect::GtestBinary{.binary = o.gtest};
  if (!o.ctest.empty()) return collect::CtestDirectory{.dir = o.ctest};
  return collect::CommandList{.test_list = o.tests,
                              .command = o.command,
                              .reference_command = o.reference_command,
                              .reference_cache = o.reference_cache};
}

// The request the options make; collect::validate() judges how its parts go together.
// Settings with a default are set only when given, so that it can tell.
collect::CollectRequest request_of(const CollectCliOptions& o, const Given& given) {
  collect::CollectRequest r = o.request;
  r.source = source_of(o);
  if (o.output.empty() && o.gzoltar.empty()) throw Error("nowhere to write the spectrum: give -o FILE and/or --gzoltar DIR");
  const std::string kind = CLI::detail::to_lower(o.coverage);
  if (o.runtime && kind != "auto")
    throw Error("--runtime and --coverage " + o.coverage + " exclude each other: the runtime's probes are the coverage");
  r.coverage = o.runtime        ? collect::CoverageKind::runtime
               : kind == "gcov" ? collect::CoverageKind::gcov
               : kind == "llvm" ? collect::CoverageKind::llvm
                                : collect::CoverageKind::automatic;
  r.probe_map = o.probe_map;
  if (given("--jobs")) r.jobs = o.jobs;
  if (given("--timeout")) r.timeout = std::chrono::milliseconds(static_cast<long long>(std::llround(o.timeout_s * 1000)));
  if (given("--repeat")) r.repeat = o.repeat;
  if (given("--crash-handler")) r.crash_handler = CLI::detail::to_lower(o.crash_handler) != "off";
  if (r.crash_handler.value_or(true) && !pytest_mode(o) && o.snapshots.empty()) r.crash_dump_library = crash_dump_library();
  if (!o.shard.empty()) r.shard = collect::parse_shard(o.shard);
  r.interrupt = &g_interrupted;
  return r;
}

// What the summary line says of how the spectrum was collected.
std::string how_collected(const collect::CollectRequest& r, const collect::CollectResult& result) {
  const auto& s = result.stats;
  const unsigned repeat = r.repeat.value_or(1);
  const std::string runs = repeat > 1 ? ", " + std::to_string(repeat) + " runs" : "";
  if (std::holds_alternative<collect::PytestRun>(r.source)) {
    std::string how = "pytest run: " + std::to_string(s.cpp_elements) + " c++, " + std::to_string(s.python_elements) +
                      " python, " + std::to_string(s.extrinsic_elements) + " extrinsic";
    if (s.processes) how += "; " + plural(s.processes, "snapshot");
    if (!result.flaky.empty()) how += "; " + std::to_string(result.flaky.size()) + " flaky";
    return how;
  }
  if (std::holds_alternative<collect::RuntimeSnapshots>(r.source)) return "runtime, " + plural(s.processes, "snapshot");
  if (std::holds_alternative<collect::GtestBinary>(r.source) && r.coverage == collect::CoverageKind::runtime)
    return "runtime, " + std::to_string(s.processes) + (s.processes == 1 ? " process" : " processes") + runs;
  return std::string(collect::coverage_kind_name(s.backend)) + ", " + plural(s.jobs, "job") + runs;
}

// Writes the outputs (none when no test failed) and prints the summary line.
void write_collected(const CollectCliOptions& o, const collect::CollectResult& result, const std::string& how) {
  const auto& s = result.stats;
  // A shard without a failing test is normal: `dlfl merge` joins it with the others.
  if (s.failing == 0 && o.shard.empty())
    throw Error("no failing test among the " + plural(s.tests, "test") +
                ": nothing to localize, so no spectrum was written");
  if (s.failing == 0) warn("shard " + o.shard + " has no failing test; its passing tests still count once merged");
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
  line << s.seconds << " s (" << how << ")";
  if (!o.shard.empty()) line << ", shard " << o.shard;
  line << " -> " << (o.output.empty() ? o.gzoltar : o.output);
  if (!o.output.empty() && !o.gzoltar.empty()) line << ", " << o.gzoltar;
  std::cout << line.str() << '\n';
  std::cout << "elements by language: " << language_counts(result.spectrum.elements()) << '\n';
  for (const auto& f : result.flaky) std::cout << "flaky: " << f << '\n';
}

void run_collect(const CollectCliOptions& o, const Given& given) {
  collect::CollectRequest request = request_of(o, given);
  collect::validate(request);
  // Tests run one per process under the runtime: the probe map is named before they run.
  if (request.coverage == collect::CoverageKind::runtime && request.probe_map.empty() &&
      std::holds_alternative<collect::CtestDirectory>(request.source)) {
    request.probe_map = collect::runtime_probe_map(request);
    if (!o.quiet) std::cerr << "dlfl: probe map: " << request.probe_map.string() << '\n';
  }
  const auto style = o.quiet ? collect::ProgressStyle::none : collect::progress_style_for(STDERR_FILENO);
  const auto progress = collect::make_progress(style, std::cerr);
  request.progress = progress.get();
  g_interrupted = false;
  collect::CollectResult result;
  {
    InterruptGuard guard;
    result = collect::collect(request);
  }
  if (std::holds_alternative<collect::PytestRun>(request.source) && o.probe_map.empty() &&
      !result.probe_map.empty() && !o.quiet)
    std::cerr << "dlfl: probe map: " << result.probe_map.string() << '\n';
  for (const auto& w : result.warnings) warn(w);
  if (!o.quiet && !result.work_dir.empty())
    std::cerr << "dlfl: kept the snapshot files in " << result.work_dir.string() << '\n';
  write_collected(o, result, how_collected(request, result));
}

}  // namespace

void add_collect_command(CLI::App& app) {
  auto o = std::make_shared<CollectCliOptions>();
  auto& c = o->request;
  auto* cmd = app.add_subcommand(
      "collect",
      "Run a test suite one test per process with per-test coverage (gcov or llvm-cov) and write the line "
      "spectrum.\n"
      "Elements are the instrumented lines of the kept files (run or not), named file#function:line.\n"
      "With --runtime, run a GoogleTest binary built from a `dlfl instrument` tree ONCE instead: the runtime\n"
      "records each test's lines; a crash or timeout keeps the test's coverage and restarts on the rest.\n"
      "With --runtime --ctest/--tests, run each test's process(es) built from such a tree, -j N at once: the\n"
      "runtime records the whole process (and what it forks or starts) as that test, no harness needed.\n"
      "With --runtime --snapshot, convert the snapshot file(s) of a run made by another harness (pytest).\n"
      "Example: dlfl collect --gtest build/tensorlite_tests --source-root . --exclude '*/tests/*' -o sfl.dlfl\n"
      "Example: dlfl collect --runtime --gtest instr/build/tensorlite_tests --exclude 'tests/*' -o sfl.dlfl\n"
      "Example: dlfl collect --runtime --tests names.txt --cmd './prog {}' --probe-map instr/dlfl-probes.map -o sfl.dlfl\n"
      "Example: dlfl collect --gtest build/tensorlite_tests --shard 0/4 -o shard-0.dlfl   (then dlfl merge)\n"
      "Example: DLFL_RT_FILE=run.map pytest tests/ && "
      "dlfl collect --runtime --snapshot run.map --probe-map instr/dlfl-probes.map -o sfl.dlfl");
  cmd->add_option("--gtest", o->gtest, "GoogleTest binary: each listed test (--gtest_list_tests) runs alone, in the current directory")
      ->group("Test source (one)");
  cmd->add_option("--ctest", o->ctest, "CTest build directory: each test of `ctest --show-only=json-v1` runs alone")
      ->group("Test source (one)");
  cmd->add_option("--tests", o->tests, "File of test names, one a line, run with --cmd")->group("Test source (one)");
  cmd->add_option("--cmd", o->command,
                  "Command template for --tests, run by /bin/sh -c; {} is replaced by the quoted test name")
      ->group("Test source (one)");
  cmd->add_flag("--runtime", o->runtime,
                "Collect with dlfl's runtime (programs built from a `dlfl instrument` tree, dlfl config) instead of "
                "gcov/llvm-cov: one run of a --gtest binary, or one process per --ctest/--tests test")
      ->group("Runtime");
  cmd->add_option("--snapshot", o->snapshots,
                  "--runtime: instead of running --gtest, read this runtime snapshot file (the DLFL_RT_FILE of a run "
                  "dlfl did not start, e.g. pytest with examples/pytest_conftest); repeatable, one per process "
                  "(pytest-xdist workers write FILE.PID), merged in order; needs --probe-map")
      ->group("Runtime");
  cmd->add_option("--probe-map", o->probe_map,
                  "--runtime: the dlfl-probes.map of the instrumented tree (default: the first one found walking up "
                  "from the --gtest binary or the --ctest directory, also via a CMake build directory's source "
                  "directory; required with --tests)")
      ->group("Runtime");
  cmd->add_option("--pytest-run", o->pytest_run,
                  "Read a pytest run made with `pytest -p dlfl_pytest --dlfl-out DIR`: its outcomes (flaky reruns "
                  "k/N), extrinsic values, coverage.py report (Python lines) and runtime snapshots (C++ lines, with "
                  "--probe-map), joined into one spectrum")
      ->group("pytest");
  cmd->add_option("--pytest-report", o->pytest_report, "dlfl_pytest's pytest-run.json (instead of --pytest-run DIR)")
      ->group("pytest");
  cmd->add_option("--coverage-py", o->coverage_py,
                  "coverage.py JSON with per-test contexts (`coverage json --show-contexts`); outcomes come from "
                  "--pytest-report or --snapshot")
      ->group("pytest");
  cmd->add_option("--leave-out", o->leave_out,
                  "Leave python lines, c++ lines or extrinsic elements out of a pytest run's spectrum (repeatable)")
      ->check(CLI::IsMember({"python", "c++", "extrinsic"}))
      ->group("pytest");
  cmd->add_option("--repeat", o->repeat,
                  "Run every test N times: a test failing in k of N runs gets failure weight k/N (flaky); the summary "
                  "lists the flaky tests. --gtest with --runtime: --gtest_repeat=N in one process, each run bracketed on "
                  "its own; other sources: the whole collection N times (pytest: the plugin's --dlfl-repeat)")
      ->check(CLI::PositiveNumber)
      ->group("Extrinsic and flaky");
  cmd->add_option("--extrinsic-env", c.extrinsic_env,
                  "Record this environment variable's value as an extrinsic element NAME=value of every test "
                  "(repeatable; compare runs under different values; pytest: the plugin's --dlfl-extrinsic-env)")
      ->group("Extrinsic and flaky");
  cmd->add_flag("--gtest-params", c.gtest_params,
                "--gtest: add an extrinsic element per GoogleTest type or value parameter (TypeParam=half, "
                "GetParam()=4, as --gtest_list_tests prints them), covered by the tests instantiated with it")
      ->group("Extrinsic and flaky");
  cmd->add_option("--filter", c.filter, "Only tests matching this GoogleTest-style filter, e.g. 'Softmax*:Conv*-*Slow*'");
  cmd->add_option("--shard", o->shard,
                  "Only shard I of N (0-based, e.g. 3/16; after --filter): GoogleTest's own sharding for --gtest, a "
                  "split by test name for --ctest, --tests and --snapshot. A shard may have no failing test; join the "
                  "shards with `dlfl merge`");

  cmd->add_option("--coverage", o->coverage,
                  "Coverage backend: gcov (gcc --coverage), llvm (clang -fprofile-instr-generate -fcoverage-mapping), "
                  "auto (default: from the binaries)")
      ->check(CLI::IsMember({"auto", "gcov", "llvm"}, CLI::ignore_case))
      ->group("Coverage");
  cmd->add_option("--reference-cmd", o->reference_command,
                  "With --tests/--cmd: a differential oracle. This command template ({} = the test name) runs the "
                  "reference (original) program once per test; a test passes when the program under test exits with "
                  "the same status and prints the same stdout (crashes and timeouts fail as always)")
      ->group("Oracle");
  cmd->add_option("--reference-cache", o->reference_cache,
                  "With --reference-cmd: keep the reference's results in DIR and reuse them in later runs (e.g. one "
                  "per faulty version); default: this run only")
      ->group("Oracle");
  cmd->add_option("--crash-handler", o->crash_handler,
                  "auto (default): preload dlfl's crash handler into gcov/llvm tests, so a test killed by a signal "
                  "(SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) or by --timeout's SIGTERM still writes the coverage it "
                  "reached and then dies by that signal; off: do not")
      ->check(CLI::IsMember({"auto", "off"}, CLI::ignore_case))
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
                  "Keep only files under DIR, named relative to it (default: all files, absolute paths; with --runtime: "
                  "the probe map's root)")
      ->group("Elements");
  cmd->add_option("--exclude", c.paths.excludes,
                  "Leave out files whose path (relative to --source-root, else absolute; with --runtime relative to "
                  "the probe map's root by default) matches this glob "
                  "(fnmatch, * crosses /, '*/tests/*' also matches tests/ at the root); repeatable: '*/tests/*' "
                  "'third_party/*'")
      ->group("Elements");
  cmd->add_flag("--include-system", c.paths.include_system,
                "Keep system headers too (/usr/include, /usr/lib, /usr/local/include, /usr/local/lib, /usr/share)")
      ->group("Elements");

  cmd->add_option("-j,--jobs", o->jobs, "Tests run in parallel (default: hardware threads; --runtime --gtest: one process, 1)")->check(CLI::Range(0u, kMaxJobs));
  cmd->add_option("--timeout", o->timeout_s,
                  "Seconds per test before its process group is killed (SIGTERM, SIGKILL 2 s later) and it is recorded "
                  "as timed out; a CTest TIMEOUT property wins; --runtime: SIGKILL, then the binary restarts on the tests "
                  "after it; 0 = none (default: 300)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--work-dir", c.work_dir, "Where the per-test scratch directories go (default: the temp directory)");
  cmd->add_flag("--keep-work", c.keep_work, "Keep the scratch directories (coverage files, reports, runtime snapshots) for inspection");
  cmd->add_option("-o,--output", o->output,
                  "Spectrum file, written atomically: .dlfl = native, a directory = GZoltar, .../matrix = legacy")
      ->group("Output");
  cmd->add_option("--gzoltar", o->gzoltar, "Also write the spectrum as a GZoltar directory")->group("Output");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress display or notes (warnings and the summary stay)")->group("Output");
  cmd->callback([o, cmd] {
    if (!pytest_mode(*o)) {
      if (!o->leave_out.empty()) throw Error("--leave-out goes with --pytest-run, --pytest-report or --coverage-py");
      if (!o->runtime && !o->snapshots.empty()) throw Error("--snapshot goes with --runtime");
    }
    run_collect(*o, [cmd](const char* option) { return cmd->count(option) > 0; });
  });
}

}  // namespace dlfl::cli
