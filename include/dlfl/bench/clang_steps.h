// The steps of a benchmark that need Clang (finding mutants, instrumenting a tree), given by
// the executable that links it (tools/dlfl's dlfl-clang). dlfl_bench links no Clang, so the
// `dlfl` front-end, which uses it for `versions` and `bugset reproduce`, starts without
// loading LLVM.
#pragma once

#include <functional>
#include <vector>

#include "dlfl/instrument/instrumenter.h"
#include "dlfl/mutate/mutant.h"
#include "dlfl/mutate/mutator.h"

namespace dlfl::bench {

// An empty step is not available: a subject that needs it is an error (subject_setup.h).
struct ClangSteps {
  std::function<std::vector<mutate::Mutant>(const mutate::MutateOptions&)> find_mutants;  // mutate::find_mutants
  std::function<void(const instrument::InstrumentOptions&)> instrument;                   // instrument::instrument
};

}  // namespace dlfl::bench
