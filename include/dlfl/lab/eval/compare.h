// Comparison of localization accuracy between groups of bugs (DL vs traditional, one bug
// type against another): per-bug results in, per technique × group summaries and
// statistical tests out (Jahan et al., EMSE 2025, RQ1).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dlfl/lab/eval/statistics.h"

namespace dlfl::eval {

// One technique's result on one bug, as a per-bug result table holds it.
struct BugResult {
  // The bug, unique per (group, technique); it pairs two techniques' results on the same
  // bug (Wilcoxon). Tables with a project column use "project#bug" (Denchmark's ids).
  std::string bug;
  std::string technique;  // e.g. "buglocator", "ochiai"
  std::string group;      // e.g. "dl", "traditional", or a label value such as "GPU"
  // Rank of the first faulty element, 1-based (fractional under an average tie rule);
  // 0 = the faulty element was not retrieved: no hit at any N, RR 0. nullopt: the table
  // has no ranks (BLIA's carry RR and AP only).
  std::optional<double> first_rank;
  std::optional<double> rr;  // reciprocal rank in [0, 1]; nullopt: derived from first_rank
  std::optional<double> ap;  // average precision in [0, 1]
  std::optional<double> n_faulty;  // faulty elements of the bug, when the table says
  std::map<std::string, double, std::less<>> extra;  // other numeric columns (e.g. exam)
};

// The per-bug value a metric reads, or nullopt when the bug has none:
//   "mrr" (alias "rr")   RR, or 1/first_rank (0 for 0) when the table has no RR column;
//   "map" (alias "ap")   AP;
//   "topN" (N >= 1)      the table's own topN column when it has one (`dlfl eval` writes
//                        the probability of a hit under an average tie rule), else 1 when
//                        0 < first_rank <= N and 0 otherwise (a hit within N);
//   "first_rank"         first_rank of a retrieved bug (unretrieved ones have none);
//   any other name       the numeric column of that name (BugResult::extra).
// The summary of a metric over bugs is the mean of these values: MRR, MAP, Top-N share.
std::optional<double> metric_value(const BugResult& result, std::string_view metric);

// "rr" → "mrr", "ap" → "map", anything else unchanged.
std::string canonical_metric(std::string_view metric);

// One metric's per-bug values in one technique × group.
struct MetricSummary {
  std::string metric;
  std::size_t n = 0;  // bugs with a value
  double mean = 0.0;  // NaN when n = 0
  double median = 0.0;
  double sd = 0.0;  // n − 1 denominator; NaN when n < 2
  // Normality of the per-bug values (decides which test to trust; Shapiro-Wilk before t-test or Mann-Whitney).
  HypothesisTestResult shapiro_wilk;
};

struct TopShare {
  unsigned n = 0;
  std::optional<double> share;  // bugs hit within n / bugs with a first rank
};

struct GroupSummary {
  std::string technique;
  std::string group;
  std::size_t n = 0;              // bugs (result rows)
  std::vector<TopShare> top;      // one per ComparisonOptions::top_n
  std::optional<double> mrr;      // mean RR; nullopt when no bug has RR or a rank
  std::optional<double> map;      // mean AP; nullopt when no bug has AP
  std::vector<MetricSummary> metrics;  // one per ComparisonOptions::metrics
};

// Two groups of one technique compared on one metric. Group a is the reference: the
// first group given (or the baseline), e.g. traditional bugs against DL ones.
struct GroupTest {
  std::string technique;
  std::string metric;
  std::string group_a, group_b;
  std::size_t n_a = 0, n_b = 0;
  double mean_a = 0.0, mean_b = 0.0;
  // (mean_a − mean_b) / mean_a × 100, as Jahan et al. report "(traditional − DL) /
  // traditional": positive when group b does worse on a higher-is-better metric. NaN
  // when mean_a is 0.
  double performance_diff = 0.0;
  HypothesisTestResult student;       // pooled-variance t-test
  HypothesisTestResult welch;         // unequal-variance t-test
  HypothesisTestResult mann_whitney;  // U of group a
  double cohens_d = 0.0;              // (mean_a − mean_b) / pooled SD
  double cliffs_delta = 0.0;          // P(a > b) − P(a < b)
  // Shapiro-Wilk p >= alpha in both groups: then the t-tests' assumption holds; else read
  // Mann-Whitney (per-bug RR and AP in this field are rarely normal).
  bool both_normal = false;
};

// Two techniques compared on the same bugs of one group (paired by BugResult::bug).
struct PairedTest {
  std::string group;
  std::string metric;
  std::string technique_a, technique_b;
  std::size_t pairs = 0;          // bugs both techniques have a value for
  std::size_t unpaired = 0;       // bugs only one of them has a value for (left out)
  double mean_a = 0.0, mean_b = 0.0;  // over the pairs
  HypothesisTestResult wilcoxon;  // signed-rank test on (a, b) pairs
};

struct ComparisonOptions {
  // Metrics to summarize and test, in metric_value's names. Canonicalized ("rr" is
  // "mrr"); duplicates are dropped.
  std::vector<std::string> metrics{"mrr", "map"};
  std::vector<unsigned> top_n{1, 5, 10};  // Top-N shares every summary carries
  // Tests compare every pair of groups in order of first appearance (a before b); with a
  // baseline, only the baseline (as a) against each other group.
  std::string baseline;
  double alpha = 0.05;  // Shapiro-Wilk level for GroupTest::both_normal
};

struct Comparison {
  std::vector<std::string> techniques;  // in order of first appearance
  std::vector<std::string> groups;      // in order of first appearance
  std::vector<std::string> metrics;     // canonical names, as tested
  std::vector<unsigned> top_n;
  std::vector<GroupSummary> summaries;  // technique-major; only pairs that have results
  std::vector<GroupTest> tests;         // per technique, metric, group pair
  std::vector<PairedTest> paired;       // per group, metric, technique pair (>= 2 techniques)
};

// Summaries and tests over `results`. Statistics skip degenerate cases as statistics.h
// says (NaN, status). Throws dlfl::Error when a (group, technique, bug) appears twice,
// a value is out of range (RR or AP outside [0, 1], a negative or non-finite rank), a
// metric has no value in any result (e.g. "map" over tables without AP), a top N is 0,
// or the baseline is not a group.
Comparison compare(std::span<const BugResult> results, const ComparisonOptions& options = {});

}  // namespace dlfl::eval
