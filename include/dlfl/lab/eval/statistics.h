// Statistics for comparing per-bug metric distributions: descriptive values, normality
// (Shapiro-Wilk), two-sample and paired tests, and effect sizes.
//
// Conventions for every function here:
// - samples are spans of doubles, not owned, any order;
// - a NaN or infinite value is bad input: dlfl::Error;
// - a sample too small, or too uniform, for a statistic is not an error: the result says
//   so (NaN for plain numbers, HypothesisTestResult::status for tests), so that one degenerate
//   group does not stop a batch comparison;
// - p-values are two-sided and come from Boost.Math distributions; the values match
//   scipy 1.10 to about 1e-12, Shapiro-Wilk to scipy's single precision (about 1e-6)
//   (tests/lab/eval/reference/make_statistics_reference.py).
#pragma once

#include <limits>
#include <span>

namespace dlfl::eval {

// NaN for an empty sample.
double mean(std::span<const double> sample);
double median(std::span<const double> sample);
// With the n − 1 denominator; NaN when n < 2.
double sample_variance(std::span<const double> sample);
double standard_deviation(std::span<const double> sample);

enum class HypothesisTestStatus {
  ok,
  too_few,        // not enough observations: statistic and p-value are NaN
  zero_variance,  // no spread to test against: see each test for what it reports
  // Shapiro-Wilk with n > 5000: computed, but beyond the range Royston (1995) validated
  beyond_validated_range,
};

struct HypothesisTestResult {
  double statistic = std::numeric_limits<double>::quiet_NaN();
  double p_value = std::numeric_limits<double>::quiet_NaN();             // two-sided
  double degrees_of_freedom = std::numeric_limits<double>::quiet_NaN();  // t-tests only
  bool exact = false;  // p from the exact null distribution, not an approximation
  HypothesisTestStatus status = HypothesisTestStatus::ok;
};

// How rank tests compute p. automatic follows scipy's default choice (see each test).
enum class PValueMethod { automatic, exact, asymptotic };

// Shapiro-Wilk W and its p-value by Royston's algorithm AS R94 (Royston, "Remark AS R94",
// Applied Statistics 44(4), 1995): coefficients from normal scores with polynomial
// corrections, p from a normalizing transformation of W (exact for n = 3). Valid for
// 3 <= n <= 5000. n < 3: too_few. All values equal: zero_variance, NaN W and p.
// n > 5000: computed, status beyond_validated_range.
HypothesisTestResult shapiro_wilk(std::span<const double> sample);

// Student's two-sample t-test with pooled variance; statistic t (positive when mean(x) >
// mean(y)), df = n_x + n_y − 2. Welch's version does not assume equal variances:
// Welch-Satterthwaite df. Each group needs n >= 2 (else too_few). When both groups are
// constant: zero_variance with t = ±inf and p = 0 if their values differ (as scipy),
// t and p NaN if they are equal.
HypothesisTestResult student_t_test(std::span<const double> x, std::span<const double> y);
HypothesisTestResult welch_t_test(std::span<const double> x, std::span<const double> y);

struct MannWhitneyOptions {
  // automatic: exact when either sample has at most 8 values, there are no ties and
  // n_x·n_y <= 20000, else asymptotic (scipy's rule, bounded). exact throws dlfl::Error
  // with ties or n_x·n_y > 20000.
  PValueMethod method = PValueMethod::automatic;
  bool continuity_correction = true;  // asymptotic only
};

// Mann-Whitney U test for independent samples. statistic = U of x (the number of pairs
// with x > y, ties counting 1/2), as scipy reports. Asymptotic p: normal approximation
// with tie-corrected variance (Σ(t³ − t) over tie groups); all values tied gives p = 1.
// Either sample empty: too_few.
HypothesisTestResult mann_whitney_u(std::span<const double> x, std::span<const double> y,
                                    const MannWhitneyOptions& options = {});

struct WilcoxonOptions {
  // automatic: exact when at most 50 pairs, no zero differences and no tied |differences|,
  // else asymptotic. (scipy's automatic choice also goes exact with ties; its exact
  // distribution assumes none, so we do not.) exact throws dlfl::Error with zeros, ties
  // or more than 1000 pairs.
  PValueMethod method = PValueMethod::automatic;
  bool continuity_correction = false;  // asymptotic only; scipy's default is off too
};

// Wilcoxon signed-rank test on pairs (x[i], y[i]). Zero differences are dropped before
// ranking (Wilcoxon's original treatment, scipy's zero_method="wilcox"). statistic =
// min(R+, R−) as scipy reports. Asymptotic p: normal approximation with the tie
// correction Σ(t³ − t)/48 on the variance. No non-zero difference: too_few. Throws
// dlfl::Error when x and y differ in length.
HypothesisTestResult wilcoxon_signed_rank(std::span<const double> x, std::span<const double> y,
                                          const WilcoxonOptions& options = {});

// Cohen's d = (mean(x) − mean(y)) / pooled SD, the pooled SD with n_x + n_y − 2
// degrees of freedom (Cohen 1988). NaN when a sample is empty, n_x + n_y < 3, or the
// pooled SD is 0.
double cohens_d(std::span<const double> x, std::span<const double> y);

// Cliff's delta = (#(x > y) − #(x < y)) / (n_x n_y), in [−1, 1] (Cliff 1993); positive
// when x tends to be larger. NaN when a sample is empty. Cost O((n_x + n_y) log n_y).
double cliffs_delta(std::span<const double> x, std::span<const double> y);

// Vargha-Delaney A12 = P(X > Y) + P(X = Y)/2 = (delta + 1)/2 (Vargha & Delaney 2000).
double vargha_delaney_a12(std::span<const double> x, std::span<const double> y);

enum class EffectMagnitude { negligible, small, medium, large };
// |d| < 0.2, < 0.5, < 0.8 (Cohen 1988). NaN counts as negligible.
EffectMagnitude cohens_d_magnitude(double d) noexcept;
// |delta| < 0.147, < 0.33, < 0.474 (Romano et al. 2006). NaN counts as negligible.
EffectMagnitude cliffs_delta_magnitude(double delta) noexcept;

}  // namespace dlfl::eval
