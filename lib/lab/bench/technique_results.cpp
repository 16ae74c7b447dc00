// Each formula plain and with each technique, ranked by localize() and evaluated.
#include "dlfl/lab/bench/technique_results.h"

#include "dlfl/lab/eval/scored_element.h"
#include "dlfl/graph/compact_call_graph.h"
#include "dlfl/graph/propagation.h"
#include "dlfl/multi_fault.h"

namespace dlfl::bench {

std::optional<RankRequest> technique_request(std::string_view technique) {
  RankRequest r;
  r.ranked = false;
  r.threads = 1;  // faults are evaluated in parallel, one thread each
  if (technique.empty()) return r;
  if (technique == "block" || technique == "block-flitsr") r.granularity = Granularity::block;
  if (technique == "flitsr" || technique == "block-flitsr") r.multi_fault = MultiFault::flitsr;
  if (technique == "prfl") r.propagation = graph::Propagation::prfl;
  if (technique == "neighbors") r.propagation = graph::Propagation::neighbors;
  if (r.granularity == Granularity::line && !r.multi_fault && !r.propagation) return std::nullopt;
  return r;
}

bool is_bench_technique(std::string_view name) noexcept { return !name.empty() && technique_request(name); }

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
  std::optional<graph::CompactCallGraph> calls;
  std::vector<std::string> techniques{""};
  techniques.insert(techniques.end(), c.techniques.begin(), c.techniques.end());
  for (const auto& technique : techniques) {
    std::optional<RankRequest> request = technique_request(technique);
    if (!request) continue;  // bench_config.cpp admits only known names
    if (request->propagation) {
      if (!c.call_graph) continue;
      if (!calls) calls = graph::compact_call_graph(*c.call_graph);
      request->call_graph = &*calls;
    }
    request->formulas = c.formulas;
    const Ranking ranking = localize(spectrum, *request);
    for (const RankedFormula& f : ranking.formulas) {
      const auto ranked = eval::scored_elements(ranking.elements(), f.scores);
      const std::string name = technique.empty() ? f.formula : f.formula + "+" + technique;
      out.push_back(formula_result(name, eval::evaluate(ranked, faults, options)));
    }
  }
  return out;
}

std::vector<FormulaResult> mutation_results(const FaultContext& c, const Spectrum& spectrum, const Spectrum& kill_matrix,
                                            std::span<const eval::GroundTruthItem> faults,
                                            const eval::EvaluationOptions& options) {
  std::vector<FormulaResult> out;
  const auto rank = [&](MutationTechnique technique, const std::vector<Formula>& formulas, bool named_by_formula) {
    RankRequest r;
    r.ranked = false;
    r.threads = 1;
    r.mutation = technique;
    r.kill_matrix = &kill_matrix;
    r.formulas = formulas;
    const Ranking ranking = localize(spectrum, r);
    for (std::size_t f = 0; f < ranking.formulas.size(); ++f) {
      const auto ranked = eval::scored_elements(ranking.elements(), ranking.formulas[f].scores);
      const std::string technique_name(mutation_technique_name(technique));
      const std::string name = named_by_formula ? formulas[f].name() + "+" + technique_name : technique_name;
      out.push_back(formula_result(name, eval::evaluate(ranked, faults, options)));
    }
  };
  rank(MutationTechnique::hybrid, c.formulas, true);
  rank(MutationTechnique::metallaxis, c.formulas, true);
  if (!c.formulas.empty()) rank(MutationTechnique::muse, {c.formulas.front()}, false);  // the formula is not read
  return out;
}

}  // namespace dlfl::bench
