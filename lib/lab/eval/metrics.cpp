// Accuracy metrics: tie profiles of rankings, per-bug metrics under the three tie
// readings, matching faults to rankings, and means over bugs.
#include "dlfl/lab/eval/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "dlfl/error.h"

namespace dlfl::eval {
namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

// Calls visit(tie, start) for each non-empty tie in rank order; start is 1-based.
template <class Visit>
void for_each_tie(const TieProfile& profile, Visit&& visit) {
  std::uint64_t start = 1;
  for (const Tie& tie : profile.scored) {
    visit(tie, start);
    start += tie.size;
  }
  if (profile.unscored.size > 0) visit(profile.unscored, start);
}

// One tie that holds faults: t elements from position s, l of them faulty, `before`
// faulty elements ranked ahead of it. All sums below are exact expectations over the t!
// orders of the tie, each equally likely.
struct FaultyTie {
  double s, t, l, before;

  // Σ precision@k over the tie's faulty elements when they take its first l places.
  double precision_sum_best() const {
    double sum = 0.0;
    for (double j = 1; j <= l; ++j) sum += (before + j) / (s + j - 1);
    return sum;
  }
  // ... when they take its last l places.
  double precision_sum_worst() const {
    double sum = 0.0;
    for (double j = 1; j <= l; ++j) sum += (before + j) / (s + t - l + j - 1);
    return sum;
  }
  // E[Σ precision@k]. Place q of the tie is faulty with probability l/t; given that, the
  // other l − 1 faults fall among the q − 1 places ahead of it with expectation
  // (q − 1)(l − 1)/(t − 1), so its precision is (before + 1 + that)/(s − 1 + q) on
  // average. The precision is linear in that count, which makes the expectation exact.
  double precision_sum_expected() const {
    const double share_of_others = t > 1 ? (l - 1) / (t - 1) : 0.0;
    double sum = 0.0;
    for (double q = 1; q <= t; ++q) sum += (before + 1 + (q - 1) * share_of_others) / (s - 1 + q);
    return sum * l / t;
  }
  // E[1/position of the first fault]. The first fault is at place q of the tie with
  // probability C(t − q, l − 1)/C(t, l); successive probabilities differ by the factor
  // (t − q − l + 1)/(t − q), which avoids huge binomials.
  double reciprocal_rank_expected() const {
    double probability = l / t, sum = 0.0;
    for (double q = 1; q <= t - l + 1; ++q) {
      sum += probability / (s - 1 + q);
      probability *= (t - q - l + 1) / (t - q);
    }
    return sum;
  }
  // P(some fault within the first n positions) when the tie straddles position n:
  // 1 − C(t − k, l)/C(t, l), k = the tie's places within the first n.
  double hit_probability(double n) const {
    if (n < s) return 0.0;
    if (n >= s + t - l) return 1.0;
    const double k = n - s + 1;
    double none_in_first_k = 1.0;
    for (double i = 0; i < l; ++i) none_in_first_k *= (t - k - i) / (t - i);
    return 1.0 - none_in_first_k;
  }
};

}  // namespace

std::uint64_t TieProfile::elements() const noexcept {
  std::uint64_t sum = unscored.size;
  for (const Tie& tie : scored) sum += tie.size;
  return sum;
}

std::uint64_t TieProfile::faulty_elements() const noexcept {
  std::uint64_t sum = unscored.faulty;
  for (const Tie& tie : scored) sum += tie.faulty;
  return sum;
}

TieProfile tie_profile(std::span<const double> scores, std::span<const std::size_t> faulty) {
  std::vector<char> is_faulty(scores.size(), 0);
  for (const std::size_t index : faulty) {
    if (index >= scores.size()) {
      throw Error("tie_profile: faulty element " + std::to_string(index) + " of a ranking of " +
                  std::to_string(scores.size()));
    }
    is_faulty[index] = 1;
  }

  TieProfile profile;
  std::vector<std::pair<double, bool>> scored;
  scored.reserve(scores.size());
  for (std::size_t e = 0; e < scores.size(); ++e) {
    if (std::isnan(scores[e])) {
      ++profile.unscored.size;
      profile.unscored.faulty += is_faulty[e];
    } else {
      scored.emplace_back(scores[e], is_faulty[e] != 0);
    }
  }
  std::sort(scored.begin(), scored.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; i < scored.size();) {
    Tie tie;
    const double score = scored[i].first;
    for (; i < scored.size() && scored[i].first == score; ++i) {
      ++tie.size;
      tie.faulty += scored[i].second;
    }
    profile.scored.push_back(tie);
  }
  return profile;
}

