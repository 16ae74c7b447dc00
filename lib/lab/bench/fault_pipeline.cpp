// One seeded fault from edit to evaluation (include/dlfl/lab/bench/fault_pipeline.h).
#include "dlfl/lab/bench/fault_pipeline.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <tuple>

#include "dlfl/lab/bench/download_detection.h"
#include "dlfl/lab/bench/instrumented_edit.h"
#include "dlfl/lab/bench/seeded_kill_matrix.h"
#include "dlfl/lab/bench/technique_results.h"
#include "dlfl/lab/bench/watchdog.h"
#include "dlfl/collect/binary_probe.h"
#include "dlfl/collect/collector.h"
#include "dlfl/collect/shell_quoting.h"
#include "dlfl/collect/test_source.h"
#include "dlfl/error.h"
#include "dlfl/lab/eval/fault_matching.h"
#include "dlfl/lab/eval/metrics.h"
#include "dlfl/lab/mutate/glob.h"
#include "dlfl/files/tree_removal.h"

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

FaultRecord describe(const FaultContext& c, std::span<const mutate::Mutant* const> members) {
  const mutate::Mutant& m = *members.front();
  FaultRecord r;
  r.subject = c.subject->name;
  r.kind = c.subject->kind;
  r.file = m.file;
  r.line = m.line;
  r.end_line = m.end_line ? m.end_line : m.line;
  r.function = m.function;
  // A combination (fault_combinations.h) reads "a+b": ids, operators, bug types; its
  // members share a group by construction, "mixed" covers any that do not.
  std::set<std::string> types, groups;
  for (const auto* member : members) {
    r.fault += (r.fault.empty() ? "" : "+") + member->id;
    r.op += (r.op.empty() ? "" : "+") + member->op;
    types.insert(std::string(mutate::to_string(member->bug_type)));
    groups.insert(mutate::is_dl(member->bug_type) ? "dl" : "traditional");
  }
  for (const auto& t : types) r.bug_type += (r.bug_type.empty() ? "" : "+") + t;
  r.group = groups.size() == 1 ? *groups.begin() : "mixed";
  return r;
}

// The members' edits applied to the tree's copies of their files, each file's edits from
// its end backwards so the earlier offsets (gcov) stay valid; the instrumented path finds
// each edit by its line, which no edit moves. Empty text and the reason when one cannot
// be placed.
struct SeededTexts {
  std::map<std::string, std::string> files;  // relative path -> seeded text
  std::string failure;
};

SeededTexts seed_texts(const FaultContext& c, std::span<const mutate::Mutant* const> members) {
  std::vector<const mutate::Mutant*> order(members.begin(), members.end());
  std::sort(order.begin(), order.end(),
            [](const auto* a, const auto* b) { return std::tie(a->file, b->offset) < std::tie(b->file, a->offset); });
  SeededTexts out;
  for (const auto* m : order) {
    auto [it, fresh] = out.files.try_emplace(m->file);
    if (fresh) it->second = read_text(c.pristine / m->file);
    if (c.subject->backend == Backend::runtime) {
      InstrumentedEdit edit = apply_to_instrumented(read_text(c.subject->root / m->file), it->second, *m);
      if (!edit.ok) return {{}, (members.size() > 1 ? m->id + ": " : "") + edit.reason};
      it->second = std::move(edit.text);
    } else {
      try {
        it->second = mutate::apply_mutant(it->second, *m);
      } catch (const Error& e) {
        return {{}, e.what()};
      }
    }
  }
  return out;
}

}  // namespace

void apply_build_habits(FaultContext& c) {
  const Subject& s = *c.subject;
  if (!s.extra_cflags.empty()) c.vars["cflags"] += (c.vars["cflags"].empty() ? "" : " ") + s.extra_cflags;
  std::string args;
  for (const auto& arg : s.cmake_args) args += (args.empty() ? "" : " ") + collect::shell_quote(arg);
  c.vars["cmake_args"] = args;
  if (!s.url_map.empty())
    for (auto& entry : url_map_environment(s.url_map)) c.build_env.push_back(std::move(entry));
}

