// The benchmark driver (include/dlfl/lab/bench/bench_runner.h).
#include "dlfl/lab/bench/bench_runner.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <set>
#include <nlohmann/json.hpp>

#include "dlfl/lab/bench/results_store.h"
#include "dlfl/lab/bench/run_directory.h"
#include "dlfl/lab/bench/subject_setup.h"
#include "dlfl/lab/bench/work_tree.h"
#include "dlfl/error.h"
#include "dlfl/files/json_depth.h"
#include "dlfl/files/text_file.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;

// What makes stored results comparable: resuming with anything else would mix two
// benchmarks in one table.
nlohmann::json fingerprint(const BenchConfig& config) {
  nlohmann::json subjects = nlohmann::json::array();
  for (const auto& s : config.subjects)
    subjects.push_back({{"subject", fs::absolute(s.subject_file).lexically_normal().string()},
                        {"max", s.max},
                        {"seed", s.seed}});
  nlohmann::json print{{"subjects", subjects}, {"formulas", config.formulas}, {"top_n", config.top_n}, {"techniques", config.techniques}};
  // Only with --mbfl, so directories of runs without it resume.
  if (config.mbfl_budget > 0) print["mbfl"] = {{"budget", config.mbfl_budget}, {"per_line", config.mbfl_per_line}};
  // Only in multi-fault mode, so single-fault directories of earlier versions resume.
  if (config.multi_fault.enabled())
    print["multi_fault"] = {{"k", {config.multi_fault.min_k, config.multi_fault.max_k}},
                            {"combinations", config.multi_fault.combinations}};
  return print;
}

// Multi-fault mode: the ids of the mutants that made a test fail alone, per subject, from
// the single-fault run in `singles` (its store, read only). That run must be of the same
// subjects (max, seed) and finished for them: an unfinished one would silently shrink
// the candidate set.
std::map<std::string, std::set<std::string>> failing_alone(const fs::path& singles, const BenchConfig& config,
                                                           const std::vector<PreparedSubject>& subjects) {
  const fs::path config_file = singles / std::string(kConfigFileName);
  const fs::path store = singles / std::string(kResultsFileName);
  if (!fs::exists(config_file) || !fs::exists(store))
    throw Error(singles.string(), 0,
                "not the output directory of a single-fault dlfl bench run (no " + std::string(kConfigFileName) + " and " +
                    std::string(kResultsFileName) + "); run the same benchmark without --multi-fault there first");
  nlohmann::json theirs;
  const std::string text = io::read_text_file(config_file, kMaxBenchConfigBytes, "run configuration");
  io::check_json_depth(text, config_file.string());
  try {
    theirs = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw Error(config_file.string(), 0, std::string("not valid JSON: ") + e.what());
  }
  if (!theirs.is_object() || theirs.contains("multi_fault") || theirs.value("subjects", nlohmann::json()) != fingerprint(config)["subjects"])
    throw Error(config_file.string(), 0, "the single-fault results are of other subjects, max or seed (or of a multi-fault run)");
  std::map<std::string, FaultRecord> records;
  for (auto& r : read_records(store)) records.emplace(r.key(), std::move(r));
  std::map<std::string, std::set<std::string>> out;
  for (const auto& p : subjects) {
    std::size_t missing = 0;
    auto& ids = out[p.subject->name];
    for (const auto& m : p.mutants) {
      const auto it = records.find(p.subject->name + "#" + m.id);
      if (it == records.end()) ++missing;
      else if (it->second.kept) ids.insert(m.id);
    }
    if (missing)
      throw Error(store.string(), 0, std::to_string(missing) + " of the " + std::to_string(p.mutants.size()) +
                                         " sampled faults of " + p.subject->name +
                                         " have no single-fault result: finish that run first (same command, without --multi-fault)");
  }
  return out;
}

}  // namespace

