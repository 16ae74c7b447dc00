// Getting a subject ready for its faults, once per bench run (every step is cached in the
// work directory, so a resumed run redoes none): configure the original (for its
// compilation database), find and sample the mutants, instrument the tree (runtime
// backend), copy and build one work tree per worker, record which tests fail unmutated.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/lab/bench/clang_steps.h"
#include "dlfl/lab/bench/fault_pipeline.h"
#include "dlfl/lab/bench/subject.h"
#include "dlfl/lab/bench/work_tree.h"
#include "dlfl/lab/mutate/mutant.h"

namespace dlfl::bench {

struct SetupOptions {
  std::filesystem::path work_dir;  // this subject's work lives in work_dir/<name>
  std::size_t max = 0;             // mutants sampled (0 = all)
  std::uint64_t seed = 1;
  unsigned workers = 1;            // work trees to prepare
  unsigned build_jobs = 1;         // {jobs} of the unmutated builds
  std::vector<std::string> formulas;
  std::vector<std::string> techniques;  // fault_pipeline.h FaultContext::techniques
  std::vector<std::uint64_t> top_n;
  // The runtime backend: {cflags}/{ldflags} of builds with dlfl's runtime (`dlfl config
  // --cflags`; `--libs --gtest` for a subject's GoogleTest binary, whose listener brackets
  // each test of its one run, `--libs` for a test_list's tests, one process each).
  std::string runtime_cflags, runtime_ldflags, runtime_gtest_ldflags;
  ClangSteps clang;
  KillMatrixStep kill_matrix;  // the context's (fault_pipeline.h); empty command: none
  const std::atomic<bool>* interrupt = nullptr;
  std::function<void(std::string_view)> log;  // one line per step (may be empty)
};

struct PreparedSubject {
  std::unique_ptr<Subject> subject;  // stable address: context.subject points at it
  FaultContext context;
  std::vector<WorkTree> trees;         // one per worker
  std::vector<mutate::Mutant> mutants;  // the sample, in manifest order
};

// `filter` (a GoogleTest filter, "" = all) with `tests` added to its negative patterns.
std::string without_tests(const std::string& filter, const std::set<std::string>& tests);

// Throws dlfl::Error naming the subject for a failing configure or unmutated build,
// a subject whose tests cannot run or all fail unmutated, mutants or an instrumented tree
// to be made without the Clang step (options.clang), or an interrupt.
PreparedSubject prepare_subject(const std::filesystem::path& subject_file, const SetupOptions& options);

}  // namespace dlfl::bench
