// Comparison reports: aligned table, CSV sections, JSON document, SVG chart.
#include "dlfl/lab/eval/compare_report.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "dlfl/csv_field.h"
#include "dlfl/printable.h"

namespace dlfl::eval {
namespace {

using Row = std::vector<std::string>;

std::string fmt(const char* format, double value) {
  if (std::isnan(value)) return "n/a";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}
std::string fmt(const char* format, const std::optional<double>& value) {
  return value ? fmt(format, *value) : "n/a";
}
std::string share(const std::optional<double>& v) { return fmt("%.3f", v); }
std::string share(double v) { return fmt("%.3f", v); }
std::string p_value(double v) { return fmt("%.3g", v); }

// The name of a metric as the table shows it: Top@N, MRR, MAP, or as given.
std::string display(const std::string& metric) {
  if (metric == "mrr") return "MRR";
  if (metric == "map") return "MAP";
  if (metric.starts_with("top") && metric.size() > 3 &&
      std::all_of(metric.begin() + 3, metric.end(), [](unsigned char c) { return std::isdigit(c); }))
    return "Top@" + metric.substr(3);
  return metric;
}

struct Section {
  std::string title;
  Row header;
  std::vector<Row> rows;
};

std::vector<Section> sections(const Comparison& c) {
  std::vector<Section> out(3);
  out[0].title = "Per technique and group (Top@N: share of bugs whose first faulty element ranks "
                 "within N; sw_p: Shapiro-Wilk p of the per-bug values)";
  out[0].header = {"technique", "group", "n"};
  for (const unsigned n : c.top_n) out[0].header.push_back("top" + std::to_string(n));
  out[0].header.insert(out[0].header.end(), {"mrr", "map"});
  for (const auto& m : c.metrics) out[0].header.push_back("sw_p:" + m);
  for (const auto& s : c.summaries) {
    Row r{s.technique, s.group, std::to_string(s.n)};
    for (const auto& t : s.top) r.push_back(share(t.share));
    r.push_back(share(s.mrr));
    r.push_back(share(s.map));
    for (const auto& m : s.metrics) r.push_back(p_value(m.shapiro_wilk.p_value));
    out[0].rows.push_back(std::move(r));
  }
  out[1].title = "Group tests per technique and metric (a = reference group; diff% = (a - b) / a x 100; "
                 "normal: Shapiro-Wilk p >= 0.05 in both, else read Mann-Whitney)";
  out[1].header = {"technique", "metric", "a", "b", "n_a", "n_b", "mean_a", "mean_b", "diff%",
                   "p_student", "p_welch", "p_mannwhitney", "cohens_d", "cliffs_delta", "normal"};
  for (const auto& t : c.tests)
    out[1].rows.push_back({t.technique, t.metric, t.group_a, t.group_b, std::to_string(t.n_a),
                           std::to_string(t.n_b), share(t.mean_a), share(t.mean_b),
                           fmt("%.1f", t.performance_diff), p_value(t.student.p_value),
                           p_value(t.welch.p_value), p_value(t.mann_whitney.p_value),
                           fmt("%.3f", t.cohens_d), fmt("%.3f", t.cliffs_delta),
                           t.both_normal ? "yes" : "no"});
  out[2].title = "Paired tests: two techniques on the same bugs (Wilcoxon signed-rank)";
  out[2].header = {"group", "metric", "a", "b", "pairs", "mean_a", "mean_b", "p_wilcoxon"};
  for (const auto& p : c.paired)
    out[2].rows.push_back({p.group, p.metric, p.technique_a, p.technique_b, std::to_string(p.pairs),
                           share(p.mean_a), share(p.mean_b), p_value(p.wilcoxon.p_value)});
  return out;
}

void write_table(std::ostream& out, const Comparison& c) {
  bool first = true;
  for (auto s : sections(c)) {
    if (s.rows.empty()) continue;
    // Group names and labels come from the user's tables: one line each, no escapes.
    s.title = printable(s.title);
    for (auto& cell : s.header) cell = printable(cell);
    for (auto& r : s.rows)
      for (auto& cell : r) cell = printable(cell);
    if (!first) out << '\n';
    first = false;
    out << s.title << '\n';
    std::vector<std::size_t> width(s.header.size());
    for (std::size_t i = 0; i < s.header.size(); ++i) {
      width[i] = s.header[i].size();
      for (const auto& r : s.rows) width[i] = std::max(width[i], r[i].size());
    }
    // Text columns (technique, group, metric names) left-aligned, numbers right-aligned.
    const auto text_column = [&](std::size_t i) {
      return s.header[i] == "technique" || s.header[i] == "group" || s.header[i] == "metric" ||
             s.header[i] == "a" || s.header[i] == "b" || s.header[i] == "normal";
    };
    const auto write_row = [&](const Row& r) {
      std::string line;
      for (std::size_t i = 0; i < r.size(); ++i) {
        const std::string pad(width[i] - r[i].size(), ' ');
        line += text_column(i) ? r[i] + pad : pad + r[i];
        if (i + 1 < r.size()) line += "  ";
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out << line << '\n';
    };
    write_row(s.header);
    for (const auto& r : s.rows) write_row(r);
  }
}

void write_csv(std::ostream& out, const Comparison& c) {
  bool first = true;
  for (const auto& s : sections(c)) {
    if (!first) out << '\n';
    first = false;
    const auto write_row = [&](const Row& r) {
      for (std::size_t i = 0; i < r.size(); ++i) out << (i ? "," : "") << csv_field(r[i] == "n/a" ? "" : r[i]);
      out << '\n';
    };
    write_row(s.header);
    for (const auto& r : s.rows) write_row(r);
  }
}

nlohmann::ordered_json optional_number(const std::optional<double>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

void write_json(std::ostream& out, const Comparison& c) {
  using json = nlohmann::ordered_json;
  json doc;
  doc["metrics"] = c.metrics;
  doc["top_n"] = c.top_n;
  json groups = json::array();
  for (const auto& s : c.summaries) {
    json g;
    g["technique"] = s.technique;
    g["group"] = s.group;
    g["n"] = s.n;
    for (const auto& t : s.top) g["top" + std::to_string(t.n)] = optional_number(t.share);
    g["mrr"] = optional_number(s.mrr);
    g["map"] = optional_number(s.map);
    json metrics = json::object();
    for (const auto& m : s.metrics)
      metrics[m.metric] = {{"n", m.n},
                           {"mean", m.mean},
                           {"median", m.median},
                           {"sd", m.sd},
                           {"shapiro_w", m.shapiro_wilk.statistic},
                           {"shapiro_p", m.shapiro_wilk.p_value}};
    g["metrics"] = std::move(metrics);
    groups.push_back(std::move(g));
  }
  doc["groups"] = std::move(groups);
  json tests = json::array();
  for (const auto& t : c.tests)
    tests.push_back({{"technique", t.technique},
                     {"metric", t.metric},
                     {"groups", {t.group_a, t.group_b}},
                     {"n", {t.n_a, t.n_b}},
                     {"mean", {t.mean_a, t.mean_b}},
                     {"performance_diff", t.performance_diff},
                     {"p_student", t.student.p_value},
                     {"p_welch", t.welch.p_value},
                     {"p_mannwhitney", t.mann_whitney.p_value},
                     {"t_student", t.student.statistic},
                     {"t_welch", t.welch.statistic},
                     {"df_welch", t.welch.degrees_of_freedom},
                     {"u", t.mann_whitney.statistic},
                     {"cohens_d", t.cohens_d},
                     {"cliffs_delta", t.cliffs_delta},
                     {"both_normal", t.both_normal}});
  doc["tests"] = std::move(tests);
  json paired = json::array();
  for (const auto& p : c.paired)
    paired.push_back({{"group", p.group},
                      {"metric", p.metric},
                      {"techniques", {p.technique_a, p.technique_b}},
                      {"pairs", p.pairs},
                      {"unpaired", p.unpaired},
                      {"mean", {p.mean_a, p.mean_b}},
                      {"w", p.wilcoxon.statistic},
                      {"p_wilcoxon", p.wilcoxon.p_value}});
  doc["paired"] = std::move(paired);
  // NaN (an undefined statistic) has no JSON spelling: nlohmann writes null.
  out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace

std::optional<ComparisonFormat> parse_comparison_format(std::string_view name) noexcept {
  std::string lower;
  for (const char ch : name) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  if (lower == "table") return ComparisonFormat::table;
  if (lower == "csv") return ComparisonFormat::csv;
  if (lower == "json") return ComparisonFormat::json;
  if (lower == "svg") return ComparisonFormat::svg;
  return std::nullopt;
}

BarChart comparison_chart(const Comparison& c) {
  BarChart chart;
  chart.title = "Localization accuracy per technique and group";
  std::string groups;
  for (const auto& g : c.groups) groups += (groups.empty() ? "" : ", ") + g;
  chart.subtitle = "Mean per-bug value per technique (clusters) and group (bars: " + groups +
                   "); n = bugs per group, in bar order";
  for (std::size_t m = 0; m < c.metrics.size(); ++m) {
    BarPanel panel;
    panel.title = display(c.metrics[m]);
    panel.categories = c.techniques;
    for (const auto& technique : c.techniques) {
      std::string note;
      for (const auto& group : c.groups) {
        std::string n = "-";
        for (const auto& s : c.summaries)
          if (s.technique == technique && s.group == group) n = std::to_string(s.metrics[m].n);
        note += (note.empty() ? "n = " : " / ") + n;
      }
      panel.category_notes.push_back(std::move(note));
    }
    for (const auto& group : c.groups) {
      BarSeries series{group, std::vector<double>(c.techniques.size(), std::nan(""))};
      for (const auto& s : c.summaries) {
        if (s.group != group) continue;
        const auto t = std::find(c.techniques.begin(), c.techniques.end(), s.technique) - c.techniques.begin();
        series.values[static_cast<std::size_t>(t)] = s.metrics[m].mean;
      }
      panel.series.push_back(std::move(series));
    }
    chart.panels.push_back(std::move(panel));
  }
  return chart;
}

void write_comparison(std::ostream& out, const Comparison& comparison, ComparisonFormat format) {
  switch (format) {
    case ComparisonFormat::table: write_table(out, comparison); break;
    case ComparisonFormat::csv: write_csv(out, comparison); break;
    case ComparisonFormat::json: write_json(out, comparison); break;
    case ComparisonFormat::svg: write_svg_bar_chart(out, comparison_chart(comparison)); break;
  }
}

}  // namespace dlfl::eval
