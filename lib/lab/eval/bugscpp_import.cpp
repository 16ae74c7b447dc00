// BugsC++ taxonomy entries into manifest bugs (include/dlfl/lab/eval/bugscpp_import.h).
#include "dlfl/lab/eval/bugscpp_import.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "dlfl/error.h"
#include "dlfl/lab/eval/bugset_names.h"
#include "dlfl/lab/eval/unified_diff.h"
#include "dlfl/files/json_depth.h"
#include "dlfl/files/text_file.h"
#include "dlfl/lab/eval/bugset_manifest.h"  // kMaxManifestLineBytes

namespace dlfl::eval {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// The words of a line as Python's shlex.split (POSIX mode) makes them, which is how the
// container's exec splits a command: '...' literal, "..." with \" and \\ escapes, a
// backslash outside quotes escapes the next character.
std::optional<std::vector<std::string>> shell_words(std::string_view line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else if (c == '\'') {
      const auto close = line.find('\'', i + 1);
      if (close == std::string_view::npos) return std::nullopt;
      word += line.substr(i + 1, close - i - 1);
      i = close;
      in_word = true;
    } else if (c == '"') {
      for (++i;; ++i) {
        if (i >= line.size()) return std::nullopt;
        if (line[i] == '"') break;
        if (line[i] == '\\' && i + 1 < line.size() && (line[i + 1] == '"' || line[i + 1] == '\\')) ++i;
        word += line[i];
      }
      in_word = true;
    } else if (c == '\\') {
      if (i + 1 >= line.size()) return std::nullopt;
      word += line[++i];
      in_word = true;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

void replace_all(std::string& text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// Reads one meta.json; every complaint names it.
class Meta {
 public:
  explicit Meta(fs::path file) : file_(std::move(file)) {
    const std::string text = io::read_text_file(file_, kMaxMetaJsonBytes, "meta.json");
    io::check_json_depth(text, file_.string());
    try {
      json_ = Json::parse(text);
    } catch (const Json::exception& e) {
      fail(std::string("invalid JSON: ") + e.what());
    }
    if (!json_.is_object()) fail("not a JSON object");
  }
  [[noreturn]] void fail(const std::string& what) const { throw Error(file_.string(), 0, what); }
  const Json& json() const noexcept { return json_; }
  const fs::path& file() const noexcept { return file_; }

  const Json& member(const Json& object, const std::string& name, const std::string& where) const {
    if (!object.is_object()) fail(where + " is not an object");
    const auto it = object.find(name);
    if (it == object.end()) fail(where + " has no \"" + name + "\"");
    return *it;
  }
  std::string text(const Json& object, const std::string& name, const std::string& where) const {
    const Json& v = member(object, name, where);
    if (!v.is_string()) fail(where + "'s \"" + name + "\" is not a string");
    return v.get<std::string>();
  }
  std::uint32_t count(const Json& v, const std::string& what) const {
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() > UINT32_MAX) fail(what + " is " + v.dump() + ", not a count");
    return static_cast<std::uint32_t>(v.get<std::uint64_t>());
  }
  // The lines of a {"commands": [{"type", "lines"}]} step, converted.
  std::vector<std::string> commands(const Json& commands, const std::string& where) const {
    if (!commands.is_array()) fail(where + " is not an array of commands");
    std::vector<std::string> out;
    for (const Json& command : commands) {
      const Json& lines = member(command, "lines", where + " entry");
      if (!lines.is_array()) fail(where + "'s \"lines\" is not an array");
      for (const Json& line : lines) {
        if (!line.is_string()) fail(where + "'s \"lines\" holds a non-string");
        const auto converted = bugscpp_command_line(line.get<std::string>());
        if (!converted) fail(where + ": unbalanced quotes in " + line.dump());
        if (!converted->empty()) out.push_back(*converted);
      }
    }
    return out;
  }

 private:
  fs::path file_;
  Json json_;
};

std::string four_digits(std::uint32_t index) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%04u", static_cast<unsigned>(index));
  return buffer;
}

// A taxonomy's folders and files are its own: a symbolic link among them (a planted
// `patch/` leading elsewhere) would make a manifest of files outside the checkout.
void refuse_link(const fs::path& path, const char* what) {
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(path, ec)))
    throw Error(path.string(), 0, std::string("a symbolic link, not ") + what + " of the taxonomy");
}

