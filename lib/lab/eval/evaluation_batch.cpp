// Evaluation batches: the (bug, ranking, truth) CSV behind `dlfl eval --batch`.
#include "dlfl/lab/eval/evaluation_batch.h"

#include <optional>

#include "bugset_io.h"
#include "dlfl/error.h"

namespace dlfl::eval {

std::vector<BatchEntry> read_evaluation_batch(const std::filesystem::path& path) {
  const std::string source = path.string();
  const auto records = detail::read_csv_file(path);
  if (records.empty()) throw Error(source, 0, "empty batch: expected a header bug,ranking[,truth][,technique]");
  const auto& header = records[0].fields;
  const auto column = [&](std::string_view name) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (detail::trim_blanks(header[i]) == name) return i;
    return std::nullopt;
  };
  const auto bug = column("bug"), ranking = column("ranking"), truth = column("truth"),
             technique = column("technique");
  if (!bug || !ranking)
    throw Error(source, records[0].line, "header lacks the 'bug' or 'ranking' column");
  // Paths in the batch are relative to it, so a batch directory can move as a whole.
  const std::filesystem::path base = path.parent_path();
  const auto resolve = [&](std::string_view cell) {
    const std::filesystem::path p{std::string(cell)};
    return p.is_absolute() || base.empty() ? p : base / p;
  };
  std::vector<BatchEntry> entries;
  for (std::size_t i = 1; i < records.size(); ++i) {
    const auto& r = records[i];
    if (r.fields.size() != header.size())
      throw Error(source, r.line,
                  "row has " + std::to_string(r.fields.size()) + " fields, the header " +
                      std::to_string(header.size()));
    BatchEntry e;
    e.line = r.line;
    e.bug = std::string(detail::trim_blanks(r.fields[*bug]));
    const auto ranking_cell = detail::trim_blanks(r.fields[*ranking]);
    if (e.bug.empty()) throw Error(source, r.line, "empty bug");
    if (ranking_cell.empty()) throw Error(source, r.line, "empty ranking");
    e.ranking = resolve(ranking_cell);
    if (truth)
      if (const auto cell = detail::trim_blanks(r.fields[*truth]); !cell.empty()) e.truth = resolve(cell);
    if (technique) e.technique = std::string(detail::trim_blanks(r.fields[*technique]));
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace dlfl::eval
