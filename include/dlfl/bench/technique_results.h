// The techniques `dlfl bench` evaluates beside each plain formula (blocks, call-graph
// propagation, FLITSR), scored on one fault's spectrum.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "dlfl/bench/fault_pipeline.h"
#include "dlfl/bench/fault_record.h"
#include "dlfl/eval/ground_truth.h"
#include "dlfl/eval/metrics.h"

namespace dlfl::bench {

// A ranking's metrics as the result row `name` (average tie rule, fault_record.h).
FormulaResult formula_result(const std::string& name, const eval::BugMetrics& metrics);

// One result per formula × technique of `context`, in that order, named
// `FORMULA+TECHNIQUE`; propagation is left out when the context has no call graph.
std::vector<FormulaResult> technique_results(const FaultContext& context, const Spectrum& spectrum,
                                             std::span<const eval::GroundTruthItem> faults,
                                             const eval::EvaluationOptions& options);

}  // namespace dlfl::bench