// A patch of the defect when present; its paths must stay in the tree.
std::optional<BugsCppFile> read_patch(const fs::path& project_dir, std::uint32_t index, const std::string& kind,
                                      std::vector<DiffFile>* files) {
  const std::string name = four_digits(index) + "-" + kind + ".patch";
  const fs::path path = project_dir / "patch" / name;
  refuse_link(project_dir / "patch", "the patch folder");
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::nullopt;
  if (fs::is_symlink(fs::symlink_status(path, ec))) throw Error(path.string(), 0, "a symbolic link, not a patch file");
  BugsCppFile patch{name, io::read_file_bytes(path, kMaxManifestLineBytes, "patch")};
  std::vector<DiffFile> parsed = parse_unified_diff(patch.content, path.string());
  for (const DiffFile& file : parsed)
    for (const std::string* p : {&file.old_path, &file.new_path})
      if (!p->empty() && !repository_path_problem(*p).empty())
        throw Error(path.string(), file.header_line, "the path \"" + *p + "\" is not inside the tree (absolute, or with '..')");
  if (files) *files = std::move(parsed);
  return patch;
}

// Every file under extra/NNNN, relative to it, by path.
std::vector<BugsCppFile> read_extra_files(const fs::path& dir) {
  std::vector<BugsCppFile> files;
  refuse_link(dir.parent_path(), "the extra folder");
  refuse_link(dir, "a defect's extra folder");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return files;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
    const fs::path rel = it->path().lexically_relative(dir);
    if (it->is_symlink()) throw Error(it->path().string(), 0, "a symbolic link among the extra files");
    if (!it->is_regular_file()) continue;
    if (!repository_path_problem(rel.generic_string()).empty())
      throw Error(it->path().string(), 0, "an extra file path that is not inside the tree");
    files.push_back({rel.generic_string(), io::read_file_bytes(it->path(), kMaxManifestLineBytes, "extra file")});
  }
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  return files;
}

// The fix's view of the buggy patch (fixed -> buggy): buggy side = the fix's old file.
FileChange fix_change(const DiffFile& d) {
  FileChange f;
  f.old_name = d.new_path;
  f.new_name = d.old_path;
  if (d.old_path.empty()) f.change_type = ChangeType::delete_;
  else if (d.new_path.empty()) f.change_type = ChangeType::add;
  else if (d.old_path != d.new_path) f.change_type = ChangeType::rename;
  else f.change_type = ChangeType::modify;
  f.deleted_lines = d.added_lines;
  f.added_lines = d.removed_lines;
  return f;
}

