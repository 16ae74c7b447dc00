// Propagation: suspiciousness that uses the call graph as well as the spectrum. Functions
// are ranked first, then the elements (lines, blocks) inside them.
#pragma once

#include <Eigen/Core>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "dlfl/formula.h"
#include "dlfl/graph/function_join.h"
#include "dlfl/spectrum.h"

namespace dlfl::graph {

enum class Propagation {
  // PRFL (Zhang, Li, Zhang, Khurshid, "Boosting Spectrum-Based Fault Localization using
  // PageRank", ISSTA 2017): tests are told apart by PageRank over a graph of tests,
  // functions and calls; a failing test that runs few functions lends each more weight.
  // Per side (failing, passing) a personalized PageRank starts at that side's tests; a
  // test links to the functions it runs, a function to the tests of its side that run it
  // and (share `call_share`) to its callers and callees. A function's weight is its rank
  // over the mean rank of the functions its side runs; the formula then reads the
  // weighted spectrum ef·w_f, ep·w_p (nf, np unchanged) for the function and its lines.
  prfl,
  // Call-neighbourhood: a function's score plus `neighbour_weight` times the best score
  // among its callers and callees (the caller/callee context of Beszédes et al.,
  // "Leveraging Contextual Information from Function Call Chains to Improve Fault
  // Localization", SANER 2020): a faulty helper shared with passing tests rises with the
  // failure-specific caller that uses it.
  neighbors,
};

std::optional<Propagation> parse_propagation(std::string_view name) noexcept;
std::string_view propagation_name(Propagation p) noexcept;

struct PropagationOptions {
  double damping = 0.85;         // PRFL: PageRank damping
  double call_share = 0.5;       // PRFL: walk share of a function's call edges
  double neighbour_weight = 0.5; // neighbors: weight of the best neighbour's score
};

struct PropagatedScores {
  Eigen::ArrayXd functions;  // one score per function of FunctionGraph::functions
  // One score per input element, ordering by (its function's score, its own score): an
  // ordinal (larger = more suspicious), equal exactly when both parts are equal.
  Eigen::ArrayXd elements;
  std::size_t undefined = 0;  // elements whose own formula score was NaN (Formula::score: last in their function)
};

// Scores `elements` (a line or block spectrum) with `formula` and the propagation.
// Elements without a function form one-function groups per file (no calls). Cost:
// O(nnz) for the counts plus O(iterations × (function-test pairs + calls)) for PRFL.
PropagatedScores propagate(const Spectrum& elements, const FunctionGraph& functions, const Formula& formula,
                           Propagation propagation, const PropagationOptions& options = {});
// The same for each of `formulas`, in order: the counts and PRFL's PageRank do not
// depend on the formula and are computed once for all of them.
std::vector<PropagatedScores> propagate(const Spectrum& elements, const FunctionGraph& functions,
                                        std::span<const Formula> formulas, Propagation propagation,
                                        const PropagationOptions& options = {});

// Ordinal scores ordering by `primary`, then `secondary` (same length): equal pairs get
// equal scores. The pairs' dense ranks, so every value is exact (< 2^53 pairs).
Eigen::ArrayXd lexicographic_scores(const Eigen::ArrayXd& primary, const Eigen::ArrayXd& secondary);

}  // namespace dlfl::graph
