// Patches (unified diffs) and the JSON Lines ground truth of a set of mutants.
#include "dlfl/lab/mutate/mutant_output.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <type_traits>

#include "dlfl/error.h"
#include "dlfl/files/atomic_file.h"
#include "dlfl/files/json_depth.h"
#include "dlfl/files/text_file.h"

namespace dlfl::mutate {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::size_t kContext = 3;

// Lines with their '\n' (the last one may lack it).
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::size_t len = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(0, len));
    text.remove_prefix(len);
  }
  return lines;
}

void emit_line(std::string& out, char tag, std::string_view line) {
  out += tag;
  out += line;
  if (!line.ends_with('\n')) out += "\n\\ No newline at end of file\n";
}

// "-start,count" in unified-diff convention: a hunk of 0 lines names the line before it.
std::string range(std::size_t first, std::size_t count) {
  return std::to_string(count == 0 ? first : first + 1) + "," + std::to_string(count);
}

template <typename T>
T member(const json& j, const char* name, const std::string& source, std::size_t line) {
  const auto it = j.find(name);
  if (it == j.end()) throw Error(source, line, std::string("missing \"") + name + "\"");
  if constexpr (std::is_integral_v<T>) {
    // nlohmann's get<unsigned>() casts whatever number it holds: 3e36 is undefined
    // behaviour (found by fuzz/mutant_manifest_fuzzer), 4294967297 would become 1.
    if (!it->is_number_unsigned() || it->template get<std::uint64_t>() > std::numeric_limits<T>::max())
      throw Error(source, line, std::string("\"") + name + "\" is not a whole number in 0.." +
                                    std::to_string(std::numeric_limits<T>::max()));
    return static_cast<T>(it->template get<std::uint64_t>());
  }
  try {
    return it->get<T>();
  } catch (const json::exception&) {
    throw Error(source, line, std::string("\"") + name + "\" has the wrong type");
  }
}

}  // namespace

std::string unified_diff(const std::string& original_text, const Mutant& mutant) {
  const std::string mutated_text = apply_mutant(original_text, mutant);
  const auto old_lines = split_lines(original_text);
  const auto new_lines = split_lines(mutated_text);
  // One edit makes one changed run of lines: the rest is common prefix and suffix.
  std::size_t prefix = 0;
  while (prefix < old_lines.size() && prefix < new_lines.size() && old_lines[prefix] == new_lines[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < old_lines.size() - prefix && suffix < new_lines.size() - prefix &&
         old_lines[old_lines.size() - 1 - suffix] == new_lines[new_lines.size() - 1 - suffix])
    ++suffix;
  const std::size_t first = prefix >= kContext ? prefix - kContext : 0;
  const std::size_t old_end = std::min(old_lines.size(), old_lines.size() - suffix + kContext);
  const std::size_t new_end = std::min(new_lines.size(), new_lines.size() - suffix + kContext);

  std::string out = "--- a/" + mutant.file + "\n+++ b/" + mutant.file + "\n";
  out += "@@ -" + range(first, old_end - first) + " +" + range(first, new_end - first) + " @@\n";
  for (std::size_t i = first; i < prefix; ++i) emit_line(out, ' ', old_lines[i]);
  for (std::size_t i = prefix; i < old_lines.size() - suffix; ++i) emit_line(out, '-', old_lines[i]);
  for (std::size_t i = prefix; i < new_lines.size() - suffix; ++i) emit_line(out, '+', new_lines[i]);
  for (std::size_t i = old_lines.size() - suffix; i < old_end; ++i) emit_line(out, ' ', old_lines[i]);
  return out;
}

std::string manifest_line(const Mutant& m) {
  json lines = json::array();
  for (std::uint32_t l = m.line; l <= m.end_line; ++l) lines.push_back(l);
  const json j = {{"id", m.id},
                  {"file", m.file},
                  {"line", m.line},
                  {"end_line", m.end_line},
                  {"lines", lines},
                  {"column", m.column},
                  {"offset", m.offset},
                  {"operator", m.op},
                  {"bug_type", to_string(m.bug_type)},
                  {"group", is_dl(m.bug_type) ? "dl" : "traditional"},
                  {"function", m.function},
                  {"original", m.original},
                  {"replacement", m.replacement},
                  {"patch", m.id + ".patch"}};
  // nlohmann keeps object keys sorted; that order is as good as any and stable.
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

Mutant parse_manifest_line(std::string_view line, const std::string& source, std::size_t number) {
  json j;
  io::check_json_depth(line, source, number);
  try {
    j = json::parse(line);
  } catch (const json::exception& e) {  // parse_error; out_of_range for 1e400
    throw Error(source, number, std::string("not a JSON object: ") + e.what());
  }
  if (!j.is_object()) throw Error(source, number, "not a JSON object");
  Mutant m;
  m.id = member<std::string>(j, "id", source, number);
  m.file = member<std::string>(j, "file", source, number);
  m.line = member<std::uint32_t>(j, "line", source, number);
  m.end_line = member<std::uint32_t>(j, "end_line", source, number);
  m.column = member<std::uint32_t>(j, "column", source, number);
  m.offset = member<std::uint64_t>(j, "offset", source, number);
  m.op = member<std::string>(j, "operator", source, number);
  const auto type = parse_bug_type(member<std::string>(j, "bug_type", source, number));
  if (!type) throw Error(source, number, "unknown \"bug_type\"");
  m.bug_type = *type;
  m.function = member<std::string>(j, "function", source, number);
  m.original = member<std::string>(j, "original", source, number);
  m.replacement = member<std::string>(j, "replacement", source, number);
  if (m.line == 0 || m.end_line < m.line) throw Error(source, number, "bad \"line\"/\"end_line\"");
  // An edit is an expression or a few statements; the ground truth lists every line of it,
  // so a tiny line must not declare millions (found by fuzz/mutant_manifest_fuzzer).
  constexpr std::uint32_t kMaxEditLines = 100000;
  if (m.end_line - m.line >= kMaxEditLines)
    throw Error(source, number,
                "\"line\" " + std::to_string(m.line) + " to \"end_line\" " + std::to_string(m.end_line) +
                    " is more than the limit of " + std::to_string(kMaxEditLines) + " lines for one mutant");
  return m;
}

std::vector<Mutant> read_manifest(const fs::path& path) {
  io::TextFileLines lines(path);  // regular files only, lines bounded
  std::vector<Mutant> out;
  for (std::string_view line; lines.next(line);)
    if (line.find_first_not_of(" \t\r") != std::string_view::npos)
      out.push_back(parse_manifest_line(line, lines.name(), lines.line_number()));
  return out;
}

void write_mutants(const fs::path& out_dir, const fs::path& root, const std::vector<Mutant>& mutants) {
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) throw Error(out_dir.string(), 0, "cannot create the output directory: " + ec.message());
  std::map<std::string, std::string> sources;  // each file read once
  for (const auto& m : mutants) {
    auto it = sources.find(m.file);
    if (it == sources.end()) it = sources.emplace(m.file, io::read_file_bytes(root / m.file)).first;
    io::AtomicFile patch(out_dir / (m.id + ".patch"));
    patch.stream() << unified_diff(it->second, m);
    patch.commit();
  }
  io::AtomicFile manifest(out_dir / kManifestFileName);
  for (const auto& m : mutants) manifest.stream() << manifest_line(m) << '\n';
  manifest.commit();
}

}  // namespace dlfl::mutate
