// Group comparison: per technique × group summaries, group-vs-group tests and paired
// technique-vs-technique tests over per-bug results.
#include "dlfl/lab/eval/compare.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <set>
#include <tuple>
#include <unordered_map>

#include "dlfl/error.h"

namespace dlfl::eval {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// N of a "topN" metric name, or 0 when the name is not one.
unsigned top_n_of(std::string_view metric) {
  if (!metric.starts_with("top") || metric.size() == 3) return 0;
  unsigned n = 0;
  const auto digits = metric.substr(3);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  return ec == std::errc() && end == digits.data() + digits.size() ? n : 0;
}

std::string describe(const BugResult& r) {
  return "bug " + r.bug + " (technique " + r.technique + ", group " + r.group + ")";
}

void check_range(const BugResult& r) {
  const auto unit = [&](const std::optional<double>& v, const char* name) {
    if (v && !(*v >= 0.0 && *v <= 1.0))
      throw Error(describe(r) + ": " + name + " " + std::to_string(*v) + " is outside [0, 1]");
  };
  unit(r.rr, "RR");
  unit(r.ap, "AP");
  if (r.first_rank && !(std::isfinite(*r.first_rank) && *r.first_rank >= 0.0))
    throw Error(describe(r) + ": first rank " + std::to_string(*r.first_rank) +
                " is not a rank (>= 1, or 0 for not retrieved)");
  for (const auto& [name, value] : r.extra)
    if (!std::isfinite(value)) throw Error(describe(r) + ": " + name + " is not finite");
}

// Items in order of first appearance.
template <class Get>
std::vector<std::string> ordered(std::span<const BugResult> results, Get get) {
  std::vector<std::string> out;
  std::set<std::string, std::less<>> seen;
  for (const auto& r : results)
    if (seen.insert(get(r)).second) out.push_back(get(r));
  return out;
}

std::vector<double> values_of(const std::vector<const BugResult*>& rows, const std::string& metric) {
  std::vector<double> out;
  out.reserve(rows.size());
  for (const BugResult* r : rows)
    if (const auto v = metric_value(*r, metric)) out.push_back(*v);
  return out;
}

MetricSummary summarize_metric(const std::string& metric, const std::vector<double>& values) {
  MetricSummary s;
  s.metric = metric;
  s.n = values.size();
  s.mean = mean(values);
  s.median = values.empty() ? kNaN : median(values);
  s.sd = standard_deviation(values);
  s.shapiro_wilk = shapiro_wilk(values);
  return s;
}

std::optional<double> mean_of(const std::vector<const BugResult*>& rows, const std::string& metric) {
  const auto values = values_of(rows, metric);
  if (values.empty()) return std::nullopt;
  return mean(values);
}

bool normal(const HypothesisTestResult& sw, double alpha) {
  return sw.status != HypothesisTestStatus::too_few && std::isfinite(sw.p_value) && sw.p_value >= alpha;
}

}  // namespace

std::string canonical_metric(std::string_view metric) {
  if (metric == "rr") return "mrr";
  if (metric == "ap") return "map";
  return std::string(metric);
}

std::optional<double> metric_value(const BugResult& result, std::string_view metric) {
  const std::string m = canonical_metric(metric);
  const auto& rank = result.first_rank;
  if (m == "mrr") {
    if (result.rr) return result.rr;
    if (rank) return *rank > 0.0 ? 1.0 / *rank : 0.0;
    return std::nullopt;
  }
  if (m == "map") return result.ap;
  if (m == "first_rank") return rank && *rank > 0.0 ? rank : std::nullopt;
  if (const unsigned n = top_n_of(m)) {
    // A table's own topN column wins: under an average tie rule it holds the probability
    // of a hit (metrics.h), which the expected first rank alone cannot give.
    if (const auto it = result.extra.find(m); it != result.extra.end()) return it->second;
    if (!rank) return std::nullopt;
    return *rank > 0.0 && *rank <= static_cast<double>(n) ? 1.0 : 0.0;
  }
  const auto it = result.extra.find(m);
  if (it == result.extra.end()) return std::nullopt;
  return it->second;
}

