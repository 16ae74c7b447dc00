// `dlfl kill-matrix -s SPECTRUM -p BUILD --build CMD --gtest BIN -o DIR` (or --ctest DIR,
// or --tests FILE --cmd TEMPLATE): mutation-based
// localization's measurements. Mutants of the most suspicious lines are compiled into one
// schemata build, each test that can see a mutant reruns with it switched on, and which
// mutants change which tests' outcomes is written as a kill matrix for `dlfl rank --mutation`.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <span>

#include "clang_helper.h"
#include "cli_support.h"
#include "commands.h"
#include "dlfl/collect/mutant_runner.h"
#include "dlfl/collect/process.h"
#include "dlfl/collect/progress.h"
#include "dlfl/collect/pytest_batch.h"
#include "dlfl/collect/test_source.h"
#include "dlfl/counts.h"
#include "dlfl/error.h"
#include "dlfl/formats/kill_matrix_cost.h"
#include "dlfl/formats/mutant_manifest.h"
#include "dlfl/formats/spectrum_formats.h"
#include "dlfl/lab/mutate/operators.h"
#include "dlfl/lab/mutate/sampling.h"
#include "dlfl/localize/localize.h"

#ifdef DLFL_HAVE_MUTATE
#include "dlfl/lab/mutate/mutator.h"
#include "dlfl/lab/mutate/schemata.h"
#endif

namespace dlfl::cli {
namespace {

namespace fs = std::filesystem;

#ifdef DLFL_HAVE_MUTATE
constexpr const char* kKillMatrixFileName = "kill-matrix.dlfl";
constexpr const char* kJournalFileName = "kill-journal.jsonl";
#endif

struct KillMatrixOptions {
  std::string spectrum;
  std::string build_dir;
  std::string root;
  std::string out_dir;
  std::string build_command;
  std::string plain_build_command;  // times a copy without mutants first
  std::string gtest;
  std::string ctest;
  std::string tests;    // file of test names, run with `command`
  std::string command;  // test command template ({} = the name)
  std::string formula = "ochiai";
  std::vector<std::string> lines;  // FILE:LINE as the spectrum spells FILE
  std::vector<std::string> operators;
  std::vector<std::string> extra_args;
  std::size_t budget = 200;
  std::size_t per_line = 10;
  std::size_t pytest_batch = 0;  // > 0: --cmd runs pytest, up to this many tests a process
  unsigned jobs = 0;
  double timeout_factor = 4.0;
  double min_timeout = 2.0;
  bool regenerate = false;
  bool quiet = false;
};

// "{out}" and "{tree}" in a command or path given for the schemata build.
[[maybe_unused]] std::string expand(std::string text, const fs::path& out, const fs::path& tree) {
  using Substitution = std::pair<std::string, std::string>;
  for (const auto& [key, value] : {Substitution{"{out}", out.string()}, Substitution{"{tree}", tree.string()}})
    for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size()))
      text.replace(at, key.size(), value);
  return text;
}

// A mutated place as the spectrum names it.
struct Place {
  std::string file;
  std::uint32_t line = 0;
  auto operator<=>(const Place&) const = default;
};

// FILE:LINE (the last colon splits, so FILE may hold colons).
Place parse_place(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) throw Error("--lines " + text + ": expected FILE:LINE");
  try {
    std::size_t used = 0;
    const unsigned long line = std::stoul(text.substr(colon + 1), &used);
    if (used != text.size() - colon - 1 || line == 0 || line > UINT32_MAX) throw std::invalid_argument("line");
    return {text.substr(0, colon), static_cast<std::uint32_t>(line)};
  } catch (const std::logic_error&) {
    throw Error("--lines " + text + ": expected FILE:LINE with a line number from 1");
  }
}

// Every line some failing test runs, most suspicious first by `formula`; the size of its
// top tie in `top_tie`. Ranked once: generate() takes longer prefixes of it.
[[maybe_unused]] std::vector<Place> suspicious_lines(const Spectrum& s, const std::string& formula,
                                                    std::size_t& top_tie) {
  RankRequest r;
  r.formulas.push_back(make_formula(formula));
  const Ranking ranking = localize(s, r);
  const Counts counts = compute_counts(s);
  std::vector<Place> out;
  std::uint32_t top_tie_end = 0;
  for (const RankedElement& e : ranking.formulas[0].ranked) {
    if (s.element(e.element).kind != ElementKind::code || counts.ef[e.element] <= 0.0) continue;
    if (top_tie_end == 0) top_tie_end = e.worst;
    out.push_back({std::string(s.file(e.element)), s.element(e.element).first_line});
    if (e.best <= top_tie_end) top_tie = out.size();
  }
  return out;
}

