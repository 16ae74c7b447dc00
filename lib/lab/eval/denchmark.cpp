// Denchmark importer: parses the per-report XML files (pugixml) in parallel and attaches
// each project's category and languages.
#include "dlfl/lab/eval/denchmark.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <exception>
#include <optional>
#include <pugixml.hpp>
#include <set>
#include <thread>

#include "bugset_io.h"
#include "dlfl/error.h"

namespace dlfl::eval {
namespace {

namespace fs = std::filesystem;
using detail::trim_blanks;

// Parsing state for one report, so that every message names the file and, where pugixml
// knows the offset, the line.
class ReportParser {
 public:
  ReportParser(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  [[noreturn]] void fail(pugi::xml_node at, const std::string& what) const {
    fail_at_offset(at ? static_cast<std::ptrdiff_t>(at.offset_debug()) : -1, what);
  }

  [[noreturn]] void fail_at_offset(std::ptrdiff_t offset, const std::string& what) const {
    std::size_t line = 0;
    if (offset >= 0 && static_cast<std::size_t>(offset) <= text_.size())
      line = 1 + static_cast<std::size_t>(std::count(text_.begin(), text_.begin() + offset, '\n'));
    throw Error(source_, line, what);
  }

  // "12,13,40" -> {12, 13, 40}; blank -> {}. Appends to `lines`.
  void read_line_list(pugi::xml_node list, std::vector<std::uint32_t>& lines) const {
    const std::string_view text = trim_blanks(list.child_value());
    if (text.empty()) return;
    std::size_t start = 0;
    for (;;) {
      const std::size_t comma = text.find(',', start);
      const std::string_view token = trim_blanks(text.substr(start, comma - start));
      std::uint32_t value = 0;
      const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
      if (token.empty() || error != std::errc{} || end != token.data() + token.size() || value == 0)
        fail(list, "<" + std::string(list.name()) + ">: \"" + std::string(token) +
                       "\" is not a positive line number");
      lines.push_back(value);
      if (comma == std::string_view::npos) return;
      start = comma + 1;
    }
  }

 private:
  std::string_view text_;
  const std::string& source_;
};

void sort_unique(std::vector<std::uint32_t>& lines) {
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
}

// Denchmark writes a missing path as the string 'None' and uses Windows separators.
std::string path_attribute(const ReportParser& parser, pugi::xml_node node, const char* name) {
  const pugi::xml_attribute attribute = node.attribute(name);
  if (!attribute) parser.fail(node, "<modification> lacks the " + std::string(name) + " attribute");
  std::string path = attribute.value();
  if (path == "None") return {};
  std::replace(path.begin(), path.end(), '\\', '/');
  return path;
}

FileChange read_modification(const ReportParser& parser, pugi::xml_node node) {
  FileChange change;
  const std::string type_text = node.attribute("change_type").value();
  const std::optional<ChangeType> type = parse_change_type(type_text);
  if (!type) parser.fail(node, "unknown change_type \"" + type_text + "\"");
  change.change_type = *type;
  change.old_name = path_attribute(parser, node, "old_name");
  change.new_name = path_attribute(parser, node, "new_name");
  // PyDriller sometimes reports an added file's path as its old path too (116 of 913 ADDs
  // in the 2023 snapshot); an added file has no old name, a deleted one no new name.
  if (change.change_type == ChangeType::add) change.old_name.clear();
  if (change.change_type == ChangeType::delete_) change.new_name.clear();
  const bool needs_both = change.change_type == ChangeType::modify ||
                          change.change_type == ChangeType::rename ||
                          change.change_type == ChangeType::copy;
  if (change.path().empty() || (needs_both && (change.old_name.empty() || change.new_name.empty())))
    parser.fail(node, type_text + " modification without a file name");

  // Denchmark lists a changed line either under <modified_lines> (outside any function)
  // or under the <method> holding it, never both: the file's lines are the union.
  const pugi::xml_node modified = node.child("modified_lines");
  parser.read_line_list(modified.child("deleted_lines"), change.deleted_lines);
  parser.read_line_list(modified.child("added_lines"), change.added_lines);
  for (const pugi::xml_node method_node : node.children("method")) {
    ChangedMethod method;
    method.name = method_node.attribute("name").value();
    method.parameters = method_node.attribute("parameters").value();
    const pugi::xml_node info = method_node.child("method_info");
    method.start_line = info.attribute("start_line").as_uint();
    method.end_line = info.attribute("end_line").as_uint();
    parser.read_line_list(method_node.child("deleted_lines"), method.deleted_lines);
    parser.read_line_list(method_node.child("added_lines"), method.added_lines);
    sort_unique(method.deleted_lines);
    sort_unique(method.added_lines);
    change.deleted_lines.insert(change.deleted_lines.end(), method.deleted_lines.begin(),
                                method.deleted_lines.end());
    change.added_lines.insert(change.added_lines.end(), method.added_lines.begin(),
                              method.added_lines.end());
    change.methods.push_back(std::move(method));
  }
  // Nested functions (a Python closure, a lambda) list the same line in each method.
  sort_unique(change.deleted_lines);
  sort_unique(change.added_lines);
  return change;
}

// Text of an element: all its character data, outer blanks trimmed.
std::string element_text(pugi::xml_node node) {
  std::string text;
  for (const pugi::xml_node child : node.children())
    if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) text += child.value();
  return std::string(trim_blanks(text));
}

bool is_decimal(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Project, then issue number numerically (numbers of different lengths compare by length).
bool bug_order(const BugReport& a, const BugReport& b) {
  if (a.project != b.project) return a.project < b.project;
  if (is_decimal(a.number) && is_decimal(b.number) && a.number.size() != b.number.size())
    return a.number.size() < b.number.size();
  return a.number < b.number;
}

fs::path find_reports_dir(const fs::path& dir, fs::path& root) {
  for (const fs::path& candidate : {dir, dir / "Denchmark_BRs"}) {
    const fs::path reports = candidate / fs::path(std::string(denchmark_reports_subdir));
    std::error_code error;
    if (fs::is_directory(reports, error)) {
      root = candidate;
      return reports;
    }
  }
  throw Error(dir.string(), 0,
              "not a Denchmark_BRs checkout (no " + std::string(denchmark_reports_subdir) + ")");
}

struct ReportFile {
  fs::path path;
  std::string project;
  std::string stem;
};

std::vector<ReportFile> list_report_files(const fs::path& reports_dir) {
  std::vector<ReportFile> files;
  for (const fs::directory_entry& project : fs::directory_iterator(reports_dir)) {
    if (!project.is_directory()) continue;
    for (const fs::directory_entry& report : fs::directory_iterator(project.path())) {
      if (!report.is_regular_file() || report.path().extension() != ".xml") continue;
      files.push_back({report.path(), project.path().filename().string(),
                       report.path().stem().string()});
    }
  }
  std::sort(files.begin(), files.end(),
            [](const ReportFile& a, const ReportFile& b) { return a.path < b.path; });
  return files;
}

// The outcome of parsing one file: a bug or the message of why it is malformed.
struct ParsedReport {
  std::optional<BugReport> bug;
  std::string error;
};

void parse_files(const std::vector<ReportFile>& files, unsigned thread_count,
                 std::vector<ParsedReport>& parsed) {
  parsed.assign(files.size(), {});
  std::atomic<std::size_t> next{0};
  std::exception_ptr unexpected;  // not a data problem (e.g. bad_alloc): rethrown as is
  std::atomic<bool> has_unexpected{false};
  auto work = [&] {
    for (std::size_t k = next++; k < files.size(); k = next++) {
      try {
        const std::string text = detail::read_file_bytes(files[k].path, detail::kMaxTableBytes, "bug report");
        parsed[k].bug = parse_denchmark_report(text, files[k].project, files[k].stem,
                                               files[k].path.string());
      } catch (const Error& error) {
        parsed[k].error = error.what();
      } catch (...) {
        if (!has_unexpected.exchange(true)) unexpected = std::current_exception();
        return;
      }
    }
  };
  std::vector<std::jthread> workers;
  for (unsigned t = 1; t < thread_count; ++t) workers.emplace_back(work);
  work();
  workers.clear();  // joins
  if (unexpected) std::rethrow_exception(unexpected);
}

}  // namespace

BugReport parse_denchmark_report(std::string_view xml_text, const std::string& project,
                                 const std::string& file_stem, const std::string& source_name) {
  const ReportParser parser(xml_text, source_name);
  pugi::xml_document doc;
  const pugi::xml_parse_result result = doc.load_buffer(xml_text.data(), xml_text.size());
  if (!result)
    parser.fail_at_offset(result.offset, std::string("XML parse error: ") + result.description());
  const pugi::xml_node root = doc.child("bug_data");
  if (!root) parser.fail({}, "no <bug_data> element");
  const pugi::xml_node bug_node = root.child("bug");
  if (!bug_node) parser.fail(root, "no <bug> element");

  BugReport bug;
  bug.project = project;
  bug.number = bug_node.attribute("id").value();
  if (bug.number.empty()) parser.fail(bug_node, "<bug> has no id");
  if (bug.number != file_stem)
    parser.fail(bug_node, "<bug id='" + bug.number + "'> does not match the file name");
  bug.id = project + "#" + bug.number;
  bug.title = element_text(bug_node.child("summary"));
  bug.body = element_text(bug_node.child("description"));
  bug.opened = bug_node.attribute("open_date").value();
  bug.closed = bug_node.attribute("closed_time").value();

  const pugi::xml_node commit = root.child("commit");
  if (!commit) parser.fail(root, "no <commit> element");
  if (commit.next_sibling("commit"))
    parser.fail(commit.next_sibling("commit"), "more than one <commit> element");
  bug.fix_commit = commit.attribute("id").value();
  if (bug.fix_commit.empty()) parser.fail(commit, "<commit> has no id");
  bug.fix_date = commit.attribute("date").value();
  for (const pugi::xml_node modification : commit.children("modification"))
    bug.files.push_back(read_modification(parser, modification));
  return bug;
}

DenchmarkImport import_denchmark(const std::filesystem::path& dir,
                                 const DenchmarkImportOptions& options) {
  fs::path root;
  const fs::path reports_dir = find_reports_dir(dir, root);
  DenchmarkImport out;
  auto problem = [&](const std::string& message) {
    if (options.strict) throw Error(message);
    out.warnings.push_back(message);
  };

  std::map<std::string, DenchmarkProject> projects;
  const fs::path report_csv = root / "report.csv";
  const fs::path dataset_xlsx = root / "Dataset.xlsx";
  bool have_languages = false, have_categories = false;
  std::set<std::string> in_report_csv;
  try {
    projects = read_denchmark_report_csv(report_csv);
    for (const auto& entry : projects) in_report_csv.insert(entry.first);
    have_languages = true;
  } catch (const Error& error) {
    problem(std::string(error.what()) + " (languages left empty)");
  }
  try {
    for (auto& [project, category] : read_denchmark_project_classes(dataset_xlsx))
      projects[project].category = std::move(category);
    have_categories = true;
  } catch (const Error& error) {
    problem(std::string(error.what()) + " (categories left empty)");
  }

  const std::vector<ReportFile> files = list_report_files(reports_dir);
  unsigned threads = options.threads;
  if (threads == 0) threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  std::vector<ParsedReport> parsed;
  parse_files(files, threads, parsed);

  std::set<std::string> no_category, no_languages;  // one warning per project
  for (ParsedReport& report : parsed) {
    if (!report.bug) {
      problem(report.error);
      ++out.skipped_reports;
      continue;
    }
    BugReport& bug = *report.bug;
    const auto it = projects.find(bug.project);
    if (it != projects.end()) {
      bug.category = it->second.category;
      bug.languages = it->second.languages;
      bug.dl_frameworks = it->second.dl_frameworks;
    }
    if (have_categories && bug.category.empty()) no_category.insert(bug.project);
    if (have_languages && !in_report_csv.contains(bug.project))
      no_languages.insert(bug.project);
    out.bugs.push_back(std::move(bug));
  }
  for (const std::string& project : no_category)
    problem(dataset_xlsx.string() + ": no category for project " + project);
  for (const std::string& project : no_languages)
    problem(report_csv.string() + ": no row for project " + project);
  std::sort(out.bugs.begin(), out.bugs.end(), bug_order);
  return out;
}

}  // namespace dlfl::eval
