// Student's (pooled) and Welch's two-sample t-tests with two-sided p-values.
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>

#include "dlfl/lab/eval/statistics.h"
#include "statistics_support.h"

namespace dlfl::eval {
namespace {

struct Group {
  double n, mean, variance;  // variance with the n − 1 denominator
};

Group describe(std::span<const double> sample) {
  return {static_cast<double>(sample.size()), mean(sample), sample_variance(sample)};
}

double two_sided_p(double t, double degrees_of_freedom) {
  const boost::math::students_t distribution(degrees_of_freedom);
  return 2.0 * boost::math::cdf(boost::math::complement(distribution, std::fabs(t)));
}

// Both groups constant: no spread to scale the difference by. Distinct values are
// certainly different (t = ±inf, p = 0, as scipy); equal ones leave nothing to test.
HypothesisTestResult constant_groups(const Group& x, const Group& y, double degrees_of_freedom) {
  HypothesisTestResult result;
  result.status = HypothesisTestStatus::zero_variance;
  result.degrees_of_freedom = degrees_of_freedom;
  if (x.mean != y.mean) {
    result.statistic = x.mean > y.mean ? std::numeric_limits<double>::infinity()
                                       : -std::numeric_limits<double>::infinity();
    result.p_value = 0.0;
  }
  return result;
}

HypothesisTestResult checked_sizes(std::span<const double> x, std::span<const double> y,
                                   const char* function) {
  detail::require_finite(x, function);
  detail::require_finite(y, function);
  HypothesisTestResult result;
  if (x.size() < 2 || y.size() < 2) result.status = HypothesisTestStatus::too_few;
  return result;
}

}  // namespace

HypothesisTestResult student_t_test(std::span<const double> x, std::span<const double> y) {
  HypothesisTestResult result = checked_sizes(x, y, "student_t_test");
  if (result.status != HypothesisTestStatus::ok) return result;
  const Group a = describe(x), b = describe(y);
  const double degrees_of_freedom = a.n + b.n - 2.0;
  const double pooled = ((a.n - 1.0) * a.variance + (b.n - 1.0) * b.variance) / degrees_of_freedom;
  if (pooled == 0.0) return constant_groups(a, b, degrees_of_freedom);
  result.statistic = (a.mean - b.mean) / std::sqrt(pooled * (1.0 / a.n + 1.0 / b.n));
  result.degrees_of_freedom = degrees_of_freedom;
  result.p_value = two_sided_p(result.statistic, degrees_of_freedom);
  return result;
}

HypothesisTestResult welch_t_test(std::span<const double> x, std::span<const double> y) {
  HypothesisTestResult result = checked_sizes(x, y, "welch_t_test");
  if (result.status != HypothesisTestStatus::ok) return result;
  const Group a = describe(x), b = describe(y);
  const double share_a = a.variance / a.n, share_b = b.variance / b.n;
  const double spread = share_a + share_b;
  if (spread == 0.0) return constant_groups(a, b, std::numeric_limits<double>::quiet_NaN());
  // Welch-Satterthwaite degrees of freedom.
  const double degrees_of_freedom =
      spread * spread / (share_a * share_a / (a.n - 1.0) + share_b * share_b / (b.n - 1.0));
  result.statistic = (a.mean - b.mean) / std::sqrt(spread);
  result.degrees_of_freedom = degrees_of_freedom;
  result.p_value = two_sided_p(result.statistic, degrees_of_freedom);
  return result;
}

}  // namespace dlfl::eval
