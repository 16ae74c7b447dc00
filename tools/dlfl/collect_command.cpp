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
#include "dlfl/collect/extrinsic_elements.h"
#include "dlfl/collect/process.h"
#include "dlfl/collect/repeated_runs.h"
#include "dlfl/collect/probe_map_lookup.h"
#include "dlfl/collect/pytest_run_collector.h"
#include "dlfl/collect/runtime_collector.h"
#include "dlfl/collect/snapshot_collector.h"
#include "dlfl/error.h"
#include "dlfl/io/gzoltar_format.h"
#include "dlfl/instrument/probe_map.h"
#include "dlfl/io/spectrum_formats.h"
#include "runtime_layout.h"

namespace dlfl::cli {
namespace {

namespace fs = std::filesystem;

struct CollectCliOptions {
  collect::CollectOptions collect;
  std::string gtest, ctest, tests, command;
  std::string coverage = "auto";
  std::string crash_handler = "auto";
  double timeout_s = 300;
  std::string output, gzoltar;
  bool quiet = false;
  bool runtime = false;
  std::string probe_map;
  std::vector<std::string> snapshots;
  // pytest runs (python/dlfl_pytest): one spectrum of Python and C++ lines.
  std::string pytest_run, pytest_report, coverage_py;
  std::vector<std::string> leave_out;  // python, c++, extrinsic
  // Runs dlfl starts: the whole collection N times (k/N weights); extrinsic elements.
  unsigned repeat = 1;
  std::vector<std::string> extrinsic_env;
  bool gtest_params = false;
  std::string shard;  // "I/N"
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

// What both ways of collecting report, for the outputs and the summary line.
struct Collected {
  const Spectrum& spectrum;
  std::size_t tests, failing, crashed, timed_out, skipped, elements;
  double seconds;
  std::string how;  // "gcov, 2 jobs", "runtime, 5 processes"
};

// Writes the outputs (none when no test failed) and prints the summary line.
void write_collected(const CollectCliOptions& o, const Collected& s) {
  // A shard without a failing test is normal: `dlfl merge` joins it with the others.
  if (s.failing == 0 && o.shard.empty())
    throw Error("no failing test among the " + plural(s.tests, "test") +
                ": nothing to localize, so no spectrum was written");
  if (s.failing == 0) warn("shard " + o.shard + " has no failing test; its passing tests still count once merged");
  if (!o.gzoltar.empty()) io::write_gzoltar(s.spectrum, o.gzoltar);
  if (!o.output.empty()) io::write_spectrum(s.spectrum, o.output, io::infer_output_format(o.output));

  std::ostringstream line;
  line << "collected " << plural(s.tests, "test") << " (" << s.failing << " failing";
  if (s.crashed) line << ", " << s.crashed << " crashed";
  if (s.timed_out) line << ", " << s.timed_out << " timed out";
  line << ")";
  if (s.skipped) line << ", " << s.skipped << " skipped";
  line << ", " << plural(s.elements, "element") << ", " << std::fixed;
  line.precision(1);
  line << s.seconds << " s (" << s.how << ")";
  if (!o.shard.empty()) line << ", shard " << o.shard;
  line << " -> " << (o.output.empty() ? o.gzoltar : o.output);
  if (!o.output.empty() && !o.gzoltar.empty()) line << ", " << o.gzoltar;
  std::cout << line.str() << '\n';
  std::cout << "elements by language: " << language_counts(s.spectrum.elements()) << '\n';
}

std::chrono::milliseconds timeout_of(const CollectCliOptions& o) {
  return std::chrono::milliseconds(static_cast<long long>(std::llround(o.timeout_s * 1000)));
}

// The GoogleTest parameters of each test of `binary` (TypeParam=..., GetParam()=...).
std::map<std::string, std::vector<std::string>> gtest_params(const std::string& binary) {
  collect::ProcessSpec spec;
  spec.argv = {binary, "--gtest_list_tests"};
  spec.env_unset = {"GTEST_FILTER", "DLFL_RT_FILE"};
  spec.stdout_limit = SIZE_MAX;
  const collect::ProcessResult r = collect::run_process(spec);
  if (r.end != collect::ProcessEnd::exited || r.exit_code != 0)
    throw Error(binary, 0, "--gtest_list_tests failed: " + collect::describe_end(r, std::chrono::milliseconds(0)));
  return collect::gtest_parameter_labels(r.out);
}

// --repeat N: unless `once` repeats the tests itself (runtime + gtest: --gtest_repeat in one
// process), the collection `once` runs N times and its spectra merge (a test failing k of
// N times weighs k/N); then the extrinsic elements: --extrinsic-env values (the same for
// every test of this run) and, with --gtest-params, each test's GoogleTest parameters. The stats'
// test counts follow the merged spectrum. Prints the flaky tests after the summary.
template <typename Result, typename Once>
Result collect_repeated(const CollectCliOptions& o, Once&& once, std::vector<std::string>& flaky,
                        bool repeats_itself = false) {
  Result result = once();
  if (o.repeat > 1 && !repeats_itself) {
    std::vector<Spectrum> runs;
    runs.push_back(std::move(result.spectrum));
    for (unsigned i = 1; i < o.repeat; ++i) {
      Result again = once();
      result.warnings.insert(result.warnings.end(), again.warnings.begin(), again.warnings.end());
      runs.push_back(std::move(again.spectrum));
    }
    collect::RepeatedRuns merged = collect::merge_repeated_runs(runs);
    result.spectrum = std::move(merged.spectrum);
    flaky = std::move(merged.flaky);
  }
  const auto env = collect::environment_labels(o.extrinsic_env);
  const auto params = o.gtest.empty() || !o.gtest_params ? std::map<std::string, std::vector<std::string>>{}
                                                            : gtest_params(o.gtest);
  if (!env.empty() || !params.empty())
    result.spectrum = collect::add_extrinsic_elements(result.spectrum, [&](const TestCase& t) {
      std::vector<std::string> labels = env;
      if (const auto it = params.find(t.name); it != params.end()) labels.insert(labels.end(), it->second.begin(), it->second.end());
      return labels;
    });
  auto& s = result.stats;
  s.elements = result.spectrum.element_count();
  if (o.repeat > 1) {
    s.tests = result.spectrum.test_count();
    s.failing = s.crashed = s.timed_out = 0;
    for (const TestCase& t : result.spectrum.tests()) {
      s.failing += t.failed();
      s.crashed += t.status == TestStatus::crashed;
      s.timed_out += t.status == TestStatus::timed_out;
    }
  }
  return result;
}

void print_flaky(const std::vector<std::string>& flaky) {
  for (const auto& f : flaky) std::cout << "flaky: " << f << '\n';
}

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
  if (c.coverage != collect::CoverageKind::runtime)
    c.coverage = kind == "gcov"   ? collect::CoverageKind::gcov
                 : kind == "llvm" ? collect::CoverageKind::llvm
                                  : collect::CoverageKind::automatic;
  c.timeout = timeout_of(o);
  c.interrupt = &g_interrupted;
  c.crash_handler = CLI::detail::to_lower(o.crash_handler) != "off";
  if (c.crash_handler) c.crash_dump_library = crash_dump_library();
  if (!o.shard.empty()) c.shard = collect::parse_shard(o.shard);

