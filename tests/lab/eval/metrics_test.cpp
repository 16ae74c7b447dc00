// Tests for metrics.h and scored_element.h: hand-worked rankings with ties (arithmetic in
// the comments), E_inspect against Zou et al.'s sum, the "average" reading against brute
// force over all tie orders, absent faults, and line/function/file levels.
#include "dlfl/lab/eval/metrics.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "dlfl/error.h"
#include "dlfl/lab/eval/scored_element.h"
#include "dlfl/spectrum.h"

namespace dlfl::eval {
namespace {

constexpr double unscored = std::numeric_limits<double>::quiet_NaN();
const std::vector<std::uint64_t> top_1_2_3{1, 2, 3};

// Ten elements: e0 | e1 e2 e3 | e4 e5 | e6 | e7 e8 e9 (unscored)
// positions:    1  | 2  3  4  | 5  6  | 7  | 8  9  10
const std::vector<double> ten_scores{0.9, 0.8, 0.8,      0.8,      0.5,
                                     0.5, 0.3, unscored, unscored, unscored};

BugMetrics metrics_of(const std::vector<double>& scores, const std::vector<std::size_t>& faulty,
                      const std::vector<std::uint64_t>& top_n = top_1_2_3) {
  return compute_metrics(tie_profile(scores, faulty), top_n);
}

TEST(TieProfile, GroupsEqualScoresAndUnscoredLast) {
  const TieProfile profile = tie_profile(ten_scores, std::vector<std::size_t>{2, 8, 2});
  ASSERT_EQ(profile.scored.size(), 4u);
  EXPECT_EQ(profile.scored[0].size, 1u);
  EXPECT_EQ(profile.scored[1].size, 3u);
  EXPECT_EQ(profile.scored[1].faulty, 1u);  // the duplicate index counts once
  EXPECT_EQ(profile.scored[2].size, 2u);
  EXPECT_EQ(profile.unscored.size, 3u);
  EXPECT_EQ(profile.unscored.faulty, 1u);
  EXPECT_EQ(profile.elements(), 10u);
  EXPECT_EQ(profile.faulty_elements(), 2u);
  EXPECT_THROW(tie_profile(ten_scores, std::vector<std::size_t>{10}), Error);
}

TEST(Metrics, OneFaultInATieOfThree) {
  // Fault e2, in the tie at positions 2..4 (p = 2, t = 3, t_f = 1).
  const BugMetrics m = metrics_of(ten_scores, {2});
  EXPECT_TRUE(m.found);
  EXPECT_EQ(m.first_position.best, 2.0);
  EXPECT_EQ(m.first_position.worst, 4.0);
  EXPECT_EQ(m.first_position.average, 3.0);  // the tie's middle
  EXPECT_DOUBLE_EQ(m.exam.best, 0.2);        // 2 / 10
  EXPECT_DOUBLE_EQ(m.exam.worst, 0.4);
  EXPECT_DOUBLE_EQ(m.exam.average, 0.3);
  EXPECT_DOUBLE_EQ(m.e_inspect, 3.0);      // 2 + (3 − 1)/(1 + 1)
  EXPECT_DOUBLE_EQ(m.wasted_effort, 2.0);  // e0 ahead + 1 expected inside the tie
  // E[1/position] = (1/2 + 1/3 + 1/4)/3 = 13/36; with one fault AP = RR.
  EXPECT_DOUBLE_EQ(m.reciprocal_rank.best, 0.5);
  EXPECT_DOUBLE_EQ(m.reciprocal_rank.worst, 0.25);
  EXPECT_DOUBLE_EQ(m.reciprocal_rank.average, 13.0 / 36.0);
  EXPECT_DOUBLE_EQ(m.average_precision.best, 0.5);
  EXPECT_DOUBLE_EQ(m.average_precision.worst, 0.25);
  EXPECT_DOUBLE_EQ(m.average_precision.average, 13.0 / 36.0);
  // Top-2: the fault is at 2 only in the best order; P = 1/3 (one of the tie's 3 places).
  // Top-3: P = 2/3.
  ASSERT_EQ(m.top_n.size(), 3u);
  EXPECT_EQ(m.top_n[0].hit.best, 0.0);
  EXPECT_EQ(m.top_n[0].hit.average, 0.0);
  EXPECT_EQ(m.top_n[1].n, 2u);
  EXPECT_EQ(m.top_n[1].hit.best, 1.0);
  EXPECT_EQ(m.top_n[1].hit.worst, 0.0);
  EXPECT_DOUBLE_EQ(m.top_n[1].hit.average, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(m.top_n[2].hit.average, 2.0 / 3.0);
}

TEST(Metrics, TwoFaultsInOneTieAndOneLater) {
  // Faults e1, e3 (tie 2..4: t = 3, t_f = 2) and e5 (tie 5..6: t = 2, t_f = 1); R = 3.
  const BugMetrics m = metrics_of(ten_scores, {1, 3, 5});
  EXPECT_EQ(m.faulty_elements, 3u);
  // First fault: best 2; worst 2 + 3 − 2 = 3 (only one non-faulty can precede it);
  // E_inspect = 2 + (3 − 2)/(2 + 1) = 7/3.
  EXPECT_EQ(m.first_position.best, 2.0);
  EXPECT_EQ(m.first_position.worst, 3.0);
  EXPECT_DOUBLE_EQ(m.first_position.average, 7.0 / 3.0);
  EXPECT_DOUBLE_EQ(m.e_inspect, 7.0 / 3.0);
  EXPECT_DOUBLE_EQ(m.wasted_effort, 4.0 / 3.0);  // FLITSR: 1 ahead + (3 − 2)/(2 + 1)
  // RR: first fault at tie place 1 w.p. 2/3, place 2 w.p. 1/3:
  // 2/3 · 1/2 + 1/3 · 1/3 = 4/9.
  EXPECT_DOUBLE_EQ(m.reciprocal_rank.best, 0.5);
  EXPECT_DOUBLE_EQ(m.reciprocal_rank.worst, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(m.reciprocal_rank.average, 4.0 / 9.0);
  // AP best: faults at 2, 3, 5: (1/2 + 2/3 + 3/5)/3 = (53/30)/3 = 53/90.
  // AP worst: faults at 3, 4, 6: (1/3 + 2/4 + 3/6)/3 = (4/3)/3 = 4/9.
  // AP average: the tie 2..4 has 3 equally likely layouts (F F N, F N F, N F F) with
  // precision sums 1/2 + 2/3, 1/2 + 2/4, 1/3 + 2/4 → mean 1; the tie 5..6 gives
  // (3/5 + 3/6)/2 = 11/20. (1 + 11/20)/3 = 31/60.
  EXPECT_DOUBLE_EQ(m.average_precision.best, 53.0 / 90.0);
  EXPECT_DOUBLE_EQ(m.average_precision.worst, 4.0 / 9.0);
  EXPECT_DOUBLE_EQ(m.average_precision.average, 31.0 / 60.0);
  // Top-2: best yes, worst no, P = 1 − C(2, 2)/C(3, 2) = 2/3; Top-3: always.
  EXPECT_EQ(m.top_n[1].hit.best, 1.0);
  EXPECT_EQ(m.top_n[1].hit.worst, 0.0);
  EXPECT_DOUBLE_EQ(m.top_n[1].hit.average, 2.0 / 3.0);
  EXPECT_EQ(m.top_n[2].hit.worst, 1.0);
  EXPECT_EQ(m.top_n[2].hit.average, 1.0);
}

TEST(Metrics, FaultInTheUnscoredLastTie) {
  // Fault e8: the unscored tie 8..10 (t = 3).
  const BugMetrics m = metrics_of(ten_scores, {8});
  EXPECT_EQ(m.first_position.best, 8.0);
  EXPECT_EQ(m.first_position.worst, 10.0);
  EXPECT_DOUBLE_EQ(m.e_inspect, 9.0);      // 8 + 2/2
  EXPECT_DOUBLE_EQ(m.wasted_effort, 8.0);  // 7 ahead + 1
  EXPECT_DOUBLE_EQ(m.exam.worst, 1.0);
  EXPECT_DOUBLE_EQ(m.reciprocal_rank.average, (1.0 / 8 + 1.0 / 9 + 1.0 / 10) / 3);
}

// Zou et al. (TSE 2021), literally: E = p + Σ_{k=1}^{t−t_f} k·C(t−k−1, t_f−1)/C(t, t_f).
double zou_e_inspect(double start, int t, int faulty) {
  const auto choose = [](int n, int k) {
    if (k < 0 || k > n) return 0.0;
    double c = 1.0;
    for (int i = 1; i <= k; ++i) c = c * (n - k + i) / i;
    return c;
  };
  double sum = 0.0;
  for (int k = 1; k <= t - faulty; ++k)
    sum += k * choose(t - k - 1, faulty - 1) / choose(t, faulty);
  return start + sum;
}

TEST(Metrics, EInspectEqualsZouEtAlsSum) {
  for (int t = 1; t <= 12; ++t) {
    for (int faulty = 1; faulty <= t; ++faulty) {
      // Four elements ahead, then the tie.
      std::vector<double> scores{5, 4, 3, 2};
      std::vector<std::size_t> faulty_ids;
      for (int i = 0; i < t; ++i) {
        if (i < faulty) faulty_ids.push_back(scores.size());
        scores.push_back(1.0);
      }
      const BugMetrics m = metrics_of(scores, faulty_ids);
      EXPECT_NEAR(m.e_inspect, zou_e_inspect(5, t, faulty), 1e-12)
          << "t=" << t << " t_f=" << faulty;
      EXPECT_NEAR(m.wasted_effort, m.e_inspect - 1, 1e-12);
    }
  }
}

// The "average" reading is an expectation over tie orders: enumerate every layout of
// faulty places inside every tie (all equally likely) and average AP, RR, Top-N.
TEST(Metrics, AverageReadingIsTheMeanOverAllTieOrders) {
  const std::vector<Tie> ties{{2, 0}, {4, 2}, {1, 0}, {3, 1}, {5, 2}};
  std::vector<std::vector<bool>> layouts(ties.size());
  double ap_sum = 0, rr_sum = 0, top3_sum = 0, first_sum = 0, count = 0;
  std::function<void(std::size_t)> visit = [&](std::size_t tie) {
    if (tie == ties.size()) {
      double position = 0, found = 0, precision = 0, first = 0;
      for (const auto& layout : layouts) {
        for (const bool faulty : layout) {
          ++position;
          if (!faulty) continue;
          ++found;
          precision += found / position;
          if (first == 0) first = position;
        }
      }
      ap_sum += precision / found;
      rr_sum += 1 / first;
      first_sum += first;
      top3_sum += first <= 3 ? 1 : 0;
      ++count;
      return;
    }
    const Tie& t = ties[tie];
    for (std::uint32_t mask = 0; mask < (1u << t.size); ++mask) {
      if (static_cast<std::uint64_t>(std::popcount(mask)) != t.faulty) continue;
      layouts[tie].clear();
      for (std::uint64_t i = 0; i < t.size; ++i) layouts[tie].push_back((mask >> i) & 1);
      visit(tie + 1);
    }
  };
  visit(0);

  TieProfile profile;
  profile.scored = ties;
  const BugMetrics m = compute_metrics(profile, std::vector<std::uint64_t>{3});
  EXPECT_NEAR(m.average_precision.average, ap_sum / count, 1e-12);
  EXPECT_NEAR(m.reciprocal_rank.average, rr_sum / count, 1e-12);
  EXPECT_NEAR(m.first_position.average, first_sum / count, 1e-12);
  EXPECT_NEAR(m.top_n[0].hit.average, top3_sum / count, 1e-12);
}

TEST(Metrics, NoFaultAtAllIsAnError) {
  EXPECT_THROW(metrics_of(ten_scores, {}), Error);
  EXPECT_THROW(evaluate(std::vector<ScoredElement>{}, std::vector<GroundTruthItem>{}), Error);
}

ScoredElement element(std::string file, std::string function, std::uint32_t line, double score) {
  ScoredElement e;
  e.key = file + ":" + std::to_string(line);
  e.file = std::move(file);
  e.function = std::move(function);
  e.first_line = line;
  e.score = score;
  return e;
}

// a:1 (0.9) | a:2 b:1 (0.5) | b:2 (unscored): positions 1 | 2 3 | 4.
const std::vector<ScoredElement> four{
    element("/w/a.cpp", "f", 1, 0.9), element("/w/a.cpp", "f", 2, 0.5),
    element("/w/b.cpp", "g", 1, 0.5), element("/w/b.cpp", "g", 2, unscored)};

TEST(Evaluate, FaultAbsentFromTheRankingWithoutProgramSize) {
  const std::vector<GroundTruthItem> absent{{"c.cpp", 7, ""}};
  const BugMetrics m = evaluate(four, absent);
  EXPECT_FALSE(m.found);
  EXPECT_EQ(m.missing_faulty, 1u);
  EXPECT_TRUE(std::isnan(m.first_position.best));
  EXPECT_TRUE(std::isnan(m.exam.average));
  EXPECT_TRUE(std::isnan(m.e_inspect));
  EXPECT_EQ(m.average_precision.best, 0.0);
  EXPECT_EQ(m.reciprocal_rank.best, 0.0);
  EXPECT_EQ(m.top_n.back().hit.best, 0.0);

  // One found (a:2 in the tie 2..3), one missing: R = 2, so AP halves.
  const std::vector<GroundTruthItem> mixed{{"c.cpp", 7, ""}, {"a.cpp", 2, ""}};
  const BugMetrics half = evaluate(four, mixed);
  EXPECT_TRUE(half.found);
  EXPECT_EQ(half.first_position.best, 2.0);
  EXPECT_EQ(half.first_position.worst, 3.0);
  EXPECT_DOUBLE_EQ(half.e_inspect, 2.5);
  EXPECT_DOUBLE_EQ(half.average_precision.best, 0.25);        // (1/2)/2
  EXPECT_DOUBLE_EQ(half.average_precision.worst, 1.0 / 6.0);  // (1/3)/2
  EXPECT_DOUBLE_EQ(half.reciprocal_rank.best, 0.5);
}

TEST(Evaluate, FaultAbsentFromTheRankingJoinsTheLastTieWhenProgramSizeKnown) {
  // Six elements in the program, four listed: two absent ones join b:2 in the last tie
  // 4..6 (t = 3, t_f = 1): best 4, worst 6, E_inspect = 4 + 2/2 = 5.
  const std::vector<GroundTruthItem> absent{{"c.cpp", 7, ""}};
  EvaluationOptions options;
  options.total_elements = 6;
  const BugMetrics m = evaluate(four, absent, options);
  EXPECT_TRUE(m.found);
  EXPECT_EQ(m.elements, 6u);
  EXPECT_EQ(m.first_position.best, 4.0);
  EXPECT_EQ(m.first_position.worst, 6.0);
  EXPECT_DOUBLE_EQ(m.e_inspect, 5.0);
  EXPECT_DOUBLE_EQ(m.exam.average, 5.0 / 6.0);

  // Three absent faults but only two absent elements: they share, two faulty at most.
  const std::vector<GroundTruthItem> three{{"c.cpp", 7, ""}, {"c.cpp", 8, ""}, {"d.cpp", 1, ""}};
  EXPECT_EQ(evaluate(four, three, options).faulty_elements, 2u);

  // No absent element: the fault has nowhere to be, so it is missing.
  options.total_elements = 4;
  EXPECT_FALSE(evaluate(four, absent, options).found);
  options.total_elements = 3;
  EXPECT_THROW(evaluate(four, absent, options), Error);
}

TEST(Evaluate, MultipleFaultsMatchingOneTie) {
  // A file fault on b.cpp marks b:1 (tie 2..3) and b:2 (unscored, 4); a line fault on
  // a.cpp:2 marks the other member of tie 2..3: both places of that tie are faulty.
  const std::vector<GroundTruthItem> faults{{"b.cpp", 0, ""}, {"a.cpp", 2, ""}};
  const BugMetrics m = evaluate(four, faults);
  EXPECT_EQ(m.faulty_elements, 3u);
  EXPECT_EQ(m.first_position.worst, 2.0);  // 2 + 2 − 2
  EXPECT_DOUBLE_EQ(m.e_inspect, 2.0);
  // AP: faults at 2, 3, 4 in every order: (1/2 + 2/3 + 3/4)/3 = 23/36.
  EXPECT_DOUBLE_EQ(m.average_precision.best, 23.0 / 36.0);
  EXPECT_DOUBLE_EQ(m.average_precision.average, 23.0 / 36.0);
}

// One line ranking, three levels. Lines (score):
//   /home/u/proj/src/a.cpp  f: 10 (0.9), 11 (0.4), 12 (0.4)   g: 20 (0.7), 21 (0.7)
//   /home/u/proj/src/b.cpp  h: 5 (0.8), 6 (unscored)          k: 30 (unscored)
//   device=cuda (extrinsic, 0.95)
std::vector<ScoredElement> line_ranking() {
  ScoredElement cuda;
  cuda.key = "device=cuda";
  cuda.score = 0.95;
  const std::string a = "/home/u/proj/src/a.cpp", b = "/home/u/proj/src/b.cpp";
  return {element(a, "f", 10, 0.9),     element(a, "f", 11, 0.4),      element(a, "f", 12, 0.4),
          element(a, "g", 20, 0.7),     element(a, "g", 21, 0.7),      element(b, "h", 5, 0.8),
          element(b, "h", 6, unscored), element(b, "k", 30, unscored), cuda};
}

TEST(Levels, LiftGroupsByFunctionAndFile) {
  const std::vector<ScoredElement> functions = lift(line_ranking(), Granularity::function);
  ASSERT_EQ(functions.size(), 5u);  // f, g, h, k, device=cuda
  EXPECT_EQ(functions[0].key, "home/u/proj/src/a.cpp#f");
  EXPECT_EQ(functions[0].score, 0.9);  // max of 0.9, 0.4, 0.4
  EXPECT_EQ(functions[0].first_line, 10u);
  EXPECT_EQ(functions[0].last_line, 12u);
  EXPECT_EQ(functions[2].score, 0.8);  // h: the unscored line 6 is ignored
  EXPECT_EQ(functions[2].last_line, 6u);
  EXPECT_TRUE(std::isnan(functions[3].score));  // k: only unscored lines
  EXPECT_EQ(functions[4].key, "device=cuda");

  const std::vector<ScoredElement> files = lift(line_ranking(), Granularity::file);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_TRUE(files[0].is_whole_file());
  EXPECT_EQ(files[0].score, 0.9);
  EXPECT_EQ(files[1].score, 0.8);
  EXPECT_EQ(lift(line_ranking(), Granularity::line).size(), 9u);
}

TEST(Levels, OneLineRankingEvaluatedAtThreeLevels) {
  const std::vector<GroundTruthItem> faults{{"src/a.cpp", 11, ""}};
  // Line: cuda 1 | a:10 2 | b:5 3 | a:20 a:21 4..5 | a:11 a:12 6..7 | b:6 b:30 8..9.
  const BugMetrics line = evaluate_at(line_ranking(), faults, Granularity::line);
  EXPECT_EQ(line.first_position.best, 6.0);
  EXPECT_EQ(line.first_position.worst, 7.0);
  EXPECT_DOUBLE_EQ(line.exam.average, 6.5 / 9.0);
  // Function: cuda 1 | f (0.9, lines 10..12 hold 11) 2 | h 3 | g 4 | k 5.
  const BugMetrics function = evaluate_at(line_ranking(), faults, Granularity::function);
  EXPECT_EQ(function.elements, 5u);
  EXPECT_EQ(function.first_position.worst, 2.0);
  // File: cuda 1 | a.cpp 2 | b.cpp 3.
  const BugMetrics file = evaluate_at(line_ranking(), faults, Granularity::file);
  EXPECT_EQ(file.elements, 3u);
  EXPECT_EQ(file.first_position.worst, 2.0);
  EXPECT_DOUBLE_EQ(file.reciprocal_rank.worst, 0.5);
}

TEST(Levels, FunctionFaultsAndLinesThatNameTheirFunction) {
  // `src/b.cpp:h(int)` marks both lines of h: b:5 (3) and b:6 (unscored 8..9).
  const std::vector<GroundTruthItem> function_fault{{"src/b.cpp", 0, "h(int)"}};
  const BugMetrics line = evaluate_at(line_ranking(), function_fault, Granularity::line);
  EXPECT_EQ(line.faulty_elements, 2u);
  EXPECT_EQ(line.first_position.worst, 3.0);
  // A deleted line 99 of f (not in the ranking): missing at line level, f at function level.
  const std::vector<GroundTruthItem> deleted_line{{"src/a.cpp", 99, "f"}};
  EXPECT_FALSE(evaluate_at(line_ranking(), deleted_line, Granularity::line).found);
  EXPECT_EQ(evaluate_at(line_ranking(), deleted_line, Granularity::function).first_position.worst,
            2.0);
  EXPECT_EQ(evaluate_at(line_ranking(), deleted_line, Granularity::file).first_position.worst, 2.0);
}

TEST(Levels, ALineWhoseFunctionNameMatchesNothingTakesTheFunctionItIsRankedIn) {
  // Denchmark's `ns::execute` for llvm-cov's `ns::Impl<T>::execute`: the name misses a
  // component, so no function matches it; line 20 is g's, so g (0.7, 4th) is faulty.
  const std::vector<GroundTruthItem> misnamed{{"src/a.cpp", 20, "ns::execute"}};
  const BugMetrics function = evaluate_at(line_ranking(), misnamed, Granularity::function);
  EXPECT_EQ(function.faulty_elements, 1u);
  EXPECT_EQ(function.first_position.worst, 4.0);
  // A name that matches keeps its function, though the line is another's (f, 2nd); and a
  // line no element holds keeps its name, which then matches nothing.
  const std::vector<GroundTruthItem> named_f{{"src/a.cpp", 20, "f"}};
  EXPECT_EQ(evaluate_at(line_ranking(), named_f, Granularity::function).first_position.worst, 2.0);
  const std::vector<GroundTruthItem> unheld{{"src/a.cpp", 99, "ns::execute"}};
  EXPECT_FALSE(evaluate_at(line_ranking(), unheld, Granularity::function).found);
  // Line level is untouched by the name.
  EXPECT_EQ(evaluate_at(line_ranking(), misnamed, Granularity::line).first_position.best, 4.0);
}

TEST(Summary, MeansOverBugs) {
  const BugMetrics one_fault = metrics_of(ten_scores, {2});  // AP = RR: 1/2, 1/4, 13/36
  const BugMetrics last_tie = metrics_of(ten_scores, {8});   // EXAM worst 1.0
  const std::vector<GroundTruthItem> absent{{"c.cpp", 7, ""}};
  const BugMetrics not_found = evaluate(four, absent, {.top_n = top_1_2_3, .total_elements = {}});
  const std::vector<BugMetrics> bugs{one_fault, last_tie, not_found};
  const MetricsSummary s = summarize(bugs);
  EXPECT_EQ(s.bugs, 3u);
  EXPECT_EQ(s.found, 2u);
  // MAP and MRR over all three bugs (the unfound one adds 0).
  EXPECT_DOUBLE_EQ(s.mean_average_precision.best, (0.5 + 1.0 / 8) / 3);
  EXPECT_DOUBLE_EQ(s.mean_reciprocal_rank.worst, (0.25 + 1.0 / 10) / 3);
  // Positions over the two found bugs: E_inspect (3 + 9)/2, EXAM worst (0.4 + 1.0)/2.
  EXPECT_DOUBLE_EQ(s.mean_e_inspect, 6.0);
  EXPECT_DOUBLE_EQ(s.mean_wasted_effort, 5.0);
  EXPECT_DOUBLE_EQ(s.mean_exam.worst, 0.7);
  EXPECT_DOUBLE_EQ(s.mean_first_position.best, 5.0);
  // Top-3 share: best: bug 1 only → 1/3; average: (2/3 + 0 + 0)/3.
  ASSERT_EQ(s.top_n.size(), 3u);
  EXPECT_DOUBLE_EQ(s.top_n[2].share.best, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(s.top_n[2].share.average, 2.0 / 9.0);

  EXPECT_EQ(summarize(std::vector<BugMetrics>{}).bugs, 0u);
  EXPECT_TRUE(std::isnan(summarize(std::vector<BugMetrics>{}).mean_average_precision.best));
  const std::vector<BugMetrics> mixed{one_fault, metrics_of(ten_scores, {2}, {1, 5})};
  EXPECT_THROW(summarize(mixed), Error);
}

TEST(ScoredElements, FromASpectrumWithUncoveredElementsUnscored) {
  SpectrumBuilder builder;
  const auto covered = builder.add_element("src/a.cpp", 3, 3, "f");
  const auto uncovered = builder.add_element("src/a.cpp", 9, 9, "f");
  const auto device = builder.add_extrinsic("device=cuda");
  builder.add_test(TestCase::fail("t"), {covered, device});
  const Spectrum spectrum = std::move(builder).finish();
  Eigen::ArrayXd scores(3);
  scores << 0.7, 0.0, 0.2;

  const std::vector<ScoredElement> ranking = scored_elements(spectrum, scores);
  ASSERT_EQ(ranking.size(), 3u);
  EXPECT_EQ(ranking[covered].file, "src/a.cpp");
  EXPECT_EQ(ranking[covered].function, "f");
  EXPECT_EQ(ranking[covered].first_line, 3u);
  EXPECT_EQ(ranking[covered].score, 0.7);
  EXPECT_TRUE(std::isnan(ranking[uncovered].score));  // never executed
  EXPECT_FALSE(ranking[uncovered].executed);
  EXPECT_TRUE(ranking[covered].executed);
  EXPECT_TRUE(ranking[device].file.empty());          // extrinsic: matches no fault
  EXPECT_EQ(ranking[device].key, spectrum.element_name(device));
  EXPECT_THROW(scored_elements(spectrum, Eigen::ArrayXd::Zero(2)), Error);
}


// Metric conventions (metrics.h ExamBase, TopNRule).
ScoredElement line_element(std::uint32_t line, double score, bool executed) {
  ScoredElement e;
  e.key = "m.cpp:" + std::to_string(line);
  e.file = "m.cpp";
  e.first_line = line;
  e.score = score;
  e.executed = executed;
  return e;
}

// Five lines as a ranking file gives them (every one scored): m:1 0.9 | m:2 0.5 |
// m:3 m:4 m:5 at 0, of which m:4 and m:5 no test executed.
const std::vector<ScoredElement> five{line_element(1, 0.9, true), line_element(2, 0.5, true),
                                      line_element(3, 0.0, true), line_element(4, 0.0, false),
                                      line_element(5, 0.0, false)};

TEST(Conventions, ExamOverInstrumentedExecutableAndExecutedElements) {
  const std::vector<GroundTruthItem> fault{{"m.cpp", 2, ""}};
  EXPECT_DOUBLE_EQ(evaluate(five, fault).exam.average, 2.0 / 5.0);  // instrumented (default)
  EvaluationOptions executed;
  executed.exam_base = ExamBase::executed;
  const BugMetrics m = evaluate(five, fault, executed);
  EXPECT_EQ(m.elements, 3u);
  EXPECT_DOUBLE_EQ(m.exam.average, 2.0 / 3.0);
  EvaluationOptions executable;
  executable.exam_base = ExamBase::executable;
  EXPECT_THROW(evaluate(five, fault, executable), Error);  // needs the program's size
  executable.total_elements = 20;
  EXPECT_DOUBLE_EQ(evaluate(five, fault, executable).exam.average, 2.0 / 20.0);
  executed.total_elements = 20;
  EXPECT_THROW(evaluate(five, fault, executed), Error);

  // Over executed elements, the unexecuted m:4 leaves the ranking: its fault is not
  // found; over instrumented ones it sits in the 3-way tie at 3..5 (E_inspect 4).
  const std::vector<GroundTruthItem> unexecuted{{"m.cpp", 4, ""}};
  executed.total_elements.reset();
  EXPECT_FALSE(evaluate(five, unexecuted, executed).found);
  EXPECT_DOUBLE_EQ(evaluate(five, unexecuted).e_inspect, 4.0);
}

TEST(Conventions, TopNExpectedOrCountedHits) {
  // The fault m:3 ties with m:4 and m:5 at positions 3..5: E_inspect 4.
  const std::vector<GroundTruthItem> fault{{"m.cpp", 3, ""}};
  EvaluationOptions options;
  options.top_n = {3, 4};
  const BugMetrics expected = evaluate(five, fault, options);
  EXPECT_DOUBLE_EQ(expected.top_n[0].hit.average, 1.0 / 3.0);  // P(first of the three)
  EXPECT_DOUBLE_EQ(expected.top_n[1].hit.average, 2.0 / 3.0);
  options.top_n_rule = TopNRule::hits;
  const BugMetrics hits = evaluate(five, fault, options);
  EXPECT_EQ(hits.top_n[0].hit.average, 0.0);  // 4 > 3
  EXPECT_EQ(hits.top_n[1].hit.average, 1.0);  // 4 <= 4
  // best and worst count hits under either rule.
  EXPECT_EQ(hits.top_n[0].hit.best, expected.top_n[0].hit.best);
  EXPECT_EQ(hits.top_n[1].hit.worst, expected.top_n[1].hit.worst);
}

}  // namespace
}  // namespace dlfl::eval
