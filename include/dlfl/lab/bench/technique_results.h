// The rankings `dlfl bench` evaluates for one fault's spectrum: each formula plain, then
// with each technique of the context (blocks, call-graph propagation, FLITSR), all ranked
// by localize() (localize/localize.h).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/lab/bench/fault_pipeline.h"
#include "dlfl/lab/bench/fault_record.h"
#include "dlfl/lab/eval/ground_truth.h"
#include "dlfl/lab/eval/metrics.h"
#include "dlfl/localize/localize.h"

namespace dlfl::bench {

// A ranking's metrics as the result row `name` (average tie rule, fault_record.h).
FormulaResult formula_result(const std::string& name, const eval::BugMetrics& metrics);

// What FaultContext::techniques names, as a request without formulas: "" the plain line
// ranking, "block" (`dlfl rank --granularity block`), "prfl" and "neighbors"
// (`--propagate`, lines ordered by their function first), "flitsr" (`--multi-fault`) and
// "block-flitsr" (FLITSR over blocks). Scores only (RankRequest::ranked is false): the
// evaluation ranks them itself. nullopt for any other name.
std::optional<RankRequest> technique_request(std::string_view technique);

// One result per formula plain, named FORMULA, then per technique × formula of `context`,
// named `FORMULA+TECHNIQUE`; propagation is left out when the context has no call graph.
std::vector<FormulaResult> technique_results(const FaultContext& context, const Spectrum& spectrum,
                                             std::span<const eval::GroundTruthItem> faults,
                                             const eval::EvaluationOptions& options);

// Mutation-based localization from `kill_matrix` (a `dlfl kill-matrix` result whose
// mutants name files as `spectrum` does): per formula of `context` the hybrid
// (FORMULA+hybrid: the formula's order, ties broken by Metallaxis) and Metallaxis
// (FORMULA+metallaxis), then MUSE once (muse: it has no formula). Lines no mutant sits
// on rank last under Metallaxis and MUSE (mutation_scores.h).
std::vector<FormulaResult> mutation_results(const FaultContext& context, const Spectrum& spectrum,
                                            const Spectrum& kill_matrix, std::span<const eval::GroundTruthItem> faults,
                                            const eval::EvaluationOptions& options);

}  // namespace dlfl::bench
