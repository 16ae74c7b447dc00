// Reads dlfl's ranking JSON back: {"formulas": [{"formula", "elements": [...]}]}.
#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>

#include "dlfl/error.h"
#include "dlfl/files/json_depth.h"
#include "ranking_reader_text.h"

namespace dlfl::io::detail {
namespace {

using nlohmann::json;

// 1-based line holding byte `offset` of `text`.
std::size_t line_at(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

// The line on which each element object starts, per formula: a scan of the document's
// nesting (root { formulas [ formula { elements [ element {) so that a bad element is
// reported by line, as for the CSV formats. nlohmann's DOM keeps no positions. A document
// shaped otherwise gives lists that do not line up; messages then fall back to 0 (none).
std::vector<std::vector<std::size_t>> element_lines(std::string_view text) {
  std::vector<std::vector<std::size_t>> lines;
  std::size_t depth = 0, line = 1;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (c == '\n') ++line;
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
      if (c == '{' && depth == 3) lines.emplace_back();
      if (c == '{' && depth == 5 && !lines.empty()) lines.back().push_back(line);
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return lines;
}

// A string member, or "" when absent or null. Throws for another type.
std::string string_member(const json& object, const char* name, const std::string& source,
                          std::size_t line, const std::string& where) {
  const auto it = object.find(name);
  if (it == object.end() || it->is_null()) return {};
  if (!it->is_string()) throw Error(source, line, where + ": '" + name + "' is not a string");
  return it->get<std::string>();
}

// A line member: null or absent = 0, else a positive integer that fits 32 bits.
std::uint32_t line_member(const json& object, const char* name, const std::string& source,
                          std::size_t line, const std::string& where) {
  const auto it = object.find(name);
  if (it == object.end() || it->is_null()) return 0;
  if (!it->is_number_unsigned() || it->get<std::uint64_t>() == 0 ||
      it->get<std::uint64_t>() > std::numeric_limits<std::uint32_t>::max())
    throw Error(source, line, where + ": '" + name + "' is not a positive line number");
  return static_cast<std::uint32_t>(it->get<std::uint64_t>());
}

ScoredElement read_element(const json& item, const std::string& source, std::size_t line,
                                 const std::string& where) {
  if (!item.is_object()) throw Error(source, line, where + " is not an object");
  const std::string name = string_member(item, "element", source, line, where);
  if (name.empty()) throw Error(source, line, where + ": no element name");
  const std::string kind = string_member(item, "kind", source, line, where);
  if (!kind.empty() && kind != "code" && kind != "extrinsic")
    throw Error(source, line, where + ": kind '" + excerpt(kind) + "' is neither code nor extrinsic");
  ScoredElement e;
  if (kind == "extrinsic") {
    e.key = name;
  } else if (item.contains("file")) {
    e.key = name;
    e.file = string_member(item, "file", source, line, where);
    e.function = string_member(item, "function", source, line, where);
    e.first_line = line_member(item, "line", source, line, where);
    e.last_line = line_member(item, "last_line", source, line, where);
    if (e.last_line != 0 && e.last_line < e.first_line)
      throw Error(source, line, where + ": last_line is before line");
  } else {
    e = element_from_name(name);
  }
  const auto score = item.find("score");
  if (score == item.end()) throw Error(source, line, where + ": no score");
  // NaN has no JSON spelling; nlohmann writes it as null, so null is an unscored element.
  if (score->is_null()) e.score = std::numeric_limits<double>::quiet_NaN();
  else if (score->is_number()) e.score = score->get<double>();
  else throw Error(source, line, where + ": score is not a number");
  // ef/ep (dlfl rank writes them): an element no test ran is not executed.
  const auto ef = item.find("ef"), ep = item.find("ep");
  if (ef != item.end() && ep != item.end()) {
    if (!ef->is_number() || !ep->is_number() || ef->get<double>() < 0 || ep->get<double>() < 0)
      throw Error(source, line, where + ": ef and ep must be non-negative numbers");
    e.executed = ef->get<double>() + ep->get<double>() > 0;
  }
  return e;
}

}  // namespace

std::vector<ReadRanking> parse_json_rankings(std::string_view text, const std::string& source) {
  json doc;
  io::check_json_depth(text, source);
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    // what() is "[json.exception.parse_error.101] parse error at line L, column C: ...".
    std::string what = e.what();
    if (const auto at = what.find(": "); at != std::string::npos) what = what.substr(at + 2);
    throw Error(source, line_at(text, e.byte == 0 ? 0 : e.byte - 1), "invalid JSON: " + what);
  } catch (const json::exception& e) {
    // out_of_range.406: a number beyond a double, such as "score": 1e400.
    throw Error(source, 0, std::string("invalid JSON: ") + e.what());
  }
  if (!doc.is_object() || !doc.contains("formulas") || !doc["formulas"].is_array())
    throw Error(source, 1, "expected an object with a 'formulas' array");
  const auto lines = element_lines(text);
  std::vector<ReadRanking> rankings;
  const json& formulas = doc["formulas"];
  for (std::size_t f = 0; f < formulas.size(); ++f) {
    const json& entry = formulas[f];
    const std::string where = "formulas[" + std::to_string(f) + "]";
    if (!entry.is_object() || !entry.contains("elements") || !entry["elements"].is_array())
      throw Error(source, 0, where + " is not an object with an 'elements' array");
    ReadRanking ranking;
    ranking.formula = string_member(entry, "formula", source, 0, where);
    const json& elements = entry["elements"];
    const bool have_lines = lines.size() == formulas.size() && lines[f].size() == elements.size();
    ranking.elements.reserve(elements.size());
    for (std::size_t i = 0; i < elements.size(); ++i)
      ranking.elements.push_back(read_element(elements[i], source, have_lines ? lines[f][i] : 0,
                                               where + ".elements[" + std::to_string(i) + "]"));
    rankings.push_back(std::move(ranking));
  }
  return rankings;
}

}  // namespace dlfl::io::detail
