// Per-bug result tables (CSV, with or without a header) read into BugResults for
// compare(), and bug labels (a labels.csv column) that regroup them.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dlfl/lab/eval/compare.h"

namespace dlfl::eval {

// Column roles, by the names --columns uses (a header's names map to them too):
//   project     project of the bug ("owner+repo")           header: project
//   version     project version (read, not used)             header: version
//   bug         bug id within the project                    header: bug, bug_id, bugid, id
//   technique   localization technique or formula            header: technique, method, formula
//   n_faulty    number of faulty elements                    header: n_faulty, gtf
//   first_rank  rank of the first faulty element, 0 = none   header: first_rank, top_rank
//   rr          reciprocal rank                              header: rr, mrr
//   ap          average precision                            header: ap, map
// Header names compare case-insensitively. Any other column is kept by name: a numeric
// cell becomes BugResult::extra (a metric compare() can test, e.g. "exam"), and every
// cell can be filtered on. A column named "" or "-" in --columns is ignored.
struct ResultTableOptions {
  std::string group;  // every row's group
  // Column names in file order. Empty: the first line is a header naming them. Given:
  // they replace the header's names, and the first line is skipped as a header unless
  // `no_header`.
  std::vector<std::string> columns;
  // The table may start with data (requires `columns`). A first line whose first_rank,
  // rr, ap or n_faulty cell is not a number at all is still taken as a header and skipped,
  // so that one mapping reads both a header-less table and one with a header (Jahan et
  // al.'s DL table has none, their traditional one has one).
  bool no_header = false;
  std::string technique = "unnamed";  // for tables without a technique column
  // Keep only rows whose column (a role or other name) holds exactly this text.
  std::vector<std::pair<std::string, std::string>> filters;
};

struct ResultTable {
  std::vector<BugResult> results;
  std::size_t filtered_out = 0;  // rows a filter dropped
  bool header_skipped = false;   // whether the first line was read as a header
};

// Parses a table. The bug id is "project#bug" when there is a project column and the bug
// cell holds no '#', else the bug cell. Blank lines are skipped. Throws dlfl::Error
// "SOURCE:LINE: what" for no bug column, a row with a different number of fields than the
// first, an empty bug id, a role cell that is not a number (an empty rr/ap/first_rank/
// n_faulty cell included), RR or AP outside [0, 1], a negative first rank or n_faulty,
// an unknown filter column, or no header to name the columns.
ResultTable parse_result_table(std::string_view text, const std::string& source_name,
                               const ResultTableOptions& options);
// A file over 256 MiB is refused before it is read ("PATH: table of N bytes is larger than
// the 256 MiB limit"; the bound of every eval table, lib/lab/eval/bugset_io.h).
ResultTable read_result_table(const std::filesystem::path& path, const ResultTableOptions& options);

// One label per bug id, from one column of a labels CSV (its header names the columns).
struct LabelColumn {
  std::string column;
  std::map<std::string, std::string, std::less<>> by_bug;  // bug id -> label value
  std::vector<std::string> warnings;                       // "FILE:LINE: what"
};

// The value a bug gets when its label cell is empty.
inline constexpr std::string_view no_label_value = "(none)";

// Reads `column` of a labels CSV keyed by `key_column` (bug ids as BugResult::bug spells
// them: Jahan et al.'s labels.csv `id` is "project#bug"). An empty cell reads as
// no_label_value. When the file lacks `column` but has COLUMN_a1 and COLUMN_a2 (two
// annotators' labels side by side), the value is the one both annotators agree on, or
// disputed_key (bugset_stats.h) when they differ; for Jahan et al.'s labels.csv the
// columns dl_bug_type, extrinsic and dl_bug come from read_jahan_labels (its
// normalizations and rules; values: the bug type or not_dl_bug_key; "extrinsic" /
// "intrinsic"; "DL" / "not DL"; disputed_key when no value is agreed). Throws dlfl::Error
// naming the file for an unreadable file or a missing column; a bug id that repeats with
// another value keeps the first and warns.
LabelColumn read_label_column(const std::filesystem::path& path, const std::string& column,
                              const std::string& key_column = "id");

struct Regrouped {
  std::vector<BugResult> results;
  // Per original group: results left out because their bug has no row in the labels.
  std::map<std::string, std::size_t> unlabelled;
};

// Replaces each result's group by its bug's label. With `keep_group`, the group becomes
// "GROUP/label" (to split each input group by label); without it, by the label alone (to
// pool the inputs). Results whose bug has no label row are left out and counted.
Regrouped regroup_by_label(std::span<const BugResult> results, const LabelColumn& labels,
                           bool keep_group);

}  // namespace dlfl::eval
