// The steps of a benchmark that need Clang (finding mutants, instrumenting a tree), given by
// the executable that links it (tools/dlfl's dlfl-clang). dlfl_lab_bench links no Clang, so the
// `dlfl` front-end, which uses it for `versions` and `bugset reproduce`, starts without
// loading LLVM. The steps are asked for in the bench's own terms: the Clang-side options
// (mutate::MutateOptions, instrument::InstrumentOptions) stay with the executable that
// fills them in.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "dlfl/lab/mutate/mutant.h"
#include "dlfl/lab/mutate/operators.h"

namespace dlfl::bench {

// Find the mutants of a configured tree (mutate::find_mutants, allowing clang errors: a
// unit clang cannot fully parse still yields mutants).
struct MutantSearch {
  std::filesystem::path build_dir;  // holds compile_commands.json
  std::filesystem::path root;       // the sources; mutant paths are relative to it
  std::vector<std::string> files;   // globs of the files to mutate (empty = all)
  std::vector<std::string> exclude;  // globs of files never mutated
  std::vector<mutate::Operator> operators;  // empty = all
};

// Write an instrumented copy of a tree (instrument::instrument, allowing clang errors).
struct TreeInstrumentation {
  std::filesystem::path build_dir;  // holds compile_commands.json
  std::filesystem::path root;       // the tree to copy
  std::filesystem::path out_dir;    // the copy and its probe map
  std::vector<std::string> exclude;  // path texts never rewritten
};

// An empty step is not available: a subject that needs it is an error (subject_setup.h).
struct ClangSteps {
  std::function<std::vector<mutate::Mutant>(const MutantSearch&)> find_mutants;
  std::function<void(const TreeInstrumentation&)> instrument;
};

}  // namespace dlfl::bench
