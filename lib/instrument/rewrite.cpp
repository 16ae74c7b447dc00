// Applies probe plans to source text: inline insertions only, so every original line keeps
// its number, and the probe map that tells the collector which lines each probe covers.
#include "rewrite.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <optional>
#include <set>
#include <tuple>
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

namespace {

// A file's probes as (id relative to the file's first, line, column, function, space),
// sorted: equal signatures stand for the same sites.
using Signature = std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::string, ProbeSpace>>;

std::vector<LineColumn> distinct_lines(std::vector<LineColumn> lines) {
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end(), [](auto a, auto b) { return a.line == b.line; }), lines.end());
  return lines;
}

Signature planned_signature(const std::map<std::uint32_t, PlannedProbe>& probes) {
  Signature sig;
  std::uint32_t local = 0;
  for (const auto& [offset, probe] : probes) {
    for (const auto& l : distinct_lines(probe.lines)) sig.emplace_back(local, l.line, l.column, probe.function, probe.space);
    ++local;
  }
  std::sort(sig.begin(), sig.end());
  return sig;
}

// The previous map's files: name -> (first id, probe count, signature). A file whose ids
// do not form one range (a map of another layout) is left out: it is never kept.
struct PreviousFile {
  std::uint32_t first = 0, count = 0;
  Signature signature;
};

// Room for ids beyond `used`: the map's probe count, the same in every file's prologue
// (the runtime sizes its maps at a unit's first registration, before the other units of
// the program register). A quarter more, in pages, so that edits adding probes keep it
// until the count has grown by that much; then every file is rewritten once.
std::uint32_t capacity_for(std::uint32_t used) {
  const std::uint64_t want = std::uint64_t{used} + used / 4 + 64;
  return static_cast<std::uint32_t>(std::min<std::uint64_t>((want + 4095) / 4096 * 4096, UINT32_MAX));
}

std::map<std::string, PreviousFile> previous_files(const ProbeMap& previous) {
  std::vector<std::uint32_t> first(previous.files.size(), UINT32_MAX), last(previous.files.size(), 0);
  std::vector<std::set<std::uint32_t>> ids(previous.files.size());
  for (const auto& s : previous.sites) {
    first[s.file] = std::min(first[s.file], s.probe);
    last[s.file] = std::max(last[s.file], s.probe);
    ids[s.file].insert(s.probe);
  }
  std::map<std::string, PreviousFile> out;
  for (std::size_t f = 0; f < previous.files.size(); ++f)
    if (first[f] != UINT32_MAX && ids[f].size() == last[f] - first[f] + 1)
      out[previous.files[f]] = {first[f], last[f] - first[f] + 1, {}};
  for (const auto& s : previous.sites) {
    const auto it = out.find(previous.files[s.file]);
    if (it != out.end())
      it->second.signature.emplace_back(s.probe - it->second.first, s.line, s.column, previous.functions[s.function],
                                        s.space);
  }
  for (auto& [name, file] : out) std::sort(file.signature.begin(), file.signature.end());
  return out;
}

}  // namespace

AssignedIds build_probe_map(const PlanSet& plans, const std::filesystem::path& root, const ProbeMap* previous) {
  AssignedIds out;
  const auto& files = plans.files();
  // First ids: kept from `previous` where a file's sites did not change, else fresh.
  std::map<std::string, PreviousFile> before;
  if (previous) before = previous_files(*previous);
  std::vector<std::optional<std::uint32_t>> kept;
  for (const auto& [file, probes] : files) {
    const auto it = before.find(relative_to_root(file, root));
    const bool same = it != before.end() && it->second.count == probes.size() &&
                      it->second.signature == planned_signature(probes);
    kept.push_back(same ? std::optional<std::uint32_t>(it->second.first) : std::nullopt);
    out.kept_files += same;
  }
  // New ids go above every id of the previous map's sites.
  std::uint32_t next = 0;
  if (out.kept_files)
    for (const auto& site : previous->sites) next = std::max(next, site.probe + 1);
  std::size_t i = 0;
  for (const auto& [file, probes] : files) {
    if (kept[i]) {
      out.first_id.push_back(*kept[i]);
    } else {
      out.first_id.push_back(next);
      next += static_cast<std::uint32_t>(probes.size());
    }
    ++i;
  }

  ProbeMap& map = out.map;
  map.root = root.string();
  std::map<std::string, std::uint32_t> function_ids;
  i = 0;
  for (const auto& [file, probes] : files) {
    const auto file_index = static_cast<std::uint32_t>(map.files.size());
    map.files.push_back(relative_to_root(file, root));
    std::uint32_t id = out.first_id[i++];
    for (const auto& [offset, probe] : probes) {
      auto [it, inserted] = function_ids.try_emplace(probe.function, static_cast<std::uint32_t>(map.functions.size()));
      if (inserted) map.functions.push_back(probe.function);
      for (const auto& l : distinct_lines(probe.lines))
        map.sites.push_back({id, file_index, l.line, l.column, it->second, probe.space});
      ++id;
    }
  }
  std::sort(map.sites.begin(), map.sites.end(), [](const ProbeSite& a, const ProbeSite& b) {
    return std::tie(a.probe, a.file, a.line) < std::tie(b.probe, b.file, b.line);
  });
  out.probes = 0;
  for (const auto& [file, probes] : files) out.probes += static_cast<std::uint32_t>(probes.size());
  map.probe_count = out.kept_files && next <= previous->probe_count ? previous->probe_count : capacity_for(next);
  // A new count is a new layout of the runtime's maps: a new id.
  map.id = out.kept_files && map.probe_count == previous->probe_count ? previous->id : map.compute_id();
  return out;
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

std::vector<std::filesystem::path> write_instrumented_tree(const PlanSet& plans, const AssignedIds& ids,
                                                           const std::filesystem::path& root,
                                                           const std::filesystem::path& out_dir) {
  std::vector<std::filesystem::path> written;
  std::size_t i = 0;
  for (const auto& [file, probes] : plans.files()) {
    const std::filesystem::path relative = relative_to_root(file, root);
    // Never write outside out_dir: that could overwrite an original.
    if (relative.is_absolute()) throw Error(file, 0, "is outside the source root " + root.string());
    const std::filesystem::path target = out_dir / relative;
    std::filesystem::create_directories(target.parent_path());
    const std::string text = rewrite_source(read_file(file), file, probes, ids.first_id[i++], ids.map);
    written.push_back(target);
    std::error_code ec;
    if (std::filesystem::file_size(target, ec) == text.size() && !ec && read_file(target) == text) continue;
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) throw Error(target.string(), 0, "cannot write the instrumented file");
  }
  write_probe_map(ids.map, out_dir / kProbeMapFileName);
  return written;
}

}  // namespace dlfl::instrument::detail