std::vector<BugReport> import_project(const fs::path& project_dir) {
  const std::string project = project_dir.filename().string();
  const Meta meta(project_dir / "meta.json");
  if (!is_valid_project_name(project))
    meta.fail("the folder name \"" + project +
              "\" is not a project name (a letter or digit, then letters, digits, '.', '_', '+', '-')");
  const Json& root = meta.json();
  const std::string url = meta.text(meta.member(root, "info", "meta.json"), "url", "\"info\"");
  const Json& common = meta.member(root, "common", "meta.json");
  auto step = [&](const char* name) {
    return meta.commands(meta.member(meta.member(common, name, "\"common\""), "commands", std::string("\"") + name + "\""),
                         std::string("\"") + name + "\" commands");
  };
  BugsCppDefect shared;
  shared.url = url;
  shared.build = step("build");
  shared.build_coverage = step("build-coverage");
  shared.test = step("test");
  shared.test_coverage = step("test-coverage");

  const Json& defects = meta.member(root, "defects", "meta.json");
  if (!defects.is_array()) meta.fail("\"defects\" is not an array");
  std::vector<BugReport> bugs;
  std::set<std::string> ids;
  std::uint32_t index = 0;
  for (const Json& defect : defects) {
    ++index;
    const std::string where = "defect " + std::to_string(index);
    BugReport bug;
    const Json& id = meta.member(defect, "id", where);
    bug.number = id.is_string() ? id.get<std::string>() : std::to_string(meta.count(id, where + "'s \"id\""));
    bug.project = project;
    bug.id = project + "#" + bug.number;
    if (!is_valid_bug_id(bug.id)) meta.fail(where + "'s id " + id.dump() + " is not usable in a bug id");
    if (!ids.insert(bug.id).second) meta.fail("duplicate defect id " + id.dump());
    bug.category = "traditional";
    bug.fix_commit = meta.text(defect, "hash", where);
    if (defect.contains("description")) bug.title = meta.text(defect, "description", where);
    BugsCppDefect d = shared;
    d.index = index;
    d.num_cases = meta.count(meta.member(defect, "num_cases", where), where + "'s \"num_cases\"");
    const Json& cases = meta.member(defect, "case", where);
    if (!cases.is_array()) meta.fail(where + "'s \"case\" is not an array");
    for (const Json& c : cases) {
      const std::uint32_t k = meta.count(c, where + "'s case");
      if (k == 0 || k > d.num_cases)
        meta.fail(where + "'s case " + std::to_string(k) + " is outside 1.." + std::to_string(d.num_cases));
      d.cases.push_back(k);
    }
    std::sort(d.cases.begin(), d.cases.end());
    d.cases.erase(std::unique(d.cases.begin(), d.cases.end()), d.cases.end());
    if (defect.contains("tags")) {
      const Json& tags = defect["tags"];
      if (!tags.is_array()) meta.fail(where + "'s \"tags\" is not an array");
      for (const Json& t : tags) {
        if (!t.is_string()) meta.fail(where + "'s \"tags\" holds a non-string");
        d.tags.push_back(t.get<std::string>());
      }
    }
    if (defect.contains("extra_tests")) {
      const Json& extra = defect["extra_tests"];
      if (!extra.is_array()) meta.fail(where + "'s \"extra_tests\" is not an array");
      for (const Json& commands : extra) d.extra_tests.push_back(meta.commands(commands, where + "'s \"extra_tests\""));
      if (d.extra_tests.size() > d.num_cases) meta.fail(where + " has more extra_tests than cases");
    }
    std::vector<DiffFile> changed;
    const auto buggy = read_patch(project_dir, index, "buggy", &changed);
    if (!buggy)
      throw Error((project_dir / "patch" / (four_digits(index) + "-buggy.patch")).string(), 0,
                  "missing: the buggy patch of " + bug.id);
    d.buggy_patch = *buggy;
    d.common_patch = read_patch(project_dir, index, "common", nullptr).value_or(BugsCppFile{});
    d.split_patch = read_patch(project_dir, index, "split", nullptr).value_or(BugsCppFile{});
    d.fixed_patch = read_patch(project_dir, index, "fixed", nullptr).value_or(BugsCppFile{});
    d.extra_files = read_extra_files(project_dir / "extra" / four_digits(index));
    for (const DiffFile& file : changed) bug.files.push_back(fix_change(file));
    bug.bugscpp = std::move(d);
    bugs.push_back(std::move(bug));
  }
  return bugs;
}

}  // namespace

std::optional<std::string> bugscpp_command_line(std::string_view line) {
  std::string text(line);
  replace_all(text, "@DPP_PARALLEL_BUILD@", "{jobs}");
  // BugsC++ drops its remaining variables word by word (no compilation-database tool).
  std::istringstream words(text);
  std::string joined, word;
  while (words >> word)
    if (!(word.size() > 2 && word.starts_with("@DPP_") && word.ends_with("@")))
      joined += (joined.empty() ? "" : " ") + word;
  replace_all(joined, "/home/workspace", "{source}");
  const auto argv = shell_words(joined);
  if (!argv) return std::nullopt;
  if (argv->size() == 3 && ((*argv)[0] == "bash" || (*argv)[0] == "sh") && (*argv)[1] == "-c") return (*argv)[2];
  return joined;
}

std::vector<BugReport> import_bugscpp(const fs::path& dir) {
  std::error_code ec;
  const fs::path taxonomy = fs::is_directory(dir / "bugscpp" / "taxonomy", ec) ? dir / "bugscpp" / "taxonomy" : dir;
  if (!fs::is_directory(taxonomy, ec)) throw Error(dir.string(), 0, "not a directory");
  std::vector<fs::path> projects;
  for (const auto& entry : fs::directory_iterator(taxonomy))
    if (entry.is_directory() && fs::is_regular_file(entry.path() / "meta.json", ec)) {
      refuse_link(entry.path(), "a project folder");
      refuse_link(entry.path() / "meta.json", "a meta.json");
      projects.push_back(entry.path());
    }
  if (projects.empty())
    throw Error(dir.string(), 0, "no BugsC++ project here (expected bugscpp/taxonomy/PROJECT/meta.json or PROJECT/meta.json)");
  std::sort(projects.begin(), projects.end());
  std::vector<BugReport> bugs;
  for (const auto& project : projects)
    for (auto& bug : import_project(project)) bugs.push_back(std::move(bug));
  return bugs;
}

}  // namespace dlfl::eval
