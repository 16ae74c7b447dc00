// A kept real bug's kill matrix, measured by `dlfl kill-matrix` (include/dlfl/lab/bench/bug_kill_matrix.h).
#include "dlfl/lab/bench/bug_kill_matrix.h"

#include <chrono>
#include <fstream>
#include <iterator>
#include <set>
#include <utility>

#include "dlfl/collect/shell_quoting.h"
#include "dlfl/error.h"
#include "dlfl/files/atomic_file.h"
#include "dlfl/formats/kill_matrix_cost.h"
#include "dlfl/formats/mutant_manifest.h"
#include "dlfl/formats/native_format.h"
#include "dlfl/formats/spectrum_formats.h"
#include "dlfl/lab/bench/step_log.h"
#include "dlfl/lab/bench/technique_results.h"
#include "dlfl/lab/mutate/operators.h"
#include "dlfl/spectrum_subset.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;
using collect::shell_quote;

bool has_compile_database(const fs::path& build) {
  std::ifstream in(build / "compile_commands.json");
  for (char ch; in.get(ch);)
    if (ch == '{') return true;
  return false;
}

}  // namespace

void set_recipe_schemata(const FaultContext& c, std::map<std::string, std::string> vars, const fs::path& test_build,
                         BugKillMatrixRun& run) {
  const Subject& recipe = *c.subject;
  const fs::path build = run.out / "build";
  vars["cflags"] = recipe.extra_cflags;
  vars["ldflags"] = "";
  vars["jobs"] = std::to_string(c.test_jobs);
  const auto build_command = [&](const fs::path& dir) {
    vars["source"] = (dir / "tree").string();
    vars["build"] = (dir / "build").string();
    return "(" + expand_command(recipe.configure, vars) + "\n) && (" + expand_command(recipe.build, vars) + "\n)";
  };
  run.plain_build_command = build_command(run.out / "plain");
  run.build_command = build_command(run.out);
  run.jobs = c.test_jobs;
  if (!recipe.test_binary.empty()) {
    const fs::path binary = find_test_binary(test_build, recipe.test_binary);
    run.gtest = (build / binary.lexically_relative(test_build)).string();
  } else if (!recipe.test_command.empty()) {
    vars[""] = "{}";  // kill-matrix's own placeholder for the quoted name
    run.test_command = "cd " + shell_quote(build.string()) + " && " + expand_command(recipe.test_command, vars);
  } else {
    run.ctest = build.string();
  }
}

void set_bug_owner(const BugPlan& plan, BugKillMatrixRun& run) {
  run.owner = plan.bug->id + " " + plan.fix;
  run.log_dir = plan.log_dir;
  if (!plan.spectrum_dir.empty()) run.keep_as = plan.spectrum_dir / (plan.bug->id + ".kill-matrix.dlfl");
}

void no_kill_matrix(FaultRecord& r, const std::string& why, const std::function<void(const std::string&)>& log) {
  if (!r.mbfl) r.mbfl.emplace();
  r.mbfl->failure = why;
  if (log) log(r.key() + ": no kill matrix: " + why);
}

