// The end-of-run summary of `dlfl bench` (include/dlfl/lab/bench/bench_summary.h).
#include "dlfl/lab/bench/bench_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "dlfl/collect/progress.h"
#include "dlfl/printable.h"

namespace dlfl::bench {
namespace {

std::string num(double v, int digits = 3) {
  if (std::isnan(v)) return "n/a";
  return fmt::format("{:.{}f}", v, digits);
}
std::string num(const std::optional<double>& v, int digits = 3) { return v ? num(*v, digits) : "n/a"; }
std::string p_value(double p) {
  if (std::isnan(p)) return "n/a";
  return p < 0.001 ? fmt::format("{:.1e}", p) : fmt::format("{:.3f}", p);
}

// A Markdown table row; a cell's '|' is escaped and its control characters made
// printable, so a subject or group name cannot split the row or the table.
void row(std::ostream& out, const std::vector<std::string>& cells) {
  out << '|';
  for (const auto& c : cells) {
    out << ' ';
    for (const char ch : printable(c)) {
      if (ch == '|') out << '\\';
      out << ch;
    }
    out << " |";
  }
  out << '\n';
}
void header(std::ostream& out, const std::vector<std::string>& cells) {
  row(out, cells);
  out << '|';
  for (std::size_t i = 0; i < cells.size(); ++i) out << (i < 2 ? "---|" : "---:|");
  out << '\n';
}

const eval::MetricSummary* metric(const eval::GroupSummary& s, const std::string& name) {
  for (const auto& m : s.metrics)
    if (m.metric == name) return &m;
  return nullptr;
}

eval::Comparison comparison(std::span<const FaultRecord> records, const SummaryOptions& options, bool by_bug_type,
                            bool tests) {
  if (options.real_bugs) {
    eval::ComparisonOptions co;
    co.metrics = {"exam", "map", "mrr"};
    co.top_n.assign(options.top_n.begin(), options.top_n.end());
    const auto results = bug_results(records, options.top_n, by_bug_type);
    // Jahan et al.: intrinsic bugs are the reference against extrinsic ones.
    if (tests && std::any_of(results.begin(), results.end(), [](const auto& r) { return r.group == "intrinsic"; }))
      co.baseline = "intrinsic";
    return eval::compare(results, co);
  }
  const auto results = bug_results(records, options.top_n, by_bug_type);
  eval::ComparisonOptions co;
  co.metrics = {"exam", "map", "mrr"};
  co.top_n.assign(options.top_n.begin(), options.top_n.end());
  bool traditional = false, dl = false;
  for (const auto& r : results) (r.group == "traditional" ? traditional : dl) = true;
  // Jahan et al.'s reading: traditional is the reference, diff% = (trad − DL) / trad.
  if (tests && traditional && dl) co.baseline = "traditional";
  return eval::compare(results, co);
}

void group_table(std::ostream& out, const eval::Comparison& c, const SummaryOptions& options, const char* what) {
  std::vector<std::string> cells{"formula", what, "n"};
  for (const auto n : options.top_n) cells.push_back("Top-" + std::to_string(n));
  cells.insert(cells.end(), {"EXAM", "MAP", "MRR"});
  header(out, cells);
  for (const auto& s : c.summaries) {
    std::vector<std::string> r{s.technique, s.group, std::to_string(s.n)};
    for (const auto& t : s.top) r.push_back(num(t.share));
    const auto* exam = metric(s, "exam");
    r.push_back(exam ? num(exam->mean, 4) : "n/a");
    r.push_back(num(s.map));
    r.push_back(num(s.mrr));
    row(out, r);
  }
}

}  // namespace

std::vector<eval::BugResult> bug_results(std::span<const FaultRecord> records, const std::vector<std::uint64_t>& top_n,
                                         bool by_bug_type) {
  std::vector<eval::BugResult> out;
  for (const auto& r : records) {
    if (!r.kept) continue;
    for (const auto& f : r.results) {
      eval::BugResult b;
      b.bug = r.key();
      b.technique = f.formula;
      b.group = by_bug_type ? r.bug_type : r.group;
      b.first_rank = f.found ? f.first_rank : 0.0;
      b.rr = f.rr;
      b.ap = f.ap;
      b.n_faulty = static_cast<double>(r.faulty_count());
      b.extra["exam"] = f.exam;
      for (std::size_t i = 0; i < top_n.size() && i < f.top.size(); ++i)
        b.extra["top" + std::to_string(top_n[i])] = f.top[i];
      out.push_back(std::move(b));
    }
  }
  return out;
}

void write_summary(std::ostream& out, std::span<const FaultRecord> records, const SummaryOptions& options) {
  std::size_t kept = 0;
  std::map<std::string, std::size_t> reasons;
  std::map<std::string, std::size_t> kept_by_subject, kept_by_type;
  for (const auto& r : records) {
    if (r.kept) {
      ++kept;
      ++kept_by_subject[r.subject];
      ++kept_by_type[r.bug_type];
    } else {
      ++reasons[r.reason];
    }
  }
  const bool real = options.real_bugs;
  const std::string run = !options.run_name.empty() ? options.run_name : real ? "dlfl bugset reproduce" : "dlfl bench";
  const std::string unit = !options.unit.empty() ? options.unit : real ? "bugs" : "faults seeded";
  out << run << ": " << records.size() << " " << unit << ", " << kept << " kept, " << records.size() - kept
      << " discarded";
  if (options.wall_seconds > 0) out << ", " << collect::format_duration(options.wall_seconds) << " wall";
  out << "\n";
  std::string line;
  for (const auto& [subject, n] : kept_by_subject) line += (line.empty() ? "" : ", ") + subject + " " + std::to_string(n);
  if (!line.empty()) out << (real ? "kept per project: " : "kept per subject: ") << line << "\n";
  line.clear();
  for (const auto& [type, n] : kept_by_type) line += (line.empty() ? "" : ", ") + type + " " + std::to_string(n);
  if (!line.empty()) out << (real ? "kept per DL bug type: " : "kept per bug type: ") << line << "\n";
  line.clear();
  for (const auto& [reason, n] : reasons) line += (line.empty() ? "" : ", ") + reason + " " + std::to_string(n);
  if (!line.empty()) out << "discarded: " << line << "\n";
  if (kept == 0) return;

  out << "\nLine level; Top-N, EXAM, MAP, MRR under the average tie rule (expected values over the orders of a "
         "tie).\n\n";
  const eval::Comparison groups = comparison(records, options, false, true);
  group_table(out, groups, options, real ? "extrinsic" : "group");

  if (!groups.tests.empty() && real) {
    out << "\nBetween groups (a = intrinsic when present; diff% = (a - b) / a x 100; two-sided Mann-Whitney U p; "
           "effect sizes a vs b):\n\n";
    header(out, {"formula", "metric", "a", "b", "mean a", "mean b", "diff%", "p (Mann-Whitney)", "Cohen's d",
                 "Cliff's delta"});
    for (const auto& t : groups.tests) {
      if (t.metric == "mrr") continue;
      row(out, {t.technique, t.metric == "exam" ? "EXAM" : t.metric == "map" ? "MAP" : t.metric, t.group_a,
                t.group_b, num(t.mean_a, 4), num(t.mean_b, 4), num(t.performance_diff, 1),
                p_value(t.mann_whitney.p_value), num(t.cohens_d), num(t.cliffs_delta)});
    }
  } else if (!groups.tests.empty()) {
    out << "\nDL against traditional faults (a = traditional; diff% = (a - b) / a x 100; two-sided Mann-Whitney "
           "U p; effect sizes a vs b):\n\n";
    header(out, {"formula", "metric", "mean trad", "mean DL", "diff%", "p (Mann-Whitney)", "Cohen's d",
                 "Cliff's delta"});
    for (const auto& t : groups.tests) {
      if (t.metric == "mrr") continue;
      row(out, {t.technique, t.metric == "exam" ? "EXAM" : t.metric == "map" ? "MAP" : t.metric, num(t.mean_a, 4),
                num(t.mean_b, 4), num(t.performance_diff, 1), p_value(t.mann_whitney.p_value), num(t.cohens_d),
                num(t.cliffs_delta)});
    }
  }

  out << (real ? "\nBy DL bug type:\n\n" : "\nBy bug type:\n\n");
  group_table(out, comparison(records, options, true, false), options, real ? "DL bug type" : "bug type");
}

}  // namespace dlfl::bench
