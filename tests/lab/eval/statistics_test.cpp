// Tests for statistics.h: every test statistic and p-value is pinned to scipy 1.10.1
// (Debian 12's python3-scipy), computed by tests/lab/eval/reference/make_statistics_reference.py,
// whose SAMPLES are the literals below.
#include "dlfl/lab/eval/statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dlfl/error.h"

namespace dlfl::eval {
namespace {

using Sample = std::vector<double>;

const Sample a3{1.0, 2.0, 4.0};
const Sample b3{2.5, 3.0, 7.5};
const Sample n5{2.1, 3.4, 1.9, 5.6, 2.8};
const Sample c8{1.0, 2.0, 2.0, 3.0, 3.0, 3.0, 4.0, 5.0};
const Sample d10{2.0, 3.0, 3.0, 4.0, 5.0, 5.0, 6.0, 7.0, 8.0, 8.0};
const Sample g7{0.12, 0.45, 0.33, 0.91, 0.27, 0.64, 0.08};
const Sample h12{0.5, 0.72, 0.95, 0.41, 0.88, 0.67, 0.99, 0.58, 0.81, 0.36, 0.77, 0.93};
const Sample rr20{1.0, 1.0,  0.5,  0.5, 0.5, 0.25, 0.25, 0.2, 0.1, 0.1,
                  0.1, 0.05, 0.05, 0.0, 0.0, 0.0,  0.0,  1.0, 0.5, 0.2};
const Sample rr16{1.0,  0.5,  0.5, 0.25, 0.2, 0.2, 0.1, 0.05,
                  0.05, 0.05, 0.0, 0.0,  0.0, 0.0, 0.0, 0.0};
const Sample e50{7.683,  15.886, 10.32,  7.906,  12.255, 12.755, 10.14,  13.928, 10.394, 10.518,
                 5.934,  11.779, 10.239, 13.935, 6.459,  10.645, 12.296, 11.796, 10.548, 7.821,
                 11.191, 11.512, 9.933,  7.958,  9.178,  6.279,  5.441,  9.023,  9.338,  10.677,
                 8.604,  7.213,  11.513, 11.359, 12.756, 12.906, 9.411,  8.257,  10.64,  8.124,
                 11.324, 13.322, 12.494, 8.514,  10.195, 10.062, 10.572, 15.097, 11.514, 11.603};
const Sample f50{9.908,  12.811, 10.142, 11.034, 9.237,  10.152, 10.078, 9.897,  9.454, 11.889,
                 10.761, 10.186, 9.055,  11.792, 9.379,  9.889,  9.052,  10.568, 9.303, 9.259,
                 13.584, 11.049, 10.253, 10.292, 10.609, 9.182,  9.637,  14.272, 9.46,  9.257,
                 10.737, 10.081, 11.659, 9.345,  11.747, 9.44,   14.937, 9.232,  9.173, 10.196,
                 11.44,  9.645,  11.289, 9.764,  11.171, 13.758, 9.423,  9.608,  9.544, 9.003};
const Sample p50{8.342,  17.785, 10.039, 8.522,  12.496, 14.096, 10.548, 14.594, 8.774,  10.042,
                 5.413,  10.547, 9.764,  14.929, 5.884,  10.727, 11.872, 13.476, 11.77,  10.27,
                 10.268, 12.113, 9.98,   10.014, 11.229, 5.717,  5.886,  10.39,  8.363,  10.267,
                 11.407, 7.78,   13.188, 10.236, 13.094, 13.561, 8.821,  8.965,  10.305, 8.137,
                 11.447, 13.34,  11.863, 8.73,   10.189, 11.877, 10.24,  13.744, 12.012, 12.44};
const Sample before9{0.61, 0.42, 0.77, 0.35, 0.58, 0.49, 0.83, 0.27, 0.66};
const Sample after9{0.52, 0.47, 0.51, 0.31, 0.29, 0.41, 0.70, 0.30, 0.43};
const Sample before12{1.0, 0.5, 0.5, 0.25, 1.0, 0.2, 0.1, 0.5, 0.0, 1.0, 0.25, 0.5};
const Sample after12{0.5, 0.5, 0.25, 0.25, 0.5, 0.1, 0.2, 0.25, 0.0, 0.5, 0.5, 1.0};

// scipy's double-precision results agree to rounding; 1e-9 leaves room for Boost's and
// scipy's special functions to differ in the last digits.
constexpr double close = 1e-9;

void expect_relative(double actual, double expected, double tolerance) {
  EXPECT_NEAR(actual, expected, tolerance * std::fabs(expected)) << "expected " << expected;
}

// scipy's shapiro runs AS R94 in single precision (W = 0.9642857313156128 is a float), so
// its W and p carry about 6-7 significant digits; ours is the same algorithm in double.
// (Replaying the algorithm with float32 sequential sums in numpy reproduces scipy's W to
// 1e-7 at n = 2000, where the double result differs from scipy's by ~1e-5: the gap is
// scipy's rounding, which grows with n, hence only samples up to n = 50 are pinned.)
void expect_shapiro(const Sample& sample, double w, double p) {
  const HypothesisTestResult result = shapiro_wilk(sample);
  EXPECT_EQ(result.status, HypothesisTestStatus::ok);
  EXPECT_NEAR(result.statistic, w, 2e-6);
  EXPECT_NEAR(result.p_value, p, 1e-5 * std::max(p, 1e-2));
}

TEST(Descriptive, MeanMedianVariance) {
  EXPECT_DOUBLE_EQ(mean(a3), 7.0 / 3.0);
  EXPECT_DOUBLE_EQ(median(a3), 2.0);
  EXPECT_DOUBLE_EQ(median(c8), 3.0);  // 3 and 3 in the middle
  EXPECT_DOUBLE_EQ(median(Sample{4, 1, 3, 2}), 2.5);
  // Σ(x − 7/3)² = 16/9 + 1/9 + 25/9 = 42/9; / (n − 1) = 7/3.
  EXPECT_DOUBLE_EQ(sample_variance(a3), 7.0 / 3.0);
  EXPECT_DOUBLE_EQ(standard_deviation(a3), std::sqrt(7.0 / 3.0));
  EXPECT_TRUE(std::isnan(mean(Sample{})));
  EXPECT_TRUE(std::isnan(median(Sample{})));
  EXPECT_TRUE(std::isnan(sample_variance(Sample{1.0})));
  EXPECT_THROW(mean(Sample{1.0, NAN}), Error);
  EXPECT_THROW(median(Sample{INFINITY}), Error);
}

TEST(ShapiroWilk, MatchesScipy) {
  // scipy 1.10.1: shapiro(a3) -> statistic=0.9642857313156128, pvalue=0.6368856430053711
  expect_shapiro(a3, 0.9642857313156128, 0.6368856430053711);
  // scipy 1.10.1: shapiro(b3) -> statistic=0.8241758346557617, pvalue=0.17362314462661743
  expect_shapiro(b3, 0.8241758346557617, 0.17362314462661743);
  // scipy 1.10.1: shapiro(n5) -> statistic=0.8686352968215942, pvalue=0.2609417736530304
  expect_shapiro(n5, 0.8686352968215942, 0.2609417736530304);
  // scipy 1.10.1: shapiro(c8) -> statistic=0.9581349492073059, pvalue=0.7921582460403442
  expect_shapiro(c8, 0.9581349492073059, 0.7921582460403442);
  // scipy 1.10.1: shapiro(d10) -> statistic=0.9368590712547302, pvalue=0.5186219215393066
  expect_shapiro(d10, 0.9368590712547302, 0.5186219215393066);
  // scipy 1.10.1: shapiro(g7) -> statistic=0.9376683831214905, pvalue=0.6178165674209595
  expect_shapiro(g7, 0.9376683831214905, 0.6178165674209595);
  // scipy 1.10.1: shapiro(h12) -> statistic=0.9415907263755798, pvalue=0.5189512372016907
  expect_shapiro(h12, 0.9415907263755798, 0.5189512372016907);
  // scipy 1.10.1: shapiro(rr20) -> statistic=0.8062970638275146, pvalue=0.0010741229634732008
  expect_shapiro(rr20, 0.8062970638275146, 0.0010741229634732008);
  // scipy 1.10.1: shapiro(e50) -> statistic=0.9889199137687683, pvalue=0.9177531003952026
  expect_shapiro(e50, 0.9889199137687683, 0.9177531003952026);
  // scipy 1.10.1: shapiro(f50) -> statistic=0.8319268822669983, pvalue=5.191550371819176e-06
  const HypothesisTestResult skewed = shapiro_wilk(f50);
  EXPECT_NEAR(skewed.statistic, 0.8319268822669983, 2e-6);
  expect_relative(skewed.p_value, 5.191550371819176e-06, 1e-3);
}

TEST(ShapiroWilk, ExactForThreeEquallySpacedValues) {
  // Equally spaced values fit normal scores perfectly: W = 1 and, for n = 3,
  // p = (6/π)(asin 1 − asin √(3/4)) = (6/π)(π/2 − π/3) = 1.
  const HypothesisTestResult result = shapiro_wilk(Sample{1.0, 2.0, 3.0});
  EXPECT_DOUBLE_EQ(result.statistic, 1.0);
  EXPECT_NEAR(result.p_value, 1.0, 1e-12);
  EXPECT_TRUE(result.exact);
}

TEST(ShapiroWilk, DegenerateSamples) {
  EXPECT_EQ(shapiro_wilk(Sample{1.0, 2.0}).status, HypothesisTestStatus::too_few);
  EXPECT_TRUE(std::isnan(shapiro_wilk(Sample{1.0, 2.0}).p_value));
  const HypothesisTestResult constant = shapiro_wilk(Sample{4.0, 4.0, 4.0, 4.0});
  EXPECT_EQ(constant.status, HypothesisTestStatus::zero_variance);
  EXPECT_TRUE(std::isnan(constant.statistic));
  EXPECT_TRUE(std::isnan(constant.p_value));
  EXPECT_THROW(shapiro_wilk(Sample{1.0, NAN, 3.0}), Error);

  Sample large(5001);  // a smooth, symmetric, normal-looking sample
  for (std::size_t i = 0; i < large.size(); ++i) {
    const double x = static_cast<double>(i);
    large[i] = std::sin(0.37 * x) + std::cos(0.11 * x);
  }
  const HypothesisTestResult beyond = shapiro_wilk(large);
  EXPECT_EQ(beyond.status, HypothesisTestStatus::beyond_validated_range);
  EXPECT_GT(beyond.statistic, 0.5);
  EXPECT_LE(beyond.statistic, 1.0);
  EXPECT_GE(beyond.p_value, 0.0);
}

TEST(TTest, StudentMatchesScipy) {
  // scipy 1.10.1: ttest_ind(a3, b3) -> statistic=-1.1000381964338533, pvalue=0.3330688540016026,
  // df=4.0
  HypothesisTestResult r = student_t_test(a3, b3);
  expect_relative(r.statistic, -1.1000381964338533, close);
  expect_relative(r.p_value, 0.3330688540016026, close);
  EXPECT_EQ(r.degrees_of_freedom, 4.0);
  // scipy 1.10.1: ttest_ind(c8, d10) -> statistic=-2.6075863190483566, pvalue=0.019044974264768637,
  // df=16.0
  r = student_t_test(c8, d10);
  expect_relative(r.statistic, -2.6075863190483566, close);
  expect_relative(r.p_value, 0.019044974264768637, close);
  EXPECT_EQ(r.degrees_of_freedom, 16.0);
  // scipy 1.10.1: ttest_ind(g7, h12) -> statistic=-2.6906103300530337, pvalue=0.015475291696071284,
  // df=17.0
  r = student_t_test(g7, h12);
  expect_relative(r.statistic, -2.6906103300530337, close);
  expect_relative(r.p_value, 0.015475291696071284, close);
  // scipy 1.10.1: ttest_ind(e50, f50) -> statistic=-0.1764426760791751, pvalue=0.8603102945074782,
  // df=98.0
  r = student_t_test(e50, f50);
  expect_relative(r.statistic, -0.1764426760791751, close);
  expect_relative(r.p_value, 0.8603102945074782, close);
  EXPECT_EQ(r.degrees_of_freedom, 98.0);
}

TEST(TTest, WelchMatchesScipy) {
  // df: scipy 1.10 does not report it; the script computes Welch-Satterthwaite with numpy.
  // scipy 1.10.1: ttest_ind(a3, b3, equal_var=False) -> statistic=-1.1000381964338533,
  // pvalue=0.34877352355859154, df_numpy=3.124324324324324
  HypothesisTestResult r = welch_t_test(a3, b3);
  expect_relative(r.statistic, -1.1000381964338533, close);
  expect_relative(r.p_value, 0.34877352355859154, close);
  expect_relative(r.degrees_of_freedom, 3.124324324324324, close);
  // scipy 1.10.1: ttest_ind(c8, d10, equal_var=False) -> statistic=-2.7626626709423774,
  // pvalue=0.01461737265335309, df_numpy=14.849066101507676
  r = welch_t_test(c8, d10);
  expect_relative(r.statistic, -2.7626626709423774, close);
  expect_relative(r.p_value, 0.01461737265335309, close);
  expect_relative(r.degrees_of_freedom, 14.849066101507676, close);
  // scipy 1.10.1: ttest_ind(g7, h12, equal_var=False) -> statistic=-2.464539092566129,
  // pvalue=0.034029479772247045, df_numpy=9.730109850173756
  r = welch_t_test(g7, h12);
  expect_relative(r.statistic, -2.464539092566129, close);
  expect_relative(r.p_value, 0.034029479772247045, close);
  expect_relative(r.degrees_of_freedom, 9.730109850173756, close);
  // scipy 1.10.1: ttest_ind(e50, f50, equal_var=False) -> statistic=-0.1764426760791751,
  // pvalue=0.8603846205400415, df_numpy=81.36438200031299
  r = welch_t_test(e50, f50);
  expect_relative(r.statistic, -0.1764426760791751, close);
  expect_relative(r.p_value, 0.8603846205400415, close);
  expect_relative(r.degrees_of_freedom, 81.36438200031299, close);
}

TEST(TTest, DegenerateSamples) {
  EXPECT_EQ(student_t_test(Sample{1.0}, b3).status, HypothesisTestStatus::too_few);
  EXPECT_EQ(welch_t_test(a3, Sample{}).status, HypothesisTestStatus::too_few);
  EXPECT_TRUE(std::isnan(welch_t_test(a3, Sample{}).p_value));
  // Two different constants (scipy: t = -inf, p = 0.0).
  HypothesisTestResult r = student_t_test(Sample{1, 1, 1}, Sample{2, 2, 2});
  EXPECT_EQ(r.status, HypothesisTestStatus::zero_variance);
  EXPECT_EQ(r.statistic, -INFINITY);
  EXPECT_EQ(r.p_value, 0.0);
  r = welch_t_test(Sample{3, 3}, Sample{2, 2, 2});
  EXPECT_EQ(r.statistic, INFINITY);
  EXPECT_EQ(r.p_value, 0.0);
  // The same constant: nothing to test (scipy: nan, nan).
  r = welch_t_test(Sample{1, 1, 1}, Sample{1, 1});
  EXPECT_EQ(r.status, HypothesisTestStatus::zero_variance);
  EXPECT_TRUE(std::isnan(r.statistic));
  EXPECT_TRUE(std::isnan(r.p_value));
  // One constant group is fine for Welch: df = n − 1 of the other.
  r = welch_t_test(Sample{1, 1, 1}, Sample{1, 2, 3});
  EXPECT_EQ(r.status, HypothesisTestStatus::ok);
  EXPECT_DOUBLE_EQ(r.degrees_of_freedom, 2.0);
  EXPECT_THROW(student_t_test(Sample{1, INFINITY}, b3), Error);
}

TEST(MannWhitney, AsymptoticWithTiesMatchesScipy) {
  // scipy 1.10.1: mannwhitneyu(c8, d10) -> statistic=15.5, pvalue=0.03029186444459217
  HypothesisTestResult r = mann_whitney_u(c8, d10);
  EXPECT_EQ(r.statistic, 15.5);
  expect_relative(r.p_value, 0.03029186444459217, close);
  EXPECT_FALSE(r.exact);
  // scipy 1.10.1: mannwhitneyu(rr20, rr16) -> statistic=205.0, pvalue=0.14974601691474157
  r = mann_whitney_u(rr20, rr16);
  EXPECT_EQ(r.statistic, 205.0);
  expect_relative(r.p_value, 0.14974601691474157, close);
  // scipy 1.10.1: mannwhitneyu(rr20, rr16, use_continuity=False) -> statistic=205.0,
  // pvalue=0.14522302624947953
  r = mann_whitney_u(rr20, rr16,
                     {.method = PValueMethod::automatic, .continuity_correction = false});
  expect_relative(r.p_value, 0.14522302624947953, close);
  // scipy 1.10.1: mannwhitneyu(e50, f50) -> statistic=1306.0, pvalue=0.7020111769696078
  r = mann_whitney_u(e50, f50);
  EXPECT_EQ(r.statistic, 1306.0);
  expect_relative(r.p_value, 0.7020111769696078, close);
}

TEST(MannWhitney, ExactForSmallSamplesWithoutTies) {
  // scipy 1.10.1: mannwhitneyu(g7, h12) -> statistic=15.0, pvalue=0.022108438517107247
  HypothesisTestResult r = mann_whitney_u(g7, h12);
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.statistic, 15.0);
  expect_relative(r.p_value, 0.022108438517107247, close);
  // Swapping the samples keeps p and reports the other U: 7 · 12 − 15 = 69.
  r = mann_whitney_u(h12, g7);
  EXPECT_EQ(r.statistic, 69.0);
  expect_relative(r.p_value, 0.022108438517107247, close);
  // scipy 1.10.1: mannwhitneyu(g7, h12, method='asymptotic') -> statistic=15.0,
  // pvalue=0.025113083845991268
  r = mann_whitney_u(g7, h12, {.method = PValueMethod::asymptotic});
  EXPECT_FALSE(r.exact);
  expect_relative(r.p_value, 0.025113083845991268, close);
  // scipy 1.10.1: mannwhitneyu(a3, b3) -> statistic=2.0, pvalue=0.4
  // By hand: U_x = 2 (1 < all, 2 < all, 4 beats 2.5 and 3); C(6, 3) = 20 orderings, of
  // which 4 give U >= 7 = max(U_x, U_y): p = 2 · 4/20 = 0.4.
  r = mann_whitney_u(a3, b3);
  EXPECT_EQ(r.statistic, 2.0);
  expect_relative(r.p_value, 0.4, close);
}

TEST(MannWhitney, DegenerateSamples) {
  EXPECT_EQ(mann_whitney_u(Sample{}, b3).status, HypothesisTestStatus::too_few);
  // All values tied (scipy: statistic=2.0, pvalue=1.0).
  const HypothesisTestResult tied = mann_whitney_u(Sample{1, 1}, Sample{1, 1});
  EXPECT_EQ(tied.statistic, 2.0);
  EXPECT_EQ(tied.p_value, 1.0);
  EXPECT_THROW(mann_whitney_u(c8, d10, {.method = PValueMethod::exact}), Error);
  EXPECT_THROW(mann_whitney_u(Sample{NAN}, b3), Error);
}

TEST(Wilcoxon, ExactForSmallSamplesWithoutTies) {
  // scipy 1.10.1: wilcoxon(before9, after9) -> statistic=4.0, pvalue=0.02734375
  // (= 2 · 7/512: R− = 4 or less happens for 7 of the 2⁹ sign patterns)
  HypothesisTestResult r = wilcoxon_signed_rank(before9, after9);
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.statistic, 4.0);
  expect_relative(r.p_value, 0.02734375, close);
  // scipy 1.10.1: wilcoxon(before9, after9, method='approx') -> statistic=4.0,
  // pvalue=0.028401837044201694
  r = wilcoxon_signed_rank(before9, after9, {.method = PValueMethod::asymptotic});
  EXPECT_FALSE(r.exact);
  expect_relative(r.p_value, 0.028401837044201694, close);
  // scipy 1.10.1: wilcoxon(e50, p50) -> statistic=433.0, pvalue=0.04830953815983641
  r = wilcoxon_signed_rank(e50, p50);
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.statistic, 433.0);
  expect_relative(r.p_value, 0.04830953815983641, close);
  // scipy 1.10.1: wilcoxon(e50, p50, method='approx') -> statistic=433.0,
  // pvalue=0.04837088619775316
  r = wilcoxon_signed_rank(e50, p50, {.method = PValueMethod::asymptotic});
  expect_relative(r.p_value, 0.04837088619775316, close);
}

