// Shapiro-Wilk normality test by Royston's algorithm AS R94 (Applied Statistics 44(4),
// 1995), written from the paper's equations.
#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <numbers>
#include <vector>

#include "dlfl/lab/eval/statistics.h"
#include "statistics_support.h"

namespace dlfl::eval {
namespace {

// c[0] + c[1] x + c[2] x² + ...
template <std::size_t N>
double polynomial(const double (&c)[N], double x) {
  double value = 0.0;
  for (std::size_t i = N; i-- > 0;) value = value * x + c[i];
  return value;
}

// Royston's (1992, 1995) approximations. The first two coefficients get polynomial
// corrections in u = 1/√n; the p-value comes from normalizing log(1 − W) (n >= 12) or
// −log(γ − log(1 − W)) (4 <= n <= 11) with mean and log-SD polynomial in n or log n.
constexpr double last_coefficient[] = {0.0, 0.221157, -0.147981, -2.071190, 4.434685, -2.706056};
constexpr double second_last_coefficient[] = {0.0,       0.042981, -0.293762,
                                              -1.752461, 5.682633, -3.582633};
constexpr double small_gamma[] = {-2.273, 0.459};
constexpr double small_mean[] = {0.5440, -0.39978, 0.025054, -6.714e-4};
constexpr double small_log_sd[] = {1.3822, -0.77857, 0.062767, -0.0020322};
constexpr double large_mean[] = {-1.5861, -0.31082, -0.083751, 0.0038915};
constexpr double large_log_sd[] = {-0.4803, -0.082676, 0.0030302};

// Coefficients a_n, a_{n−1}, ... for the upper half of the order statistics; the lower
// half mirrors them with opposite sign. Always positive.
std::vector<double> coefficients(std::size_t n) {
  const std::size_t half = n / 2;
  std::vector<double> a(half);
  if (n == 3) {
    a[0] = std::sqrt(0.5);  // exact for n = 3
    return a;
  }
  // Approximate expected normal order statistics m_i = Φ⁻¹((i − 3/8)/(n + 1/4)), upper
  // half, largest first.
  const boost::math::normal standard;
  const double count = static_cast<double>(n);
  std::vector<double> m(half);
  double sum_squares = 0.0;
  for (std::size_t i = 0; i < half; ++i) {
    m[i] = -boost::math::quantile(standard, (static_cast<double>(i + 1) - 0.375) / (count + 0.25));
    sum_squares += m[i] * m[i];
  }
  sum_squares *= 2.0;  // m'm over both halves (the middle value of an odd n is 0)
  const double norm = std::sqrt(sum_squares);
  const double u = 1.0 / std::sqrt(count);

  a[0] = m[0] / norm + polynomial(last_coefficient, u);
  std::size_t corrected = 1;
  double phi = 0.0;
  if (n > 5) {
    a[1] = m[1] / norm + polynomial(second_last_coefficient, u);
    corrected = 2;
    phi = (sum_squares - 2.0 * m[0] * m[0] - 2.0 * m[1] * m[1]) /
          (1.0 - 2.0 * a[0] * a[0] - 2.0 * a[1] * a[1]);
  } else {
    phi = (sum_squares - 2.0 * m[0] * m[0]) / (1.0 - 2.0 * a[0] * a[0]);
  }
  const double scale = std::sqrt(phi);
  for (std::size_t i = corrected; i < half; ++i) a[i] = m[i] / scale;
  return a;
}

double p_value(double w, std::size_t n) {
  const boost::math::normal standard;
  const double count = static_cast<double>(n);
  if (n == 3) {
    // Exact distribution for n = 3: p = (6/π)(asin √W − asin √(3/4)).
    const double p =
        6.0 / std::numbers::pi * (std::asin(std::sqrt(w)) - std::asin(std::sqrt(0.75)));
    return std::clamp(p, 0.0, 1.0);
  }
  const double y = std::log1p(-w);  // log(1 − W); −inf when W = 1
  if (n <= 11) {
    const double gamma = polynomial(small_gamma, count);
    // Beyond the transform's support W is smaller than any it was fitted to: p ≈ 0.
    if (y >= gamma) return 0.0;
    const double z = -std::log(gamma - y);
    return boost::math::cdf(boost::math::complement(
        standard, (z - polynomial(small_mean, count)) / std::exp(polynomial(small_log_sd, count))));
  }
  const double log_n = std::log(count);
  const double z = (y - polynomial(large_mean, log_n)) / std::exp(polynomial(large_log_sd, log_n));
  if (std::isinf(z)) return z < 0 ? 1.0 : 0.0;
  return boost::math::cdf(boost::math::complement(standard, z));
}

}  // namespace

HypothesisTestResult shapiro_wilk(std::span<const double> sample) {
  detail::require_finite(sample, "shapiro_wilk");
  HypothesisTestResult result;
  const std::size_t n = sample.size();
  if (n < 3) {
    result.status = HypothesisTestStatus::too_few;
    return result;
  }
  std::vector<double> x(sample.begin(), sample.end());
  std::sort(x.begin(), x.end());
  const double range = x.back() - x.front();
  if (!(range > 0.0)) {
    result.status = HypothesisTestStatus::zero_variance;
    return result;
  }
  // W is scale-free; working on (x − x₁)/range keeps the squares well conditioned.
  const double lowest = x.front();
  for (double& value : x) value = (value - lowest) / range;

  const std::vector<double> a = coefficients(n);
  double linear = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) linear += a[i] * (x[n - 1 - i] - x[i]);
  double centre = 0.0;
  for (const double value : x) centre += value;
  centre /= static_cast<double>(n);
  double squares = 0.0;
  for (const double value : x) squares += (value - centre) * (value - centre);

  const double w = std::min(linear * linear / squares, 1.0);
  result.statistic = w;
  result.p_value = p_value(w, n);
  result.exact = n == 3;
  if (n > 5000) result.status = HypothesisTestStatus::beyond_validated_range;
  return result;
}

}  // namespace dlfl::eval
