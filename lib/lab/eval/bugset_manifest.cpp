// Bug-set manifest: BugReports to and from JSON Lines.
#include "dlfl/lab/eval/bugset_manifest.h"

#include <algorithm>
#include <istream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>

#include "bugscpp_json.h"
#include "dlfl/error.h"
#include "dlfl/lab/eval/bugset_names.h"
#include "dlfl/files/json_depth.h"
#include "dlfl/files/text_file.h"

namespace dlfl::eval {
namespace {

using Json = nlohmann::ordered_json;  // keeps members in the documented order

Json name_json(const std::string& name) { return name.empty() ? Json(nullptr) : Json(name); }

Json optional_json(const std::optional<bool>& value) { return value ? Json(*value) : Json(nullptr); }

Json labels_json(const AnnotatorLabels& labels) {
  return Json{{"dl_bug", optional_json(labels.dl_bug)},
              {"dl_bug_type", name_json(labels.dl_bug_type)},
              {"extrinsic", optional_json(labels.extrinsic)}};
}

Json file_json(const FileChange& file) {
  Json methods = Json::array();
  for (const ChangedMethod& method : file.methods)
    methods.push_back({{"name", method.name},
                       {"parameters", method.parameters},
                       {"start_line", method.start_line},
                       {"end_line", method.end_line},
                       {"deleted_lines", method.deleted_lines},
                       {"added_lines", method.added_lines}});
  return Json{{"old_name", name_json(file.old_name)},
              {"new_name", name_json(file.new_name)},
              {"change_type", to_string(file.change_type)},
              {"deleted_lines", file.deleted_lines},
              {"added_lines", file.added_lines},
              {"methods", std::move(methods)}};
}

// A hostile value shown in an error: quoted, cut to 80 bytes (the error line escapes the rest).
std::string quoted_excerpt(std::string_view text) {
  return "\"" + std::string(text.substr(0, 80)) + (text.size() > 80 ? "...\"" : "\"");
}

// Reading: every accessor names the member it failed on.
class ManifestReader {
 public:
  ManifestReader(const std::string& source, std::size_t line) : source_(source), line_(line) {}

  // The bug the following errors are about.
  void set_bug(std::string id) { bug_ = "bug " + std::move(id); }

  [[noreturn]] void fail(const std::string& what) const { throw Error(source_, line_, what); }

  const Json& member(const Json& object, const char* name, bool required) const {
    static const Json absent;
    const auto it = object.find(name);
    if (it == object.end()) {
      if (required) fail(std::string("missing member \"") + name + "\"");
      return absent;
    }
    return *it;
  }

  std::string text(const Json& object, const char* name, bool required = false) const {
    const Json& value = member(object, name, required);
    if (value.is_null()) return {};
    if (!value.is_string()) fail(std::string("member \"") + name + "\" is not a string");
    return value.get<std::string>();
  }

  std::vector<std::string> texts(const Json& object, const char* name) const {
    std::vector<std::string> values;
    for (const Json& value : array(object, name, false)) {
      if (!value.is_string()) fail(std::string("member \"") + name + "\" holds a non-string");
      values.push_back(value.get<std::string>());
    }
    return values;
  }

  const Json& array(const Json& object, const char* name, bool required) const {
    static const Json empty = Json::array();
    const Json& value = member(object, name, required);
    if (value.is_null()) return empty;
    if (!value.is_array()) fail(std::string("member \"") + name + "\" is not an array");
    return value;
  }

  std::uint32_t line_number(const Json& value, const char* name) const {
    if (!value.is_number_unsigned() || value.get<std::uint64_t>() == 0 ||
        value.get<std::uint64_t>() > UINT32_MAX)
      fail(std::string("member \"") + name + "\" holds " + value.dump() +
           ", not a line number (1..4294967295)");
    return static_cast<std::uint32_t>(value.get<std::uint64_t>());
  }

  std::vector<std::uint32_t> lines(const Json& object, const char* name) const {
    std::vector<std::uint32_t> values;
    for (const Json& value : array(object, name, false)) values.push_back(line_number(value, name));
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
  }

