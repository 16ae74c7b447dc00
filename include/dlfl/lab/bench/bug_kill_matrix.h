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

// Where a bug's kill matrix is measured.
struct BugKillMatrixRun {
  std::filesystem::path source;  // the buggy version's checkout (the mutants' root)
  // A build directory holding a compilation database of the project (kill-matrix -p):
  // the last build's, so the fixed version's; its compile commands are the buggy
  // version's unless the fix changed the build, and clang only parses with them.
  std::filesystem::path compile_database;
  std::filesystem::path test_build;  // the build the recipe's test_binary pattern is resolved in
  std::filesystem::path out;         // kill-matrix's directory: kept between attempts, so a rerun resumes
  // The buggy version's configure values ({cmake_args} with its test options); {source},
  // {build}, {cflags} (the recipe's extra_cflags alone: no coverage), {ldflags} and
  // {jobs} are set here.
  std::map<std::string, std::string> vars;
  double plain_build_seconds = 0;  // MutationCost::plain_build_seconds
};

// Measures the kill matrix of `r`'s bug and appends its rankings' evaluation against
// `truth` to r.results (named as mutation_results names them); r.mbfl says what it cost,
// or why none was measured (no compilation database, a schemata build or test run that
// failed: the bug stays kept, with its SBFL results). The kill matrix is kept beside the
// spectrum (plan.spectrum_dir/BUG.kill-matrix.dlfl). Throws dlfl::Error("interrupted")
// when the context's interrupt is set, and when the kill matrix cannot be kept.
void add_kill_matrix(const FaultContext& context, const BugPlan& plan, const BugKillMatrixRun& run,
                     const Spectrum& spectrum, const std::vector<eval::GroundTruthItem>& truth, FaultRecord& r,
                     const std::function<void(const std::string&)>& log);

}  // namespace dlfl::bench
