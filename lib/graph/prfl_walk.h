// PRFL's personalized PageRank (Zhang et al., ISSTA 2017) over the walk of one side of the
// suite, computed on the function-test incidence itself instead of an explicit graph.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "dlfl/graph/function_join.h"

namespace dlfl::graph::detail {

struct PrflWalk {
  // Nodes: the functions, then the tests with side_weight > 0 in test order.
  Eigen::VectorXd rank;
  std::vector<std::uint32_t> covering;  // per function: its tests on this side
};

// The walk: a test links to the functions it runs (weight 1 each); a function to its
// side's tests that run it (together 1 - call_share, or 1 without calls) and to its
// callers and callees (together call_share, or 1 without tests), teleporting to the
// tests by side_weight. Iterated exactly as page_rank() iterates (page_rank.h: same
// damping, tolerance and iteration cap, same order of every floating-point operation), so
// the result is page_rank() of the explicit graph bit for bit; but an iteration reads the
// incidence as bit rows (or id lists when sparse) in both directions, 2 x 25 MB for 20k
// functions x 10k tests at 40% instead of 1.9 GB of (target, weight) edges, on two
// threads that each own a range of targets. Throws dlfl::Error as page_rank() does for a
// weight that is not positive (call_share 1 with a function that has tests and calls).
PrflWalk prfl_walk(const FunctionGraph& g, const std::vector<double>& side_weight, double damping, double call_share);

// Whether the walk may add under bit masks with AVX-512 when the CPU has it (default);
// tests turn it off to compare the scalar loop. Not thread-safe.
void use_vector_push(bool on);

}  // namespace dlfl::graph::detail
