// One fault through the pipeline: seed it into a work tree, build incrementally, run the
// tests with per-test coverage, keep it only when a test that passes on the original now
// fails, rank the lines with every formula, evaluate against the mutated lines, restore.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dlfl/error.h"
#include "dlfl/lab/bench/build_runner.h"
#include "dlfl/lab/bench/fault_record.h"
#include "dlfl/lab/bench/subject.h"
#include "dlfl/lab/bench/work_tree.h"
#include "dlfl/lab/eval/ground_truth.h"
#include "dlfl/lab/eval/metrics.h"
#include "dlfl/collect/progress.h"
#include "dlfl/formula.h"
#include "dlfl/graph/call_graph.h"
#include "dlfl/lab/mutate/mutant.h"
#include "dlfl/spectrum.h"

namespace dlfl::bench {

// `dlfl bugset reproduce --mbfl`, `dlfl bench --mbfl`: mutation-based localization of
// each kept bug or seeded fault by a subprocess of `dlfl kill-matrix` on its faulty
// version (bug_kill_matrix.h, seeded_kill_matrix.h).
struct KillMatrixStep {
  // The argv that runs `dlfl kill-matrix` (e.g. {"/usr/bin/dlfl", "kill-matrix"}), to which
  // the bug's spectrum, trees and tests are appended; empty: no mutation analysis.
  std::vector<std::string> command;
  std::size_t budget = 50;   // mutants wanted (kill-matrix --budget)
  std::size_t per_line = 5;  // at most this many per line (kill-matrix --per-line)
  std::chrono::seconds timeout{7200};  // the whole step: schemata build and all runs
  // Also time the same build of a copy without mutants (kill-matrix --plain-build), both
  // builds without ccache: the schemata build's price against a like-for-like plain build.
  bool plain_build = false;
  // Recipes whose test_command runs pytest: up to this many of a mutant's tests in one
  // pytest process (kill-matrix --pytest-batch); 0: one test a process.
  std::size_t pytest_batch = 0;
  // kill-matrix --operators (names, bug types, "dl", "all"); empty: all. An earlier list's
  // records name the operators they were made with; choosing those makes the same mutants.
  std::vector<std::string> operators;
};

// What every fault of one subject shares. Owned by the caller; read-only during a run.
struct FaultContext {
  const Subject* subject = nullptr;
  std::filesystem::path pristine;   // the unmutated tree the work trees copy (its files are read)
  std::filesystem::path probe_map;  // runtime backend: the tree's dlfl-probes.map
  // Runtime backend, GoogleTest binary: arguments (shell-quoted) added to {cmake_args} of
  // the instrumented tree's configure that compile the GoogleTest listener into the
  // project's test executables (`dlfl config --gtest-cmake`); empty: none.
  std::string runtime_cmake_args;
  // `dlfl bugset reproduce` with the runtime backend: the argv that runs `dlfl instrument`
  // (e.g. {"/usr/bin/dlfl", "instrument"}), to which the build and tree are appended.
  std::vector<std::string> instrument_command;
  KillMatrixStep kill_matrix;
  // Values of {cflags}, {ldflags}, {launcher} (subject.h); {source}, {build} and {jobs}
  // are set per command.
  std::map<std::string, std::string> vars;
  std::vector<std::string> build_env;  // "NAME=VALUE" for configure and build commands
  std::vector<Formula> formulas;
  // Evaluated for every formula after the plain ranking, each as a result named
  // `FORMULA+TECHNIQUE`: "block" (rank_command's --granularity block: a block counts as
  // one element), "prfl" and "neighbors" (call-graph propagation, functions then lines;
  // need call_graph), "flitsr" (multi-fault ranking) and "block-flitsr" (FLITSR over
  // block elements, evaluated as blocks).
  std::vector<std::string> techniques;
  std::shared_ptr<const graph::CallGraph> call_graph;  // the instrumented tree's; null = none
  std::vector<std::uint64_t> top_n{1, 3, 5, 10};
  // Metric conventions of the evaluation (eval/metrics.h); `executable` is not offered
  // (the program size would have to be given).
  eval::ExamBase exam_base = eval::ExamBase::instrumented;
  eval::TopNRule top_n_rule = eval::TopNRule::expected;
  std::set<std::string> baseline_failing;  // tests failing on the unmutated subject
  // GoogleTest filter of the runs: the subject's, minus the tests failing unmutated (a
  // test that fails for every fault would count as a failure in every spectrum).
  std::string test_filter;
  // A test_list recipe's run of these tests only (exact names; a GoogleTest filter cannot
  // hold pytest's "file::test"); empty: every listed test.
  std::set<std::string> listed_only;
  unsigned test_jobs = 1;  // tests run at once by the gcov/llvm backends
  // libdlfl_crash_dump.so, preloaded into the gcov/llvm backends' tests so one that dies
  // by a signal keeps the coverage it reached; empty: none.
  std::filesystem::path crash_dump_library;
  // Only the tests' outcomes matter (a fix's run of the tests failing on the buggy
  // version): a run in which none wrote coverage is no error (CollectRequest).
  bool outcomes_only = false;
  // Told of each test as it ends (test_step_progress.h); not owned; null: nothing said.
  collect::ProgressReporter* progress = nullptr;
  const std::atomic<bool>* interrupt = nullptr;
};

// Thrown by collect_tree when the subject's test_list command fails: what() is the
// one-line summary, `output` the command's output (its last 16 KiB) for the bug's log,
// where a listing's own errors (pytest's collection errors, say) are read.
class TestListFailure : public Error {
 public:
  TestListFailure(const std::string& message, std::string output) : Error(message), output(std::move(output)) {}
  std::string output;
};

// The test binary a subject names (`test_binary`, relative to the build directory): that
// file when it exists; else, and for a glob (`*`, `**`, `?`: mutate/glob.h), the one
// executable file of the build tree that matches (by file name when no glob). Throws
// dlfl::Error when none or several match.
std::filesystem::path find_test_binary(const std::filesystem::path& build, const std::string& pattern);

// Puts the subject's build habits into the context, once its backend's {cflags} are set:
// extra_cflags appended to {cflags}, {cmake_args} (each argument quoted), and the
// url_map as git configuration in build_env (download_detection.h).
void apply_build_habits(FaultContext& c);

// Whether `name` is a technique FaultContext::techniques accepts.
bool is_bench_technique(std::string_view name) noexcept;

// The spectrum of one build of a work tree and which tests failed.
struct TreeSpectrum {
  Spectrum spectrum;
  std::set<std::string> failing;
};

// Runs the tree's test binary, or the tests its test_list command prints one process
// each (neither: the CTest tests of its build), with the subject's backend. `cancel`
// stops it (then dlfl::Error is thrown). Throws dlfl::Error when the binary cannot be
// run or read, or the test_list command fails or prints no name.
TreeSpectrum collect_tree(const FaultContext& context, const WorkTree& tree, const std::atomic<bool>* cancel);

// Runs `command` (a subject template) for the tree; {jobs} = `jobs`; says its progress
// when given.
CommandOutcome run_tree_command(const FaultContext& context, const WorkTree& tree, const std::string& command,
                                unsigned jobs, const std::atomic<bool>* cancel, const StepProgress* progress = nullptr);

// Marks `record` discarded for `reason` with its `detail` and the seconds since `start`,
// and sends "KEY: REASON: DETAIL" to `log` when there is a detail (the progress line
// names the fault and reason already). Returns the record.
FaultRecord discarded(FaultRecord record, const std::string& reason, const std::string& detail,
                      std::chrono::steady_clock::time_point start, const std::function<void(const std::string&)>& log);

// Ranks the spectrum with each formula of the context and evaluates each ranking at line
// level against `faults` (not empty), in the context's formula order, then each formula with
// each of the context's techniques (technique_results.h).
std::vector<FormulaResult> evaluate_formulas(const FaultContext& context, const Spectrum& spectrum,
                                             const std::vector<eval::GroundTruthItem>& faults);

// Why a real bug whose evaluation is `results` (evaluate_formulas over `faulty_lines`
// ground-truth lines) cannot be kept, or "" when it can: no formula finds any faulty line
// among the ranked elements. Under fix_truth.h's rule that is a fix none of whose files
// has a line in the spectrum (0 faulty lines); a truth of lines the coverage does not
// record (comments, declarations, code gcc attributes to a macro invocation's first
// line) has nothing for any ranking to find either.
std::string unfindable_fault(const std::vector<FormulaResult>& results, std::size_t faulty_lines);

// The whole pipeline for one mutant in one work tree (whose files must be pristine; they
// are again on return). Discards are records with kept = false and a reason: "not
// placeable" (the edit cannot be located in the instrumented copy), "build fails",
// "build timeout", "no test fails", "every test fails", "test timeout" (the tests ran
// longer than the subject's fault timeout), "tests fail to run" (the collector gave up).
// Throws dlfl::Error on an interrupt and on errors that are not the fault's doing
// (unwritable tree, unreadable probe map). `log` receives a line with the details of a
// discard that has some (the compiler's error, the timeout); it may be empty.
FaultRecord run_fault(const FaultContext& context, const WorkTree& tree, const mutate::Mutant& mutant,
                      const std::function<void(const std::string&)>& log);

// The same for several mutants seeded together (a multi-fault combination,
// fault_combinations.h; no two overlap in one file): the record's fault, operator and
// bug type join the members' with '+', file/line/function are the first member's, and
// the ground truth is every member's faulty lines, listed in `faulty` as "file:LINE"
// when there is more than one member. A member that cannot be placed discards the whole.
FaultRecord run_faults(const FaultContext& context, const WorkTree& tree,
                       std::span<const mutate::Mutant* const> mutants,
                       const std::function<void(const std::string&)>& log);

}  // namespace dlfl::bench
