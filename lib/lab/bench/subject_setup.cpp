// Preparing a subject for its faults (include/dlfl/lab/bench/subject_setup.h).
#include "dlfl/lab/bench/subject_setup.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <sstream>

#include "dlfl/error.h"
#include "dlfl/graph/call_graph_format.h"
#include "dlfl/probe_map/probe_map.h"
#include "dlfl/lab/mutate/mutant_output.h"
#include "dlfl/lab/mutate/operators.h"
#include "dlfl/lab/mutate/sampling.h"
#include "dlfl/files/tree_removal.h"

namespace dlfl::bench {
namespace {

namespace fs = std::filesystem;

// A failed setup command is one error line; its output goes to a log file beside the
// build, named in the message.
void check(const CommandOutcome& outcome, const Subject& s, const WorkTree& tree, const std::string& what) {
  if (outcome.ok) return;
  const fs::path log = tree.build / "dlfl-bench-failed.log";
  std::string where;
  try {
    write_text(log, outcome.output);
    where = "; its output is in " + log.string();
  } catch (const Error&) {
    // The message stays useful without the log.
  }
  throw Error(s.file.string(), 0, what + " failed (" + outcome.how + ")" + where);
}

// Runs the configure command unless the same command already configured that directory.
void configure(const FaultContext& c, const WorkTree& tree, const std::atomic<bool>* interrupt) {
  const fs::path marker = tree.build / ".dlfl-bench-configured";
  auto vars = c.vars;
  vars["source"] = tree.source.string();
  vars["build"] = tree.build.string();
  vars["jobs"] = "1";
  const std::string command = expand_command(c.subject->configure, vars);
  if (fs::exists(marker) && read_text(marker) == command) return;
  check(run_tree_command(c, tree, c.subject->configure, 1, interrupt), *c.subject, tree,
        "configuring " + tree.source.string());
  write_text(marker, command);
}

std::vector<mutate::Mutant> sample_mutants(const Subject& s, const fs::path& original_build, const fs::path& dir,
                                           const SetupOptions& o) {
  const fs::path manifest = dir / "mutants" / std::string(mutate::kManifestFileName);
  // The sample's parameters are kept beside it: a work directory shared by benchmarks of
  // other --max/--seed samples again. A manifest without them (written by `dlfl mutate`)
  // is used as it is.
  const fs::path parameters = dir / "mutants" / "sample.txt";
  const std::string sample = "max " + std::to_string(o.max) + " seed " + std::to_string(o.seed) + "\n";
  if (fs::exists(manifest) && (!fs::exists(parameters) || read_text(parameters) == sample))
    return mutate::read_manifest(manifest);
  if (!o.clang.find_mutants)
    throw Error(s.file.string(), 0,
                "finding mutants needs a dlfl built with the Clang 14 development packages (or a " +
                    manifest.string() + " written by `dlfl mutate`)");
  MutantSearch m;
  m.build_dir = original_build;
  m.root = s.root;
  m.files = s.mutate_files;
  m.exclude = s.mutate_exclude;
  m.operators = mutate::select_operators(s.operators);
  const auto all = o.clang.find_mutants(m);
  auto chosen = mutate::stratified_sample(all, o.max, o.seed);
  if (o.log) o.log(s.name + ": " + std::to_string(chosen.size()) + " of " + std::to_string(all.size()) + " mutants");
  fs::create_directories(dir / "mutants");
  mutate::write_mutants(dir / "mutants", s.root, chosen);
  write_text(parameters, sample);
  return chosen;
}

void instrument_tree(const Subject& s, const fs::path& original_build, const fs::path& out, const SetupOptions& o) {
  // The probe map is written before the rest of the tree is copied, so completion is
  // marked separately, after instrument() returns; a tree without the mark (a killed
  // run) is made again from scratch.
  const fs::path done = out.string() + ".complete";
  if (fs::exists(done)) return;
  if (o.interrupt && o.interrupt->load()) throw Error("interrupted");
  if (!o.clang.instrument)
    throw Error(s.file.string(), 0,
                "the runtime backend needs `dlfl instrument` (a dlfl built with the Clang 14 development "
                "packages); set \"backend\": \"gcov\" instead");
  if (std::error_code ec; io::remove_tree(out, ec) == io::TreeRemoval::failed)
    throw Error(out.string(), 0, "cannot remove the previous instrumented copy: " + ec.message());
  if (o.log) o.log(s.name + ": instrumenting " + s.root.string());
  TreeInstrumentation i;
  i.build_dir = original_build;
  i.root = s.root;
  i.out_dir = out;
  i.exclude = s.instrument_exclude;
  o.clang.instrument(i);
  write_text(done, "");
}

}  // namespace

std::string without_tests(const std::string& filter, const std::set<std::string>& tests) {
  if (tests.empty()) return filter;
  std::string out = filter.empty() ? "*" : filter;
  out += out.find('-') == std::string::npos ? "-" : ":";
  bool first = true;
  for (const auto& name : tests) {
    out += (first ? "" : ":") + name;
    first = false;
  }
  return out;
}

PreparedSubject prepare_subject(const fs::path& subject_file, const SetupOptions& o) {
  PreparedSubject p;
  p.subject = std::make_unique<Subject>(read_subject(subject_file));
  const Subject& s = *p.subject;
  const fs::path dir = fs::absolute(o.work_dir / s.name);
  // Work trees are copies of the subject: one inside it would be copied into itself.
  const fs::path root = fs::weakly_canonical(s.root), work = fs::weakly_canonical(dir);
  const auto [r, w] = std::mismatch(root.begin(), root.end(), work.begin(), work.end());
  if (r == root.end())
    throw Error(subject_file.string(), 0,
                "the work directory " + dir.string() + " is inside the subject's source tree " + s.root.string() +
                    ": choose an output/work directory outside it (-o, --work)");
  fs::create_directories(dir);
  auto log = [&](const std::string& line) {
    if (o.log) o.log(line);
  };
  const auto started = std::chrono::steady_clock::now();
  auto seconds = [&] {
    return std::to_string(static_cast<long>(
               std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() + 0.5)) +
           " s";
  };

  FaultContext& c = p.context;
  c.subject = p.subject.get();
  c.interrupt = o.interrupt;
  c.top_n = o.top_n;
  for (const auto& name : o.formulas) c.formulas.push_back(make_formula(name));
  c.techniques = o.techniques;
  c.kill_matrix = o.kill_matrix;
  c.vars["launcher"] = ccache_on_path() ? "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache" : "";
  c.build_env = {"CCACHE_BASEDIR=" + dir.string(), "CCACHE_NOHASHDIR=1"};
  // The original is configured only for its compilation database (mutants, instrumenter).
  c.vars["cflags"] = "";
  c.vars["ldflags"] = "";
  c.vars["cmake_args"] = "";
  const WorkTree original{s.root, dir / "original-build"};
  log(s.name + ": configuring the original");
  configure(c, original, o.interrupt);

  p.mutants = sample_mutants(s, original.build, dir, o);
  log(s.name + ": " + std::to_string(p.mutants.size()) + " mutants to run [" + seconds() + "]");
  switch (s.backend) {
    case Backend::runtime:
      c.pristine = dir / "instrumented";
      instrument_tree(s, original.build, c.pristine, o);
      c.probe_map = c.pristine / instrument::kProbeMapFileName;
      // The call graph `dlfl instrument` wrote beside the map; an instrumented tree of an
      // older dlfl has none, and propagation techniques are then left out.
      if (fs::exists(c.pristine / graph::kCallGraphFileName))
        c.call_graph = std::make_shared<const graph::CallGraph>(graph::read_call_graph(c.pristine / graph::kCallGraphFileName));
      c.vars["cflags"] = o.runtime_cflags;
      c.vars["ldflags"] = s.test_binary.empty() ? o.runtime_ldflags : o.runtime_gtest_ldflags;
      break;
    case Backend::gcov:
      c.pristine = s.root;
      c.vars["cflags"] = c.vars["ldflags"] = "--coverage";
      break;
    case Backend::llvm:
      c.pristine = s.root;
      c.vars["cflags"] = c.vars["ldflags"] = "-fprofile-instr-generate -fcoverage-mapping";
      break;
  }
  apply_build_habits(c);

  for (unsigned k = 0; k < std::max(1u, o.workers); ++k) {
    const fs::path base = dir / ("worker" + std::to_string(k));
    WorkTree tree{base / "src", base / "build"};
    sync_tree(c.pristine, tree.source);
    configure(c, tree, o.interrupt);
    log(s.name + ": building work tree " + std::to_string(k) + " [" + seconds() + "]");
    check(run_tree_command(c, tree, s.build, o.build_jobs, o.interrupt), s, tree,
          "building the unmutated " + tree.source.string());
    p.trees.push_back(std::move(tree));
  }

  c.test_filter = s.test_filter;
  const TreeSpectrum baseline = collect_tree(c, p.trees.front(), o.interrupt);
  if (baseline.spectrum.test_count() == 0) throw Error(s.file.string(), 0, "the test binary ran no test");
  if (baseline.failing.size() == baseline.spectrum.test_count())
    throw Error(s.file.string(), 0, "every test fails on the unmutated subject");
  c.baseline_failing = baseline.failing;
  c.test_filter = without_tests(s.test_filter, baseline.failing);
  std::string failing;
  for (const auto& name : baseline.failing) failing += (failing.empty() ? " (left out: " : ", ") + name;
  log(s.name + ": " + std::to_string(baseline.spectrum.test_count()) + " tests, " +
      std::to_string(baseline.spectrum.element_count()) + " lines, " + std::to_string(baseline.failing.size()) +
      " failing unmutated" + (failing.empty() ? "" : failing + ")") + " [" + seconds() + "]");
  return p;
}

}  // namespace dlfl::bench
