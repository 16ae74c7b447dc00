// Mutation-based localization of a kept seeded fault (`dlfl bench --mbfl`): `dlfl
// kill-matrix` on the subject's original sources with the fault in, its mutants built
// into one schemata copy by the subject's own configure and build commands and exercised
// by its tests, and the kill matrix ranked and evaluated beside the formulas.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "dlfl/lab/bench/fault_pipeline.h"
#include "dlfl/lab/bench/work_tree.h"
#include "dlfl/lab/eval/ground_truth.h"
#include "dlfl/lab/mutate/mutant.h"
#include "dlfl/spectrum.h"

namespace dlfl::bench {

// Measures the kill matrix of the fault `members` seed, whose spectrum (`spectrum`, from
// `tree`) and ground truth (`faults`) the pipeline has, and appends to r.results the
// mutation techniques (bug_kill_matrix.h add_kill_matrix) and the same from the mutants
// off the faulty lines ("-other-lines": the seeded line's own mutants are the bias of
// MBFL on seeded faults, which r.mbfl->on_faulty_lines counts). The sources are a copy of
// the subject's root beside `tree` (never the runtime backend's instrumented copy),
// configured once without coverage for its compilation database; the fault is in it only
// during the step. r.mbfl says why when nothing was measured; the fault stays kept.
// Throws dlfl::Error("interrupted") when the context's interrupt is set, and when the copy
// cannot be written.
void add_seeded_kill_matrix(const FaultContext& context, const WorkTree& tree,
                            std::span<const mutate::Mutant* const> members, const Spectrum& spectrum,
                            const std::vector<eval::GroundTruthItem>& faults, FaultRecord& r,
                            const std::function<void(const std::string&)>& log);

}  // namespace dlfl::bench
