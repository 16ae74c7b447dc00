// run_bench(): the whole benchmark: every subject prepared, every sampled fault through
// the pipeline on `jobs` workers, results stored as they finish (resumable), and the
// per-bug CSV, the discarded list and the summary written at the end.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/lab/bench/bench_config.h"
#include "dlfl/lab/bench/bench_progress.h"
#include "dlfl/lab/bench/clang_steps.h"
#include "dlfl/lab/bench/fault_record.h"

namespace dlfl::bench {

// File names in the output directory.
inline constexpr std::string_view kBugTableFileName = "results.csv";
inline constexpr std::string_view kDiscardedFileName = "discarded.csv";
inline constexpr std::string_view kSummaryFileName = "summary.md";
inline constexpr std::string_view kConfigFileName = "bench-config.json";

struct BenchOptions {
  BenchConfig config;
  // results.jsonl (the store), results.csv, discarded.csv, summary.md, bench-config.json.
  std::filesystem::path out_dir;
  // Configured and built trees, mutants, instrumented copies; default out_dir/work.
  std::filesystem::path work_dir;
  // The runtime backend: {cflags}/{ldflags} of builds with dlfl's runtime (`dlfl config
  // --cflags`; `--libs --gtest` for a subject's GoogleTest binary, whose listener brackets
  // each test of its one run, `--libs` for a test_list's tests, one process each).
  std::string runtime_cflags, runtime_ldflags, runtime_gtest_ldflags;
  ClangSteps clang;  // finding mutants, instrumenting trees (runtime backend)
  // With config.mbfl_budget: the argv that runs `dlfl kill-matrix` (fault_pipeline.h
  // KillMatrixStep), and the seconds one fault's schemata build and runs may take.
  std::vector<std::string> kill_matrix_command;
  std::chrono::seconds kill_matrix_timeout{7200};
  // Multi-fault mode (config.multi_fault): the output directory of the finished
  // single-fault run of the same subjects, max and seed; its kept records say which
  // mutants make a test fail alone (read only).
  std::filesystem::path singles_dir;
  // Stop after this many newly finished faults (0: no limit); the rest stays pending.
  std::size_t limit = 0;
  const std::atomic<bool>* interrupt = nullptr;  // Ctrl-C: stop, keep what is finished
  BenchProgress* progress = nullptr;             // optional
  // Setup steps and discarded-fault details, one line each (optional).
  std::function<void(std::string_view)> log;
};

struct BenchResult {
  std::vector<FaultRecord> records;  // every finished fault of this configuration
  std::size_t resumed = 0;           // of which finished by an earlier run
  std::size_t pending = 0;           // faults not finished (interrupt or limit)
  bool interrupted = false;
  double seconds = 0;  // wall time of this run
};

// Throws dlfl::Error when the output directory holds results of another configuration
// (bench-config.json differs: subjects, max, seed, formulas or top N), for a subject that
// cannot be prepared (subject_setup.h), in multi-fault mode for a singles_dir that is not
// a finished single-fault run of the same subjects, or when a worker hits an error that is not a
// fault's doing; outputs then reflect every fault stored so far. An interrupt is not an
// error: the run stops, writes its outputs and returns with `interrupted`.
BenchResult run_bench(const BenchOptions& options);

}  // namespace dlfl::bench
