// Accuracy metrics of one ranking against its bug's faults (position of the first fault,
// EXAM, Top-N, E_inspect, wasted effort, AP, RR) and their means over many bugs.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "dlfl/aggregate.h"
#include "dlfl/lab/eval/fault_matching.h"
#include "dlfl/lab/eval/ground_truth.h"
#include "dlfl/lab/eval/scored_element.h"
#include "dlfl/ranking.h"

namespace dlfl::eval {

// Ties: elements with exactly equal scores. Inside a tie the inspection order is unknown,
// so every order-dependent metric comes in three readings (dlfl::TieRule):
// - best:    the tie's faulty elements are inspected first;
// - worst:   they are inspected last;
// - average: the expectation over all orders of the tie, each equally likely (the model
//            behind E_inspect, Zou et al., TSE 2021).
// With one faulty element in a tie these give the tie's first, last and middle position,
// exactly RankedElement's best/worst/average. With l faulty among t they give, for the
// first fault, p, p + t − l and E_inspect: what an engineer reading the tie would face.
template <class T>
struct ByTieRule {
  T best{};
  T worst{};
  T average{};
  const T& operator[](TieRule rule) const noexcept {
    return rule == TieRule::best ? best : rule == TieRule::worst ? worst : average;
  }
};

struct Tie {
  std::uint64_t size = 0;    // elements in the tie
  std::uint64_t faulty = 0;  // faulty ones among them
};

// A ranking reduced to what every metric reads: its ties in rank order.
struct TieProfile {
  std::vector<Tie> scored;  // by descending score; none is empty
  Tie unscored;             // the last tie: unscored elements (size 0 when none)
  // Faulty elements that have no position (absent from the ranking and the program size
  // unknown): they count in AP's denominator and nowhere else.
  std::uint64_t missing_faulty = 0;

  std::uint64_t elements() const noexcept;         // Σ tie sizes
  std::uint64_t faulty_elements() const noexcept;  // Σ faulty, without missing ones
};

// Builds the profile of a ranking given as one score per element (NaN = unscored) and the
// indices of its faulty elements (any order, duplicates ignored). Cost O(n log n).
// Throws dlfl::Error when an index is out of range.
TieProfile tie_profile(std::span<const double> scores, std::span<const std::size_t> faulty);

// Conventions of the literature that change what a number means (docs/metrics.md,
// "Conventions that change what a number means").
//
// EXAM (Wong et al., "A Survey on Software Fault Localization", TSE 2016: the share of the
// program inspected before the first fault) divides the first fault's position by:
// - instrumented: every element of the ranking, run or not (plus EvaluationOptions::
//   total_elements' absent ones). dlfl's default: its rankings hold every instrumented
//   line of the files collected.
// - executable: EvaluationOptions::total_elements, the program's executable elements,
//   which must be given (Wong et al.'s "statements of the program").
// - executed: only the elements some test executed; the others leave the ranking, and a
//   fault no test executed is not found (the convention of rankings built from executed
//   statements only, e.g. Pearson et al., ICSE 2017, and GZoltar's covered lines).
enum class ExamBase : unsigned char { instrumented, executable, executed };

// Top-N under the average tie rule: `expected`, the probability that a random order of the
// straddling tie puts a fault within N (its mean over bugs is the expected share; dlfl's
// default), or `hits`, 1 when the expected position of the first fault (E_inspect) is
// within N, else 0: the counted hits most papers report (e.g. FauxPy, Rezaalipour & Furia,
// EMSE 2024). best and worst are counted hits either way.
enum class TopNRule : unsigned char { expected, hits };

struct TopNHit {
  std::uint64_t n = 0;
  // 1 when a faulty element lies within the first n positions, else 0; `average` is the
  // probability of that over the orders of the tie (so its mean is the expected share).
  ByTieRule<double> hit;
};

struct BugMetrics {
  std::uint64_t elements = 0;         // N: positions in the ranking (incl. the last tie)
  std::uint64_t faulty_elements = 0;  // faulty elements with a position
  std::uint64_t missing_faulty = 0;   // faulty elements without one (TieProfile)
  bool found = false;                 // faulty_elements > 0