#ifdef DLFL_HAVE_MUTATE
// The spectrum's spelling of a source-root-relative path: the spectrum may name files
// relative to the root (as collectors do) or absolutely.
class FileNames {
 public:
  FileNames(const Spectrum& s, const fs::path& root) {
    for (std::size_t e = 0; e < s.element_count(); ++e) {
      const std::string file(s.file(e));
      if (file.empty()) continue;
      const fs::path p(file);
      to_spectrum_[(p.is_absolute() ? p.lexically_relative(root) : p).lexically_normal().generic_string()] = file;
    }
  }
  std::string spectrum_name(const std::string& relative) const {
    const auto it = to_spectrum_.find(relative);
    return it == to_spectrum_.end() ? relative : it->second;
  }
  std::string relative(const std::string& spectrum_file, const fs::path& root) const {
    const fs::path p(spectrum_file);
    return (p.is_absolute() ? p.lexically_relative(root) : p).lexically_normal().generic_string();
  }

 private:
  std::map<std::string, std::string> to_spectrum_;
};

// Mutants of the chosen places, at most per_line each (operators taking turns), in place
// order, until the budget is spent (the top tie always whole). Lines without an operator
// cost nothing, so the places are extended (twice as many each time, only the new files
// parsed) while the budget is not spent and lines are left.
io::MutantManifest generate(const KillMatrixOptions& o, const Spectrum& s, const fs::path& root, const fs::path& out) {
  const auto operators = mutate::select_operators(o.operators);
  std::vector<Place> ordered;
  for (const auto& text : o.lines) ordered.push_back(parse_place(text));
  std::size_t top_tie = ordered.size();
  if (o.lines.empty()) ordered = suspicious_lines(s, o.formula, top_tie);
  if (ordered.empty()) throw Error(o.spectrum + ": no line is run by a failing test; nothing to mutate");
  const FileNames names(s, root);
  mutate::MutateOptions m;
  m.build_dir = o.build_dir;
  m.root = root;
  m.operators = operators;
  m.extra_args = o.extra_args;
  if (!o.quiet) m.log = [](std::string_view line) { std::cerr << "dlfl: " << line << '\n'; };
  std::map<std::pair<std::string, std::uint32_t>, std::vector<mutate::Mutant>> by_line;
  std::set<std::string> parsed;
  std::vector<mutate::Mutant> chosen;
  std::vector<io::ManifestLine> examined;
  for (std::size_t limit = std::max<std::size_t>(1, o.budget);; limit *= 2) {
    // The top tie whole, then the following lines up to `limit`.
    const std::size_t take = std::min(ordered.size(), std::max(top_tie, limit));
    const bool more = take < ordered.size();
    const std::span<const Place> places(ordered.data(), take);
    std::set<std::string> files;
    for (const Place& p : places)
      if (const std::string file = names.relative(p.file, root); !parsed.contains(file)) files.insert(file);
    if (!files.empty()) {
      m.files.assign(files.begin(), files.end());
      for (auto& mutant : mutate::find_mutants(m)) by_line[{mutant.file, mutant.line}].push_back(std::move(mutant));
      parsed.insert(files.begin(), files.end());
    }
    chosen.clear();
    examined.clear();
    for (std::size_t i = 0; i < places.size(); ++i) {
      if (i >= top_tie && chosen.size() >= o.budget) break;
      const std::string file = names.relative(places[i].file, root);
      examined.push_back({names.spectrum_name(file), places[i].line});
      const auto it = by_line.find({file, places[i].line});
      if (it == by_line.end()) continue;
      for (auto& mutant : mutate::stratified_sample(it->second, o.per_line, 1)) chosen.push_back(std::move(mutant));
    }
    if (!more || chosen.size() >= o.budget) break;
  }
  mutate::SchemataOptions so;
  so.build_dir = o.build_dir;
  so.root = root;
  so.tree = out / "tree";
  so.extra_args = o.extra_args;
  so.log = m.log;
  const mutate::Schemata schemata = mutate::write_schemata(chosen, so);
  io::MutantManifest manifest;
  manifest.generated = chosen.size();
  manifest.dropped_uncompilable = schemata.dropped_uncompilable;
  manifest.dropped_unguardable = schemata.dropped_unguardable;
  manifest.lines = std::move(examined);
  for (const auto& [number, x] : schemata.mutants)
    manifest.mutants.push_back({number, x.id, names.spectrum_name(x.file), x.line, x.column, x.op, x.original,
                                x.replacement, x.function});
  return manifest;
}

