// Per-bug evaluation results as an aligned table, a CSV for `dlfl compare`, or JSON.
#include "dlfl/lab/eval/evaluation_report.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <vector>

#include "dlfl/csv_field.h"
#include "dlfl/error.h"
#include "dlfl/printable.h"

namespace dlfl::eval {
namespace {

// Shortest text that reads back to the same double; "" for NaN (undefined).
std::string exact(double v) {
  if (std::isnan(v)) return {};
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
  return ec == std::errc() ? std::string(buffer, end) : std::string();
}

std::string rounded(double v) {
  if (std::isnan(v)) return "-";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return exact(v);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4f", v);
  return buffer;
}

std::vector<std::string> header(std::span<const BugEvaluation> evaluations) {
  std::vector<std::string> h{"bug",       "technique",      "level", "ties",      "elements",
                             "n_faulty",  "missing_faulty", "found", "first_rank", "exam"};
  if (!evaluations.empty())
    for (const auto& t : evaluations.front().metrics.top_n) h.push_back("top" + std::to_string(t.n));
  h.insert(h.end(), {"e_inspect", "wasted_effort", "ap", "rr"});
  return h;
}

// The row of one evaluation under one rule, numbers through `number`.
template <class Number>
std::vector<std::string> row(const BugEvaluation& e, TieRule rule, Number number) {
  const BugMetrics& m = e.metrics;
  std::vector<std::string> r{e.bug,
                             e.technique,
                             std::string(granularity_name(e.level)),
                             std::string(tie_rule_name(rule)),
                             std::to_string(m.elements),
                             std::to_string(m.faulty_elements + m.missing_faulty),
                             std::to_string(m.missing_faulty),
                             m.found ? "1" : "0",
                             // compare_table.h reads 0 as "not retrieved".
                             m.found ? number(m.first_position[rule]) : "0",
                             number(m.exam[rule])};
  for (const auto& t : m.top_n) r.push_back(number(t.hit[rule]));
  r.push_back(number(m.found ? m.e_inspect : std::nan("")));
  r.push_back(number(m.found ? m.wasted_effort : std::nan("")));
  r.push_back(number(m.average_precision[rule]));
  r.push_back(number(m.reciprocal_rank[rule]));
  return r;
}

void write_csv(std::ostream& out, std::span<const BugEvaluation> evaluations, std::span<const TieRule> rules) {
  const auto write = [&](const std::vector<std::string>& r) {
    for (std::size_t i = 0; i < r.size(); ++i) out << (i ? "," : "") << csv_field(r[i]);
    out << '\n';
  };
  write(header(evaluations));
  for (const auto& e : evaluations)
    for (const TieRule rule : rules) write(row(e, rule, exact));
}

void write_table(std::ostream& out, std::span<const BugEvaluation> evaluations, std::span<const TieRule> rules) {
  std::vector<std::vector<std::string>> rows{header(evaluations)};
  for (const auto& e : evaluations)
    for (const TieRule rule : rules) rows.push_back(row(e, rule, rounded));
  for (auto& r : rows)  // bug ids and element names come from others' files
    for (auto& cell : r) cell = printable(cell);
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  for (const auto& r : rows) {
    std::string line;
    for (std::size_t i = 0; i < r.size(); ++i) {
      const std::string pad(width[i] - r[i].size(), ' ');
      line += i < 4 ? r[i] + pad : pad + r[i];  // names left, numbers right
      if (i + 1 < r.size()) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  }
}

nlohmann::ordered_json number_or_null(double v) {
  return std::isnan(v) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v);
}

void write_json(std::ostream& out, std::span<const BugEvaluation> evaluations, std::span<const TieRule> rules) {
  using json = nlohmann::ordered_json;
  json list = json::array();
  for (const auto& e : evaluations) {
    const BugMetrics& m = e.metrics;
    json item{{"bug", e.bug},
              {"technique", e.technique},
              {"level", granularity_name(e.level)},
              {"elements", m.elements},
              {"n_faulty", m.faulty_elements + m.missing_faulty},
              {"missing_faulty", m.missing_faulty},
              {"found", m.found},
              {"e_inspect", number_or_null(m.found ? m.e_inspect : std::nan(""))},
              {"wasted_effort", number_or_null(m.found ? m.wasted_effort : std::nan(""))}};
    for (const TieRule rule : rules) {
      json by_rule{{"first_rank", m.found ? json(m.first_position[rule]) : json(0)},
                   {"exam", number_or_null(m.exam[rule])}};
      for (const auto& t : m.top_n) by_rule["top" + std::to_string(t.n)] = t.hit[rule];
      by_rule["ap"] = m.average_precision[rule];
      by_rule["rr"] = m.reciprocal_rank[rule];
      item[std::string(tie_rule_name(rule))] = std::move(by_rule);
    }
    list.push_back(std::move(item));
  }
  out << json{{"evaluations", std::move(list)}}.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
      << '\n';
}

}  // namespace

std::optional<EvaluationFormat> parse_evaluation_format(std::string_view name) noexcept {
  std::string lower;
  for (const char c : name) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (lower == "table") return EvaluationFormat::table;
  if (lower == "csv") return EvaluationFormat::csv;
  if (lower == "json") return EvaluationFormat::json;
  return std::nullopt;
}

void write_evaluations(std::ostream& out, std::span<const BugEvaluation> evaluations,
                       std::span<const TieRule> rules, EvaluationFormat format) {
  if (rules.empty()) throw Error("evaluation report: no tie rule to report");
  switch (format) {
    case EvaluationFormat::table: write_table(out, evaluations, rules); break;
    case EvaluationFormat::csv: write_csv(out, evaluations, rules); break;
    case EvaluationFormat::json: write_json(out, evaluations, rules); break;
  }
}

}  // namespace dlfl::eval
