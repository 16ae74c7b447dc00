// Descriptive statistics (mean, median, variance) and the helpers the tests share.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "dlfl/error.h"
#include "dlfl/lab/eval/statistics.h"
#include "statistics_support.h"

namespace dlfl::eval {
namespace detail {

void require_finite(std::span<const double> sample, const char* function) {
  for (std::size_t i = 0; i < sample.size(); ++i) {
    if (!std::isfinite(sample[i])) {
      throw Error(std::string(function) + ": value " + std::to_string(i) + " is " +
                  (std::isnan(sample[i]) ? "NaN" : "infinite"));
    }
  }
}

Ranks average_ranks(std::span<const double> values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });

  Ranks ranks;
  ranks.rank.resize(values.size());
  for (std::size_t first = 0; first < order.size();) {
    std::size_t last = first + 1;
    while (last < order.size() && values[order[last]] == values[order[first]]) ++last;
    // Positions first..last-1 (0-based) hold ranks first+1..last: their mean.
    const double mid_rank = (static_cast<double>(first + 1) + static_cast<double>(last)) / 2.0;
    for (std::size_t i = first; i < last; ++i) ranks.rank[order[i]] = mid_rank;
    const double tied = static_cast<double>(last - first);
    if (last - first > 1) {
      ranks.has_ties = true;
      ranks.tie_term += tied * tied * tied - tied;
    }
    first = last;
  }
  return ranks;
}

}  // namespace detail

double mean(std::span<const double> sample) {
  detail::require_finite(sample, "mean");
  if (sample.empty()) return std::numeric_limits<double>::quiet_NaN();
  return std::accumulate(sample.begin(), sample.end(), 0.0) / static_cast<double>(sample.size());
}

double median(std::span<const double> sample) {
  detail::require_finite(sample, "median");
  if (sample.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> values(sample.begin(), sample.end());
  const std::size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle),
                   values.end());
  const double upper = values[middle];
  if (values.size() % 2 == 1) return upper;
  const double lower =
      *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle));
  return lower + (upper - lower) / 2.0;
}

double sample_variance(std::span<const double> sample) {
  detail::require_finite(sample, "sample_variance");
  if (sample.size() < 2) return std::numeric_limits<double>::quiet_NaN();
  // Two passes: the one-pass formula loses digits when the mean is large.
  const double centre = mean(sample);
  double squares = 0.0;
  for (const double x : sample) squares += (x - centre) * (x - centre);
  return squares / static_cast<double>(sample.size() - 1);
}

double standard_deviation(std::span<const double> sample) {
  return std::sqrt(sample_variance(sample));
}

}  // namespace dlfl::eval