// Runs the user's build of a tree (`option` names where the command came from); when it
// fails, the end of its output goes to stderr before the one-line error.
void build_tree(const std::string& option, const std::string& command, const fs::path& out,
                const std::vector<std::string>& env) {
  collect::ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", command};
  spec.cwd = out;
  spec.env_set = env;
  spec.stdout_limit = 16 * 1024;
  const collect::ProcessResult r = collect::run_process(spec);
  if (r.ok()) return;
  std::cerr << r.out;
  throw Error(option + " '" + command + "' failed (" + collect::describe_end(r, {}) +
              "; the end of its output is above)");
}

// The schemata build's price: the same build of a copy of root without mutants
// (OUT/plain/tree, removed afterwards), timed. Both builds then run without ccache, which
// would otherwise serve one from the other's objects or from an earlier run.
double time_plain_build(const KillMatrixOptions& o, const fs::path& root, const fs::path& out,
                        const std::vector<std::string>& env) {
  const fs::path plain = out / "plain";
  fs::remove_all(plain);
  mutate::SchemataOptions so;
  so.root = root;
  so.build_dir = o.build_dir;
  so.tree = plain / "tree";
  mutate::write_plain_tree(so);
  const auto started = std::chrono::steady_clock::now();
  build_tree("--plain-build", expand(o.plain_build_command, plain, so.tree), plain, env);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  fs::remove_all(plain);
  return seconds;
}
#endif

