// PRFL and call-neighbourhood propagation; functions first, then their elements.
#include "dlfl/graph/propagation.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "dlfl/counts.h"
#include "prfl_walk.h"

namespace dlfl::graph {
namespace {

// Dense rank of each value among the distinct values (0 = smallest; NaN, an undefined
// score, below every number; -0 equals 0). Scores are functions of few (ef, ep) pairs,
// so the distinct values are few: an open-addressing table of their bit patterns stays in
// L1, and each value costs one probe (a node-based map cost ~25 ns per value, twice).
std::vector<std::uint64_t> dense_ranks(const Eigen::ArrayXd& values, std::uint64_t& distinct) {
  constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
  const auto key_of = [](double v) {
    if (std::isnan(v)) return std::bit_cast<std::uint64_t>(std::numeric_limits<double>::quiet_NaN());
    return std::bit_cast<std::uint64_t>(v == 0.0 ? 0.0 : v);
  };
  std::vector<std::uint64_t> keys;      // distinct keys, in order of first appearance
  std::vector<std::uint32_t> slots(64, kEmpty);
  int shift = 64 - 6;
  const auto probe = [&](std::uint64_t key) {
    std::size_t i = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> shift);
    while (slots[i] != kEmpty && keys[slots[i]] != key) i = (i + 1) & (slots.size() - 1);
    return i;
  };
  const auto n = static_cast<std::size_t>(values.size());
  std::vector<std::uint64_t> ranks(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t key = key_of(values[static_cast<Eigen::Index>(i)]);
    std::size_t slot = probe(key);
    if (slots[slot] == kEmpty) {
      slots[slot] = static_cast<std::uint32_t>(keys.size());
      keys.push_back(key);
      if (keys.size() * 2 > slots.size()) {  // keep the load at most 1/2
        slots.assign(slots.size() * 2, kEmpty);
        --shift;
        for (std::uint32_t k = 0; k < keys.size(); ++k) slots[probe(keys[k])] = k;
        slot = probe(key);
      }
    }
    ranks[i] = slots[slot];  // the value's distinct index for now
  }
  std::vector<std::uint32_t> order(keys.size());
  for (std::uint32_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const double x = std::bit_cast<double>(keys[a]), y = std::bit_cast<double>(keys[b]);
    return std::isnan(x) ? !std::isnan(y) : !std::isnan(y) && x < y;
  });
  std::vector<std::uint64_t> rank_of(keys.size());
  for (std::size_t r = 0; r < order.size(); ++r) rank_of[order[r]] = r;
  for (auto& r : ranks) r = rank_of[r];
  distinct = keys.size();
  return ranks;
}

// PRFL weight of every function for one side of the suite (failing or passing): its
// personalized PageRank over the mean PageRank of the functions that side runs.
Eigen::ArrayXd prfl_weights(const FunctionGraph& g, bool failing_side, const PropagationOptions& options) {
  const auto& tests = g.functions.spectrum.tests();
  const std::size_t n = g.size();
  std::vector<double> side_weight(tests.size());
  bool any = false;
  for (std::size_t t = 0; t < tests.size(); ++t) {
    const double w = tests[t].failure_weight;
    side_weight[t] = failing_side ? w : 1.0 - w;
    any = any || side_weight[t] > 0;
  }
  Eigen::ArrayXd weights = Eigen::ArrayXd::Zero(static_cast<Eigen::Index>(n));
  if (!any) return weights + 1.0;  // no test on this side: nothing to tell apart
  const detail::PrflWalk walk = detail::prfl_walk(g, side_weight, options.damping, options.call_share);
  double sum = 0;
  std::size_t run = 0;
  for (std::size_t f = 0; f < n; ++f) {
    if (walk.covering[f] == 0) continue;
    sum += walk.rank[static_cast<Eigen::Index>(f)];
    ++run;
  }
  if (sum <= 0) return weights + 1.0;
  const double mean = sum / static_cast<double>(run);
  for (std::size_t f = 0; f < n; ++f) weights[static_cast<Eigen::Index>(f)] = walk.rank[static_cast<Eigen::Index>(f)] / mean;
  return weights;
}

