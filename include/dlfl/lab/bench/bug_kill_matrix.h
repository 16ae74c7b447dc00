// Mutation-based localization of a kept real bug (`dlfl bugset reproduce --mbfl`): `dlfl
// kill-matrix` run as a subprocess on the bug's buggy version, its mutants built into one
// schemata copy of the tree by the recipe's own configure and build commands and
// exercised by the recipe's tests, and the kill matrix ranked and evaluated beside the
// formulas (technique_results.h mutation_results).
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "dlfl/lab/bench/bug_reproduction.h"
#include "dlfl/lab/bench/fault_pipeline.h"
#include "dlfl/lab/eval/ground_truth.h"
#include "dlfl/spectrum.h"

namespace dlfl::bench {

// Where and how a bug's kill matrix is measured.
struct BugKillMatrixRun {
  std::filesystem::path source;  // the buggy version's checkout (the mutants' root)
  // A directory holding a compilation database of the buggy version (kill-matrix -p):
  // clang only parses with it, so the last build's serves where the fix left the build
  // alone.
  std::filesystem::path compile_database;
  std::filesystem::path out;  // kill-matrix's directory: kept between attempts, so a rerun resumes
  // The shell command, run in `out`, that builds the schemata copy out/tree (without
  // coverage: its tests run once per mutant and only their outcomes are read).
  std::string build_command;
  // The same build of a copy without mutants, out/plain/tree (kill-matrix --plain-build),
  // used when the context's KillMatrixStep::plain_build asks for it.
  std::string plain_build_command;
  // The schemata build's tests: a GoogleTest binary, a CTest build directory, or a
  // command template run for each of the spectrum's tests ({} its quoted name); one.
  std::string gtest, ctest, test_command;
  unsigned jobs = 1;               // tests at once
  double plain_build_seconds = 0;  // MutationCost::plain_build_seconds
  // Whose kill matrix `out` holds (a bug and its fix, a seeded fault): a rerun for the
  // same owner resumes there, another owner's files are removed first.
  std::string owner;
  std::filesystem::path log_dir;  // kill-matrix's output goes to log_dir/kill-matrix.log; empty: none
  std::filesystem::path keep_as;  // the kill matrix is also written here; empty: not kept
  // Also evaluates the rankings from the mutants off the ground truth's lines, named with
  // "-other-lines" (ochiai+hybrid-other-lines, muse-other-lines): on seeded faults, whose
  // own line holds mutants by construction, the bound of that bias.
  bool other_lines = false;
};

// A recipe's schemata build (bug_reproduction.cpp): its configure and build commands with
// {source} = out/tree, {build} = out/build, {cflags} its extra_cflags alone, {ldflags}
// empty and the other values of `vars` (the buggy version's configure values: its test
// options), and its tests as the recipe runs them: its GoogleTest binary at the same
// place in out/build as in `test_build`, its listed tests through its test_command there,
// or out/build's CTest tests; run.plain_build_command the same commands with {source} =
// out/plain/tree and {build} = out/plain/build. Throws dlfl::Error for a command that does
// not expand or a test binary not found in `test_build`.
void set_recipe_schemata(const FaultContext& context, std::map<std::string, std::string> vars,
                         const std::filesystem::path& test_build, BugKillMatrixRun& run);

// Measures the kill matrix of `r`'s bug and appends its rankings' evaluation against
// `truth` to r.results (named as mutation_results names them); r.mbfl says what it cost,
// or why none was measured (no compilation database, a schemata build or test run that
// failed: the bug stays kept, with its SBFL results). The kill matrix is kept beside the
// spectrum (run.keep_as). Throws dlfl::Error("interrupted")
// when the context's interrupt is set, and when the kill matrix cannot be kept.
void add_kill_matrix(const FaultContext& context, const BugKillMatrixRun& run, const Spectrum& spectrum, const std::vector<eval::GroundTruthItem>& truth, FaultRecord& r,
                     const std::function<void(const std::string&)>& log);

// A real bug's owner (its id and fix), log directory and kept kill matrix
// (plan.spectrum_dir/BUG.kill-matrix.dlfl when plan keeps spectra).
void set_bug_owner(const BugPlan& plan, BugKillMatrixRun& run);

// Records in r.mbfl that no kill matrix was measured, and why.
void no_kill_matrix(FaultRecord& r, const std::string& why, const std::function<void(const std::string&)>& log);

}  // namespace dlfl::bench