  std::uint32_t optional_line(const Json& object, const char* name) const {
    const Json& value = member(object, name, false);
    return value.is_null() || value == 0 ? 0 : line_number(value, name);
  }

  std::optional<bool> flag(const Json& object, const char* name) const {
    const Json& value = member(object, name, false);
    if (value.is_null()) return std::nullopt;
    if (!value.is_boolean()) fail(std::string("member \"") + name + "\" is not a boolean");
    return value.get<bool>();
  }

  AnnotatorLabels annotator(const Json& labels, const char* name) const {
    const Json& value = member(labels, name, false);
    if (value.is_null()) return {};
    if (!value.is_object()) fail(std::string("labels member \"") + name + "\" is not an object");
    return {flag(value, "dl_bug"), text(value, "dl_bug_type"), flag(value, "extrinsic")};
  }

  FileChange file(const Json& value) const {
    if (!value.is_object()) fail("a \"files\" entry is not an object");
    FileChange file;
    file.old_name = text(value, "old_name");
    file.new_name = text(value, "new_name");
    const std::string type = text(value, "change_type", true);
    const std::optional<ChangeType> parsed = parse_change_type(type);
    if (!parsed) fail("unknown change_type \"" + type + "\"");
    file.change_type = *parsed;
    if (file.path().empty()) fail("a \"files\" entry has neither old_name nor new_name");
    for (const auto& [name, path] : {std::pair{"old_name", &file.old_name}, std::pair{"new_name", &file.new_name}}) {
      if (path->empty()) continue;
      if (const std::string problem = repository_path_problem(*path); !problem.empty())
        fail(bug_ + ": \"files\" entry \"" + name + "\" " + problem + " (a manifest names files inside the repository): " +
             quoted_excerpt(*path));
    }
    file.deleted_lines = lines(value, "deleted_lines");
    file.added_lines = lines(value, "added_lines");
    for (const Json& method_value : array(value, "methods", false)) {
      if (!method_value.is_object()) fail("a \"methods\" entry is not an object");
      ChangedMethod method;
      method.name = text(method_value, "name");
      method.parameters = text(method_value, "parameters");
      method.start_line = optional_line(method_value, "start_line");
      method.end_line = optional_line(method_value, "end_line");
      method.deleted_lines = lines(method_value, "deleted_lines");
      method.added_lines = lines(method_value, "added_lines");
      file.methods.push_back(std::move(method));
    }
    return file;
  }

