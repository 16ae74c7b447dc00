// Personalized PageRank by power iteration over a weighted directed graph in compressed
// sparse rows (Page, Brin, Motwani, Winograd, "The PageRank Citation Ranking", 1999).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace dlfl::graph {

// Out-edges of node v are targets[offsets[v], offsets[v+1]) with positive weights; a
// node's out-weights are normalized to sum 1 (a random walk), so only their ratios matter.
struct WeightedDigraph {
  std::vector<std::uint64_t> offsets{0};
  std::vector<std::uint32_t> targets;
  std::vector<double> weights;

  std::size_t size() const noexcept { return offsets.size() - 1; }
};

struct PageRankOptions {
  double damping = 0.85;       // probability of following an edge rather than teleporting
  double tolerance = 1e-10;    // stop when the L1 change of an iteration falls below it
  unsigned max_iterations = 200;
};

// The stationary distribution of: with probability `damping` follow an out-edge (by
// weight), else jump to a node drawn from `teleport`; a node without out-edges (dangling)
// always jumps. `teleport` must be non-negative with a positive sum (it is normalized);
// an all-zero one means uniform. The result sums to 1. Cost O(iterations × edges).
// Throws dlfl::Error when teleport's size differs from the graph's or a weight is not
// positive and finite.
Eigen::VectorXd page_rank(const WeightedDigraph& graph, Eigen::VectorXd teleport,
                          const PageRankOptions& options = {});

}  // namespace dlfl::graph
