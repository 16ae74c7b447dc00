// Effect sizes: Cohen's d, Cliff's delta, Vargha-Delaney A12, and their magnitude labels.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "dlfl/lab/eval/statistics.h"
#include "statistics_support.h"

namespace dlfl::eval {
namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

double sum_of_squares(std::span<const double> sample, double centre) {
  double sum = 0.0;
  for (const double x : sample) sum += (x - centre) * (x - centre);
  return sum;
}

EffectMagnitude classify(double magnitude, double small, double medium, double large) noexcept {
  if (!(magnitude >= small)) return EffectMagnitude::negligible;  // NaN lands here too
  if (magnitude < medium) return EffectMagnitude::small;
  if (magnitude < large) return EffectMagnitude::medium;
  return EffectMagnitude::large;
}

}  // namespace

double cohens_d(std::span<const double> x, std::span<const double> y) {
  detail::require_finite(x, "cohens_d");
  detail::require_finite(y, "cohens_d");
  if (x.empty() || y.empty() || x.size() + y.size() < 3) return not_a_number;
  const double mean_x = mean(x), mean_y = mean(y);
  const double pooled_variance = (sum_of_squares(x, mean_x) + sum_of_squares(y, mean_y)) /
                                 static_cast<double>(x.size() + y.size() - 2);
  if (pooled_variance == 0.0) return not_a_number;
  return (mean_x - mean_y) / std::sqrt(pooled_variance);
}

double cliffs_delta(std::span<const double> x, std::span<const double> y) {
  detail::require_finite(x, "cliffs_delta");
  detail::require_finite(y, "cliffs_delta");
  if (x.empty() || y.empty()) return not_a_number;
  std::vector<double> sorted_y(y.begin(), y.end());
  std::sort(sorted_y.begin(), sorted_y.end());
  // Dominance counts by binary search instead of comparing all n_x · n_y pairs.
  std::int64_t dominance = 0;
  for (const double value : x) {
    const auto below = std::lower_bound(sorted_y.begin(), sorted_y.end(), value) - sorted_y.begin();
    const auto above = sorted_y.end() - std::upper_bound(sorted_y.begin(), sorted_y.end(), value);
    dominance += below - above;
  }
  return static_cast<double>(dominance) /
         (static_cast<double>(x.size()) * static_cast<double>(y.size()));
}

double vargha_delaney_a12(std::span<const double> x, std::span<const double> y) {
  return (cliffs_delta(x, y) + 1.0) / 2.0;
}

EffectMagnitude cohens_d_magnitude(double d) noexcept {
  return classify(std::fabs(d), 0.2, 0.5, 0.8);
}

EffectMagnitude cliffs_delta_magnitude(double delta) noexcept {
  return classify(std::fabs(delta), 0.147, 0.33, 0.474);
}

}  // namespace dlfl::eval
