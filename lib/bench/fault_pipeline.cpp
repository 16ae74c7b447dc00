// One seeded fault from edit to evaluation (include/dlfl/bench/fault_pipeline.h).
#include "dlfl/bench/fault_pipeline.h"

#include <algorithm>
#include <chrono>
#include <iostream>

#include "dlfl/bench/instrumented_edit.h"
#include "dlfl/bench/technique_results.h"
#include "dlfl/bench/watchdog.h"
#include "dlfl/collect/collector.h"
#include "dlfl/collect/runtime_collector.h"
#include "dlfl/error.h"
#include "dlfl/eval/fault_matching.h"
#include "dlfl/eval/metrics.h"
#include "dlfl/eval/scored_element.h"
#include "dlfl/scoring.h"

namespace dlfl::bench {
namespace {

bool interrupted(const FaultContext& c) { return c.interrupt && c.interrupt->load(); }

// The lines evaluated as faulty (FaultRecord::faulty_lines): mutated lines that are
// spectrum elements; else the nearest element line above the edit in the same function
// (a statement's probe sits on its first line, the edit may be on a later one); else
// the mutated line itself (it is then not ranked, and the fault counts as not found).
std::vector<std::uint32_t> faulty_lines(const Spectrum& spectrum, const mutate::Mutant& m) {
  std::vector<std::uint32_t> inside;
  std::uint32_t above_same_function = 0, above = 0;
  for (std::size_t e = 0; e < spectrum.element_count(); ++e) {
    const auto& record = spectrum.element(e);
    if (record.first_line == 0 || !eval::same_file(spectrum.file(e), m.file)) continue;
    const std::uint32_t last = std::max(record.first_line, record.last_line);
    if (record.first_line <= m.end_line && last >= m.line) {
      for (std::uint32_t l = std::max(record.first_line, m.line); l <= std::min(last, m.end_line); ++l)
        inside.push_back(l);
    } else if (last < m.line) {
      above = std::max(above, last);
      if (!m.function.empty() && eval::same_function(spectrum.function(e), m.function))
        above_same_function = std::max(above_same_function, last);
    }
  }
  std::sort(inside.begin(), inside.end());
  inside.erase(std::unique(inside.begin(), inside.end()), inside.end());
  if (!inside.empty()) return inside;
  if (above_same_function) return {above_same_function};
  (void)above;  // a line of another function would credit the wrong code: not used
  return {m.line};
}

FaultRecord describe(const FaultContext& c, const mutate::Mutant& m) {
  FaultRecord r;
  r.subject = c.subject->name;
  r.fault = m.id;
  r.kind = c.subject->kind;
  r.group = mutate::is_dl(m.bug_type) ? "dl" : "traditional";
  r.bug_type = std::string(mutate::to_string(m.bug_type));
  r.op = m.op;
  r.file = m.file;
  r.line = m.line;
  r.end_line = m.end_line ? m.end_line : m.line;
  r.function = m.function;
  return r;
}

}  // namespace

CommandOutcome run_tree_command(const FaultContext& c, const WorkTree& tree, const std::string& command,
                                unsigned jobs, const std::atomic<bool>* cancel) {
  auto vars = c.vars;
  vars["source"] = tree.source.string();
  vars["build"] = tree.build.string();
  vars["jobs"] = std::to_string(jobs);
  std::filesystem::create_directories(tree.build);
  return run_command(expand_command(command, vars), tree.build, c.build_env, c.subject->build_timeout, cancel);
}

TreeSpectrum collect_tree(const FaultContext& c, const WorkTree& tree, const std::atomic<bool>* cancel) {
  const Subject& s = *c.subject;
  const std::filesystem::path binary = tree.build / s.test_binary;
  TreeSpectrum out;
  if (s.backend == Backend::runtime) {
    collect::RuntimeCollectOptions o;
    o.gtest_binary = binary;
    o.probe_map = c.probe_map;
    o.filter = c.test_filter;
    o.cwd = tree.build;
    o.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(s.test_timeout);
    o.work_dir = tree.build.parent_path() / "snapshots";
    std::filesystem::create_directories(o.work_dir);
    o.interrupt = cancel;
    out.spectrum = collect::collect_with_runtime(o).spectrum;
  } else {
    collect::CollectOptions o;
    // No test binary (a reproduction recipe): the build's CTest tests.
    o.source = s.test_binary.empty() ? collect::TestSourceKind::ctest : collect::TestSourceKind::gtest;
    o.gtest_binary = binary;
    o.ctest_dir = tree.build;
    o.filter = c.test_filter;
    o.coverage = s.backend == Backend::gcov ? collect::CoverageKind::gcov : collect::CoverageKind::llvm;
    o.paths.source_root = tree.source;
    o.paths.excludes = {"tests/*"};
    o.jobs = c.test_jobs;
    o.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(s.test_timeout);
    o.work_dir = tree.build.parent_path() / "scratch";
    std::filesystem::create_directories(o.work_dir);
    o.interrupt = cancel;
    const auto quiet = collect::make_progress(collect::ProgressStyle::none, std::cerr);
    out.spectrum = collect::collect(o, *quiet).spectrum;
  }
  for (const auto& test : out.spectrum.tests())
    if (test.failed()) out.failing.insert(test.name);
  return out;
}

FaultRecord discarded(FaultRecord r, const std::string& reason, const std::string& detail,
                      std::chrono::steady_clock::time_point start, const std::function<void(const std::string&)>& log) {
  r.kept = false;
  r.reason = reason;
  r.detail = detail;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (log && !detail.empty()) log(r.key() + ": " + reason + ": " + detail);
  return r;
}

std::vector<FormulaResult> evaluate_formulas(const FaultContext& c, const Spectrum& spectrum,
                                             const std::vector<eval::GroundTruthItem>& faults) {
  std::vector<FormulaResult> results;
  const Scores scores = score_spectrum(spectrum, c.formulas, {.threads = 1});
  eval::EvaluationOptions options;
  options.top_n = c.top_n;
  for (std::size_t k = 0; k < c.formulas.size(); ++k) {
    const auto ranking = eval::scored_elements(spectrum, scores.per_formula[k]);
    results.push_back(formula_result(c.formulas[k].name(), eval::evaluate(ranking, faults, options)));
  }
  for (auto& t : technique_results(c, spectrum, faults, options)) results.push_back(std::move(t));
  return results;
}

FaultRecord run_fault(const FaultContext& c, const WorkTree& tree, const mutate::Mutant& m,
                      const std::function<void(const std::string&)>& log) {
  const auto start = std::chrono::steady_clock::now();
  FaultRecord r = describe(c, m);
  auto discard = [&](const std::string& reason, const std::string& detail) {
    return r = discarded(std::move(r), reason, detail, start, log);
  };

  // The edit, placed in the tree's copy of the file.
  const std::string original = read_text(c.subject->root / m.file);
  const std::filesystem::path target = tree.source / m.file;
  const std::string pristine = read_text(c.pristine / m.file);
  std::string seeded;
  if (c.subject->backend == Backend::runtime) {
    InstrumentedEdit edit = apply_to_instrumented(original, pristine, m);
    if (!edit.ok) return discard("not placeable", edit.reason);
    seeded = std::move(edit.text);
  } else {
    try {
      seeded = mutate::apply_mutant(pristine, m);
    } catch (const Error& e) {
      return discard("not placeable", e.what());
    }
  }
  SeededFile file(target, seeded);

  const CommandOutcome built = run_tree_command(c, tree, c.subject->build, 1, c.interrupt);
  if (interrupted(c)) throw Error("interrupted");
  if (!built.ok) {
    // The last compiler line says why; the whole log would drown the progress output.
    std::string last = built.output;
    while (!last.empty() && (last.back() == '\n' || last.back() == '\r')) last.pop_back();
    if (const auto nl = last.rfind("error:"); nl != std::string::npos) last = last.substr(nl);
    if (last.size() > 200) last.resize(200);
    file.restore();  // explicitly: a failed restore must stop the worker, not seed its next fault twice
    return discard(built.timed_out ? "build timeout" : "build fails", built.how + "; " + last);
  }

  TreeSpectrum collected;
  {
    Watchdog watchdog(c.subject->fault_timeout, c.interrupt);
    try {
      collected = collect_tree(c, tree, watchdog.flag());
    } catch (const Error& e) {
      if (interrupted(c)) throw Error("interrupted");
      file.restore();
      // The probe map or the worker's scratch space failing is the bench's problem, not
      // the fault's: stop instead of storing a discard that a rerun would never retry.
      // (Scratch: the worker's directory outside its source and build trees, where the
      // snapshots go; errors naming the test binary in the build tree stay discards.)
      const std::string where = e.file();
      const bool in_worker = where.starts_with(tree.build.parent_path().string() + "/");
      const bool in_trees = where.starts_with(tree.build.string() + "/") || where.starts_with(tree.source.string() + "/");
      if (!where.empty() && (where == c.probe_map.string() || (in_worker && !in_trees))) throw;
      if (watchdog.expired())
        return discard("test timeout", "the tests ran longer than " + std::to_string(c.subject->fault_timeout.count()) + " s");
      return discard("tests fail to run", e.what());
    }
  }
  file.restore();

  const Spectrum& spectrum = collected.spectrum;
  r.tests = spectrum.test_count();
  r.failing = collected.failing.size();
  r.elements = spectrum.element_count();
  std::size_t newly_failing = 0;
  for (const auto& name : collected.failing) newly_failing += !c.baseline_failing.contains(name);
  if (newly_failing == 0) return discard("no test fails", "");
  if (r.failing == r.tests) return discard("every test fails", "");

  // Rank and evaluate at line level (the edit's lines are the ground truth).
  r.faulty_lines = faulty_lines(spectrum, m);
  std::vector<eval::GroundTruthItem> faults;
  for (const auto line : r.faulty_lines) faults.push_back({m.file, line, {}});
  r.results = evaluate_formulas(c, spectrum, faults);
  r.kept = true;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace dlfl::bench
