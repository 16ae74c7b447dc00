// `dlfl bench BENCH.json`: seeds faults into subjects, localizes each with SBFL and
// prints how well every formula did, DL against traditional faults.
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "clang_helper.h"
#include "cli_support.h"
#include "commands.h"
#include "dlfl/limits.h"
#include "dlfl/lab/bench/bench_runner.h"
#include "dlfl/lab/bench/bench_summary.h"
#include "dlfl/lab/bench/subject.h"
#include "dlfl/collect/process.h"
#include "dlfl/error.h"
#include "dlfl/formula.h"

#ifdef DLFL_HAVE_INSTRUMENT
#include "dlfl/instrument/instrumenter.h"
#endif
#ifdef DLFL_HAVE_MUTATE
#include "dlfl/lab/mutate/mutator.h"
#endif

namespace dlfl::cli {
namespace {

namespace fs = std::filesystem;

struct BenchCommandOptions {
  std::string bench_file;
  std::vector<std::string> subjects;  // instead of a bench file
  std::string out_dir = "bench-out";
  std::string work_dir;
  unsigned jobs = 0;
  std::size_t max = 0;
  bool max_given = false;
  std::uint64_t seed = 0;
  bool seed_given = false;  // --seed 0 is a seed like any other
  std::vector<std::string> formulas;
  std::vector<std::string> techniques;
  std::size_t limit = 0;
  bool quiet = false;
  std::string multi_fault;  // "K" or "MIN-MAX"
  std::size_t combinations = 0;
  std::string singles_dir;
  std::size_t mbfl_budget = 0;
  std::size_t mbfl_per_line = 5;
  unsigned mbfl_timeout = 7200;
};

// "--multi-fault 2-4" (or "3"): the checked range.
bench::MultiFaultConfig parse_multi_fault(const std::string& text) {
  const auto dash = text.find('-');
  const auto number = [&](const std::string& part) -> std::uint64_t {
    if (part.empty() || part.size() > 3 || part.find_first_not_of("0123456789") != std::string::npos)
      throw Error("--multi-fault", 0, "\"" + text + "\" is not K or MIN-MAX (e.g. 2-4)");
    return std::stoull(part);
  };
  const std::uint64_t low = number(text.substr(0, dash));
  const std::uint64_t high = dash == std::string::npos ? low : number(text.substr(dash + 1));
  return bench::multi_fault_config(low, high, "--multi-fault");
}

void run_bench_command(const BenchCommandOptions& o) {
#ifndef DLFL_HAVE_INSTRUMENT
  // Returns in a dlfl built without Clang: subjects with mutants and instrumented trees
  // made earlier, or gcov ones, still run here.
  run_in_clang_helper("bench");
#endif
  if (o.bench_file.empty() == o.subjects.empty())
    throw Error("bench: give either a benchmark file or one or more --subject FILE");
  bench::BenchOptions options;
  if (!o.bench_file.empty()) {
    options.config = bench::read_bench_config(o.bench_file);
  } else {
    for (const auto& s : o.subjects) options.config.subjects.push_back({fs::absolute(s).lexically_normal(), 0, 1});
  }
  for (auto& s : options.config.subjects) {
    if (o.max_given) s.max = o.max;
    if (o.seed_given) s.seed = o.seed;
  }
  if (o.jobs) options.config.jobs = o.jobs;
  if (!o.formulas.empty()) options.config.formulas = o.formulas;
  if (!o.techniques.empty()) options.config.techniques = o.techniques;
  if (!o.multi_fault.empty()) {
    const auto combinations = options.config.multi_fault.combinations;
    options.config.multi_fault = parse_multi_fault(o.multi_fault);
    options.config.multi_fault.combinations = combinations;
  }
  if (o.combinations) {
    if (!options.config.multi_fault.enabled()) throw Error("bench: --combinations is for multi-fault mode (--multi-fault MIN-MAX)");
    options.config.multi_fault.combinations = o.combinations;
  }
  if (options.config.multi_fault.enabled() == o.singles_dir.empty())
    throw Error(options.config.multi_fault.enabled()
                    ? "bench: multi-fault mode needs --singles DIR, the output directory of the single-fault run"
                    : "bench: --singles is for multi-fault mode (--multi-fault MIN-MAX)");
  options.singles_dir = o.singles_dir;
  if (o.mbfl_budget > 0) {
    options.config.mbfl_budget = o.mbfl_budget;
    options.config.mbfl_per_line = o.mbfl_per_line;
    options.kill_matrix_command = {self_executable().string(), "kill-matrix"};
    options.kill_matrix_timeout = std::chrono::seconds(o.mbfl_timeout);
  }
  for (const auto& name : options.config.formulas) (void)make_formula(name);  // typos fail before any build

  bool runtime = false;
  for (const auto& s : options.config.subjects)
    runtime = runtime || bench::read_subject(s.subject_file).backend == bench::Backend::runtime;
  if (runtime) {
    options.runtime_cflags = runtime_flags({"--cflags"});
    options.runtime_ldflags = runtime_flags({"--libs"});
    options.runtime_gtest_ldflags = runtime_flags({"--libs", "--gtest"});
  }
#ifdef DLFL_HAVE_INSTRUMENT
  options.clang.instrument = [](const bench::TreeInstrumentation& t) {
    instrument::InstrumentOptions i;
    i.build_dir = t.build_dir;
    i.root = t.root;
    i.out_dir = t.out_dir;
    i.exclude = t.exclude;
    i.allow_errors = true;
    instrument::instrument(i);
  };
#endif
#ifdef DLFL_HAVE_MUTATE
  options.clang.find_mutants = [](const bench::MutantSearch& search) {
    mutate::MutateOptions m;
    m.build_dir = search.build_dir;
    m.root = search.root;
    m.files = search.files;
    m.exclude = search.exclude;
    m.operators = search.operators;
    m.allow_errors = true;  // as the instrumenter: a unit clang cannot fully parse still yields mutants
    return mutate::find_mutants(m);
  };
#endif
  options.out_dir = o.out_dir;
  options.work_dir = o.work_dir;
  options.limit = o.limit;
  options.interrupt = &InterruptScope::flag();
  const auto progress = bench::make_bench_progress(
      o.quiet ? collect::ProgressStyle::none : collect::progress_style_for(STDERR_FILENO), std::cerr);
  options.progress = progress.get();

  const InterruptScope scope;
  const bench::BenchResult result = bench::run_bench(options);
  bench::write_summary(std::cout, result.records,
                       {.top_n = options.config.top_n, .wall_seconds = result.seconds});
  report_resumable_run(o.out_dir, result.resumed, result.pending, result.interrupted, "faults");
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto o = std::make_shared<BenchCommandOptions>();
  auto* cmd = app.add_subcommand(
      "bench",
      "Mutation benchmark: seeds faults into subjects (dlfl-subject.json files), builds each\n"
      "incrementally, runs the tests with per-test coverage, keeps faults that make a test fail,\n"
      "ranks lines with each formula and evaluates against the mutated lines. Resumable: a killed run\n"
      "continues where it stopped. Writes OUT/results.csv (per bug x formula, `dlfl compare` reads it),\n"
      "OUT/discarded.csv and OUT/summary.md; prints the summary.\n"
      "Example: dlfl bench benchmarks/default-bench.json -o bench-out -j 2\n"
      "         dlfl bench benchmarks/default-bench.json --multi-fault 2-4 --singles bench-out -o bench-multi -j 2\n"
      "         dlfl compare -i bench-out/results.csv --labels bench-out/results.csv --label-key bug --by group");
  cmd->add_option("bench", o->bench_file, "Benchmark file (JSON: subjects, max, seed, formulas, jobs)");
  cmd->add_option("-s,--subject", o->subjects, "A subject file instead of a benchmark file (repeatable)");
  cmd->add_option("-o,--out", o->out_dir, "Output directory (default: bench-out); reused to resume");
  cmd->add_option("--work", o->work_dir, "Work directory for builds and trees (default: OUT/work)");
  cmd->add_option("-j,--jobs", o->jobs, "Faults built and run at once, each in its own work tree")
      ->check(CLI::Range(1u, kMaxJobs));
  cmd->add_option("--max", o->max, "Mutants per subject, stratified over operators (0: all)")
      ->each([o](const std::string&) { o->max_given = true; });
  cmd->add_option("--seed", o->seed, "Seed of the mutant sample (default: the benchmark file's, else 1)")
      ->each([o](const std::string&) { o->seed_given = true; });
  cmd->add_option("-f,--formula", o->formulas, "Formulas (default: the benchmark file's, else ochiai,dstar2,tarantula,barinel)")
      ->delimiter(',');
  cmd->add_option("-t,--technique", o->techniques,
                  "Also evaluate each formula with: block (block elements), prfl, neighbors (call-graph propagation, "
                  "runtime backend), flitsr (multi-fault), block-flitsr (FLITSR over blocks); rows FORMULA+TECHNIQUE (default: the benchmark file's)")
      ->delimiter(',')
      ->check(CLI::IsMember({"block", "prfl", "neighbors", "flitsr", "block-flitsr"}));
  cmd->add_option("--multi-fault", o->multi_fault,
                  "Multi-fault mode: combinations of K (or MIN-MAX, e.g. 2-4) mutants seeded together, drawn from\n"
                  "the mutants that make a test fail alone in the single-fault run --singles DIR (same subjects,\n"
                  "max and seed); ground truth = every member's lines. Use its own -o directory");
  cmd->add_option("--combinations", o->combinations, "Multi-fault combinations per group and per K (default 20)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--singles", o->singles_dir, "Output directory of the finished single-fault run (multi-fault mode)");
  cmd->add_option("--mbfl", o->mbfl_budget,
                  "Mutation-based localization of each kept fault with a budget of N mutants: `dlfl kill-matrix` on the\n"
                  "original sources with the fault in (one schemata build by the subject's commands, its tests rerun per\n"
                  "mutant); rows FORMULA+hybrid, FORMULA+metallaxis and muse, and the same from the mutants off the\n"
                  "faulty line (-other-lines: the seeded line's own mutants are a bias) (default 0: none)");
  cmd->add_option("--mbfl-per-line", o->mbfl_per_line, "With --mbfl: at most N mutants per line (default 5)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000}));
  cmd->add_option("--mbfl-timeout", o->mbfl_timeout,
                  "With --mbfl: seconds for one fault's schemata build and runs (default 7200)")
      ->check(CLI::Range(1u, 604800u));
  cmd->add_option("--limit", o->limit, "Stop after N more faults (the rest stays pending for a later run)");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress output");
  cmd->callback([o] { run_bench_command(*o); });
}

}  // namespace dlfl::cli