void run_kill_matrix(const KillMatrixOptions& o) {
  if (int{!o.gtest.empty()} + int{!o.ctest.empty()} + int{!o.tests.empty()} != 1)
    throw Error("kill-matrix: give the schemata build's tests: --gtest BINARY, --ctest DIR or --tests FILE --cmd 'COMMAND {}'");
  if (o.tests.empty() != o.command.empty()) throw Error("kill-matrix: --tests FILE and --cmd 'COMMAND {}' go together");
  if (!o.command.empty() && o.command.find("{}") == std::string::npos)
    throw Error("kill-matrix: --cmd '" + o.command + "' has no {} for the test name");
  if (o.pytest_batch > 0) {
    if (o.command.empty()) throw Error("kill-matrix: --pytest-batch runs the tests of --tests FILE --cmd 'PYTEST {}'");
    collect::batch_command_text(o.command);  // a {} that cannot take several names fails now
  }
  make_formula(o.formula);  // typos fail before the slow parts
  mutate::select_operators(o.operators);
  for (const auto& text : o.lines) parse_place(text);
#ifdef DLFL_HAVE_MUTATE
  const Spectrum spectrum = io::read_spectrum(o.spectrum);
  if (spectrum.failed_weight() == 0.0) throw Error(o.spectrum + ": no failing test; mutation-based localization needs one");
  const fs::path out = fs::absolute(o.out_dir);
  fs::create_directories(out);
  const fs::path root = fs::absolute(o.root.empty() ? fs::current_path() : fs::path(o.root));
  const fs::path manifest_path = out / io::kMutantManifestFileName;
  using Clock = std::chrono::steady_clock;
  const auto seconds_since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  io::KillMatrixCost cost;
  auto started = Clock::now();
  io::MutantManifest manifest;
  if (fs::exists(manifest_path) && !o.regenerate) {
    manifest = io::read_mutant_manifest(manifest_path);
    if (!o.quiet) std::cerr << "dlfl: reusing " << manifest_path.string() << " (--regenerate makes it anew)\n";
  } else {
    const bool had = fs::exists(manifest_path);
    const std::uint64_t before = had ? io::manifest_digest(io::read_mutant_manifest(manifest_path)) : 0;
    manifest = generate(o, spectrum, root, out);
    // The journal holds results of the mutants before: still good when they are the same.
    if (had && io::manifest_digest(manifest) != before) fs::remove(out / kJournalFileName);
    io::write_mutant_manifest(manifest, manifest_path);
    cost.generate_seconds = seconds_since(started);
  }
  if (!o.quiet && manifest.lines)
    std::cerr << "dlfl: mutants sought on " << manifest.lines->size() << " lines\n";
  if (!o.quiet)
    std::cerr << "dlfl: " << manifest.mutants.size() << " of " << manifest.generated << " mutants compiled in ("
              << manifest.dropped_uncompilable << " do not compile, " << manifest.dropped_unguardable
              << " have no place for a switch)\n";
  const fs::path tree = out / manifest.tree;
  std::vector<std::string> build_env;
  if (!o.plain_build_command.empty()) {
    build_env.emplace_back("CCACHE_DISABLE=1");
    if (!o.quiet) std::cerr << "dlfl: timing a plain build of the project (--plain-build), without ccache\n";
    cost.plain_build_seconds = time_plain_build(o, root, out, build_env);
  }
  started = Clock::now();
  build_tree("--build", expand(o.build_command, out, tree), out, build_env);
  cost.build_seconds = seconds_since(started);
  if (!o.quiet && cost.plain_build_seconds)
    std::cerr << "dlfl: schemata build " << cost.build_seconds << " s, plain build " << *cost.plain_build_seconds
              << " s\n";

  collect::MutantRunRequest r;
  r.spectrum = &spectrum;
  for (const auto& m : manifest.mutants) r.mutants.push_back({m.number, m.file, m.line, m.op, m.function});
  const fs::path scratch = out / "runs";
  fs::create_directories(scratch);
  if (!o.gtest.empty()) r.tests = collect::list_gtest_tests(expand(o.gtest, out, tree), {});
  else if (!o.ctest.empty()) r.tests = collect::list_ctest_tests(expand(o.ctest, out, tree), {});
  else r.tests = collect::make_template_commands(collect::read_test_list(o.tests), expand(o.command, out, tree));
  if (o.pytest_batch > 0) {
    r.pytest_template = expand(o.command, out, tree);
    r.pytest_batch = o.pytest_batch;
  }
  r.switch_variable = manifest.switch_variable;
  r.journal = out / kJournalFileName;
  r.schemata_digest = io::manifest_digest(manifest);
  r.scratch = scratch;
  r.jobs = o.jobs;
  r.timeout_factor = o.timeout_factor;
  r.min_timeout = std::chrono::milliseconds(static_cast<std::int64_t>(o.min_timeout * 1000));
  const auto style = o.quiet ? collect::ProgressStyle::none : collect::progress_style_for(2);
  const auto progress = collect::make_progress(style, std::cerr);
  r.progress = progress.get();
  r.warn = [](std::string_view line) { warn(line); };
  collect::MutantRunResult result;
  {
    InterruptScope scope;
    r.interrupt = &InterruptScope::flag();
    started = Clock::now();
    result = collect::run_mutants(r);
    cost.run_seconds = seconds_since(started);
  }
  if (result.interrupted) {
    std::cerr << "dlfl: interrupted; " << r.journal.string() << " keeps the runs that ended: run again to go on\n";
    std::exit(130);
  }
  const fs::path matrix = out / kKillMatrixFileName;
  io::write_spectrum(result.kill_matrix, matrix, io::SpectrumFormat::native);
  cost.generated = manifest.generated;
  cost.compiled = manifest.mutants.size();
  cost.killed = result.killed;
  cost.runs = result.runs;
  cost.reused = result.reused;
  io::write_kill_matrix_cost(cost, out / io::kKillMatrixCostFileName);
  if (!o.quiet)
    std::cerr << "dlfl: " << result.killed << " of " << manifest.mutants.size() << " mutants killed; " << result.runs
              << " test runs (" << result.reused << " read back"
              << (o.pytest_batch > 0 ? fmt::format("; {} pytest batches", result.batches) : std::string()) << "); rank with: dlfl rank " << o.spectrum
              << " --mutation hybrid --kill-matrix " << matrix.string() << '\n';
  std::cout << matrix.string() << '\n';
#else
  run_in_clang_helper("kill-matrix");
  throw Error(
      "this dlfl was built without the Clang 14 development packages, so `dlfl kill-matrix` is not available "
      "(install libclang-14-dev libclang-cpp14-dev llvm-14-dev and rebuild)");
#endif
}

}  // namespace

