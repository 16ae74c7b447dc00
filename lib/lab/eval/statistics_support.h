// Helpers shared by the statistics sources (private to lib/lab/eval): input checks and ranks.
#pragma once

#include <span>
#include <vector>

namespace dlfl::eval::detail {

// Throws dlfl::Error naming `function` when the sample holds a NaN or an infinity.
void require_finite(std::span<const double> sample, const char* function);

struct Ranks {
  std::vector<double> rank;  // 1-based; tied values share the mean of their ranks
  double tie_term = 0.0;     // Σ (t³ − t) over groups of t tied values
  bool has_ties = false;
};

// Mid-ranks of `values` in their given order (scipy's rankdata(method="average")).
Ranks average_ranks(std::span<const double> values);

}  // namespace dlfl::eval::detail
