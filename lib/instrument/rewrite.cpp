// Applies probe plans to source text: inline insertions only, so every original line keeps
// its number, and the probe map that tells the collector which lines each probe covers.
#include "rewrite.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string_view>

#include "dlfl/error.h"

namespace dlfl::instrument::detail {
namespace {

std::string relative_to_root(const std::string& file, const std::filesystem::path& root) {
  const std::filesystem::path rel = std::filesystem::path(file).lexically_relative(root);
  if (rel.empty() || *rel.begin() == "..") return file;
  return rel.generic_string();
}

std::string probe_text(const PlannedProbe& p, std::uint32_t id) {
  const std::string store =
      p.macro_form ? "DLFL_RT_PROBE(" + std::to_string(id) + ")" : "__dlfl_map[" + std::to_string(id) + "].hit = 1";
  // A constant evaluation never reaches the store (which would make it ill-formed); at run
  // time the test folds away. `?:` rather than `if` or `||`: g++ (-Wtautological-compare)
  // and nvcc (#187-D) warn about those forms.
  if (p.guarded) return "(void)(__builtin_is_constant_evaluated() ? 0 : (" + store + ")); ";
  return store + "; ";
}

std::string c_string_literal(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path.string(), 0, "cannot read the source file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

ProbeMap build_probe_map(const PlanSet& plans, const std::filesystem::path& root) {
  ProbeMap map;
  map.root = root.string();
  std::map<std::string, std::uint32_t> function_ids;
  std::uint32_t id = 0;
  for (const auto& [file, probes] : plans.files()) {
    const auto file_index = static_cast<std::uint32_t>(map.files.size());
    map.files.push_back(relative_to_root(file, root));
    for (const auto& [offset, probe] : probes) {
      auto [it, inserted] = function_ids.try_emplace(probe.function, static_cast<std::uint32_t>(map.functions.size()));
      if (inserted) map.functions.push_back(probe.function);
      std::vector<LineColumn> lines = probe.lines;
      std::sort(lines.begin(), lines.end());
      lines.erase(std::unique(lines.begin(), lines.end(), [](auto a, auto b) { return a.line == b.line; }),
                  lines.end());
      for (const auto& l : lines) map.sites.push_back({id, file_index, l.line, l.column, it->second, probe.space});
      ++id;
    }
  }
  map.probe_count = id;
  map.id = map.compute_id();
  return map;
}

std::string rewrite_source(const std::string& original, const std::string& original_path,
                           const std::map<std::uint32_t, PlannedProbe>& probes, std::uint32_t first_id,
                           const ProbeMap& map) {
  // (offset, rank, text): at one offset closing braces come before probes, so the probe of
  // `x();` in `if (a) y();x();` lands after the `}` that closes y's braces.
  struct Insertion {
    std::uint32_t offset;
    int rank;
    std::string text;
  };
  std::vector<Insertion> insertions;
  std::uint32_t id = first_id;
  for (const auto& [offset, probe] : probes) {
    const std::string text = probe_text(probe, id++);
    if (probe.wrap) {
      insertions.push_back({offset, 1, "{ " + text});
      insertions.push_back({probe.close_offset, 0, " }"});
    } else {
      insertions.push_back({offset, 1, text});
    }
  }
  std::stable_sort(insertions.begin(), insertions.end(),
                   [](const Insertion& a, const Insertion& b) { return std::tie(a.offset, a.rank) < std::tie(b.offset, b.rank); });

  char map_id[32];
  std::snprintf(map_id, sizeof map_id, "0x%016llxull", static_cast<unsigned long long>(map.id));
  // A UTF-8 byte-order mark stays the first bytes of the file: compilers skip it only
  // there (elsewhere it is "an extended character not valid in an identifier").
  const std::string_view bom = "\xEF\xBB\xBF";
  const std::size_t head = std::string_view(original).starts_with(bom) ? bom.size() : 0;
  std::string out = original.substr(0, head) + "#define DLFL_RT_PROBE_COUNT " + std::to_string(map.probe_count) +
                    "\n#define DLFL_RT_MAP_ID " + map_id + "\n#include <dlfl_rt/probe.h>\n#line 1 " +
                    c_string_literal(original_path) + "\n";
  out.reserve(original.size() + out.size() + insertions.size() * 24);
  std::size_t copied = head;
  for (const auto& ins : insertions) {
    if (ins.offset > original.size() || ins.offset < head) throw Error(original_path, 0, "probe offset outside the file");
    out.append(original, copied, ins.offset - copied);
    out += ins.text;
    copied = ins.offset;
  }
  out.append(original, copied, std::string::npos);
  return out;
}

std::vector<std::filesystem::path> write_instrumented_tree(const PlanSet& plans, const ProbeMap& map,
                                                           const std::filesystem::path& root,
                                                           const std::filesystem::path& out_dir) {
  std::vector<std::filesystem::path> written;
  std::uint32_t first_id = 0;
  for (const auto& [file, probes] : plans.files()) {
    const std::filesystem::path relative = relative_to_root(file, root);
    // Never write outside out_dir: that could overwrite an original.
    if (relative.is_absolute()) throw Error(file, 0, "is outside the source root " + root.string());
    const std::filesystem::path target = out_dir / relative;
    std::filesystem::create_directories(target.parent_path());
    const std::string text = rewrite_source(read_file(file), file, probes, first_id, map);
    first_id += static_cast<std::uint32_t>(probes.size());
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw Error(target.string(), 0, "cannot write the instrumented file");
    written.push_back(target);
  }
  write_probe_map(map, out_dir / kProbeMapFileName);
  return written;
}

}  // namespace dlfl::instrument::detail
