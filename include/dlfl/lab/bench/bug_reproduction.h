// One real bug through the pipeline (`dlfl bugset reproduce`): in a git work tree of the
// user's clone, the fix's parent with the fix's test files brought in (the Defects4J
// convention), built with coverage, its tests run; then the fix itself, built again
// incrementally, and the tests that failed run again. The fail-to-pass tests (failing on
// the buggy version, passing on the fixed one; a buggy-version timeout only where the
// fix passes in under a quarter of the time the buggy run was given) with the tests
// passing on the buggy version make the spectrum; each formula's line ranking is
// evaluated against the fix's faulty lines in native non-test files (fix_truth.h).
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "dlfl/lab/bench/fault_pipeline.h"
#include "dlfl/lab/bench/fault_record.h"
#include "dlfl/lab/bench/git_clone.h"
#include "dlfl/lab/eval/bugset.h"
#include "dlfl/lab/eval/bugset_candidates.h"

namespace dlfl::bench {

// A bug checked against its clone before anything runs.
struct BugPlan {
  const eval::BugReport* bug = nullptr;
  const GitClone* clone = nullptr;
  std::string fix;     // the fix commit, resolved in the clone
  std::string parent;  // its first parent: the buggy version
  eval::BugCandidacy candidacy;
  std::string recipe_digest;  // the project's recipe (reproduce_runner.cpp): the record's `recipe`
  unsigned attempt = 1;       // 2, 3, ... when a discarded bug runs again
  std::string host;           // the CPU this run is on (host_cpu.h): the record's `host`
  std::filesystem::path log_dir;  // OUT/logs/BUG: each step's output; empty = none kept
  // OUT/spectra: a kept bug's spectrum as BUG.dlfl and its ground truth as BUG.truth, so
  // that other techniques and levels can be ranked and evaluated later without
  // rebuilding (scripts/realbugs.sh does); empty = none kept.
  std::filesystem::path spectrum_dir;
};

// Writes a kept bug's spectrum (native format) and ground truth (`dlfl eval --truth`
// lines) into plan.spectrum_dir, each atomically: BUG.truth under fix_truth.h's rule,
// BUG.whole-file.truth under the whole-file convention (the sensitivity variant). Throws
// dlfl::Error when they cannot be written (a kept result whose spectrum is missing could
// not be re-evaluated).
void keep_spectrum(const BugPlan& plan, const Spectrum& spectrum, const std::vector<eval::GroundTruthItem>& truth,
                   const std::vector<eval::GroundTruthItem>& whole_file_truth);

// The one step both sides (a Denchmark bug, a BugsC++ defect) end in: the fix's faulty
// lines in the reproduced bug's spectrum by fix_truth.h's rule (r.faulty and r.file,
// r.line, r.function of the first), each formula's ranking evaluated against them
// (r.results), and the spectrum kept (keep_spectrum). Returns "" when kept, else why no
// faulty line can be found (unfindable_fault) and keeps nothing.
std::string localize_reproduced_bug(const FaultContext& context, const BugPlan& plan, const Spectrum& spectrum,
                                    FaultRecord& r);

// The record a bug starts with: ids, labels (group: extrinsic/intrinsic/disputed/
// unlabelled; bug_type: the agreed DL bug type, "not DL", "disputed" or "unlabelled";
// both "traditional" for a BugsC++ defect),
// the ground truth and its first item.
FaultRecord describe_bug(const BugPlan& plan);

// Reproduces the bug in `tree` (tree.source: a git work tree of plan.clone, created at
// the parent when it does not exist yet, else checked out again, so the build directory
// stays warm from bug to bug). Discards are records with kept = false and a reason:
// "no C/C++ change", "checkout failed", "build failed", "timeout", "tests fail to run",
// "no fail-to-pass test". Throws dlfl::Error on an interrupt and on errors that are not
// the bug's doing (an unwritable work directory). `log` gets one line with the test files
// brought in and one with the details of a discard.
FaultRecord reproduce_bug(const FaultContext& context, const WorkTree& tree, const BugPlan& plan,
                          const std::function<void(const std::string&)>& log);

}  // namespace dlfl::bench