TEST(Wilcoxon, ZerosDroppedAndTiesCorrected) {
  // Differences: 0.5, 0, 0.25, 0, 0.5, 0.1, −0.1, 0.25, 0, 0.5, −0.25, −0.5 → 9 kept.
  // scipy 1.10.1: wilcoxon(before12, after12) -> statistic=13.0, pvalue=0.2540487292595287
  HypothesisTestResult r = wilcoxon_signed_rank(before12, after12);
  EXPECT_FALSE(r.exact);
  EXPECT_EQ(r.statistic, 13.0);
  expect_relative(r.p_value, 0.2540487292595287, close);
  // scipy 1.10.1: wilcoxon(before12, after12, correction=True) -> statistic=13.0,
  // pvalue=0.27990160412230547
  r = wilcoxon_signed_rank(before12, after12, {.continuity_correction = true});
  expect_relative(r.p_value, 0.27990160412230547, close);
}

TEST(Wilcoxon, DegenerateSamples) {
  EXPECT_EQ(wilcoxon_signed_rank(a3, a3).status,
            HypothesisTestStatus::too_few);  // all differences 0
  EXPECT_TRUE(std::isnan(wilcoxon_signed_rank(a3, a3).p_value));
  EXPECT_THROW(wilcoxon_signed_rank(a3, c8), Error);
  EXPECT_THROW(wilcoxon_signed_rank(before12, after12, {.method = PValueMethod::exact}), Error);
  // One pair: exact p = 1 (R+ = 1 or 0 equally likely).
  EXPECT_EQ(wilcoxon_signed_rank(Sample{2.0}, Sample{1.0}).p_value, 1.0);
}

