// Rank tests: Mann-Whitney U (independent samples) and Wilcoxon signed-rank (pairs),
// with exact null distributions for small samples and normal approximations otherwise.
#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "dlfl/error.h"
#include "dlfl/lab/eval/statistics.h"
#include "statistics_support.h"

namespace dlfl::eval {
namespace {

constexpr std::size_t max_exact_mann_whitney_pairs = 20000;  // n_x · n_y
constexpr std::size_t max_exact_wilcoxon_pairs = 1000;

double upper_normal_tail(double z) {
  return boost::math::cdf(boost::math::complement(boost::math::normal(), z));
}

// P(U >= u) under H0 for samples of sizes m and n without ties. f(i, j, k), the number
// of orderings of i x's and j y's with U = k, satisfies f(i, j, k) = f(i − 1, j, k − j)
// + f(i, j − 1, k) (the last value is an x, beating all j y's, or a y); Mann & Whitney
// (1947). Counts are doubles: only sums of positive terms, and C(m + n, m) stays far
// below the double range within the size limit. Memory O(m · mn), time O(m² n²).
double mann_whitney_upper_tail(std::size_t m, std::size_t n, double u) {
  if (m > n) std::swap(m, n);  // the distribution is symmetric in the two sizes
  const std::size_t max_u = m * n;
  // previous[i] = f(i, j − 1, ·), current[i] = f(i, j, ·).
  std::vector<std::vector<double>> previous(m + 1, std::vector<double>(max_u + 1, 0.0));
  for (auto& counts : previous) counts[0] = 1.0;  // j = 0: only U = 0
  std::vector<std::vector<double>> current = previous;
  for (std::size_t j = 1; j <= n; ++j) {
    current[0].assign(max_u + 1, 0.0);
    current[0][0] = 1.0;
    for (std::size_t i = 1; i <= m; ++i) {
      for (std::size_t k = 0; k <= i * j; ++k) {
        current[i][k] = previous[i][k] + (k >= j ? current[i - 1][k - j] : 0.0);
      }
    }
    std::swap(previous, current);
  }
  const std::vector<double>& counts = previous[m];
  double total = 0.0, tail = 0.0;
  for (std::size_t k = 0; k <= max_u; ++k) {
    total += counts[k];
    if (static_cast<double>(k) >= u) tail += counts[k];
  }
  return tail / total;
}

// Distribution of R+ (sum of the ranks 1..n given a + sign) under H0: each sign is + with
// probability 1/2, independently. Returned as probabilities indexed by R+.
std::vector<double> signed_rank_distribution(std::size_t n) {
  const std::size_t max_sum = n * (n + 1) / 2;
  std::vector<double> probability(max_sum + 1, 0.0);
  probability[0] = 1.0;
  std::size_t reach = 0;
  for (std::size_t rank = 1; rank <= n; ++rank) {
    reach += rank;
    for (std::size_t s = reach + 1; s-- > 0;) {
      probability[s] = 0.5 * (probability[s] + (s >= rank ? probability[s - rank] : 0.0));
    }
  }
  return probability;
}

}  // namespace

HypothesisTestResult mann_whitney_u(std::span<const double> x, std::span<const double> y,
                                    const MannWhitneyOptions& options) {
  detail::require_finite(x, "mann_whitney_u");
  detail::require_finite(y, "mann_whitney_u");
  HypothesisTestResult result;
  if (x.empty() || y.empty()) {
    result.status = HypothesisTestStatus::too_few;
    return result;
  }
  std::vector<double> pooled(x.begin(), x.end());
  pooled.insert(pooled.end(), y.begin(), y.end());
  const detail::Ranks ranks = detail::average_ranks(pooled);

  const double nx = static_cast<double>(x.size()), ny = static_cast<double>(y.size());
  double rank_sum_x = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) rank_sum_x += ranks.rank[i];
  const double u_x = rank_sum_x - nx * (nx + 1.0) / 2.0;
  const double u_y = nx * ny - u_x;
  const double u = std::max(u_x, u_y);  // the two-sided p doubles the tail beyond it
  result.statistic = u_x;

