// Bug labels for grouping comparisons: one labels.csv column per bug id, and results
// regrouped by it.
#include <algorithm>

#include "bugset_io.h"
#include "dlfl/error.h"
#include "dlfl/lab/eval/bugset_labels.h"
#include "dlfl/lab/eval/bugset_stats.h"
#include "dlfl/lab/eval/compare_table.h"

namespace dlfl::eval {
namespace {

std::optional<std::size_t> find_column(const std::vector<std::string>& header, std::string_view name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (detail::trim_blanks(header[i]) == name) return i;
  return std::nullopt;
}

// Jahan et al.'s derived labels, by read_jahan_labels' rules (which also fix the
// spreadsheets' spelling and derive extrinsic from intrinsic when only that is given).
std::string jahan_value(const AnnotatorLabels& agreed, std::string_view column) {
  if (column == "dl_bug_type")
    return !agreed.dl_bug_type.empty() ? agreed.dl_bug_type
           : agreed.dl_bug == false    ? std::string(not_dl_bug_key)
                                       : std::string(disputed_key);
  if (column == "extrinsic")
    return !agreed.extrinsic ? std::string(disputed_key) : *agreed.extrinsic ? "extrinsic" : "intrinsic";
  return !agreed.dl_bug ? std::string(disputed_key) : *agreed.dl_bug ? "DL" : "not DL";
}

bool is_jahan_column(std::string_view column) {
  return column == "dl_bug_type" || column == "extrinsic" || column == "dl_bug";
}

}  // namespace

LabelColumn read_label_column(const std::filesystem::path& path, const std::string& column,
                              const std::string& key_column) {
  const std::string source = path.string();
  const auto records = detail::read_csv_file(path);
  if (records.empty()) throw Error(source, 0, "empty file");
  const auto& header = records[0].fields;
  LabelColumn labels;
  labels.column = column;
  const auto key = find_column(header, key_column);
  if (!key) throw Error(source, records[0].line, "no '" + key_column + "' column to join on");

  const auto direct = find_column(header, column);
  if (!direct && is_jahan_column(column) && key_column == "id" && find_column(header, "dl_bug_a1")) {
    LabelTable table = read_jahan_labels(path);
    labels.warnings = std::move(table.warnings);
    for (const auto& [id, entry] : table.by_id) labels.by_bug.emplace(id, jahan_value(entry.labels.agreed, column));
    return labels;
  }
  const auto first = find_column(header, column + "_a1"), second = find_column(header, column + "_a2");
  if (!direct && !(first && second))
    throw Error(source, records[0].line,
                "no '" + column + "' column (nor '" + column + "_a1' and '" + column + "_a2')");
  const auto cell = [&](const detail::CsvRecord& r, std::size_t i) {
    return std::string(i < r.fields.size() ? detail::trim_blanks(r.fields[i]) : std::string_view());
  };
  for (std::size_t i = 1; i < records.size(); ++i) {
    const auto& r = records[i];
    const std::string id = cell(r, *key);
    if (id.empty()) throw Error(source, r.line, "empty " + key_column);
    std::string value;
    if (direct) {
      value = cell(r, *direct);
    } else {
      const std::string a = cell(r, *first), b = cell(r, *second);
      value = a == b ? a : std::string(disputed_key);
    }
    if (value.empty()) value = no_label_value;
    const auto [it, added] = labels.by_bug.emplace(id, value);
    if (!added && it->second != value)
      labels.warnings.push_back(source + ":" + std::to_string(r.line) + ": " + key_column + " " + id +
                                " repeats with " + column + " '" + value + "'; the first row's '" +
                                it->second + "' is kept");
  }
  return labels;
}

Regrouped regroup_by_label(std::span<const BugResult> results, const LabelColumn& labels,
                           bool keep_group) {
  Regrouped out;
  out.results.reserve(results.size());
  for (const auto& r : results) {
    const auto it = labels.by_bug.find(r.bug);
    if (it == labels.by_bug.end()) {
      ++out.unlabelled[r.group];
      continue;
    }
    BugResult copy = r;
    copy.group = keep_group ? r.group + "/" + it->second : it->second;
    out.results.push_back(std::move(copy));
  }
  return out;
}

}  // namespace dlfl::eval
