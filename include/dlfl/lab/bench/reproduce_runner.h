// reproduce_bugs(): `dlfl bugset reproduce`: the selected bugs of a manifest checked
// against the user's clones, then reproduced one per worker (bug_reproduction.h),
// recorded as they finish in the resumable store of `dlfl bench` (results.jsonl), and
// written out as its per-bug CSV, discarded list and summary.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/collect/test_source.h"
#include "dlfl/lab/bench/bench_progress.h"
#include "dlfl/lab/bench/fault_pipeline.h"
#include "dlfl/lab/bench/fault_record.h"

namespace dlfl::bench {

inline constexpr std::string_view kReproduceConfigFileName = "reproduce-config.json";
// A shard's output directory names its shard and the bugs its last run was given
// ({"shard": "I/N", "bugs": [{"id", "key"}...]}), so that join_shards (shard_join.h) can
// tell a missing or unfinished shard from a finished one.
inline constexpr std::string_view kShardFileName = "shard.json";

struct ReproduceOptions {
  std::filesystem::path manifest;     // `dlfl bugset import` output
  std::vector<std::string> bug_ids;   // the bugs; when empty, every bug of `project`
  std::string project;                // "owner+repo"
  std::filesystem::path repos;        // the clones (GitClone::find)
  // The BugsC++ checkout whose taxonomy gives the BugsC++ defects their commands and
  // patches (take_bugscpp_defects_from_checkout); required when one is selected.
  std::filesystem::path bugscpp;
  std::filesystem::path recipe;       // empty: the generic CMake recipe (subject.h)
  // Recipes of single projects or bugs (project or bug id -> file), before `recipe`; a
  // bug's own comes before its project's (one bug of a project tested otherwise, say by
  // another test driver). A recipe may change between runs in one output directory:
  // finished bugs keep the results of the recipe they ran under (each record names it;
  // OUT/recipes/PROJECT-DIGEST.json or BUG-DIGEST.json).
  std::map<std::string, std::filesystem::path> project_recipes;
  bool retry_discarded = false;  // run the selected bugs an earlier run discarded again
  // Only the selected bugs whose id hashes to this shard (collect::name_shard_holds: the
  // same split on every machine, and adding bugs moves no other bug to another shard).
  // The output directory is then this shard's: its configuration names the shard, so it
  // cannot be resumed as another one.
  std::optional<collect::Shard> shard;
  // The runtime backend (a recipe's "backend": "runtime"): {cflags}/{ldflags} of builds
  // with dlfl's runtime (`dlfl config --cflags`; `--libs --gtest` for a recipe's GoogleTest
  // binary, whose listener brackets each test of its one run, `--libs` for tests run one
  // process each: CTest's, a test_list's) and the argv that runs `dlfl instrument`.
  std::string runtime_cflags, runtime_ldflags, runtime_gtest_ldflags;
  // `dlfl config --gtest-cmake`'s arguments: with a recipe whose configure takes
  // {cmake_args}, the listener is compiled into the project's GoogleTest executables
  // against the GoogleTest the project builds (any version), and {ldflags} links
  // libdlfl_rt alone; other recipes link the prebuilt listener (runtime_gtest_ldflags).
  std::vector<std::string> runtime_gtest_cmake_args;
  std::vector<std::string> instrument_command;
  // Mutation-based localization of each kept bug (fault_pipeline.h KillMatrixStep, run on
  // its buggy version: bug_kill_matrix.h); an empty command: none. Part of the output
  // directory's configuration, with its budget and per-line cap.
  KillMatrixStep kill_matrix;
  // libdlfl_crash_dump.so (`dlfl collect --crash-handler`): a gcov/llvm test that dies by a
  // signal keeps its coverage; empty: none.
  std::filesystem::path crash_dump_library;
  std::filesystem::path out_dir;
  std::filesystem::path work_dir;     // work trees and builds; default out_dir/work
  unsigned jobs = 1;                  // bugs at once (each with its own work tree)
  unsigned build_jobs = 0;            // {jobs} of a build and tests at once; 0: cores / jobs
  std::vector<std::string> formulas{"ochiai", "dstar2", "tarantula", "barinel"};
  std::vector<std::uint64_t> top_n{1, 3, 5, 10};
  std::size_t limit = 0;  // stop after this many newly finished bugs (0: no limit)
  const std::atomic<bool>* interrupt = nullptr;
  BenchProgress* progress = nullptr;
  std::function<void(std::string_view)> log;   // per-bug notes (tests brought in, discards)
  std::function<void(std::string_view)> warn;  // shown even when quiet (a clone of other remotes)
};

struct ReproduceResult {
  std::vector<FaultRecord> records;  // every bug stored in the output directory
  std::size_t selected = 0;          // bugs asked for
  std::size_t resumed = 0;           // of which finished by an earlier run
  std::size_t retried = 0;           // of which discarded by an earlier run and run again
  std::size_t pending = 0;           // not finished (interrupt or limit)
  bool interrupted = false;
  double seconds = 0;
};

// Checks everything before changing anything (no output directory, no work tree): throws
// dlfl::Error for an unreadable manifest or recipe, an unknown formula, a bug id not in
// the manifest, a project without bugs, no clone of a bug's project under `repos`, and a
// fix commit missing from the clone (a clone of other remotes that holds the fix is used,
// with a warning; each record names its clone). Then
// also for results of another configuration in `out_dir` (manifest, recipe, formulas or
// top N) and errors that are not a bug's doing. The clones' work tree registrations are
// removed again whatever happens; the user's checkouts are never touched.
ReproduceResult reproduce_bugs(const ReproduceOptions& options);

}  // namespace dlfl::bench