// Counts with ef, ep scaled by the weight of each element's group.
Counts weighted(Counts counts, const Eigen::ArrayXd& wf, const Eigen::ArrayXd& wp,
                std::span<const std::uint32_t> group_of) {
  for (Eigen::Index e = 0; e < counts.size(); ++e) {
    const auto g = static_cast<Eigen::Index>(group_of.empty() ? static_cast<std::uint32_t>(e) : group_of[static_cast<std::size_t>(e)]);
    counts.ef[e] *= wf[g];
    counts.ep[e] *= wp[g];
  }
  return counts;
}

}  // namespace

std::optional<Propagation> parse_propagation(std::string_view name) noexcept {
  if (name == "prfl" || name == "pagerank") return Propagation::prfl;
  if (name == "neighbors" || name == "neighbours" || name == "neighbor") return Propagation::neighbors;
  return std::nullopt;
}

std::string_view propagation_name(Propagation p) noexcept {
  return p == Propagation::prfl ? "prfl" : "neighbors";
}

Eigen::ArrayXd lexicographic_scores(const Eigen::ArrayXd& primary, const Eigen::ArrayXd& secondary) {
  std::uint64_t distinct_primary = 0, distinct_secondary = 0;
  const auto p = dense_ranks(primary, distinct_primary);
  const auto s = dense_ranks(secondary, distinct_secondary);
  Eigen::ArrayXd out(primary.size());
  for (Eigen::Index i = 0; i < primary.size(); ++i)
    out[i] = static_cast<double>(p[static_cast<std::size_t>(i)] * distinct_secondary + s[static_cast<std::size_t>(i)]);
  return out;
}

PropagatedScores propagate(const Spectrum& elements, const FunctionGraph& g, const Formula& formula,
                           Propagation propagation, const PropagationOptions& options) {
  return std::move(propagate(elements, g, std::span(&formula, 1), propagation, options).front());
}

std::vector<PropagatedScores> propagate(const Spectrum& elements, const FunctionGraph& g, std::span<const Formula> formulas,
                                        Propagation propagation, const PropagationOptions& options) {
  std::vector<PropagatedScores> results;
  results.reserve(formulas.size());
  Counts function_counts = compute_counts(g.functions.spectrum);
  Counts element_counts = compute_counts(elements);
  if (propagation == Propagation::prfl) {
    const Eigen::ArrayXd wf = prfl_weights(g, true, options), wp = prfl_weights(g, false, options);
    function_counts = weighted(std::move(function_counts), wf, wp, {});
    element_counts = weighted(std::move(element_counts), wf, wp, g.functions.group_of);
  }
  for (const Formula& formula : formulas) {
    PropagatedScores& out = results.emplace_back();
    Eigen::ArrayXd element_scores;
    if (propagation == Propagation::prfl) {
      out.functions = formula.score(function_counts);
      element_scores = formula.score(element_counts, &out.undefined);
    } else {
      const Eigen::ArrayXd own = formula.score(function_counts);
      out.functions = own;
      for (std::size_t f = 0; f < g.size(); ++f) {
        double best = 0;
        for (auto k = g.callee_offsets[f]; k < g.callee_offsets[f + 1]; ++k) best = std::max(best, own[g.callees[k]]);
        for (auto k = g.caller_offsets[f]; k < g.caller_offsets[f + 1]; ++k) best = std::max(best, own[g.callers[k]]);
        // Capped so that an ideal suspect (kInfiniteScore) plus a neighbour stays finite.
        const auto i = static_cast<Eigen::Index>(f);
        out.functions[i] = own[i] >= kInfiniteScore - options.neighbour_weight * best
                               ? kInfiniteScore
                               : own[i] + options.neighbour_weight * best;
      }
      element_scores = formula.score(element_counts, &out.undefined);
    }
    // lexicographic_scores(function score of each element, element score), with the first
    // part's dense ranks taken over the functions (every function has an element, so the
    // distinct values are the same) instead of hashing a million repeated values.
    std::uint64_t distinct_functions = 0, distinct_elements = 0;
    const auto function_rank = dense_ranks(out.functions, distinct_functions);
    const auto element_rank = dense_ranks(element_scores, distinct_elements);
    out.elements.resize(element_scores.size());
    for (Eigen::Index e = 0; e < element_scores.size(); ++e)
      out.elements[e] = static_cast<double>(function_rank[g.functions.group_of[static_cast<std::size_t>(e)]] * distinct_elements +
                                            element_rank[static_cast<std::size_t>(e)]);
  }
  return results;
}

}  // namespace dlfl::graph