BugMetrics compute_metrics(const TieProfile& profile, std::span<const std::uint64_t> top_n, TopNRule top_n_rule) {
  BugMetrics metrics;
  metrics.elements = profile.elements();
  metrics.faulty_elements = profile.faulty_elements();
  metrics.missing_faulty = profile.missing_faulty;
  metrics.found = metrics.faulty_elements > 0;
  const double relevant = static_cast<double>(metrics.faulty_elements + metrics.missing_faulty);
  if (relevant == 0) throw Error("metrics: the bug has no faulty element (empty ground truth?)");

  metrics.first_position = {not_a_number, not_a_number, not_a_number};
  metrics.exam = metrics.first_position;
  metrics.e_inspect = metrics.wasted_effort = not_a_number;
  for (const std::uint64_t n : top_n) metrics.top_n.push_back({n, {}});

  ByTieRule<double> precision_sum;
  double faulty_before = 0;
  for_each_tie(profile, [&](const Tie& tie, std::uint64_t start) {
    if (tie.faulty == 0) return;
    const FaultyTie faults{static_cast<double>(start), static_cast<double>(tie.size),
                           static_cast<double>(tie.faulty), faulty_before};
    const bool first = faulty_before == 0;
    faulty_before += faults.l;
    precision_sum.best += faults.precision_sum_best();
    precision_sum.worst += faults.precision_sum_worst();
    precision_sum.average += faults.precision_sum_expected();
    if (!first) return;

    // Zou et al. (TSE 2021) write E_inspect as p + Σ_{k=1}^{t−l} k·C(t−k−1, l−1)/C(t, l):
    // the sum is the expected count of non-faulty elements read before the first fault
    // of a randomly ordered tie, which is (t − l)/(l + 1) (tested against the sum).
    const double non_faulty_first = (faults.t - faults.l) / (faults.l + 1);
    metrics.e_inspect = faults.s + non_faulty_first;
    // FLITSR's wasted effort: every element ahead of the tie is non-faulty.
    metrics.wasted_effort = (faults.s - 1) + non_faulty_first;
    metrics.first_position = {faults.s, faults.s + faults.t - faults.l, metrics.e_inspect};
    const double n_elements = static_cast<double>(metrics.elements);
    metrics.exam = {metrics.first_position.best / n_elements,
                    metrics.first_position.worst / n_elements,
                    metrics.first_position.average / n_elements};
    metrics.reciprocal_rank = {1.0 / metrics.first_position.best,
                               1.0 / metrics.first_position.worst,
                               faults.reciprocal_rank_expected()};
    for (TopNHit& hit : metrics.top_n) {
      const double n = static_cast<double>(hit.n);
      hit.hit = {metrics.first_position.best <= n ? 1.0 : 0.0, metrics.first_position.worst <= n ? 1.0 : 0.0,
                 top_n_rule == TopNRule::hits ? (metrics.first_position.average <= n ? 1.0 : 0.0)
                                              : faults.hit_probability(n)};
    }
  });
  metrics.average_precision = {precision_sum.best / relevant, precision_sum.worst / relevant,
                               precision_sum.average / relevant};
  return metrics;
}

BugMetrics evaluate(std::span<const ScoredElement> all_ranked, std::span<const GroundTruthItem> faults,
                    const EvaluationOptions& options) {
  if (faults.empty()) throw Error("evaluate: no faults given for the bug");
  if (options.exam_base == ExamBase::executable && !options.total_elements)
    throw Error("evaluate: EXAM over executable elements needs the program's executable element count");
  if (options.exam_base == ExamBase::executed && options.total_elements)
    throw Error("evaluate: EXAM over executed elements cannot take a program size (absent elements ran or not?)");
  // Over executed elements, the rest leaves the ranking: positions and EXAM count only
  // what some test ran, and a fault on an unexecuted element is not found.
  std::vector<ScoredElement> executed_only;
  if (options.exam_base == ExamBase::executed) {
    for (const ScoredElement& e : all_ranked)
      if (e.executed && !std::isnan(e.score)) executed_only.push_back(e);
  }
  const std::span<const ScoredElement> ranking =
      options.exam_base == ExamBase::executed ? std::span<const ScoredElement>(executed_only) : all_ranked;
  const std::uint64_t ranked = ranking.size();
  if (options.total_elements && *options.total_elements < ranked) {
    throw Error("evaluate: total_elements " + std::to_string(*options.total_elements) +
                " is smaller than the ranking (" + std::to_string(ranked) + " elements)");
  }

  // Faults whose file matches, per distinct file spelling: path comparison once per file.
  std::unordered_map<std::string_view, std::vector<std::size_t>> faults_in_file;
  std::vector<char> fault_matched(faults.size(), 0);
  std::vector<std::size_t> faulty;
  std::vector<double> scores(ranking.size());
  for (std::size_t e = 0; e < ranking.size(); ++e) {
    const ScoredElement& element = ranking[e];
    scores[e] = element.score;
    auto [candidates, inserted] = faults_in_file.try_emplace(element.file);
    if (inserted) {
      for (std::size_t f = 0; f < faults.size(); ++f) {
        if (same_file(faults[f].file, element.file)) candidates->second.push_back(f);
      }
    }
    bool is_faulty = false;
    for (const std::size_t f : candidates->second) {
      if (matches(faults[f], element)) {
        is_faulty = true;
        fault_matched[f] = 1;
      }
    }
    if (is_faulty) faulty.push_back(e);
  }

  TieProfile profile = tie_profile(scores, faulty);
  const auto unmatched =
      static_cast<std::uint64_t>(std::count(fault_matched.begin(), fault_matched.end(), 0));
  const std::uint64_t absent = options.total_elements ? *options.total_elements - ranked : 0;
  if (options.total_elements && absent > 0) {
    // Unlisted elements are unscored ones; faults no listed element holds sit among them.
    profile.unscored.size += absent;
    profile.unscored.faulty += std::min(unmatched, absent);
  } else {
    profile.missing_faulty = unmatched;
  }
  return compute_metrics(profile, options.top_n, options.top_n_rule);
}