void add_kill_matrix_command(CLI::App& app) {
  auto o = std::make_shared<KillMatrixOptions>();
  auto* cmd = app.add_subcommand(
      "kill-matrix",
      "Mutation-based localization's measurements for a project you built: mutants of the most suspicious\n"
      "lines of SPECTRUM (its formula's top tie, then the next lines up to --budget mutants) are compiled\n"
      "into ONE copy of the project (OUT/tree, a switch DLFL_MUTANT=N per mutant; OUT/mutants.json lists\n"
      "them), --build builds it, and each failing test and each passing test that ran a mutant's line\n"
      "reruns with the mutant on. A changed verdict, failure message, crash or time-out kills it.\n"
      "Writes OUT/kill-matrix.dlfl for `dlfl rank SPECTRUM --mutation hybrid --kill-matrix ...` and what it\n"
      "cost in OUT/kill-matrix-cost.json (mutants, test runs, seconds of generation, build and runs).\n"
      "Resumable: a rerun reads OUT/kill-journal.jsonl back and reuses OUT/mutants.json.\n"
      "Example: dlfl kill-matrix -s run.dlfl -p build --root . -o mbfl \\\n"
      "           --build 'cmake -S {tree} -B {out}/build -G Ninja && cmake --build {out}/build' \\\n"
      "           --gtest '{out}/build/tests' --budget 100 -j 2");
  cmd->add_option("-s,--spectrum", o->spectrum, std::string(kSpectrumInputHelp) + "; of the original program")
      ->required();
  cmd->add_option("-p,--build-dir", o->build_dir, "Build directory holding compile_commands.json")->required();
  cmd->add_option("--root", o->root,
                  "Source root: the spectrum's relative file names are relative to it (default: current directory)");
  cmd->add_option("-o,--out", o->out_dir, "Output directory (created)")->required();
  cmd->add_option("--build", o->build_command,
                  "Shell command that builds the schemata tree, run in OUT; {tree} and {out} stand for the paths")
      ->required();
  cmd->add_option("--plain-build", o->plain_build_command,
                  "Also time this build of a copy of --root without mutants ({tree} and {out} stand for\n"
                  "OUT/plain/tree and OUT/plain; usually the --build command), just before the schemata build,\n"
                  "both without ccache; kill-matrix-cost.json gets plain_build_seconds. Compare on a fresh OUT:\n"
                  "a rerun's schemata build may be incremental");
  cmd->add_option("--gtest", o->gtest, "The schemata build's GoogleTest binary ({tree}, {out} expanded)");
  cmd->add_option("--ctest", o->ctest, "The schemata build's CTest directory ({tree}, {out} expanded)");
  cmd->add_option("--tests", o->tests, "File of test names (as the spectrum names them), one a line, run with --cmd");
  cmd->add_option("--cmd", o->command,
                  "Command template for --tests, run by /bin/sh -c in the current directory; {} is replaced by the "
                  "quoted test name, {tree} and {out} expanded; exit status 0 passes");
  cmd->add_option("--pytest-batch", o->pytest_batch,
                  "--cmd runs pytest: run up to N of a mutant's tests in one pytest process, {} standing for their node\n"
                  "ids and each outcome read from pytest's JUnit report; what a batch cannot judge (a crash, a\n"
                  "time-out, a case it does not report, a test whose batched baselines differ) runs one test a process");
  cmd->add_option("-f,--formula", o->formula, "Formula choosing the suspicious lines (default: ochiai)");
  cmd->add_option("--lines", o->lines, "Mutate these lines instead, FILE:LINE as the spectrum names FILE (repeatable)");
  cmd->add_option("--budget", o->budget, "Mutants wanted: lines after the top tie are added while fewer are chosen (the top tie is always whole; default 200)");
  cmd->add_option("--per-line", o->per_line, "At most N mutants per line, operators taking turns (default 10)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000}));
  cmd->add_option("--operators", o->operators,
                  "Operators (names, bug types, 'dl', 'all'; see dlfl mutate --list-operators; default: all)");
  cmd->add_option("--extra-arg", o->extra_args, "Extra argument for clang's parse of every unit (repeatable)");
  cmd->add_option("-j,--jobs", o->jobs, "Tests run at once (default: one per CPU)");
  cmd->add_option("--timeout-factor", o->timeout_factor,
                  "A mutant's test may run this many times its slower original run (default 4)")
      ->check(CLI::Range(1.0, 1000.0));
  cmd->add_option("--min-timeout", o->min_timeout, "A mutant's test time limit is never below this many seconds (default 2)")
      ->check(CLI::Range(0.1, 86400.0));
  cmd->add_flag("--regenerate", o->regenerate, "Make the mutants and the tree anew even when OUT holds them");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress messages or summary");
  cmd->callback([o] { run_kill_matrix(*o); });
}

}  // namespace dlfl::cli
