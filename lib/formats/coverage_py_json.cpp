// Reads coverage.py's JSON report with contexts (see coverage_py_json.h).
#include "dlfl/formats/coverage_py_json.h"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "dlfl/error.h"
#include "dlfl/files/json_depth.h"
#include "dlfl/files/text_file.h"

namespace dlfl::io {
namespace {

using nlohmann::json;

constexpr const char* kHowToGetContexts =
    "run the tests with per-test contexts (pytest -p dlfl_pytest --dlfl-cov PKG, or pytest-cov's "
    "--cov-context=test) and write the report with `coverage json --show-contexts`";

std::size_t line_at(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

// Line 0 stands for an empty module coverage.py saw imported; callers drop it.
std::uint32_t line_number(const json& value, const std::string& source, const std::string& where) {
  if (!value.is_number_integer() || value.get<std::int64_t>() < 0 || value.get<std::int64_t>() > 0xffffffffLL)
    throw Error(source, 0, where + ": " + value.dump() + " is not a line number");
  return static_cast<std::uint32_t>(value.get<std::int64_t>());
}

// A member array of line numbers, [] when absent.
std::vector<std::uint32_t> line_list(const json& file, const char* member, const std::string& source,
                                     const std::string& path) {
  std::vector<std::uint32_t> lines;
  const auto it = file.find(member);
  if (it == file.end()) return lines;
  if (!it->is_array()) throw Error(source, 0, path + ": \"" + member + "\" is not an array");
  for (const auto& v : *it)
    if (const std::uint32_t line = line_number(v, source, path + " " + member)) lines.push_back(line);
  return lines;
}

class ContextTable {
 public:
  explicit ContextTable(std::vector<std::string>& names) : names_(names) {}
  // The id of the test a context stands for; -1 for the empty context.
  long id(std::string_view context) {
    const std::string_view test = coverage_py_test_name(context);
    if (test.empty()) return -1;
    const auto [it, inserted] = ids_.try_emplace(std::string(test), names_.size());
    if (inserted) names_.emplace_back(test);
    return static_cast<long>(it->second);
  }

 private:
  std::vector<std::string>& names_;
  std::unordered_map<std::string, std::size_t> ids_;
};

CoveragePyFile read_file(const std::string& path, const json& file, ContextTable& contexts, const std::string& source) {
  if (!file.is_object()) throw Error(source, 0, path + ": the file's entry is not an object");
  CoveragePyFile out;
  out.path = path;
  out.statements = line_list(file, "executed_lines", source, path);
  const auto missing = line_list(file, "missing_lines", source, path);
  out.statements.insert(out.statements.end(), missing.begin(), missing.end());
  std::sort(out.statements.begin(), out.statements.end());
  out.statements.erase(std::unique(out.statements.begin(), out.statements.end()), out.statements.end());

  const auto ctx = file.find("contexts");
  if (ctx == file.end() || !ctx->is_object())
    throw Error(source, 0, path + ": has no \"contexts\" (per-test coverage): " + kHowToGetContexts);
  for (const auto& [line_text, names] : ctx->items()) {
    std::uint32_t line = 0;
    const auto parsed = std::from_chars(line_text.data(), line_text.data() + line_text.size(), line);
    if (parsed.ec != std::errc() || parsed.ptr != line_text.data() + line_text.size())
      throw Error(source, 0, path + ": context key \"" + line_text + "\" is not a line number");
    if (line == 0) continue;
    if (!names.is_array()) throw Error(source, 0, path + ":" + line_text + ": the contexts are not an array");
    CoveragePyLine covered{line, {}};
    for (const auto& name : names) {
      if (!name.is_string()) throw Error(source, 0, path + ":" + line_text + ": a context is not a string");
      const long id = contexts.id(name.get_ref<const std::string&>());
      if (id >= 0) covered.contexts.push_back(static_cast<std::uint32_t>(id));
    }
    std::sort(covered.contexts.begin(), covered.contexts.end());
    covered.contexts.erase(std::unique(covered.contexts.begin(), covered.contexts.end()), covered.contexts.end());
    if (!covered.contexts.empty()) out.covered.push_back(std::move(covered));
  }
  std::sort(out.covered.begin(), out.covered.end(), [](const auto& a, const auto& b) { return a.line < b.line; });

  // coverage.py >= 7.5: {"functions": {"Class.method": {"executed_lines": [...], "missing_lines": [...]}}};
  // "" is the module level.
  const auto functions = file.find("functions");
  if (functions != file.end() && functions->is_object())
    for (const auto& [name, entry] : functions->items()) {
      if (name.empty() || !entry.is_object()) continue;
      for (const char* member : {"executed_lines", "missing_lines"})
        for (const std::uint32_t line : line_list(entry, member, source, path + " " + name))
          out.function_of_line.emplace(line, name);
    }
  return out;
}

}  // namespace

std::string_view coverage_py_test_name(std::string_view context) {
  for (const std::string_view phase : {"|run", "|setup", "|teardown"})
    if (context.size() > phase.size() && context.ends_with(phase)) return context.substr(0, context.size() - phase.size());
  return context;
}

CoveragePyData parse_coverage_py_json(std::string_view text, const std::string& source) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a BOM some tools write
  json doc;
  check_json_depth(text, source);
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    if (const auto pos = what.find("syntax error"); pos != std::string::npos) what = what.substr(pos);
    throw Error(source, line_at(text, e.byte ? e.byte - 1 : 0), "not JSON: " + what);
  } catch (const json::exception& e) {  // out_of_range: a number beyond a double
    throw Error(source, 0, std::string("invalid JSON: ") + e.what());
  }
  if (!doc.is_object() || !doc.contains("files") || !doc["files"].is_object() || !doc.contains("meta"))
    throw Error(source, 0, "is not a coverage.py JSON report (no \"meta\" and \"files\" objects)");
  CoveragePyData data;
  const json& meta = doc["meta"];
  if (meta.is_object() && meta.contains("version") && meta["version"].is_string()) data.version = meta["version"];
  // A boolean; anything else (`"show_contexts": 0E+1`) is not one (found by
  // fuzz/coverage_py_fuzzer: value() threw nlohmann's type_error, exit 1).
  const bool show_contexts = meta.is_object() && meta.contains("show_contexts") && meta["show_contexts"].is_boolean() &&
                             meta["show_contexts"].get<bool>();
  if (!show_contexts)
    throw Error(source, 0, std::string("has no per-test contexts (written without --show-contexts): ") +
                               kHowToGetContexts);
  ContextTable contexts(data.contexts);
  try {  // any other member of the wrong type is bad input too, not nlohmann's exception
    for (const auto& [path, file] : doc["files"].items()) data.files.push_back(read_file(path, file, contexts, source));
  } catch (const json::exception& e) {
    throw Error(source, 0, std::string("is not a coverage.py JSON report: ") + e.what());
  }
  if (data.contexts.empty() && !data.files.empty())
    throw Error(source, 0, std::string("has only the empty context: coverage ran without per-test contexts; ") +
                               kHowToGetContexts);
  return data;
}

CoveragePyData read_coverage_py_json(const std::filesystem::path& path) {
  return parse_coverage_py_json(read_text_file(path, kMaxCoveragePyJsonBytes, "coverage.py JSON report"), path.string());
}

}  // namespace dlfl::io
