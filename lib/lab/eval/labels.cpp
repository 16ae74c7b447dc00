// Bug labels of Jahan et al. (EMSE 2025): reading labels.csv and joining it to bugs.
#include <algorithm>
#include <unordered_map>

#include "bugset_io.h"
#include "dlfl/error.h"
#include "dlfl/lab/eval/bugset_labels.h"

namespace dlfl::eval {
namespace {

struct AnnotatorColumns {
  std::size_t dl_bug, dl_bug_type, extrinsic, intrinsic;
};

class LabelsReader {
 public:
  LabelsReader(const std::string& source, LabelTable& table) : source_(source), table_(table) {}

  std::optional<bool> flag(const detail::CsvRecord& record, std::size_t column,
                           const std::string& name) const {
    const std::string_view cell = cell_of(record, column);
    if (cell.empty()) return std::nullopt;
    if (cell == "1") return true;
    if (cell == "0") return false;
    throw Error(source_, record.line, name + ": expected 1, 0 or nothing, found \"" + std::string(cell) + "\"");
  }

  AnnotatorLabels annotator(const detail::CsvRecord& record, const AnnotatorColumns& columns,
                            const std::string& suffix) {
    AnnotatorLabels labels;
    labels.dl_bug = flag(record, columns.dl_bug, "dl_bug" + suffix);
    labels.dl_bug_type = std::string(cell_of(record, columns.dl_bug_type));
    // The spreadsheets shorten "Tensor & Input" to "Tensor" once per annotator.
    if (labels.dl_bug_type == "Tensor") labels.dl_bug_type = "Tensor & Input";
    if (!labels.dl_bug_type.empty() &&
        std::find(std::begin(dl_bug_types), std::end(dl_bug_types), labels.dl_bug_type) ==
            std::end(dl_bug_types))
      warn(record, "unknown dl_bug_type" + suffix + " \"" + labels.dl_bug_type + "\" kept as is");
    const std::optional<bool> extrinsic = flag(record, columns.extrinsic, "extrinsic" + suffix);
    const std::optional<bool> intrinsic = flag(record, columns.intrinsic, "intrinsic" + suffix);
    if (extrinsic && intrinsic && *extrinsic == *intrinsic)
      warn(record, "extrinsic" + suffix + " and intrinsic" + suffix + " contradict; left unset");
    else if (extrinsic)
      labels.extrinsic = extrinsic;
    else if (intrinsic)
      labels.extrinsic = !*intrinsic;
    return labels;
  }

  void warn(const detail::CsvRecord& record, const std::string& what) {
    table_.warnings.push_back(source_ + ":" + std::to_string(record.line) + ": " + what);
  }

 private:
  static std::string_view cell_of(const detail::CsvRecord& record, std::size_t column) {
    return column < record.fields.size() ? detail::trim_blanks(record.fields[column]) : std::string_view();
  }

  const std::string& source_;
  LabelTable& table_;
};

}  // namespace

LabelTable read_jahan_labels(const std::filesystem::path& path) {
  const std::string source = path.string();
  const std::vector<detail::CsvRecord> records = detail::read_csv_file(path);
  if (records.empty()) throw Error(source, 0, "empty file");
  const std::vector<std::string>& header = records.front().fields;
  auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) throw Error(source, records.front().line, "no \"" + name + "\" column");
    return static_cast<std::size_t>(it - header.begin());
  };
  const std::size_t dataset_column = column("dataset");
  const std::size_t id_column = column("id");
  auto annotator_columns = [&](const std::string& suffix) {
    return AnnotatorColumns{column("dl_bug" + suffix), column("dl_bug_type" + suffix),
                            column("extrinsic" + suffix), column("intrinsic" + suffix)};
  };
  const AnnotatorColumns first_columns = annotator_columns("_a1");
  const AnnotatorColumns second_columns = annotator_columns("_a2");

  LabelTable table;
  LabelsReader reader(source, table);
  for (std::size_t r = 1; r < records.size(); ++r) {
    const detail::CsvRecord& record = records[r];
    if (record.fields.size() <= std::max(dataset_column, id_column))
      throw Error(source, record.line, "too few fields");
    const std::string id(detail::trim_blanks(record.fields[id_column]));
    if (id.empty()) throw Error(source, record.line, "empty id");
    LabelEntry entry;
    entry.dataset = std::string(detail::trim_blanks(record.fields[dataset_column]));
    entry.labels.first = reader.annotator(record, first_columns, "_a1");
    entry.labels.second = reader.annotator(record, second_columns, "_a2");
    entry.labels.agreed = agreed_labels(entry.labels.first, entry.labels.second);
    const auto [it, inserted] = table.by_id.emplace(id, entry);
    if (inserted) continue;
    ++table.duplicate_rows;
    if (it->second.dataset != entry.dataset || !(it->second.labels == entry.labels))
      reader.warn(record, "id " + id + " repeats an earlier row with different labels; the first is kept");
  }
  return table;
}

LabelJoinResult join_labels(std::vector<BugReport>& bugs, const LabelTable& table,
                            std::string_view dataset) {
  std::unordered_map<std::string_view, BugReport*> by_id;
  for (BugReport& bug : bugs) by_id.emplace(bug.id, &bug);
  LabelJoinResult result;
  for (const auto& [id, entry] : table.by_id) {
    if (entry.dataset != dataset) continue;
    const auto it = by_id.find(id);
    if (it == by_id.end()) {
      result.unmatched_ids.push_back(id);
      continue;
    }
    it->second->labels = entry.labels;
    ++result.joined;
  }
  return result;
}

}  // namespace dlfl::eval
