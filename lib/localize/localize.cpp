// localize(): aggregation, scores, technique and ranking, in the order `dlfl rank` always had.
#include "dlfl/localize/localize.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include "dlfl/error.h"
#include "dlfl/graph/function_join.h"
#include "dlfl/scoring.h"

namespace dlfl {
namespace {

void check_request(const RankRequest& r, bool by_max) {
  if (by_max && (r.propagation || r.multi_fault))
    throw Error("max aggregation cannot be combined with propagation or multi-fault ranking");
  if (r.propagation && r.multi_fault) throw Error("propagation and multi-fault ranking are separate techniques; choose one");
  if (r.propagation && r.call_graph == nullptr) throw Error("propagation needs a call graph");
  if (!r.mutation) return;
  if (r.kill_matrix == nullptr) throw Error("mutation-based ranking needs a kill matrix");
  if (r.granularity != Granularity::line) throw Error("mutation-based ranking ranks lines only");
  if (r.propagation || r.multi_fault)
    throw Error("mutation-based ranking cannot be combined with propagation or multi-fault ranking");
}

// The formula's SBFL scores `s` of the lines replaced by the mutation technique's.
Eigen::ArrayXd mutation_scores(const Spectrum& lines, const Formula& formula, Eigen::ArrayXd s, const RankRequest& r) {
  switch (*r.mutation) {
    case MutationTechnique::metallaxis:
      return metallaxis_scores(lines, *r.kill_matrix, formula);
    case MutationTechnique::muse:
      return muse_scores(lines, *r.kill_matrix);
    case MutationTechnique::hybrid:
      return hybrid_scores(s, metallaxis_scores(lines, *r.kill_matrix, formula));
  }
  return s;
}

// "metallaxis-ochiai", "muse", "hybrid-ochiai": what a report calls the ranking.
std::string mutation_ranking_name(MutationTechnique technique, const std::string& formula) {
  if (technique == MutationTechnique::muse) return "muse";
  return std::string(mutation_technique_name(technique)) + "-" + formula;
}

graph::FunctionGraph join_call_graph(const Spectrum& elements, const RankRequest& r) {
  try {
    return graph::join_functions(elements, *r.call_graph);
  } catch (const Error& e) {
    if (r.call_graph_name.empty()) throw;
    throw Error(r.call_graph_name, 0, e.message());
  }
}

// Per formula, the scores of `scored` (or, with propagation, of its functions or of its
// elements by function first) and how many were NaN.
Scores score(const Spectrum& scored, const graph::FunctionGraph* functions, bool rank_functions, const RankRequest& r) {
  if (!r.propagation) return score_spectrum(scored, r.formulas, {.threads = r.threads});
  // Propagation's counts and PRFL's PageRank serve every formula: computed once.
  Scores scores;
  auto propagated = graph::propagate(scored, *functions, r.formulas, *r.propagation, r.propagation_options);
  for (auto& p : propagated) {
    scores.per_formula.push_back(rank_functions ? std::move(p.functions) : std::move(p.elements));
    scores.undefined.push_back(p.undefined);
  }
  return scores;
}

// The lowest and highest finite score; (0, 0) when there is none.
std::pair<double, double> finite_range(const Eigen::ArrayXd& scores) {
  double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
  for (const double s : scores) {
    if (std::isnan(s) || std::fabs(s) >= kInfiniteScore) continue;
    lowest = std::min(lowest, s);
    highest = std::max(highest, s);
  }
  return lowest > highest ? std::pair{0.0, 0.0} : std::pair{lowest, highest};
}

// The full ranking's first `top` elements (0 = all) scoring at least `min_score`.
std::vector<RankedElement> ranked(const Eigen::ArrayXd& scores, const TieOrder& order, const RankRequest& r) {
  std::vector<RankedElement> out = rank(scores, order, r.top, r.threads);
  if (r.top > 0 && out.size() > r.top) out.resize(r.top);
  // Ranked by descending score, so the elements at or above a threshold are a prefix.
  if (!std::isnan(r.min_score)) {
    const auto below =
        std::find_if(out.begin(), out.end(), [&](const RankedElement& e) { return e.score < r.min_score; });
    out.erase(below, out.end());
  }
  return out;
}

}  // namespace

std::optional<Aggregation> parse_aggregation(std::string_view name) noexcept {
  if (name == "spectrum") return Aggregation::spectrum;
  if (name == "max") return Aggregation::max;
  return std::nullopt;
}

std::string_view aggregation_name(Aggregation aggregation) noexcept {
  return aggregation == Aggregation::max ? "max" : "spectrum";
}

Ranking localize(const Spectrum& lines, const RankRequest& r) {
  // `max` scores the lines and keeps each group's best line score; at line granularity
  // there is nothing to group.
  const bool by_max = r.aggregation == Aggregation::max && r.granularity != Granularity::line;
  check_request(r, by_max);
  // Propagation ranks functions itself: it starts from the lines and reports its function
  // scores at function granularity.
  const bool rank_functions = r.propagation && r.granularity == Granularity::function;
  const Granularity grouping = rank_functions ? Granularity::line : r.granularity;
  std::optional<Aggregated> groups;
  if (grouping != Granularity::line) groups = aggregate(lines, grouping);
  const Spectrum& grouped = groups ? groups->spectrum : lines;
  std::optional<graph::FunctionGraph> functions;
  if (r.propagation) functions = join_call_graph(grouped, r);
  const Spectrum& shown = rank_functions ? functions->functions.spectrum : grouped;

  Scores scores = score(by_max ? lines : grouped, functions ? &*functions : nullptr, rank_functions, r);
  // Ties in (file, line) order: as runs of element ids when the elements come file by
  // file (no per-element keys); FLITSR compares elements by the keys themselves.
  const TieOrder tie_order = r.ranked ? shown.tie_order() : TieOrder::by_id();
  const auto tie_keys = r.multi_fault ? shown.tie_break_keys() : std::vector<std::uint64_t>{};

  Ranking out;
  out.input_ = &lines;
  out.granularity_ = r.granularity;
  out.ties_ = r.ties;
  for (std::size_t f = 0; f < r.formulas.size(); ++f) {
    RankedFormula result;
    result.formula = r.formulas[f].name();
    result.undefined = scores.undefined[f];
    Eigen::ArrayXd& s = scores.per_formula[f];
    if (by_max) s = max_by_group(s, groups->group_of, groups->spectrum.element_count());
    if (r.multi_fault) s = flitsr(grouped, r.formulas[f], tie_keys).scores;  // never with propagation
    if (r.mutation) {
      s = mutation_scores(lines, r.formulas[f], std::move(s), r);  // lines only, never with another technique
      result.formula = mutation_ranking_name(*r.mutation, result.formula);
    }
    if (r.ranked) result.ranked = ranked(s, tie_order, r);
    std::tie(result.lowest_score, result.highest_score) = finite_range(s);
    result.scores = std::move(s);
    out.formulas.push_back(std::move(result));
  }
  if (rank_functions) {
    out.owned_ = std::move(functions->functions.spectrum);
  } else if (groups) {
    out.owned_ = std::move(groups->spectrum);
  }
  return out;
}

}  // namespace dlfl
