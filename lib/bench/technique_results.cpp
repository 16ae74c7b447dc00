// Blocks, call-graph propagation and FLITSR evaluated on one fault's spectrum.
#include "dlfl/bench/technique_results.h"

#include <optional>

#include "dlfl/aggregate.h"
#include "dlfl/counts.h"
#include "dlfl/eval/scored_element.h"
#include "dlfl/graph/propagation.h"
#include "dlfl/multi_fault.h"

namespace dlfl::bench {

bool is_bench_technique(std::string_view name) noexcept {
  return name == "block" || name == "prfl" || name == "neighbors" || name == "flitsr" || name == "block-flitsr";
}

FormulaResult formula_result(const std::string& name, const eval::BugMetrics& metrics) {
  FormulaResult f;
  f.formula = name;
  f.found = metrics.found;
  if (metrics.found) {
    f.first_rank = metrics.first_position.average;
    f.first_rank_best = metrics.first_position.best;
    f.first_rank_worst = metrics.first_position.worst;
    f.exam = metrics.exam.average;
  }
  f.rr = metrics.reciprocal_rank.average;
  f.ap = metrics.average_precision.average;
  for (const auto& hit : metrics.top_n) f.top.push_back(hit.hit.average);
  return f;
}

std::vector<FormulaResult> technique_results(const FaultContext& c, const Spectrum& spectrum,
                                             std::span<const eval::GroundTruthItem> faults,
                                             const eval::EvaluationOptions& options) {
  std::vector<FormulaResult> out;
  std::optional<Aggregated> blocks;
  std::optional<graph::FunctionGraph> functions;
  const auto keys = spectrum.tie_break_keys();
  for (const auto& technique : c.techniques) {
    if ((technique == "prfl" || technique == "neighbors") && !c.call_graph) continue;
    if ((technique == "block" || technique == "block-flitsr") && !blocks) blocks = aggregate(spectrum, Granularity::block);
    if ((technique == "prfl" || technique == "neighbors") && !functions)
      functions = graph::join_functions(spectrum, *c.call_graph);
    // Propagation's counts and PageRank serve every formula: computed once.
    std::vector<graph::PropagatedScores> propagated;
    if (technique == "prfl" || technique == "neighbors")
      propagated = graph::propagate(spectrum, *functions, c.formulas, *graph::parse_propagation(technique));
    for (std::size_t i = 0; i < c.formulas.size(); ++i) {
      const Formula& formula = c.formulas[i];
      std::vector<eval::ScoredElement> ranking;
      if (technique == "block") {
        ranking = eval::scored_elements(blocks->spectrum, formula.score(compute_counts(blocks->spectrum)));
      } else if (technique == "block-flitsr") {
        // FLITSR over blocks: its basis then lifts a whole tied run, not the run's first line.
        const auto block_keys = blocks->spectrum.tie_break_keys();
        ranking = eval::scored_elements(blocks->spectrum, flitsr(blocks->spectrum, formula, block_keys).scores);
      } else if (technique == "flitsr") {
        ranking = eval::scored_elements(spectrum, flitsr(spectrum, formula, keys).scores);
      } else {
        ranking = eval::scored_elements(spectrum, propagated[i].elements);
      }
      out.push_back(formula_result(formula.name() + "+" + technique, eval::evaluate(ranking, faults, options)));
    }
  }
  return out;
}

}  // namespace dlfl::bench