BugMetrics evaluate_at(std::span<const ScoredElement> ranking,
                       std::span<const GroundTruthItem> faults, Granularity level,
                       const EvaluationOptions& options) {
  const std::vector<ScoredElement> lifted = lift(ranking, level);
  const std::vector<GroundTruthItem> lifted_faults =
      level == Granularity::function ? lift_faults(name_functions_as_ranked(faults, ranking), level)
                                     : lift_faults(faults, level);
  return evaluate(lifted, lifted_faults, options);
}

MetricsSummary summarize(std::span<const BugMetrics> bugs) {
  MetricsSummary summary;
  summary.bugs = bugs.size();
  const auto set_all = [](ByTieRule<double>& value, double x) { value = {x, x, x}; };
  const auto add = [](ByTieRule<double>& sum, const ByTieRule<double>& x) {
    sum.best += x.best;
    sum.worst += x.worst;
    sum.average += x.average;
  };
  const auto divide = [](ByTieRule<double>& sum, double by) {
    sum.best /= by;
    sum.worst /= by;
    sum.average /= by;
  };
  if (!bugs.empty()) {
    for (const TopNHit& hit : bugs.front().top_n) summary.top_n.push_back({hit.n, {}});
  }
  for (const BugMetrics& bug : bugs) {
    const bool same_top_n =
        bug.top_n.size() == summary.top_n.size() &&
        std::equal(bug.top_n.begin(), bug.top_n.end(), summary.top_n.begin(),
                   [](const TopNHit& hit, const TopNShare& share) { return hit.n == share.n; });
    if (!same_top_n) throw Error("summarize: bugs were evaluated with different Top-N lists");
    add(summary.mean_average_precision, bug.average_precision);
    add(summary.mean_reciprocal_rank, bug.reciprocal_rank);
    for (std::size_t i = 0; i < bug.top_n.size(); ++i)
      add(summary.top_n[i].share, bug.top_n[i].hit);
    if (!bug.found) continue;
    ++summary.found;
    add(summary.mean_first_position, bug.first_position);
    add(summary.mean_exam, bug.exam);
    summary.mean_e_inspect += bug.e_inspect;
    summary.mean_wasted_effort += bug.wasted_effort;
  }

  const double all = static_cast<double>(summary.bugs);
  const double found = static_cast<double>(summary.found);
  if (summary.bugs == 0) {
    set_all(summary.mean_average_precision, not_a_number);
    set_all(summary.mean_reciprocal_rank, not_a_number);
  } else {
    divide(summary.mean_average_precision, all);
    divide(summary.mean_reciprocal_rank, all);
    for (TopNShare& share : summary.top_n) divide(share.share, all);
  }
  if (summary.found == 0) {
    set_all(summary.mean_first_position, not_a_number);
    set_all(summary.mean_exam, not_a_number);
    summary.mean_e_inspect = summary.mean_wasted_effort = not_a_number;
  } else {
    divide(summary.mean_first_position, found);
    divide(summary.mean_exam, found);
    summary.mean_e_inspect /= found;
    summary.mean_wasted_effort /= found;
  }
  return summary;
}

}  // namespace dlfl::eval