 private:
  const std::string& source_;
  std::size_t line_;
  std::string bug_ = "a bug";
};


}  // namespace

std::string manifest_line(const BugReport& bug) {
  Json change_type_names = Json::array();
  for (const ChangeType type : change_types(bug)) change_type_names.push_back(to_string(type));
  Json files = Json::array();
  for (const FileChange& file : bug.files) files.push_back(file_json(file));
  Json line{{"id", bug.id},
            {"project", bug.project},
            {"number", bug.number},
            {"category", bug.category},
            {"languages", bug.languages},
            {"dl_frameworks", bug.dl_frameworks},
            {"title", bug.title},
            {"body", bug.body},
            {"opened", bug.opened},
            {"closed", bug.closed},
            {"fix_commit", bug.fix_commit},
            {"fix_date", bug.fix_date},
            {"change_types", std::move(change_type_names)},
            {"files", std::move(files)}};
  if (bug.labels)
    line["labels"] = Json{{"first", labels_json(bug.labels->first)},
                          {"second", labels_json(bug.labels->second)},
                          {"agreed", labels_json(bug.labels->agreed)}};
  if (bug.bugscpp) line["bugscpp"] = bugscpp_json(*bug.bugscpp);
  return line.dump(-1, ' ', false, Json::error_handler_t::replace);
}

void write_manifest(std::ostream& out, const std::vector<BugReport>& bugs) {
  for (const BugReport& bug : bugs) {
    const std::string line = manifest_line(bug);
    // Never a manifest that read_manifest refuses.
    if (line.size() > kMaxManifestLineBytes)
      throw Error("bug " + bug.id + ": its manifest line of " + std::to_string(line.size()) +
                  " bytes is longer than the " + io::limit_text(kMaxManifestLineBytes) + " limit");
    out << line << '\n';
  }
}

BugReport parse_manifest_line(std::string_view line, const std::string& source_name,
                              std::size_t line_number) {
  ManifestReader reader(source_name, line_number);
  Json value;
  io::check_json_depth(line, source_name, line_number);
  try {
    value = Json::parse(line.begin(), line.end());
  } catch (const Json::exception& error) {
    // parse_error, and out_of_range for a number beyond a double (1e400).
    reader.fail(std::string("invalid JSON: ") + error.what());
  }
  if (!value.is_object()) reader.fail("a manifest line must be a JSON object");
  BugReport bug;
  bug.id = reader.text(value, "id", true);
  bug.project = reader.text(value, "project", true);
  if (bug.id.empty()) reader.fail("empty \"id\"");
  // Ids and project names become directory names and parts of command lines.
  if (!is_valid_bug_id(bug.id))
    reader.fail("\"id\" " + quoted_excerpt(bug.id) +
                " is not a bug id (a letter or digit, then letters, digits, '.', '_', '-', '+', '#'; at most 200)");
  reader.set_bug(bug.id);
  if (!is_valid_project_name(bug.project))
    reader.fail("bug " + bug.id + ": \"project\" " + quoted_excerpt(bug.project) +
                " is not a project name (a letter or digit, then letters, digits, '.', '_', '-', '+'; at most 128)");
  bug.number = reader.text(value, "number");
  bug.category = reader.text(value, "category");
  bug.languages = reader.texts(value, "languages");
  bug.dl_frameworks = reader.texts(value, "dl_frameworks");
  bug.title = reader.text(value, "title");
  bug.body = reader.text(value, "body");
  bug.opened = reader.text(value, "opened");
  bug.closed = reader.text(value, "closed");
  bug.fix_commit = reader.text(value, "fix_commit");
  bug.fix_date = reader.text(value, "fix_date");
  for (const Json& file : reader.array(value, "files", true)) bug.files.push_back(reader.file(file));
  const Json& labels = reader.member(value, "labels", false);
  if (!labels.is_null()) {
    if (!labels.is_object()) reader.fail("member \"labels\" is not an object");
    bug.labels = BugLabels{reader.annotator(labels, "first"), reader.annotator(labels, "second"),
                           reader.annotator(labels, "agreed")};
  }
  if (const Json& defect = reader.member(value, "bugscpp", false); !defect.is_null())
    bug.bugscpp = parse_bugscpp_json(defect, source_name, line_number);
  return bug;
}

namespace {

// The bugs of a manifest, line by line: blank lines skipped, ids unique.
class ManifestBugs {
 public:
  explicit ManifestBugs(const std::string& source_name) : source_name_(source_name) {}
  void add(std::string_view line, std::size_t line_number) {
    if (line_number == 1) line = io::without_bom(line);
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;
    bugs_.push_back(parse_manifest_line(line, source_name_, line_number));
    if (!ids_.insert(bugs_.back().id).second)
      throw Error(source_name_, line_number, "duplicate id \"" + bugs_.back().id + "\"");
  }
  std::vector<BugReport> take() { return std::move(bugs_); }

 private:
  const std::string& source_name_;
  std::vector<BugReport> bugs_;
  std::set<std::string> ids_;
};

}  // namespace

std::vector<BugReport> read_manifest(std::istream& in, const std::string& source_name) {
  ManifestBugs bugs(source_name);
  std::string line;
  for (std::size_t line_number = 1; std::getline(in, line); ++line_number) {
    if (line.size() > kMaxManifestLineBytes)
      throw Error(source_name, line_number, "manifest line longer than the " + io::limit_text(kMaxManifestLineBytes) + " limit");
    bugs.add(line, line_number);
  }
  if (in.bad()) throw Error(source_name, 0, "read error");
  return bugs.take();
}

std::vector<BugReport> read_manifest(const std::filesystem::path& path) {
  // Streamed: memory is the longest line allowed, not the file.
  io::TextFileLines lines(path, kMaxManifestLineBytes, "manifest line");
  ManifestBugs bugs(lines.name());
  for (std::string_view line; lines.next(line);) bugs.add(line, lines.line_number());
  return bugs.take();
}

}  // namespace dlfl::eval
