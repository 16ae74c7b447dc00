// `dlfl versions --original DIR VERSION... --tests FILE --cmd TEMPLATE -o OUT`: faulty
// versions of a program (directories or patches) through build → collect with a
// differential oracle → rank → eval, resumable, like `dlfl bench` for seeded mutants.
#include <unistd.h>

#include <iostream>
#include <memory>

#include "cli_support.h"
#include "commands.h"
#include "dlfl/lab/bench/bench_summary.h"
#include "dlfl/lab/bench/version_batch.h"
#include "dlfl/error.h"
#include "runtime_layout.h"

namespace dlfl::cli {
namespace {

struct VersionsCommandOptions {
  bench::VersionsOptions options;
  std::vector<std::string> versions;
  std::string crash_handler = "auto";
  std::string exam_base = "executable";
  std::string top_n_rule = "expected";
  unsigned build_timeout = 600, test_timeout = 10, version_timeout = 1800;
  bool quiet = false;
};

void run_versions_command(VersionsCommandOptions& c) {
  bench::VersionsOptions o = c.options;
  o.versions.assign(c.versions.begin(), c.versions.end());
  if (c.crash_handler == "auto") {
    o.crash_dump_library = crash_dump_library();
    if (o.crash_dump_library.empty()) warn(crash_dump_missing());
  }
  o.exam_base = c.exam_base == "executed" ? eval::ExamBase::executed : eval::ExamBase::instrumented;
  o.top_n_rule = c.top_n_rule == "hits" ? eval::TopNRule::hits : eval::TopNRule::expected;
  o.build_timeout = std::chrono::seconds(c.build_timeout);
  o.test_timeout = std::chrono::seconds(c.test_timeout);
  o.version_timeout = std::chrono::seconds(c.version_timeout);
  const auto progress = bench::make_bench_progress(
      c.quiet ? collect::ProgressStyle::none : collect::progress_style_for(STDERR_FILENO), std::cerr);
  o.progress = progress.get();
  o.interrupt = &InterruptScope::flag();
  const InterruptScope scope;
  const bench::VersionsResult result = bench::run_versions(o);
  bench::write_summary(std::cout, result.records, bench::version_summary_options(o.top_n, result.seconds));
  report_resumable_run(o.out_dir, result.resumed, result.pending, result.interrupted, "versions");
}

}  // namespace

void add_versions_command(CLI::App& app) {
  auto c = std::make_shared<VersionsCommandOptions>();
  auto& o = c->options;
  auto* cmd = app.add_subcommand(
      "versions",
      "Faulty-version batch (the SIR-style subject: an original program, faulty versions, a test universe):\n"
      "per version (a directory laid over a copy of the original: the whole faulty tree or only its\n"
      "changed files; or a patch applied with -p1), the ground truth from its diff (changed executable lines; for a change without one the\n"
      "nearest executable lines above and below), a --coverage build, the --tests/--cmd suite collected\n"
      "with per-test gcov and judged against the original's build (differential oracle, as\n"
      "`collect --reference-cmd`), ranked with each formula and evaluated. Resumable. Writes\n"
      "OUT/results.jsonl, OUT/results.csv (`dlfl compare` reads it), OUT/discarded.csv, OUT/summary.md.\n"
      "Example: dlfl versions --original calc calc/versions/*.patch --tests calc/tests/tests.txt \\\n"
      "           --cmd '{build}/calc {source}/tests/cases/{}.calc' -o versions-out");
  cmd->add_option("VERSION", c->versions, "Faulty versions: directories (whole trees or only the changed files) or patch files (.patch/.diff)")
      ->required();
  cmd->add_option("--original", o.original, "The original program's source tree")->required();
  cmd->add_option("-p,--strip", o.patch_strip,
                  "Leading path components removed from the names in patch files, as patch -pN (default 1: a/src/x.c)");
  cmd->add_option("--tests", o.tests, "Test names, one a line")->required();
  cmd->add_option("--cmd", o.command,
                  "Runs one test: {} = its name (quoted), {build} and {source} = the version's build and tree; "
                  "the original's build runs the same command as the oracle's reference")
      ->required();
  cmd->add_option("--build", o.build,
                  "Configures and builds {source} into {build} with {cflags}/{ldflags} (--coverage), {jobs}, "
                  "{launcher} (default: CMake + Ninja at -O0)");
  cmd->add_option("--name", o.name, "Subject name in the results (default: the original's directory name)");
  cmd->add_option("--exclude", o.excludes, "Leave paths matching this glob out of the spectra (repeatable)");
  cmd->add_option("--crash-handler", c->crash_handler,
                  "auto: keep crashed tests' gcov coverage with dlfl's crash handler (as collect); off: do not")
      ->check(CLI::IsMember({"auto", "off"}));
  cmd->add_option("-o,--out", o.out_dir, "Output directory; reused to resume")->required();
  cmd->add_option("--work", o.work_dir, "Work directory for the builds (default: OUT/work)");
  cmd->add_option("-j,--jobs", o.jobs, "Versions built and run at once")->check(CLI::Range(1u, 256u));
  cmd->add_option("--test-jobs", o.test_jobs, "Tests at once per version (default: cores / -j)");
  cmd->add_option("-f,--formula", o.formulas, "Formulas (default ochiai,dstar2,tarantula,barinel)")->delimiter(',');
  cmd->add_option("--exam-base", c->exam_base,
                  "EXAM divides by: executable (default: every line gcov reports, the executable lines; Wong et al., "
                  "TSE 2016) or executed (only lines some test ran)")
      ->check(CLI::IsMember({"executable", "executed"}));
  cmd->add_option("--top-n-rule", c->top_n_rule,
                  "Top-N under average ties: expected (default: the probability of a hit) or hits (1 when the "
                  "expected position is within N, as most papers count)")
      ->check(CLI::IsMember({"expected", "hits"}));
  cmd->add_option("--build-timeout", c->build_timeout, "Seconds for one version's build (default 600)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--timeout", c->test_timeout, "Seconds for one test (default 10)")->check(CLI::PositiveNumber);
  cmd->add_option("--version-timeout", c->version_timeout, "Seconds for all tests of one version (default 1800)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--limit", o.limit, "Stop after N more versions (the rest stays pending for a later run)");
  cmd->add_flag("-q,--quiet", c->quiet, "No progress output");
  cmd->callback([c] { run_versions_command(*c); });
}

}  // namespace dlfl::cli