TEST(EffectSize, MatchesDefinitions) {
  // numpy 1.24.2 (definitions, brute force): c8 vs d10 -> cohens_d=-1.236886794553097,
  // cliffs_delta=-0.6125
  expect_relative(cohens_d(c8, d10), -1.236886794553097, close);
  EXPECT_DOUBLE_EQ(cliffs_delta(c8, d10), -0.6125);
  EXPECT_DOUBLE_EQ(vargha_delaney_a12(c8, d10), (1.0 - 0.6125) / 2.0);
  // numpy 1.24.2 (definitions, brute force): rr20 vs rr16 -> cohens_d=0.42358581411874163,
  // cliffs_delta=0.28125
  expect_relative(cohens_d(rr20, rr16), 0.42358581411874163, close);
  EXPECT_DOUBLE_EQ(cliffs_delta(rr20, rr16), 0.28125);
  // numpy 1.24.2 (definitions, brute force): e50 vs f50 -> cohens_d=-0.035288535215835026,
  // cliffs_delta=0.0448
  expect_relative(cohens_d(e50, f50), -0.035288535215835026, close);
  EXPECT_DOUBLE_EQ(cliffs_delta(e50, f50), 0.0448);
  // numpy 1.24.2 (definitions, brute force): g7 vs h12 -> cohens_d=-1.2796404583188024,
  // cliffs_delta=-0.6428571428571429
  expect_relative(cohens_d(g7, h12), -1.2796404583188024, close);
  EXPECT_DOUBLE_EQ(cliffs_delta(g7, h12), -0.6428571428571429);
  // Cliff's delta and the Mann-Whitney U measure the same dominance: delta = 2U/(mn) − 1.
  EXPECT_DOUBLE_EQ(cliffs_delta(c8, d10), 2.0 * 15.5 / 80.0 - 1.0);
}