Comparison compare(std::span<const BugResult> results, const ComparisonOptions& options) {
  Comparison c;
  std::set<std::tuple<std::string_view, std::string_view, std::string_view>> seen;
  for (const auto& r : results) {
    check_range(r);
    if (!seen.emplace(r.group, r.technique, r.bug).second)
      throw Error(describe(r) + " appears twice");
  }
  for (const unsigned n : options.top_n)
    if (n == 0) throw Error("Top-N needs N >= 1");
  c.top_n = options.top_n;
  for (const auto& m : options.metrics) {
    const std::string name = canonical_metric(m);
    if (std::find(c.metrics.begin(), c.metrics.end(), name) != c.metrics.end()) continue;
    const bool any = std::any_of(results.begin(), results.end(),
                                 [&](const BugResult& r) { return metric_value(r, name).has_value(); });
    if (!any) throw Error("metric '" + name + "' has no value in any result");
    c.metrics.push_back(name);
  }
  c.techniques = ordered(results, [](const BugResult& r) -> const std::string& { return r.technique; });
  c.groups = ordered(results, [](const BugResult& r) -> const std::string& { return r.group; });
  if (!options.baseline.empty() &&
      std::find(c.groups.begin(), c.groups.end(), options.baseline) == c.groups.end())
    throw Error("baseline group '" + options.baseline + "' has no results");

  std::map<std::pair<std::string, std::string>, std::vector<const BugResult*>> cell;
  for (const auto& r : results) cell[{r.technique, r.group}].push_back(&r);

  for (const auto& technique : c.techniques) {
    for (const auto& group : c.groups) {
      const auto it = cell.find({technique, group});
      if (it == cell.end()) continue;
      const auto& rows = it->second;
      GroupSummary s;
      s.technique = technique;
      s.group = group;
      s.n = rows.size();
      for (const unsigned n : c.top_n) s.top.push_back({n, mean_of(rows, "top" + std::to_string(n))});
      s.mrr = mean_of(rows, "mrr");
      s.map = mean_of(rows, "map");
      for (const auto& metric : c.metrics) s.metrics.push_back(summarize_metric(metric, values_of(rows, metric)));
      c.summaries.push_back(std::move(s));
    }
  }

  // Group pairs: all (a before b), or the baseline against each other group.
  std::vector<std::pair<std::string, std::string>> pairs;
  for (std::size_t i = 0; i < c.groups.size(); ++i)
    for (std::size_t j = i + 1; j < c.groups.size(); ++j) {
      if (options.baseline.empty()) pairs.emplace_back(c.groups[i], c.groups[j]);
      else if (c.groups[i] == options.baseline) pairs.emplace_back(c.groups[i], c.groups[j]);
      else if (c.groups[j] == options.baseline) pairs.emplace_back(c.groups[j], c.groups[i]);
    }
  for (const auto& technique : c.techniques) {
    for (const auto& metric : c.metrics) {
      for (const auto& [a, b] : pairs) {
        const auto ia = cell.find({technique, a}), ib = cell.find({technique, b});
        if (ia == cell.end() || ib == cell.end()) continue;
        const auto x = values_of(ia->second, metric), y = values_of(ib->second, metric);
        if (x.empty() || y.empty()) continue;
        GroupTest t;
        t.technique = technique;
        t.metric = metric;
        t.group_a = a;
        t.group_b = b;
        t.n_a = x.size();
        t.n_b = y.size();
        t.mean_a = mean(x);
        t.mean_b = mean(y);
        t.performance_diff = t.mean_a != 0.0 ? (t.mean_a - t.mean_b) / t.mean_a * 100.0 : kNaN;
        t.student = student_t_test(x, y);
        t.welch = welch_t_test(x, y);
        t.mann_whitney = mann_whitney_u(x, y);
        t.cohens_d = cohens_d(x, y);
        t.cliffs_delta = cliffs_delta(x, y);
        t.both_normal = normal(shapiro_wilk(x), options.alpha) && normal(shapiro_wilk(y), options.alpha);
        c.tests.push_back(std::move(t));
      }
    }
  }

  for (const auto& group : c.groups) {
    for (const auto& metric : c.metrics) {
      for (std::size_t i = 0; i < c.techniques.size(); ++i) {
        for (std::size_t j = i + 1; j < c.techniques.size(); ++j) {
          const auto ia = cell.find({c.techniques[i], group}), ib = cell.find({c.techniques[j], group});
          if (ia == cell.end() || ib == cell.end()) continue;
          std::unordered_map<std::string_view, double> b_value;
          for (const BugResult* r : ib->second)
            if (const auto v = metric_value(*r, metric)) b_value.emplace(r->bug, *v);
          std::vector<double> x, y;
          std::size_t a_values = 0;
          for (const BugResult* r : ia->second) {
            const auto v = metric_value(*r, metric);
            if (!v) continue;
            ++a_values;
            if (const auto it = b_value.find(r->bug); it != b_value.end()) {
              x.push_back(*v);
              y.push_back(it->second);
            }
          }
          if (x.empty()) continue;
          PairedTest p;
          p.group = group;
          p.metric = metric;
          p.technique_a = c.techniques[i];
          p.technique_b = c.techniques[j];
          p.pairs = x.size();
          p.unpaired = (a_values - x.size()) + (b_value.size() - x.size());
          p.mean_a = mean(x);
          p.mean_b = mean(y);
          p.wilcoxon = wilcoxon_signed_rank(x, y);
          c.paired.push_back(std::move(p));
        }
      }
    }
  }
  return c;
}

}  // namespace dlfl::eval