void add_kill_matrix(const FaultContext& c, const BugKillMatrixRun& run, const Spectrum& spectrum,
                     const std::vector<eval::GroundTruthItem>& truth, FaultRecord& r,
                     const std::function<void(const std::string&)>& log) {
  const auto start = std::chrono::steady_clock::now();
  MutationCost& cost = r.mbfl.emplace();
  cost.plain_build_seconds = run.plain_build_seconds;
  cost.budget = c.kill_matrix.budget;
  cost.per_line = c.kill_matrix.per_line;
  // kill-matrix is this build of dlfl, run with the operators chosen (default: all).
  for (const mutate::Operator op : mutate::select_operators(c.kill_matrix.operators))
    cost.operators.emplace_back(mutate::operator_info(op).name);
  const auto failed = [&](const std::string& why) {
    cost.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    no_kill_matrix(r, why, log);
  };
  if (!has_compile_database(run.compile_database))
    return failed("no compilation database in " + run.compile_database.string() +
                  " (kill-matrix parses the sources with it)");
  // The directory is the work tree's: a rerun for the same owner resumes from
  // kill-matrix's journal; another owner's mutants are removed first.
  const std::string owner = run.owner + "\n";
  const fs::path owner_file = run.out / "bug.txt";
  std::ifstream owned(owner_file);
  if (std::string(std::istreambuf_iterator<char>(owned), std::istreambuf_iterator<char>()) != owner) {
    fs::remove_all(run.out);
    fs::create_directories(run.out);
    io::AtomicFile file(owner_file);
    file.stream() << owner;
    file.commit();
  }
  const fs::path spectrum_file = run.out / "spectrum.dlfl";
  io::write_native(spectrum, spectrum_file);
  std::vector<std::string> argv = c.kill_matrix.command;
  for (const std::string& arg :
       {std::string("-s"), spectrum_file.string(), std::string("-p"), run.compile_database.string(),
        std::string("--root"), run.source.string(), std::string("-o"), run.out.string(), std::string("--build"),
        run.build_command, std::string("--budget"), std::to_string(c.kill_matrix.budget), std::string("--per-line"),
        std::to_string(c.kill_matrix.per_line), std::string("-j"), std::to_string(run.jobs), std::string("-q")})
    argv.push_back(arg);
  if (!c.kill_matrix.operators.empty()) {
    std::string chosen;
    for (const std::string& item : c.kill_matrix.operators) chosen += (chosen.empty() ? "" : ",") + item;
    argv.insert(argv.end(), {"--operators", chosen});
  }
  if (c.kill_matrix.plain_build && !run.plain_build_command.empty())
    argv.insert(argv.end(), {"--plain-build", run.plain_build_command});
  if (!run.gtest.empty()) argv.insert(argv.end(), {"--gtest", run.gtest});
  else if (!run.ctest.empty()) argv.insert(argv.end(), {"--ctest", run.ctest});
  else {
    std::string names;
    for (const auto& test : spectrum.tests()) names += test.name + "\n";
    const fs::path list = run.out / "tests.txt";
    io::AtomicFile file(list);
    file.stream() << names;
    file.commit();
    argv.insert(argv.end(), {"--tests", list.string(), "--cmd", run.test_command});
    if (c.kill_matrix.pytest_batch > 0) {
      argv.insert(argv.end(), {"--pytest-batch", std::to_string(c.kill_matrix.pytest_batch)});
      cost.pytest_batch = c.kill_matrix.pytest_batch;
    }
  }
  std::string command;
  for (const auto& arg : argv) command += (command.empty() ? "" : " ") + shell_quote(arg);
  const StepProgress progress{r.key() + ": kill-matrix", log};
  const CommandOutcome outcome =
      run_command(command, run.out, c.build_env, c.kill_matrix.timeout, c.interrupt, &progress);
  if (c.interrupt && c.interrupt->load()) throw Error("interrupted");
  keep_log(run.log_dir, "kill-matrix.log", outcome.output);
  if (!outcome.ok) return failed("kill-matrix: " + failure_summary(outcome));

  Spectrum kills;
  try {
    kills = io::read_spectrum(run.out / "kill-matrix.dlfl");
    const io::KillMatrixCost measured = io::read_kill_matrix_cost(run.out / io::kKillMatrixCostFileName);
    cost.generated = measured.generated;
    cost.compiled = measured.compiled;
    cost.killed = measured.killed;
    cost.runs = measured.runs + measured.reused;
    cost.build_seconds = measured.build_seconds;
    cost.run_seconds = measured.run_seconds;
    if (measured.plain_build_seconds) {
      cost.plain_build_seconds = *measured.plain_build_seconds;
      cost.plain_build_uncached = true;
    }
  } catch (const Error& e) {
    return failed(e.what());
  }
  eval::EvaluationOptions options;
  options.top_n = c.top_n;
  options.exam_base = c.exam_base;
  options.top_n_rule = c.top_n_rule;
  std::set<std::pair<std::string, std::uint32_t>> faulty;
  for (const auto& item : truth)
    if (item.line > 0) faulty.emplace(item.file, item.line);
  const auto on_faulty_line = [&](std::size_t e) {
    return faulty.contains({std::string(kills.file(e)), static_cast<std::uint32_t>(kills.element(e).first_line)});
  };
  for (std::size_t e = 0; e < kills.element_count(); ++e) cost.on_faulty_lines += on_faulty_line(e);
  try {
    const io::MutantManifest manifest = io::read_mutant_manifest(run.out / io::kMutantManifestFileName);
    if (manifest.lines) {
      auto untried = faulty;  // a line examined twice (--lines) counts once
      for (const auto& l : *manifest.lines) untried.erase({l.file, l.line});
      cost.faulty_lines_examined = faulty.size() - untried.size();
    }
  } catch (const Error& e) {
    return failed(e.what());
  }
  for (auto& result : mutation_results(c, spectrum, kills, truth, options)) r.results.push_back(std::move(result));
  if (run.other_lines) {
    const Spectrum others = subset(
        kills, [&](std::size_t e) -> bool { return !on_faulty_line(e); }, [](std::size_t) { return true; });
    for (auto& result : mutation_results(c, spectrum, others, truth, options)) {
      result.formula += "-other-lines";
      r.results.push_back(std::move(result));
    }
  }
  if (!run.keep_as.empty()) {
    fs::create_directories(run.keep_as.parent_path());
    io::write_native(kills, run.keep_as);
  }
  cost.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace dlfl::bench