TEST(EffectSize, DegenerateSamplesAndMagnitudes) {
  EXPECT_TRUE(std::isnan(cohens_d(Sample{}, a3)));
  EXPECT_TRUE(std::isnan(cohens_d(Sample{1.0}, Sample{2.0})));    // n_x + n_y < 3
  EXPECT_TRUE(std::isnan(cohens_d(Sample{1, 1}, Sample{2, 2})));  // pooled SD 0
  EXPECT_TRUE(std::isnan(cliffs_delta(a3, Sample{})));
  EXPECT_EQ(cliffs_delta(Sample{1, 1}, Sample{2, 2}), -1.0);
  EXPECT_EQ(vargha_delaney_a12(Sample{1, 1}, Sample{1, 1}), 0.5);
  EXPECT_THROW(cliffs_delta(Sample{NAN}, a3), Error);

  EXPECT_EQ(cohens_d_magnitude(0.19), EffectMagnitude::negligible);
  EXPECT_EQ(cohens_d_magnitude(-0.2), EffectMagnitude::small);
  EXPECT_EQ(cohens_d_magnitude(0.5), EffectMagnitude::medium);
  EXPECT_EQ(cohens_d_magnitude(-1.3), EffectMagnitude::large);
  EXPECT_EQ(cohens_d_magnitude(NAN), EffectMagnitude::negligible);
  EXPECT_EQ(cliffs_delta_magnitude(0.146), EffectMagnitude::negligible);
  EXPECT_EQ(cliffs_delta_magnitude(0.147), EffectMagnitude::small);
  EXPECT_EQ(cliffs_delta_magnitude(-0.33), EffectMagnitude::medium);
  EXPECT_EQ(cliffs_delta_magnitude(0.474), EffectMagnitude::large);
}

}  // namespace
}  // namespace dlfl::eval