namespace {

// The placeholders of a subject's commands for this tree: the context's, {source},
// {build} and {jobs}.
std::map<std::string, std::string> tree_vars(const FaultContext& c, const WorkTree& tree, unsigned jobs) {
  auto vars = c.vars;
  vars["source"] = tree.source.string();
  vars["build"] = tree.build.string();
  vars["jobs"] = std::to_string(jobs);
  return vars;
}

}  // namespace

CommandOutcome run_tree_command(const FaultContext& c, const WorkTree& tree, const std::string& command,
                                unsigned jobs, const std::atomic<bool>* cancel, const StepProgress* progress) {
  const auto vars = tree_vars(c, tree, jobs);
  std::filesystem::create_directories(tree.build);
  return run_command(expand_command(command, vars), tree.build, c.build_env, c.subject->build_timeout, cancel, progress);
}

std::filesystem::path find_test_binary(const std::filesystem::path& build, const std::string& pattern) {
  namespace fs = std::filesystem;
  const bool glob = pattern.find_first_of("*?[") != std::string::npos;
  if (!glob && fs::is_regular_file(build / pattern)) return build / pattern;
  // A glob, or a name the build put elsewhere (projects put test binaries in bin/,
  // tests/, a subproject's folder): the executable files of the build tree that match.
  const std::string name = fs::path(pattern).filename().string();
  std::vector<fs::path> found;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(build, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory(ec)) {
      if (it->path().filename() == "CMakeFiles") it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(ec) || (it->status(ec).permissions() & fs::perms::owner_exec) == fs::perms::none) continue;
    const std::string relative = it->path().lexically_relative(build).generic_string();
    if (glob ? mutate::glob_match(pattern, relative) : it->path().filename() == name) found.push_back(it->path());
  }
  std::sort(found.begin(), found.end());
  if (found.size() == 1) return found.front();
  if (found.empty())
    throw Error("test binary '" + pattern + "' not found in " + build.string() +
                (glob ? " (no executable file matches)" : " (nor an executable of that name anywhere below it)"));
  std::string names;
  for (std::size_t i = 0; i < found.size() && i < 5; ++i)
    names += (i ? ", " : "") + found[i].lexically_relative(build).generic_string();
  throw Error("test binary '" + pattern + "' matches " + std::to_string(found.size()) + " executables in " +
              build.string() + " (" + names + (found.size() > 5 ? ", ..." : "") + "); name one in the recipe");
}

namespace {

// The subject's test_list run in the build directory (stdout to BUILD/../tests.txt, one
// name a line, blank lines and trailing blanks dropped; only those of listed_only when it
// names some) and its test_command run in the build directory for each name.
collect::CommandList listed_tests(const FaultContext& c, const WorkTree& tree, const std::atomic<bool>* cancel) {
  const Subject& s = *c.subject;
  auto vars = tree_vars(c, tree, 1);
  const std::filesystem::path list = tree.build.parent_path() / "tests.txt";
  // Listing often runs the instrumented program (pytest imports the library to collect);
  // its coverage goes to a scratch directory, removed afterwards, or libgcov's checksum
  // complaints about stale .gcda files would bury the listing's own error.
  const std::filesystem::path scratch = tree.build.parent_path() / "listing-coverage";
  std::vector<std::string> env = c.build_env;
  for (auto& entry : collect::listing_coverage_env(scratch)) env.push_back(std::move(entry));
  // A newline before the parenthesis closes the list even when the command ends in a comment.
  const CommandOutcome listed = run_command("(" + expand_command(s.test_list, vars) + "\n) > " +
                                                collect::shell_quote(list.string()),
                                            tree.build, env, s.test_timeout, cancel);
  io::remove_tree_quietly(scratch);
  if (!listed.ok) throw TestListFailure("listing the tests (test_list): " + failure_summary(listed), listed.output);
  std::string names;
  std::size_t count = 0;
  std::istringstream in(read_text(list));
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    if (line.empty() || (!c.listed_only.empty() && !c.listed_only.contains(line))) continue;
    // The names are the code base's data: one must not reach test_command as an option
    // (`sort {}` with `-o/some/file`).
    if (line.starts_with('-'))
      throw TestListFailure("the test_list command printed the test name '" + excerpt(line) +
                                "', which starts with '-': test_command would take it for an option",
                            listed.output);
    names += line + "\n";
    ++count;
  }
  if (count == 0 && !c.listed_only.empty())
    throw Error("the test_list command listed none of the " + std::to_string(c.listed_only.size()) +
                " tests to run (" + *c.listed_only.begin() + (c.listed_only.size() > 1 ? ", ..." : "") + ")");
  if (count == 0) throw Error("the test_list command printed no test name (" + list.string() + " is empty)");
  write_text(list, names);
  vars[""] = "{}";  // collect's own placeholder for the quoted name
  return collect::CommandList{.test_list = list,
                              .command = "cd " + collect::shell_quote(tree.build.string()) + " && " +
                                         expand_command(s.test_command, vars)};
}

}  // namespace

