// Personalized PageRank: power iteration with dangling mass sent to the teleport vector.
#include "dlfl/graph/page_rank.h"

#include <cmath>
#include <string>

#include "dlfl/error.h"

namespace dlfl::graph {

Eigen::VectorXd page_rank(const WeightedDigraph& graph, Eigen::VectorXd teleport, const PageRankOptions& options) {
  const auto n = static_cast<Eigen::Index>(graph.size());
  if (teleport.size() != n)
    throw Error("page_rank: teleport vector of " + std::to_string(teleport.size()) + " for " + std::to_string(n) +
                " nodes");
  if (n == 0) return teleport;
  if ((teleport.array() < 0).any()) throw Error("page_rank: negative teleport probability");
  const double total = teleport.sum();
  teleport = total > 0 ? Eigen::VectorXd(teleport / total) : Eigen::VectorXd::Constant(n, 1.0 / static_cast<double>(n));

  // Row sums once, so each iteration is one pass over the edges.
  Eigen::VectorXd out_weight = Eigen::VectorXd::Zero(n);
  for (Eigen::Index v = 0; v < n; ++v) {
    for (auto k = graph.offsets[static_cast<std::size_t>(v)]; k < graph.offsets[static_cast<std::size_t>(v) + 1]; ++k) {
      const double w = graph.weights[k];
      if (!(w > 0) || !std::isfinite(w)) throw Error("page_rank: edge weight " + std::to_string(w) + " is not positive");
      out_weight[v] += w;
    }
  }

  Eigen::VectorXd rank = teleport, next(n);
  for (unsigned it = 0; it < options.max_iterations; ++it) {
    next.setZero();
    double dangling = 0;
    for (Eigen::Index v = 0; v < n; ++v) {
      const auto first = graph.offsets[static_cast<std::size_t>(v)], last = graph.offsets[static_cast<std::size_t>(v) + 1];
      if (first == last) {
        dangling += rank[v];
        continue;
      }
      const double share = rank[v] / out_weight[v];
      for (auto k = first; k < last; ++k) next[graph.targets[k]] += share * graph.weights[k];
    }
    next = options.damping * (next + dangling * teleport) + (1.0 - options.damping) * teleport;
    const double change = (next - rank).lpNorm<1>();
    rank.swap(next);
    if (change < options.tolerance) break;
  }
  return rank;
}

}  // namespace dlfl::graph