  const auto style = o.quiet ? collect::ProgressStyle::none : collect::progress_style_for(STDERR_FILENO);
  const auto progress = collect::make_progress(style, std::cerr);
  g_interrupted = false;
  collect::CollectResult result;
  std::vector<std::string> flaky;
  {
    InterruptGuard guard;
    result = collect_repeated<collect::CollectResult>(o, [&] { return collect::collect(c, *progress); }, flaky);
  }
  for (const auto& w : result.warnings) warn(w);
  const auto& s = result.stats;
  write_collected(o, {result.spectrum, s.tests, s.failing, s.crashed, s.timed_out, s.skipped, s.elements, s.seconds,
                      std::string(collect::coverage_kind_name(s.backend)) + ", " + plural(s.jobs, "job") +
                          (o.repeat > 1 ? ", " + std::to_string(o.repeat) + " runs" : "")});
  print_flaky(flaky);
}

// --runtime: the options of the per-test-process backends that mean nothing here, each
// with what to do instead. `given` tells whether the user gave an option.
void check_runtime_options(const CollectCliOptions& o, const std::function<bool(const char*)>& given) {
  const int sources = !o.gtest.empty() + !o.ctest.empty() + !o.tests.empty() + !o.snapshots.empty();
  if (sources > 1)
    throw Error("--runtime takes one of --gtest BINARY, --ctest DIR, --tests FILE --cmd CMD or --snapshot FILE "
                "(--snapshot reads the snapshot files of a run that already happened)");
  if (sources == 0)
    throw Error("--runtime needs --gtest BINARY (built from a `dlfl instrument` tree), --ctest DIR, --tests FILE --cmd "
                "CMD, or --snapshot FILE (the DLFL_RT_FILE of a run, e.g. under pytest)");
  if (!o.tests.empty() && o.command.empty()) throw Error("--tests needs --cmd 'COMMAND {}'");
  if (o.tests.empty() && !o.command.empty()) throw Error("--cmd goes with --tests FILE");
  if (CLI::detail::to_lower(o.coverage) != "auto")
    throw Error("--runtime and --coverage " + o.coverage + " exclude each other: the runtime's probes are the coverage");
  for (const char* option : {"--object", "--gcov", "--llvm-profdata", "--llvm-cov", "--include-system", "--crash-handler"})
    if (given(option)) throw Error(std::string(option) + " is for gcov/llvm coverage; it does not go with --runtime");
  if (!o.snapshots.empty()) {
    // Nothing runs: the options that steer a run have nothing to steer.
    for (const char* option : {"--filter", "--timeout", "--jobs", "--work-dir", "--keep-work", "--repeat"})
      if (given(option))
        throw Error(std::string(option) + " steers a run of the tests; with --snapshot nothing runs (leave it out)");
    if (o.probe_map.empty())
      throw Error("--snapshot needs --probe-map MAP: the dlfl-probes.map `dlfl instrument` wrote for the code that "
                  "ran");
  }
  if (!o.tests.empty() && o.probe_map.empty())
    throw Error("--runtime --tests needs --probe-map MAP: the dlfl-probes.map of the `dlfl instrument` tree the "
                "command's programs were built from");
  // The runtime brackets the tests of one gtest process, which runs them one after another.
  if (!o.gtest.empty() && o.collect.jobs > 1)
    throw Error("--runtime --gtest runs the tests one after another in one process; -j " +
                std::to_string(o.collect.jobs) +
                " cannot be honoured (leave -j out, or run one process per test with --ctest or --tests/--cmd)");
  if (o.output.empty() && o.gzoltar.empty()) throw Error("nowhere to write the spectrum: give -o FILE and/or --gzoltar DIR");
}

// --runtime with --ctest or --tests/--cmd: one process per test, in parallel, each a
// whole-process test of the runtime (DLFL_RT_TEST); the rest is collect() as for gcov.
void run_runtime_per_process(CollectCliOptions& o) {
  o.collect.coverage = collect::CoverageKind::runtime;
  o.collect.probe_map = o.probe_map;
  if (o.collect.probe_map.empty()) {
    o.collect.probe_map = collect::find_probe_map(fs::path(o.ctest) / "CMakeCache.txt");
    if (o.collect.probe_map.empty())
      throw Error(o.ctest + ": found no " + instrument::kProbeMapFileName +
                  " in the build directory, a directory above it or the source directory of its CMake cache: pass "
                  "the one `dlfl instrument --out DIR` wrote with --probe-map DIR/" +
                  instrument::kProbeMapFileName);
    if (!o.quiet) std::cerr << "dlfl: probe map: " << o.collect.probe_map.string() << '\n';
  }
  o.coverage = "auto";  // run_collect maps it; the runtime kind is set above
  run_collect(o);
}

void run_snapshot_collect(const CollectCliOptions& o) {
  collect::SnapshotCollectOptions r;
  r.snapshots.assign(o.snapshots.begin(), o.snapshots.end());
  r.probe_map = o.probe_map;
  const auto& c = o.collect;
  if (!c.paths.source_root.empty() || !c.paths.excludes.empty()) r.paths = c.paths;
  if (!o.shard.empty()) r.shard = collect::parse_shard(o.shard);
  const collect::RuntimeCollectResult result = collect::collect_from_snapshots(r);
  for (const auto& w : result.warnings) warn(w);
  const auto& s = result.stats;
  write_collected(o, {result.spectrum, s.tests, s.failing, s.crashed, s.timed_out, s.skipped, s.elements, s.seconds,
                      "runtime, " + plural(s.processes, "snapshot")});
}

void run_runtime_collect(const CollectCliOptions& o) {
  const auto& c = o.collect;
  collect::RuntimeCollectOptions r;
  r.gtest_binary = o.gtest;
  r.probe_map = o.probe_map;
  if (r.probe_map.empty()) {
    r.probe_map = collect::find_probe_map(o.gtest);
    if (r.probe_map.empty())
      throw Error(o.gtest + ": found no " + instrument::kProbeMapFileName +
                  " beside the binary, in a directory above it or in the source directory of its CMake build: "
                  "pass the one `dlfl instrument --out DIR` wrote with --probe-map DIR/" +
                  instrument::kProbeMapFileName);
  }
  r.filter = c.filter;
  if (!o.shard.empty()) r.shard = collect::parse_shard(o.shard);
  r.timeout = timeout_of(o);
  r.repeat = o.repeat;
  // Elements are named relative to the probe map's root unless --source-root says otherwise;
  // without either option no filter runs, so the root need not exist any more.
  if (!c.paths.source_root.empty() || !c.paths.excludes.empty()) r.paths = c.paths;
  r.work_dir = c.work_dir;
  r.keep_work = c.keep_work;
  r.interrupt = &g_interrupted;

  const auto style = o.quiet ? collect::ProgressStyle::none : collect::progress_style_for(STDERR_FILENO);
  const auto progress = collect::make_progress(style, std::cerr);
  r.progress = progress.get();
  if (o.probe_map.empty()) progress->note("probe map: " + r.probe_map.string());
  g_interrupted = false;
  collect::RuntimeCollectResult result;
  std::vector<std::string> flaky;
  {
    InterruptGuard guard;
    result = collect_repeated<collect::RuntimeCollectResult>(o, [&] { return collect::collect_with_runtime(r); }, flaky,
                                                             /*repeats_itself=*/true);
    flaky = result.flaky;
  }
  for (const auto& w : result.warnings) warn(w);
  if (!o.quiet && !result.work_dir.empty())
    std::cerr << "dlfl: kept the snapshot files in " << result.work_dir.string() << '\n';
  const auto& s = result.stats;
  write_collected(o, {result.spectrum, s.tests, s.failing, s.crashed, s.timed_out, s.skipped, s.elements, s.seconds,
                      "runtime, " + std::to_string(s.processes) + (s.processes == 1 ? " process" : " processes") +
                          (o.repeat > 1 ? ", " + std::to_string(o.repeat) + " runs" : "")});
  print_flaky(flaky);
}

bool pytest_mode(const CollectCliOptions& o) {
  return !o.pytest_run.empty() || !o.pytest_report.empty() || !o.coverage_py.empty();
}

// --pytest-run / --pytest-report / --coverage-py: Python lines, C++ lines (snapshots) and
// extrinsic elements of one pytest run, joined by node id.
void run_pytest_collect(const CollectCliOptions& o, const std::function<bool(const char*)>& given) {
  if (!o.gtest.empty() || !o.ctest.empty() || !o.tests.empty())
    throw Error("--pytest-run/--pytest-report/--coverage-py read a pytest run; they do not go with --gtest, --ctest or "
                "--tests");
  for (const char* option : {"--filter", "--timeout", "--jobs", "--work-dir", "--keep-work", "--object", "--gcov",
                             "--llvm-profdata", "--llvm-cov", "--include-system", "--repeat", "--extrinsic-env",
                             "--gtest-params"})
    if (given(option))
      throw Error(std::string(option) + " steers a run dlfl starts; a pytest run already happened (the plugin takes "
                                        "--dlfl-repeat and --dlfl-extrinsic-env)");
  if (o.output.empty() && o.gzoltar.empty()) throw Error("nowhere to write the spectrum: give -o FILE and/or --gzoltar DIR");
  collect::PytestRunOptions r;
  if (!o.pytest_run.empty()) {
    if (!o.pytest_report.empty()) throw Error("--pytest-run DIR already names DIR/pytest-run.json: leave --pytest-report out");
    r = collect::pytest_run_directory(o.pytest_run);
  } else {
    r.report = o.pytest_report;
  }
  r.coverage_json = o.coverage_py;
  for (const auto& s : o.snapshots) r.runtime.snapshots.emplace_back(s);
  for (const auto& what : o.leave_out) {
    if (what == "python") r.python = false;
    else if (what == "c++") r.cpp = false;
    else r.extrinsic = false;
  }
  if (r.report.empty() && !r.runtime.snapshots.empty() && o.probe_map.empty())
    throw Error("the run has runtime snapshots (" + r.runtime.snapshots.front().string() +
                "): give --probe-map MAP, the dlfl-probes.map of the instrumented extension's tree (or --leave-out c++)");
  r.runtime.probe_map = o.probe_map;
  const auto& c = o.collect;
  if (!c.paths.source_root.empty() || !c.paths.excludes.empty()) r.runtime.paths = c.paths;
  r.python_root = c.paths.source_root;
  r.python_excludes = c.paths.excludes;
  const collect::PytestRunResult result = collect::collect_pytest_run(r);
  if (o.probe_map.empty() && !result.probe_map.empty() && !o.quiet)
    std::cerr << "dlfl: probe map: " << result.probe_map.string() << '\n';
  for (const auto& w : result.warnings) warn(w);
  const auto& s = result.stats;
  std::string how = "pytest run: " + std::to_string(s.cpp_elements) + " c++, " + std::to_string(s.python_elements) +
                    " python, " + std::to_string(s.extrinsic_elements) + " extrinsic";
  if (s.snapshots) how += "; " + plural(s.snapshots, "snapshot");
  if (s.flaky) how += "; " + std::to_string(s.flaky) + " flaky";
  write_collected(o, {result.spectrum, s.tests, s.failing, s.crashed, 0, s.skipped, result.spectrum.element_count(),
                      s.seconds, how});
  for (const auto& f : result.flaky) std::cout << "flaky: " << f << '\n';
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
  cmd->add_option("--extrinsic-env", o->extrinsic_env,
                  "Record this environment variable's value as an extrinsic element NAME=value of every test "
                  "(repeatable; compare runs under different values; pytest: the plugin's --dlfl-extrinsic-env)")
      ->group("Extrinsic and flaky");
  cmd->add_flag("--gtest-params", o->gtest_params,
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
  cmd->add_option("--reference-cmd", c.reference_command,
                  "With --tests/--cmd: a differential oracle. This command template ({} = the test name) runs the "
                  "reference (original) program once per test; a test passes when the program under test exits with "
                  "the same status and prints the same stdout (crashes and timeouts fail as always)")
      ->group("Oracle");
  cmd->add_option("--reference-cache", c.reference_cache,
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

  cmd->add_option("-j,--jobs", c.jobs, "Tests run in parallel (default: hardware threads; --runtime --gtest: one process, 1)")->check(CLI::Range(0u, kMaxJobs));
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
    if (pytest_mode(*o)) return run_pytest_collect(*o, [cmd](const char* option) { return cmd->count(option) > 0; });
    if (!o->leave_out.empty()) throw Error("--leave-out goes with --pytest-run, --pytest-report or --coverage-py");
    if (!o->runtime) {
      if (!o->snapshots.empty()) throw Error("--snapshot goes with --runtime");
      if (!o->probe_map.empty()) throw Error("--probe-map goes with --runtime");
      return run_collect(*o);
    }
    check_runtime_options(*o, [cmd](const char* option) { return cmd->count(option) > 0; });
    if (!o->snapshots.empty()) return run_snapshot_collect(*o);
    if (!o->ctest.empty() || !o->tests.empty()) return run_runtime_per_process(*o);
    run_runtime_collect(*o);
  });
}

}  // namespace dlfl::cli
