// A Comparison (compare.h) written out: aligned table, CSV, JSON or an SVG bar chart.
#pragma once

#include <optional>
#include <ostream>
#include <string_view>

#include "dlfl/lab/eval/compare.h"
#include "dlfl/lab/eval/svg_chart.h"

namespace dlfl::eval {

enum class ComparisonFormat { table, csv, json, svg };

// "table", "csv", "json", "svg" (case-insensitive); nullopt otherwise.
std::optional<ComparisonFormat> parse_comparison_format(std::string_view name) noexcept;

// Formats (NaN, i.e. undefined, prints as "n/a" in table/csv and null in JSON):
//   table  three sections for a terminal: per technique × group n, Top@N, MRR, MAP and
//          each metric's Shapiro-Wilk p; the group tests; the paired tests.
//   csv    the same three sections as CSV tables, each with its own header line, separated
//          by one blank line (read one with e.g. pandas' `nrows`/`skiprows`).
//   json   {"metrics": [...], "top_n": [...],
//           "groups": [{"technique", "group", "n", "top1", "top5", "top10", "mrr", "map",
//                       "metrics": {"mrr": {"n", "mean", "median", "sd", "shapiro_w",
//                                           "shapiro_p"}, ...}}, ...],
//           "tests":  [{"technique", "metric", "groups": [a, b], "n": [n_a, n_b],
//                       "mean": [mean_a, mean_b], "performance_diff", "p_student",
//                       "p_welch", "p_mannwhitney", "t_student", "t_welch", "df_welch",
//                       "u", "cohens_d", "cliffs_delta", "both_normal"}, ...],
//           "paired": [{"group", "metric", "techniques": [a, b], "pairs", "unpaired",
//                       "mean": [a, b], "w", "p_wilcoxon"}, ...]}
//          with one "topN" member per Top-N (null when the bugs have no ranks; "mrr" and
//          "map" likewise). Numbers are full precision.
//   svg    comparison_chart() as a standalone SVG document.
void write_comparison(std::ostream& out, const Comparison& comparison, ComparisonFormat format);

// Bars of each metric's mean per technique (clusters) and group (series), one panel per
// metric of the comparison.
BarChart comparison_chart(const Comparison& comparison);

}  // namespace dlfl::eval
