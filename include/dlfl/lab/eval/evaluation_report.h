// Per-bug evaluation results (metrics.h) written out as an aligned table, CSV or JSON; the
// CSV is a per-bug result table `dlfl compare` reads (compare_table.h).
#pragma once

#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "dlfl/aggregate.h"
#include "dlfl/lab/eval/metrics.h"
#include "dlfl/ranking.h"

namespace dlfl::eval {

// One ranking evaluated against one bug's faults at one level.
struct BugEvaluation {
  std::string bug;        // bug id, e.g. "pytorch+pytorch#123", or the ground-truth file name
  std::string technique;  // the ranking's formula (or a name the user gave)
  Granularity level = Granularity::line;
  BugMetrics metrics;
};

enum class EvaluationFormat { table, csv, json };

// "table", "csv", "json" (case-insensitive); nullopt otherwise.
std::optional<EvaluationFormat> parse_evaluation_format(std::string_view name) noexcept;

// One row per evaluation and tie rule (rules in the order given), columns:
//   bug, technique, level, ties, elements (N), n_faulty (faulty elements, with missing
//   ones), missing_faulty, found (1/0), first_rank (1-based position of the first fault
//   under the rule; for `average` the expected position, E_inspect; 0 when not found, as
//   compare_table.h reads it), exam, top<N> per Top-N (1/0; for `average` the
//   probability), e_inspect, wasted_effort (tie-independent: the same on every rule's
//   row), ap, rr.
// A value that is undefined because the bug was not found (exam, e_inspect,
// wasted_effort) is empty in csv, "-" in the table and null in JSON.
//   table  aligned columns with a header line; numbers to 4 decimals.
//   csv    RFC 4180 with a header line; numbers in shortest round-trip form.
//   json   {"evaluations": [{"bug", "technique", "level", "elements", "n_faulty",
//           "missing_faulty", "found", "e_inspect", "wasted_effort",
//           "best"|"worst"|"average": {"first_rank", "exam", "top1", ..., "ap", "rr"}}]}
//          with one member per requested rule.
// Throws dlfl::Error when `rules` is empty.
void write_evaluations(std::ostream& out, std::span<const BugEvaluation> evaluations,
                       std::span<const TieRule> rules, EvaluationFormat format);

}  // namespace dlfl::eval