  // When !found: positions, EXAM, E_inspect and wasted effort are NaN; AP, RR and the
  // Top-N hits are 0 (the IR convention: an unretrieved relevant item scores nothing).
  ByTieRule<double> first_position;  // 1-based position of the first faulty element
  ByTieRule<double> exam;            // first_position / elements
  // Expected position of the first faulty element (Zou et al., "An Empirical Study of
  // Fault Localization Families and Their Combinations", IEEE TSE 47(2), 2021): for the first
  // tie holding faults, starting at p with t elements of which t_f are faulty,
  // E = p + Σ_{k=1}^{t−t_f} k·C(t−k−1, t_f−1)/C(t, t_f) = p + (t − t_f)/(t_f + 1).
  double e_inspect = 0.0;
  // Non-faulty elements inspected before the first fault (FLITSR: Callaghan & Fischer,
  // "Improving Spectrum-Based Localization of Multiple Faults by Iterative Test Suite
  // Reduction", arXiv:2306.09892, 2023; ties are one of the SBFL challenges surveyed by
  // Sarhan & Beszédes, IEEE Access 2022): all of them ahead of that tie plus
  // (t − t_f)/(t_f + 1) inside it. Equals e_inspect − 1.
  double wasted_effort = 0.0;
  // AP = (1/R) Σ_{faulty at position k} precision@k, R = faulty_elements + missing_faulty;
  // best/worst place each tie's faulty elements first/last, average is E[AP] over tie
  // orders (exact, not AP at average positions).
  ByTieRule<double> average_precision;
  // RR = 1 / position of the first faulty element; average = E[1/position] over tie
  // orders, which is not 1/E_inspect (with one fault, AP = RR under every rule).
  ByTieRule<double> reciprocal_rank;
  std::vector<TopNHit> top_n;  // one per requested n, in the order requested
};

// Metrics of one profile. Throws dlfl::Error when the profile has no faulty element at
// all (not even a missing one): a bug without ground truth cannot be scored.
BugMetrics compute_metrics(const TieProfile& profile, std::span<const std::uint64_t> top_n,
                           TopNRule top_n_rule = TopNRule::expected);

struct EvaluationOptions {
  std::vector<std::uint64_t> top_n{1, 3, 5, 10};
  // Elements of the program at the evaluated level, including those the ranking leaves
  // out. When set, the absent elements (total − ranking size) join the unscored last tie,
  // and each fault that matches no ranked element is one faulty element of that tie
  // (at most as many as there are absent elements: several faults may share one). When
  // unset, or when no element is absent, such faults are missing: they lower AP and
  // nothing else, and a bug whose faults all miss is not found. evaluate() throws
  // dlfl::Error when this is smaller than the ranking.
  std::optional<std::uint64_t> total_elements;
  // evaluate() throws dlfl::Error for `executable` without total_elements, and for
  // `executed` with it (absent elements have no execution to count).
  ExamBase exam_base = ExamBase::instrumented;
  TopNRule top_n_rule = TopNRule::expected;
};

// Matches faults to the ranking (matches() in fault_matching.h: an element is faulty when
// any fault matches it) and computes the metrics. Throws dlfl::Error when `faults` is empty.
BugMetrics evaluate(std::span<const ScoredElement> ranking, std::span<const GroundTruthItem> faults,
                    const EvaluationOptions& options = {});

// evaluate(lift(ranking, level), lift_faults(faults, level), options): one line-level
// ranking evaluated at line, function or file level (at function level the faults are
// named as ranked first: name_functions_as_ranked()). total_elements counts elements of
// that level.
BugMetrics evaluate_at(std::span<const ScoredElement> ranking,
                       std::span<const GroundTruthItem> faults, Granularity level,
                       const EvaluationOptions& options = {});

struct TopNShare {
  std::uint64_t n = 0;
  ByTieRule<double> share;  // bugs hit within n / all bugs (average: expected share)
};

// Means over bugs. MAP, MRR and Top-N divide by all bugs (an unfound bug adds 0); the
// position-like means (EXAM, E_inspect, wasted effort, first position) divide by the
// found bugs only and are NaN when none was found: report `found` next to them.
struct MetricsSummary {
  std::size_t bugs = 0;
  std::size_t found = 0;
  ByTieRule<double> mean_average_precision;  // MAP
  ByTieRule<double> mean_reciprocal_rank;    // MRR
  std::vector<TopNShare> top_n;
  ByTieRule<double> mean_first_position;
  ByTieRule<double> mean_exam;
  double mean_e_inspect = 0.0;
  double mean_wasted_effort = 0.0;
};

// Throws dlfl::Error when the bugs were computed with different Top-N lists. No bugs
// gives bugs = 0 and NaN means.
MetricsSummary summarize(std::span<const BugMetrics> bugs);

}  // namespace dlfl::eval
