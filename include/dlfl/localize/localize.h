// localize(): the one ranking pipeline of dlfl. A spectrum and a RankRequest in, a Ranking
// out: aggregation (line → block → function → file), scores of each formula, the
// technique (call-graph propagation or FLITSR), then the ranking with its top-N and
// threshold. `dlfl rank`, `dlfl bench`, `dlfl bugset reproduce` and `dlfl versions` all
// rank through it.
//
// Layer: above core and graph (propagation needs the call graph), below everything that
// reads files or runs processes; it reads no files itself (the caller reads the call graph).
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/aggregate.h"
#include "dlfl/formula.h"
#include "dlfl/graph/compact_call_graph.h"
#include "dlfl/graph/propagation.h"
#include "dlfl/multi_fault.h"
#include "dlfl/mutation_scores.h"
#include "dlfl/ranking.h"
#include "dlfl/spectrum.h"

namespace dlfl {

// How a function or file is scored from its lines.
enum class Aggregation {
  spectrum,  // lift the coverage (a group is run when any member is), then score the groups
  max,       // score the lines, then keep each group's best line score
};

// "spectrum", "max" (exact, lower case); nullopt for any other name.
std::optional<Aggregation> parse_aggregation(std::string_view name) noexcept;
// The name parse_aggregation reads back.
std::string_view aggregation_name(Aggregation aggregation) noexcept;

// Everything one ranking depends on: a plain struct the CLI fills from its options and
// `dlfl bench` from a technique name.
struct RankRequest {
  std::vector<Formula> formulas;  // scored in this order; one ranking each
  Granularity granularity = Granularity::line;
  Aggregation aggregation = Aggregation::spectrum;  // read for function and file granularity only
  // Call-graph propagation (graph/propagation.h): at function granularity the functions
  // are ranked, else the elements (lines, blocks) ordered by their function first.
  // Needs call_graph; excludes multi_fault and Aggregation::max.
  std::optional<graph::Propagation> propagation;
  graph::PropagationOptions propagation_options;
  // Not owned: must outlive the call. Read only with `propagation`.
  const graph::CompactCallGraph* call_graph = nullptr;
  // What errors about the call graph name (its file), as `dlfl: error: NAME: what`.
  std::string call_graph_name;
  // FLITSR (multi_fault.h) over the elements of `granularity`; excludes propagation and
  // Aggregation::max.
  std::optional<MultiFault> multi_fault;
  // Mutation-based localization (mutation_scores.h) from `kill_matrix` (not owned: must
  // outlive the call; its mutants name files as the spectrum does): per formula, the
  // Metallaxis scores of the lines, MUSE's, or the formula's SBFL order with its ties
  // broken by Metallaxis. Line granularity only; excludes propagation and FLITSR.
  std::optional<MutationTechnique> mutation;
  const Spectrum* kill_matrix = nullptr;
  // The position reported for tied elements. It does not change the order: Ranking only
  // carries it to the report.
  TieRule ties = TieRule::average;
  // false: scores only (RankedFormula::ranked stays empty), for callers that evaluate the
  // scores themselves (eval::scored_elements).
  bool ranked = true;
  std::size_t top = 0;  // only the `top` most suspicious elements (0 = all)
  double min_score = std::numeric_limits<double>::quiet_NaN();  // only elements scoring at least this (NaN = all)
  unsigned threads = 0;  // scoring and ranking threads (0 = all hardware threads)
};

// One formula's result.
struct RankedFormula {
  std::string formula;  // Formula::name()
  // One score per element of Ranking::elements(), larger = more suspicious: the formula's
  // scores, or the technique's ordinal scores (propagation, FLITSR).
  Eigen::ArrayXd scores;
  // Elements whose formula score was NaN (Formula::score ranks them last), counted on the
  // scores before any technique; a caller may warn about them.
  std::size_t undefined = 0;
  // Descending by score, ties in (file, line) order (Spectrum::tie_order); positions are
  // those of the full ranking; cut to RankRequest::top and min_score.
  std::vector<RankedElement> ranked;
  // The lowest and highest finite score (|s| < kInfiniteScore; 0, 0 when none): what a
  // report normalizes scores against (SARIF's rank).
  double lowest_score = 0.0, highest_score = 0.0;
};

// The ranked elements (a spectrum of the request's granularity) and one RankedFormula per
// formula. Move-only in effect: copying copies the element spectrum.
class Ranking {
 public:
  // The elements the scores and positions refer to: the input spectrum itself at line
  // granularity (then the input must outlive the Ranking), else the aggregated one,
  // owned here.
  const Spectrum& elements() const noexcept { return owned_ ? *owned_ : *input_; }
  Granularity granularity() const noexcept { return granularity_; }
  TieRule ties() const noexcept { return ties_; }

  std::vector<RankedFormula> formulas;  // in the request's order

 private:
  friend Ranking localize(const Spectrum& spectrum, const RankRequest& request);
  const Spectrum* input_ = nullptr;
  std::optional<Spectrum> owned_;
  Granularity granularity_ = Granularity::line;
  TieRule ties_ = TieRule::average;
};

// Ranks the elements of `spectrum` (a line spectrum, or one already aggregated) as
// `request` asks. Cost: aggregation O(n log n + nnz), each formula O(nnz / threads), the
// ranking O(n); propagation and FLITSR add theirs (graph/propagation.h, multi_fault.h).
// Throws dlfl::Error for a request that contradicts itself (propagation without a call
// graph, or together with FLITSR or max aggregation; a mutation technique without a kill
// matrix, above line granularity or with another technique), and, naming call_graph_name, for a
// call graph none of whose functions is in the spectrum. No formula: no RankedFormula.
Ranking localize(const Spectrum& spectrum, const RankRequest& request);

}  // namespace dlfl