TreeSpectrum collect_tree(const FaultContext& c, const WorkTree& tree, const std::atomic<bool>* cancel) {
  const Subject& s = *c.subject;
  const std::filesystem::path binary = s.test_binary.empty() ? std::filesystem::path() : find_test_binary(tree.build, s.test_binary);
  TreeSpectrum out;
  collect::CollectRequest o;
  o.filter = c.test_filter;
  o.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(s.test_timeout);
  o.interrupt = cancel;
  o.outcomes_only = c.outcomes_only;
  o.progress = c.progress;
  if (!s.test_command.empty())
    o.source = listed_tests(c, tree, cancel);
  else if (s.test_binary.empty())  // neither a test binary nor a list: the build's CTest tests
    o.source = collect::CtestDirectory{tree.build};
  else
    // Validation refuses a working directory for a gtest binary without runtime coverage.
    o.source = collect::GtestBinary{.binary = binary,
                                    .cwd = s.backend == Backend::runtime ? tree.build : std::filesystem::path()};
  if (s.backend == Backend::runtime) {
    o.coverage = collect::CoverageKind::runtime;
    o.probe_map = c.probe_map;
    // One run of a GoogleTest binary; tests of their own processes run as the other
    // backends' do.
    if (s.test_binary.empty()) o.jobs = c.test_jobs;
    o.work_dir = tree.build.parent_path() / "snapshots";
  } else {
    o.coverage = s.backend == Backend::gcov ? collect::CoverageKind::gcov : collect::CoverageKind::llvm;
    // llvm-cov names only the lines of the binaries it is given: the tests' executables
    // alone would leave out the code of the project's shared libraries (a real project's
    // library, a Python extension under pytest).
    if (s.backend == Backend::llvm) o.objects = collect::find_llvm_coverage_binaries(tree.build);
    o.paths.source_root = tree.source;
    o.paths.excludes = {"tests/*"};
    o.jobs = c.test_jobs;
    o.crash_dump_library = c.crash_dump_library;
    o.work_dir = tree.build.parent_path() / "scratch";
  }
  std::filesystem::create_directories(o.work_dir);
  out.spectrum = collect::collect(o).spectrum;
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

std::string unfindable_fault(const std::vector<FormulaResult>& results, std::size_t faulty_lines) {
  if (std::any_of(results.begin(), results.end(), [](const FormulaResult& f) { return f.found; })) return "";
  if (faulty_lines == 0)
    return "the spectrum holds no line of the fix's C/C++/CUDA files outside the tests, so neither a changed line nor "
           "one next to a change is ranked (files no test's code runs or includes, or a fix that only adds files)";
  return "none of the fix's " + std::to_string(faulty_lines) + " faulty line" + (faulty_lines == 1 ? " is" : "s is") +
         " a line the coverage records (comments, declarations, or code the compiler attributes to another line, "
         "such as the arguments of a multi-line macro invocation)";
}

std::vector<FormulaResult> evaluate_formulas(const FaultContext& c, const Spectrum& spectrum,
                                             const std::vector<eval::GroundTruthItem>& faults) {
  eval::EvaluationOptions options;
  options.top_n = c.top_n;
  options.exam_base = c.exam_base;
  options.top_n_rule = c.top_n_rule;
  return technique_results(c, spectrum, faults, options);
}

FaultRecord run_fault(const FaultContext& c, const WorkTree& tree, const mutate::Mutant& m,
                      const std::function<void(const std::string&)>& log) {
  const mutate::Mutant* members[] = {&m};
  return run_faults(c, tree, members, log);
}

FaultRecord run_faults(const FaultContext& c, const WorkTree& tree, std::span<const mutate::Mutant* const> members,
                       const std::function<void(const std::string&)>& log) {
  const auto start = std::chrono::steady_clock::now();
  FaultRecord r = describe(c, members);
  auto discard = [&](const std::string& reason, const std::string& detail) {
    return r = discarded(std::move(r), reason, detail, start, log);
  };

  // The edits, placed in the tree's copies of their files.
  SeededTexts seeded = seed_texts(c, members);
  if (!seeded.failure.empty()) return discard("not placeable", seeded.failure);
  std::vector<std::unique_ptr<SeededFile>> files;
  for (const auto& [path, text] : seeded.files) files.push_back(std::make_unique<SeededFile>(tree.source / path, text));
  // Explicitly: a failed restore must stop the worker, not seed its next fault twice.
  const auto restore = [&] {
    for (auto& f : files) f->restore();
  };

  const CommandOutcome built = run_tree_command(c, tree, c.subject->build, 1, c.interrupt);
  if (interrupted(c)) throw Error("interrupted");
  if (!built.ok) {
    // The last compiler line says why; the whole log would drown the progress output.
    std::string last = built.output;
    while (!last.empty() && (last.back() == '\n' || last.back() == '\r')) last.pop_back();
    if (const auto nl = last.rfind("error:"); nl != std::string::npos) last = last.substr(nl);
    if (last.size() > 200) last.resize(200);
    restore();
    return discard(built.timed_out ? "build timeout" : "build fails", built.how + "; " + last);
  }

  TreeSpectrum collected;
  {
    Watchdog watchdog(c.subject->fault_timeout, c.interrupt);
    try {
      collected = collect_tree(c, tree, watchdog.flag());
      if (interrupted(c)) throw Error("interrupted");  // its last tests may have died of the stopping signal
    } catch (const Error& e) {
      if (interrupted(c)) throw Error("interrupted");
      restore();
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
  restore();

  const Spectrum& spectrum = collected.spectrum;
  r.tests = spectrum.test_count();
  r.failing = collected.failing.size();
  r.elements = spectrum.element_count();
  std::size_t newly_failing = 0;
  for (const auto& name : collected.failing) newly_failing += !c.baseline_failing.contains(name);
  if (newly_failing == 0) return discard("no test fails", "");
  if (r.failing == r.tests) return discard("every test fails", "");

  // Rank and evaluate at line level (the edits' lines are the ground truth). A single
  // mutant's lines are faulty_lines; a combination's are listed as "file:LINE" items.
  std::vector<eval::GroundTruthItem> faults;
  for (const auto* m : members) {
    for (const auto line : faulty_lines(spectrum, *m)) {
      faults.push_back({m->file, line, {}});
      if (members.size() == 1) r.faulty_lines.push_back(line);
      else r.faulty.push_back(eval::to_string(faults.back()));
    }
  }
  r.results = evaluate_formulas(c, spectrum, faults);
  if (!c.kill_matrix.command.empty()) add_seeded_kill_matrix(c, tree, members, spectrum, faults, r, log);
  r.kept = true;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace dlfl::bench
