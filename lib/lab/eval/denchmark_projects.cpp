// Denchmark project metadata: languages and DL frameworks from report.csv, categories
// from Dataset.xlsx.
#include <algorithm>
#include <array>

#include "bugset_io.h"
#include "dlfl/lab/eval/denchmark.h"
#include "dlfl/lab/eval/denchmark_xlsx.h"
#include "dlfl/error.h"

namespace dlfl::eval {
namespace {

// report.csv's O/X columns that name DL frameworks; every other O/X column names a
// language. Listing the frameworks (not the languages) keeps a language column added in a
// later release a language.
constexpr std::array<std::string_view, 9> dl_framework_columns = {
    "tensorflow", "cntk", "caffe", "torch", "mxnet", "chainer", "theano", "org.deeplearning4j",
    "paddle"};

// Columns that carry counts or free text, not O/X flags.
constexpr std::array<std::string_view, 9> non_flag_columns = {
    "project", "code-bug-num", "bug-num", "avgcomments", "avgresolution", "avgfiles",
    "avgmethod", "avglines", "topics"};

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::map<std::string, DenchmarkProject> read_denchmark_report_csv(const std::filesystem::path& path) {
  const std::string source = path.string();
  const std::vector<detail::CsvRecord> records = detail::read_csv_file(path);
  if (records.empty()) throw Error(source, 0, "empty file");
  const std::vector<std::string>& header = records.front().fields;
  const auto project_column = std::find(header.begin(), header.end(), "project");
  if (project_column == header.end()) throw Error(source, 1, "no \"project\" column");
  const std::size_t project_index = static_cast<std::size_t>(project_column - header.begin());
  std::vector<std::size_t> flag_columns;
  for (std::size_t c = 0; c < header.size(); ++c)
    if (!contains(non_flag_columns, header[c])) flag_columns.push_back(c);

  std::map<std::string, DenchmarkProject> projects;
  for (std::size_t r = 1; r < records.size(); ++r) {
    const detail::CsvRecord& record = records[r];
    // The last column (topics) may hold unquoted commas, so a row may be longer.
    if (record.fields.size() < header.size() - 1)
      throw Error(source, record.line, "expected " + std::to_string(header.size()) + " fields");
    const std::string& name = record.fields[project_index];
    if (name.empty()) throw Error(source, record.line, "empty project name");
    DenchmarkProject& project = projects[name];
    for (const std::size_t c : flag_columns) {
      const std::string_view flag = c < record.fields.size() ? detail::trim_blanks(record.fields[c]) : "";
      if (flag != "O" && flag != "X")
        throw Error(source, record.line,
                    "column " + header[c] + ": expected O or X, found \"" + std::string(flag) + "\"");
      if (flag != "O") continue;
      (contains(dl_framework_columns, header[c]) ? project.dl_frameworks : project.languages)
          .push_back(header[c]);
    }
  }
  return projects;
}

std::map<std::string, std::string> read_denchmark_project_classes(const std::filesystem::path& xlsx_path) {
  const std::string source = xlsx_path.string();
  const SheetRows rows = read_xlsx_sheet(xlsx_path, "Project_Classes");
  // The header is the first row with "User/Project" and "Type" cells.
  std::size_t header_row = rows.size(), project_column = 0, type_column = 0;
  for (std::size_t r = 0; r < rows.size() && header_row == rows.size(); ++r) {
    const auto& cells = rows[r];
    const auto project = std::find(cells.begin(), cells.end(), "User/Project");
    const auto type = std::find(cells.begin(), cells.end(), "Type");
    if (project == cells.end() || type == cells.end()) continue;
    header_row = r;
    project_column = static_cast<std::size_t>(project - cells.begin());
    type_column = static_cast<std::size_t>(type - cells.begin());
  }
  if (header_row == rows.size())
    throw Error(source, 0, "sheet Project_Classes has no \"User/Project\" and \"Type\" header");
  std::map<std::string, std::string> categories;
  for (std::size_t r = header_row + 1; r < rows.size(); ++r) {
    const auto& cells = rows[r];
    if (cells.size() <= project_column || cells[project_column].empty()) continue;
    const std::string category = type_column < cells.size() ? cells[type_column] : std::string();
    if (category.empty())
      throw Error(source, 0, "sheet Project_Classes, row " + std::to_string(r + 1) + ": no Type for " +
                                 cells[project_column]);
    categories[cells[project_column]] = std::string(detail::trim_blanks(category));
  }
  return categories;
}

}  // namespace dlfl::eval