  bool exact = options.method == PValueMethod::exact;
  if (options.method == PValueMethod::automatic) {
    // scipy 1.10's choice, within the size the exact distribution is computed for.
    exact = (x.size() <= 8 || y.size() <= 8) && !ranks.has_ties &&
            x.size() * y.size() <= max_exact_mann_whitney_pairs;
  }
  if (exact) {
    if (ranks.has_ties) throw Error("mann_whitney_u: the exact p-value needs samples without ties");
    if (x.size() * y.size() > max_exact_mann_whitney_pairs) {
      throw Error("mann_whitney_u: exact p-value limited to n_x * n_y <= " +
                  std::to_string(max_exact_mann_whitney_pairs));
    }
    result.exact = true;
    result.p_value = std::min(1.0, 2.0 * mann_whitney_upper_tail(x.size(), y.size(), u));
    return result;
  }

  const double n = nx + ny;
  const double variance = nx * ny / 12.0 * ((n + 1.0) - ranks.tie_term / (n * (n - 1.0)));
  if (!(variance > 0.0)) {  // every value tied: every ordering gives the same U
    result.p_value = 1.0;
    return result;
  }
  const double z =
      (u - nx * ny / 2.0 - (options.continuity_correction ? 0.5 : 0.0)) / std::sqrt(variance);
  result.p_value = std::clamp(2.0 * upper_normal_tail(z), 0.0, 1.0);
  return result;
}

HypothesisTestResult wilcoxon_signed_rank(std::span<const double> x, std::span<const double> y,
                                          const WilcoxonOptions& options) {
  detail::require_finite(x, "wilcoxon_signed_rank");
  detail::require_finite(y, "wilcoxon_signed_rank");
  if (x.size() != y.size()) {
    throw Error("wilcoxon_signed_rank: " + std::to_string(x.size()) + " values paired with " +
                std::to_string(y.size()));
  }
  // Zero differences carry no sign: dropped before ranking (Wilcoxon 1945; scipy's
  // zero_method="wilcox").
  std::vector<double> differences, magnitudes;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double d = x[i] - y[i];
    if (d == 0.0) continue;
    differences.push_back(d);
    magnitudes.push_back(std::fabs(d));
  }
  HypothesisTestResult result;
  if (differences.empty()) {
    result.status = HypothesisTestStatus::too_few;
    return result;
  }
  const bool had_zeros = differences.size() != x.size();
  const detail::Ranks ranks = detail::average_ranks(magnitudes);
  double rank_plus = 0.0, rank_minus = 0.0;
  for (std::size_t i = 0; i < differences.size(); ++i) {
    (differences[i] > 0 ? rank_plus : rank_minus) += ranks.rank[i];
  }
  result.statistic = std::min(rank_plus, rank_minus);

  bool exact = options.method == PValueMethod::exact;
  if (options.method == PValueMethod::automatic) {
    exact = x.size() <= 50 && !had_zeros && !ranks.has_ties;
  }
  const std::size_t n = differences.size();
  if (exact) {
    if (had_zeros || ranks.has_ties) {
      throw Error(
          "wilcoxon_signed_rank: the exact p-value needs non-zero differences without ties");
    }
    if (n > max_exact_wilcoxon_pairs) {
      throw Error("wilcoxon_signed_rank: exact p-value limited to " +
                  std::to_string(max_exact_wilcoxon_pairs) + " pairs");
    }
    const std::vector<double> probability = signed_rank_distribution(n);
    const auto observed = static_cast<std::size_t>(rank_plus);  // an integer without ties
    double at_most = 0.0, at_least = 0.0;
    for (std::size_t s = 0; s < probability.size(); ++s) {
      if (s <= observed) at_most += probability[s];
      if (s >= observed) at_least += probability[s];
    }
    result.exact = true;
    result.p_value = std::min(1.0, 2.0 * std::min(at_most, at_least));
    return result;
  }

  const double count = static_cast<double>(n);
  const double expected = count * (count + 1.0) / 4.0;
  // Tied |differences| shrink the variance by Σ(t³ − t)/48.
  const double variance =
      (count * (count + 1.0) * (2.0 * count + 1.0) - 0.5 * ranks.tie_term) / 24.0;
  double shift = result.statistic - expected;
  if (options.continuity_correction && shift != 0.0) shift -= shift > 0 ? 0.5 : -0.5;
  const double z = shift / std::sqrt(variance);
  result.p_value = std::min(1.0, 2.0 * upper_normal_tail(std::fabs(z)));
  return result;
}

}  // namespace dlfl::eval
