// `dlfl bugset reproduce MANIFEST (--bug ID... | --project NAME) --repos DIR -o OUT`:
// real bugs from their fix commits in the user's clones, through collect → rank → eval.
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>

#include "cli_support.h"
#include "commands.h"
#include "dlfl/lab/bench/bench_summary.h"
#include "dlfl/lab/bench/reproduce_runner.h"
#include "dlfl/lab/bench/subject.h"
#include "dlfl/lab/mutate/operators.h"
#include "dlfl/error.h"
#include "runtime_layout.h"

namespace dlfl::cli {
namespace {

struct ReproduceCommandOptions {
  std::string manifest;
  std::vector<std::string> bugs;
  std::string project;
  std::string repos;
  std::string bugscpp;
  std::string out_dir;
  std::string work_dir;
  std::vector<std::string> recipes;
  bool retry_discarded = false;
  unsigned jobs = 1;
  unsigned build_jobs = 0;
  std::vector<std::string> formulas;
  std::size_t limit = 0;
  std::string shard;
  std::size_t mbfl_budget = 0;
  std::size_t mbfl_per_line = 5;
  unsigned mbfl_timeout = 7200;
  bool mbfl_plain_build = false;
  std::size_t mbfl_pytest_batch = 0;
  std::vector<std::string> mbfl_operators;
  bool quiet = false;
};

void run_reproduce(const ReproduceCommandOptions& o) {
  if (o.bugs.empty() == o.project.empty()) throw Error("bugset reproduce: give either --bug ID... or --project NAME");
  bench::ReproduceOptions options;
  options.manifest = o.manifest;
  options.bug_ids = o.bugs;
  options.project = o.project;
  options.repos = o.repos;
  options.bugscpp = o.bugscpp;
  for (const auto& recipe : o.recipes) {
    // PROJECT=FILE for one project, BUG=FILE for one bug (a project name or bug id has no
    // '=' and no '/'), FILE for the rest.
    const auto eq = recipe.find('=');
    if (eq != std::string::npos && recipe.find('/') > eq) {
      if (!options.project_recipes.emplace(recipe.substr(0, eq), recipe.substr(eq + 1)).second)
        throw Error("bugset reproduce: two --recipe for " + recipe.substr(0, eq));
    } else if (!options.recipe.empty()) {
      throw Error("bugset reproduce: two --recipe without a project (give PROJECT=FILE for the others)");
    } else {
      options.recipe = recipe;
    }
  }
  options.retry_discarded = o.retry_discarded;
  bool runtime = false;
  for (const auto& [project, file] : options.project_recipes)
    runtime = runtime || bench::read_recipe(file).backend == bench::Backend::runtime;
  if (!options.recipe.empty()) runtime = runtime || bench::read_recipe(options.recipe).backend == bench::Backend::runtime;
  if (runtime) {
    options.runtime_cflags = runtime_flags({"--cflags"});
    options.runtime_ldflags = runtime_flags({"--libs"});
    options.runtime_gtest_ldflags = runtime_flags({"--libs", "--gtest"});
    options.runtime_gtest_cmake_args = gtest_cmake_arguments(locate_runtime());
    options.instrument_command = {self_executable().string(), "instrument"};
  }
  // As `dlfl collect`: a crashing test keeps its coverage (crashes are the most common
  // symptom of DL bugs; without it every line of such a bug ties).
  options.crash_dump_library = crash_dump_library();
  if (options.crash_dump_library.empty()) warn(crash_dump_missing());
  if (o.mbfl_budget > 0) {
    options.kill_matrix.command = {self_executable().string(), "kill-matrix"};
    options.kill_matrix.budget = o.mbfl_budget;
    options.kill_matrix.per_line = o.mbfl_per_line;
    options.kill_matrix.timeout = std::chrono::seconds(o.mbfl_timeout);
    options.kill_matrix.plain_build = o.mbfl_plain_build;
    options.kill_matrix.pytest_batch = o.mbfl_pytest_batch;
    mutate::select_operators(o.mbfl_operators);  // a typo fails before any build
    options.kill_matrix.operators = o.mbfl_operators;
  } else if (o.mbfl_pytest_batch > 0 || !o.mbfl_operators.empty()) {
    throw Error("bugset reproduce: --mbfl-pytest-batch and --mbfl-operators choose --mbfl's mutants and runs: give --mbfl N too");
  } else if (o.mbfl_plain_build) {
    throw Error("bugset reproduce: --mbfl-plain-build times the build of --mbfl's mutants: give --mbfl N too");
  }
  options.out_dir = o.out_dir;
  options.work_dir = o.work_dir;
  options.jobs = o.jobs;
  options.build_jobs = o.build_jobs;
  if (!o.formulas.empty()) options.formulas = o.formulas;
  options.limit = o.limit;
  if (!o.shard.empty()) options.shard = collect::parse_shard(o.shard);
  const auto progress = bench::make_bench_progress(
      o.quiet ? collect::ProgressStyle::none : collect::progress_style_for(STDERR_FILENO), std::cerr);
  options.progress = progress.get();
  options.interrupt = &InterruptScope::flag();
  options.warn = [](std::string_view line) { warn(line); };
  const InterruptScope scope;
  const bench::ReproduceResult result = bench::reproduce_bugs(options);

  bench::write_summary(std::cout, result.records,
                       {.top_n = options.top_n, .wall_seconds = result.seconds, .real_bugs = true});
  if (result.retried > 0)
    std::cerr << "dlfl bugset reproduce: " << result.retried << " bugs discarded by an earlier run were run again\n";
  report_resumable_run(o.out_dir, result.resumed, result.pending, result.interrupted, "bugs");
}

}  // namespace

void add_bugset_reproduce_command(CLI::App& bugset) {
  auto o = std::make_shared<ReproduceCommandOptions>();
  auto* cmd = bugset.add_subcommand(
      "reproduce",
      "Reproduce real bugs from their fix commits and localize them: per bug, a git work tree of your\n"
      "clone at the fix's parent with the fix's test files brought in (the Defects4J convention), built\n"
      "with coverage (generic CMake recipe, or --recipe), its tests run; the fix built and the failing\n"
      "tests run again; the fail-to-pass tests make the spectrum, ranked with each formula and evaluated\n"
      "against the fix's deleted lines in C/C++/CUDA files outside the tests. Resumable. Writes\n"
      "OUT/results.jsonl, OUT/results.csv (`dlfl compare` reads it), OUT/discarded.csv, OUT/summary.md.\n"
      "Example: dlfl bugset reproduce manifest.jsonl --project apache+incubator-mxnet --repos ~/clones -o out");
  cmd->add_option("MANIFEST", o->manifest, "Manifest (dlfl bugset import)")->required();
  cmd->add_option("--bug", o->bugs, "Bug ids (owner+repo#number), repeatable");
  cmd->add_option("--project", o->project, "Every bug of this project (owner+repo)");
  cmd->add_option("--repos", o->repos, "Directory holding the clones (owner+repo, owner/repo or repo), or a clone")
      ->required();
  cmd->add_option("--bugscpp", o->bugscpp,
                  "The BugsC++ checkout whose taxonomy gives BugsC++ defects their build and test commands (a "
                  "manifest never does); required for them");
  cmd->add_option("-o,--out", o->out_dir, "Output directory; reused to resume")->required();
  cmd->add_option("--work", o->work_dir, "Work trees and builds (default: OUT/work, removed when all bugs are done)");
  cmd->add_option("--recipe", o->recipes,
                  "[PROJECT=|BUG=]FILE: JSON with configure/build commands, test_binary or test_list/test_command,\n"
                  "backend, timeouts (as dlfl-subject.json), for every project, for PROJECT, or for the one bug BUG\n"
                  "(before its project's); repeatable. A recipe may change between runs in one OUT: finished bugs\n"
                  "keep their results (OUT/recipes/ holds each recipe)");
  cmd->add_flag("--retry-discarded", o->retry_discarded,
                "Run the selected bugs an earlier run discarded again (their new records replace the old)");
  cmd->add_option("-j,--jobs", o->jobs, "Bugs reproduced at once, each in its own work tree (default 1)");
  cmd->add_option("--build-jobs", o->build_jobs, "Compile jobs and tests at once per bug (default: cores / -j)");
  cmd->add_option("-f,--formula", o->formulas, "Formulas (default ochiai,dstar2,tarantula,barinel)")->delimiter(',');
  cmd->add_option("--limit", o->limit, "Stop after N more bugs (the rest stays pending for a later run)");
  cmd->add_option("--shard", o->shard,
                  "I/N: only the selected bugs of shard I of N (0 <= I < N, split by a hash of the bug id: the same\n"
                  "on every machine; a job array's task per shard). OUT is then the shard's; `dlfl bugset join`\n"
                  "joins the N shards' directories into one");
  cmd->add_option("--mbfl", o->mbfl_budget,
                  "Mutation-based localization of each kept bug with a budget of N mutants: `dlfl kill-matrix` on\n"
                  "its buggy version (one schemata build by the recipe's commands, its tests rerun per mutant); the\n"
                  "results add FORMULA+hybrid, FORMULA+metallaxis and muse, each record its cost (default 0: none)");
  cmd->add_option("--mbfl-per-line", o->mbfl_per_line, "With --mbfl: at most N mutants per line (default 5)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000}));
  cmd->add_option("--mbfl-timeout", o->mbfl_timeout,
                  "With --mbfl: seconds for one bug's schemata build and runs (default 7200)")
      ->check(CLI::Range(1u, 604800u));
  cmd->add_flag("--mbfl-plain-build", o->mbfl_plain_build,
                "With --mbfl: also build a copy of the buggy version without mutants by the same commands, just\n"
                "before the schemata build, both without ccache, so that each record's mbfl.plain_build_seconds is\n"
                "a like-for-like plain build (mbfl.plain_build_uncached); one more build per bug");
  cmd->add_option("--mbfl-pytest-batch", o->mbfl_pytest_batch,
                  "With --mbfl, for recipes whose test_command runs pytest: up to N of a mutant's tests in one pytest\n"
                  "process (kill-matrix --pytest-batch; each record's mbfl.pytest_batch); default 0: one a process");
  cmd->add_option("--mbfl-operators", o->mbfl_operators,
                  "With --mbfl: the mutation operators (kill-matrix --operators: names, bug types, 'dl', 'all';\n"
                  "default all); a record's mbfl.operators names those of its run, so giving them makes its mutants again")
      ->delimiter(',');
  cmd->add_flag("-q,--quiet", o->quiet, "No progress output");
  cmd->callback([o] { run_reproduce(*o); });
}

}  // namespace dlfl::cli
