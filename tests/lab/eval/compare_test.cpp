// Tests for compare.h: per-bug metric values, summaries, group tests and paired tests on
// hand-made results. Reference p-values and effect sizes from scipy 1.10 (Debian's
// /usr/bin/python3), for the literals below:
//   x = [1, 0.5, 1, 0.25, 0.5]; y = [0.2, 0.5, 0.1, 1, 0, 0.25]
//   stats.ttest_ind(x, y)                       -> p 0.18138695306849123
//   stats.ttest_ind(x, y, equal_var=False)      -> p 0.178651272041041
//   stats.mannwhitneyu(x, y, alternative='two-sided') -> U 23.5, p 0.135851702216604
//   Cohen's d (pooled SD, n-2 df) 0.877148382188653; Cliff's delta 17/30
//   a = [1, 0.5, 0.25, 1, 0.2, 0.1, 0.5]; b = [0.5, 0.5, 1, 0.2, 0.1, 0.05, 0.25]
//   stats.wilcoxon(a, b)                        -> W 5, p 0.24886387493792206
#include "dlfl/lab/eval/compare.h"

#include <gtest/gtest.h>

#include <cmath>

#include "dlfl/error.h"

namespace dlfl::eval {
namespace {

BugResult rr_row(std::string bug, std::string technique, std::string group, double rr) {
  BugResult r;
  r.bug = std::move(bug);
  r.technique = std::move(technique);
  r.group = std::move(group);
  r.rr = rr;
  r.ap = rr;
  return r;
}

BugResult rank_row(std::string bug, double first_rank) {
  BugResult r;
  r.bug = std::move(bug);
  r.technique = "t";
  r.group = "g";
  r.first_rank = first_rank;
  return r;
}

// Options testing `metrics` (designated initializers would leave fields unnamed, which
// -Wextra flags).
ComparisonOptions testing(std::vector<std::string> metrics, std::string baseline = {},
                          std::vector<unsigned> top_n = {1, 5, 10}) {
  ComparisonOptions options;
  options.metrics = std::move(metrics);
  options.baseline = std::move(baseline);
  options.top_n = std::move(top_n);
  return options;
}

TEST(MetricValue, DerivesRrAndTopNFromTheFirstRank) {
  const BugResult third = rank_row("b", 3), missed = rank_row("c", 0);
  EXPECT_DOUBLE_EQ(*metric_value(third, "mrr"), 1.0 / 3);
  EXPECT_DOUBLE_EQ(*metric_value(third, "rr"), 1.0 / 3);
  EXPECT_EQ(*metric_value(third, "top1"), 0.0);
  EXPECT_EQ(*metric_value(third, "top3"), 1.0);
  EXPECT_EQ(*metric_value(third, "first_rank"), 3.0);
  EXPECT_FALSE(metric_value(third, "map"));  // no AP in the row
  // Rank 0: not retrieved, a miss at every N and RR 0, and no first rank to average.
  EXPECT_EQ(*metric_value(missed, "mrr"), 0.0);
  EXPECT_EQ(*metric_value(missed, "top10"), 0.0);
  EXPECT_FALSE(metric_value(missed, "first_rank"));
}

TEST(MetricValue, TableColumnsWin) {
  BugResult r = rank_row("b", 2);
  r.rr = 0.4;  // e.g. an expected RR under an average tie rule, not 1/2
  r.extra["top1"] = 0.25;
  r.extra["exam"] = 0.125;
  EXPECT_EQ(*metric_value(r, "mrr"), 0.4);
  EXPECT_EQ(*metric_value(r, "top1"), 0.25);
  EXPECT_EQ(*metric_value(r, "top5"), 1.0);
  EXPECT_EQ(*metric_value(r, "exam"), 0.125);
  EXPECT_FALSE(metric_value(r, "wasted_effort"));
  EXPECT_EQ(canonical_metric("ap"), "map");
}

TEST(Compare, SummarizesTopNMrrAndMapPerTechniqueAndGroup) {
  // Ranks 1, 2, 6, 0 (not retrieved), 11: Top@1 1/5, Top@5 2/5, Top@10 3/5;
  // MRR (1 + 1/2 + 1/6 + 0 + 1/11) / 5.
  std::vector<BugResult> rows{rank_row("a", 1), rank_row("b", 2), rank_row("c", 6), rank_row("d", 0),
                              rank_row("e", 11)};
  const Comparison c = compare(rows, testing({"mrr"}));
  ASSERT_EQ(c.summaries.size(), 1u);
  const GroupSummary& s = c.summaries[0];
  EXPECT_EQ(s.n, 5u);
  ASSERT_EQ(s.top.size(), 3u);
  EXPECT_EQ(s.top[0].n, 1u);
  EXPECT_DOUBLE_EQ(*s.top[0].share, 0.2);
  EXPECT_DOUBLE_EQ(*s.top[1].share, 0.4);
  EXPECT_DOUBLE_EQ(*s.top[2].share, 0.6);
  EXPECT_DOUBLE_EQ(*s.mrr, (1 + 0.5 + 1.0 / 6 + 0 + 1.0 / 11) / 5);
  EXPECT_FALSE(s.map);  // no AP anywhere
  EXPECT_TRUE(c.tests.empty());
  EXPECT_TRUE(c.paired.empty());
}

TEST(Compare, GroupTestsMatchScipy) {
  const std::vector<double> x{1, 0.5, 1, 0.25, 0.5}, y{0.2, 0.5, 0.1, 1, 0, 0.25};
  std::vector<BugResult> rows;
  for (std::size_t i = 0; i < x.size(); ++i) rows.push_back(rr_row("a" + std::to_string(i), "t", "traditional", x[i]));
  for (std::size_t i = 0; i < y.size(); ++i) rows.push_back(rr_row("b" + std::to_string(i), "t", "dl", y[i]));
  const Comparison c = compare(rows);
  EXPECT_EQ(c.groups, (std::vector<std::string>{"traditional", "dl"}));
  EXPECT_EQ(c.metrics, (std::vector<std::string>{"mrr", "map"}));
  ASSERT_EQ(c.tests.size(), 2u);  // mrr and map, one group pair
  const GroupTest& t = c.tests[0];
  EXPECT_EQ(t.metric, "mrr");
  EXPECT_EQ(t.group_a, "traditional");
  EXPECT_EQ(t.group_b, "dl");
  EXPECT_EQ(t.n_a, 5u);
  EXPECT_EQ(t.n_b, 6u);
  EXPECT_DOUBLE_EQ(t.mean_a, 0.65);
  EXPECT_NEAR(t.mean_b, 0.3416666666666666, 1e-15);
  EXPECT_NEAR(t.performance_diff, 47.435897435897445, 1e-12);  // (0.65 − 0.341 6̅) / 0.65 × 100
  EXPECT_NEAR(t.student.p_value, 0.18138695306849123, 1e-12);
  EXPECT_NEAR(t.welch.p_value, 0.178651272041041, 1e-12);
  EXPECT_EQ(t.mann_whitney.statistic, 23.5);
  EXPECT_NEAR(t.mann_whitney.p_value, 0.135851702216604, 1e-12);
  EXPECT_NEAR(t.cohens_d, 0.877148382188653, 1e-12);
  EXPECT_NEAR(t.cliffs_delta, 17.0 / 30, 1e-15);
  EXPECT_TRUE(t.both_normal);  // Shapiro-Wilk p 0.20 and 0.23
  EXPECT_EQ(c.tests[1].metric, "map");
}

TEST(Compare, PairsTechniquesByBugId) {
  const std::vector<double> a{1, 0.5, 0.25, 1, 0.2, 0.1, 0.5}, b{0.5, 0.5, 1, 0.2, 0.1, 0.05, 0.25};
  std::vector<BugResult> rows;
  for (std::size_t i = 0; i < a.size(); ++i) rows.push_back(rr_row("bug" + std::to_string(i), "t1", "g", a[i]));
  rows.push_back(rr_row("only-t1", "t1", "g", 1));
  // t2 in reverse order, plus a bug t1 lacks: pairing goes by id, not by position.
  for (std::size_t i = b.size(); i-- > 0;) rows.push_back(rr_row("bug" + std::to_string(i), "t2", "g", b[i]));
  rows.push_back(rr_row("only-t2", "t2", "g", 0));
  const Comparison c = compare(rows, testing({"rr"}));
  ASSERT_EQ(c.paired.size(), 1u);
  const PairedTest& p = c.paired[0];
  EXPECT_EQ(p.technique_a, "t1");
  EXPECT_EQ(p.technique_b, "t2");
  EXPECT_EQ(p.metric, "mrr");
  EXPECT_EQ(p.pairs, 7u);
  EXPECT_EQ(p.unpaired, 2u);
  EXPECT_EQ(p.wilcoxon.statistic, 5.0);
  EXPECT_NEAR(p.wilcoxon.p_value, 0.24886387493792206, 1e-12);
}

TEST(Compare, BaselineOrdersEachPair) {
  std::vector<BugResult> rows{rr_row("1", "t", "GPU", 0.5), rr_row("2", "t", "GPU", 0.2),
                              rr_row("3", "t", "API", 1), rr_row("4", "t", "API", 0.5),
                              rr_row("5", "t", "Model", 0.25), rr_row("6", "t", "Model", 1)};
  const Comparison all = compare(rows, testing({"mrr"}));
  EXPECT_EQ(all.tests.size(), 3u);  // GPU-API, GPU-Model, API-Model
  const Comparison base = compare(rows, testing({"mrr"}, "API"));
  ASSERT_EQ(base.tests.size(), 2u);
  EXPECT_EQ(base.tests[0].group_a, "API");
  EXPECT_EQ(base.tests[0].group_b, "GPU");
  EXPECT_EQ(base.tests[1].group_a, "API");
  EXPECT_EQ(base.tests[1].group_b, "Model");
  EXPECT_THROW(compare(rows, testing({"mrr", "map"}, "Tensor")), Error);
}

TEST(Compare, RejectsBadInput) {
  std::vector<BugResult> twice{rr_row("1", "t", "g", 0.5), rr_row("1", "t", "g", 0.2)};
  EXPECT_THROW(compare(twice), Error);
  std::vector<BugResult> out_of_range{rr_row("1", "t", "g", 1.5)};
  EXPECT_THROW(compare(out_of_range), Error);
  std::vector<BugResult> ranks{rank_row("1", 2)};
  EXPECT_THROW(compare(ranks, testing({"map"})), Error);  // no AP anywhere
  EXPECT_THROW(compare(ranks, testing({"mrr"}, {}, {0})), Error);
  std::vector<BugResult> negative{rank_row("1", -1)};
  EXPECT_THROW(compare(negative, testing({"mrr"})), Error);
}

TEST(Compare, DegenerateGroupsGiveNanNotErrors) {
  // One bug per group: no variance, too few for Shapiro-Wilk and the t-tests.
  std::vector<BugResult> rows{rr_row("1", "t", "a", 0.5), rr_row("2", "t", "b", 0.25)};
  const Comparison c = compare(rows, testing({"mrr"}));
  ASSERT_EQ(c.tests.size(), 1u);
  EXPECT_TRUE(std::isnan(c.tests[0].student.p_value));
  EXPECT_EQ(c.tests[0].student.status, HypothesisTestStatus::too_few);
  EXPECT_DOUBLE_EQ(c.tests[0].performance_diff, 50.0);
  EXPECT_FALSE(c.tests[0].both_normal);
  EXPECT_EQ(c.summaries[0].metrics[0].shapiro_wilk.status, HypothesisTestStatus::too_few);
}

}  // namespace
}  // namespace dlfl::eval