BenchResult run_bench(const BenchOptions& o) {
  const auto started = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
  auto interrupted = [&] { return o.interrupt && o.interrupt->load(); };
  auto log = [&](std::string_view line) {
    if (o.progress) o.progress->note(line);
    else if (o.log) o.log(line);
  };
  // The subjects are read before OUT is made, so a bad subject file leaves nothing behind.
  // A subject's name keys its work directory and its faults' records: two subjects of
  // one name would share both and skip each other's faults as done.
  std::map<std::string, fs::path> names;
  for (const auto& run : o.config.subjects) {
    const Subject s = read_subject(run.subject_file);
    if (const auto [it, fresh] = names.emplace(s.name, run.subject_file); !fresh)
      throw Error(run.subject_file.string(), 0,
                  "subject name \"" + s.name + "\" is also the name of " + it->second.string() +
                      ": each subject of a benchmark needs its own name");
  }

  fs::create_directories(o.out_dir);
  const fs::path work = o.work_dir.empty() ? o.out_dir / "work" : o.work_dir;
  // Paths are bytes, JSON is UTF-8: a subject under a non-UTF-8 path is fingerprinted
  // with U+FFFD in place of the bad bytes (dump() threw type_error.316).
  check_run_configuration(o.out_dir / std::string(kConfigFileName),
                          fingerprint(o.config).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                          "benchmark configuration (subjects, max, seed, formulas, techniques or top N differ)");
  ResultsStore store(o.out_dir / std::string(kResultsFileName));

  BenchResult result;
  result.resumed = store.records().size();
  const unsigned jobs = std::max(1u, o.config.jobs);

  std::vector<PreparedSubject> subjects;
  try {
    for (const auto& run : o.config.subjects) {
      SetupOptions setup;
      setup.work_dir = work;
      setup.max = run.max;
      setup.seed = run.seed;
      setup.workers = jobs;
      setup.build_jobs = jobs;
      setup.formulas = o.config.formulas;
      setup.techniques = o.config.techniques;
      setup.top_n = o.config.top_n;
      setup.runtime_cflags = o.runtime_cflags;
      setup.runtime_ldflags = o.runtime_ldflags;
      setup.runtime_gtest_ldflags = o.runtime_gtest_ldflags;
      setup.clang = o.clang;
      if (o.config.mbfl_budget > 0) {
        setup.kill_matrix.command = o.kill_matrix_command;
        setup.kill_matrix.budget = o.config.mbfl_budget;
        setup.kill_matrix.per_line = o.config.mbfl_per_line;
        setup.kill_matrix.timeout = o.kill_matrix_timeout;
      }
      setup.interrupt = o.interrupt;
      setup.log = log;
      subjects.push_back(prepare_subject(run.subject_file, setup));
    }
  } catch (const Error&) {
    if (!interrupted()) throw;
    result.interrupted = true;
  }

  // Work items: single mutants, or in multi-fault mode the planned combinations.
  struct Item {
    std::size_t subject;
    std::vector<const mutate::Mutant*> mutants;
  };
  std::vector<std::vector<FaultCombination>> combinations(subjects.size());
  if (o.config.multi_fault.enabled() && !result.interrupted) {
    const auto alone = failing_alone(o.singles_dir, o.config, subjects);
    for (std::size_t s = 0; s < subjects.size(); ++s)
      combinations[s] = plan_combinations(subjects[s].mutants, alone.at(subjects[s].subject->name), o.config.multi_fault,
                                          o.config.subjects[s].seed);
  }
  std::size_t total = 0;
  std::vector<Item> items;
  for (std::size_t s = 0; s < subjects.size(); ++s) {
    const std::string prefix = subjects[s].subject->name + "#";
    if (o.config.multi_fault.enabled()) {
      total += combinations[s].size();
      for (const auto& c : combinations[s])
        if (!store.contains(prefix + c.id)) items.push_back({s, c.mutants});
    } else {
      total += subjects[s].mutants.size();
      for (const auto& m : subjects[s].mutants)
        if (!store.contains(prefix + m.id)) items.push_back({s, {&m}});
    }
  }
  // Faults of one file one after another: a worker's next fault then often recompiles
  // the unit it just restored (a ccache hit) rather than a second one.
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return std::tie(a.subject, a.mutants.front()->file) < std::tie(b.subject, b.mutants.front()->file);
  });
  const std::size_t planned = o.limit ? std::min(o.limit, items.size()) : items.size();

  std::exception_ptr error;
  if (!result.interrupted) {
    if (o.progress) o.progress->start(planned);
    try {
      run_workers(
          jobs, planned,
          [&](unsigned k, std::size_t i) {
            const PreparedSubject& p = subjects[items[i].subject];
            const FaultRecord record =
                run_faults(p.context, p.trees[k], items[i].mutants, [&](const std::string& line) { log(line); });
            store_finished(store, o.progress, record);
          },
          o.interrupt);
    } catch (...) {
      error = std::current_exception();  // the outputs are written first
    }
    if (o.progress) o.progress->finish();
  }

  result.interrupted = result.interrupted || interrupted();
  result.records = store.records();
  result.pending = total - std::min(total, result.records.size());
  result.seconds = elapsed();
  write_run_outputs(o.out_dir, result.records, {.top_n = o.config.top_n, .wall_seconds = result.seconds});
  if (error) std::rethrow_exception(error);
  return result;
}

}  // namespace dlfl::bench
