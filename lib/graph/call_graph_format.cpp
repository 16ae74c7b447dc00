// The call graph file: tab-separated function and call records (call_graph_format.h).
#include "dlfl/graph/call_graph_format.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstring>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "dlfl/error.h"
#include "dlfl/files/atomic_file.h"
#include "dlfl/files/text_file.h"

namespace dlfl::graph {
namespace {

constexpr std::string_view kMagic = "dlfl-call-graph";

// At most kMaxFields fields; a line with more reports kMaxFields + 1 (never a valid record).
constexpr std::size_t kMaxFields = 5;
struct Fields {
  std::array<std::string_view, kMaxFields + 1> at;
  std::size_t count = 0;
  std::size_t size() const noexcept { return count; }
  std::string_view operator[](std::size_t i) const noexcept { return at[i]; }
};

// No allocation per line: a 10^5-function graph has half a million lines.
Fields split_tabs(std::string_view line) {
  Fields fields;
  std::size_t start = 0;
  while (true) {
    const auto tab = line.find('\t', start);
    fields.at[fields.count++] = line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start);
    if (tab == std::string_view::npos || fields.count == kMaxFields + 1) return fields;
    start = tab + 1;
  }
}

bool valid_name(std::string_view name) {
  return !name.empty() && name.find_first_of("\t\r\n") == std::string_view::npos;
}

struct PendingCall {
  std::string_view caller, callee;  // into the file's text
  std::size_t line;
  std::size_t slot;  // its place among the calls
};

// Function name -> number: open addressing over the names column (no node per name, no
// string copy per lookup). Half a million lookups for a 10^5-function graph.
class NameTable {
 public:
  explicit NameTable(std::size_t expected) { rehash(std::bit_ceil(std::max<std::size_t>(expected * 2, 64))); }

  std::optional<std::uint32_t> find(std::string_view name, const StringColumn& names) const {
    for (std::size_t i = hash(name) & mask_;; i = (i + 1) & mask_) {
      const std::uint32_t slot = slots_[i];
      if (slot == kEmpty) return std::nullopt;
      if (names[slot] == name) return slot;
    }
  }
  // The name's number, appending it to `names` when new.
  std::pair<std::uint32_t, bool> insert(std::string_view name, StringColumn& names) {
    if (const auto found = find(name, names)) return {*found, false};
    const auto number = static_cast<std::uint32_t>(names.size());
    names.push_back(name);
    if ((names.size() + 1) * 2 > slots_.size()) {
      rehash(slots_.size() * 2, names);
    } else {
      place(name, number);
    }
    return {number, true};
  }

 private:
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
  static std::size_t hash(std::string_view s) noexcept { return std::hash<std::string_view>{}(s); }
  void place(std::string_view name, std::uint32_t number) {
    std::size_t i = hash(name) & mask_;
    while (slots_[i] != kEmpty) i = (i + 1) & mask_;
    slots_[i] = number;
  }
  void rehash(std::size_t size, const StringColumn& names = {}) {
    slots_.assign(size, kEmpty);
    mask_ = size - 1;
    for (std::size_t f = 0; f < names.size(); ++f) place(names[f], static_cast<std::uint32_t>(f));
  }
  std::vector<std::uint32_t> slots_;
  std::size_t mask_ = 0;
};

}  // namespace

void write_call_graph(const CallGraph& graph, const std::filesystem::path& path) {
  io::AtomicFile file(path);
  std::ostream& out = file.stream();
  out << kMagic << "\t1\n";
  // Sorted by name, so the same program gives the same file whatever order its
  // translation units were parsed in.
  const auto& g = graph.storage();
  std::vector<FunctionVertex> order(boost::vertices(g).first, boost::vertices(g).second);
  std::sort(order.begin(), order.end(), [&](FunctionVertex a, FunctionVertex b) { return g[a].name < g[b].name; });
  for (const FunctionVertex v : order) {
    const FunctionNode& f = g[v];
    if (!valid_name(f.name)) throw Error(path.string(), 0, "function name '" + f.name + "' cannot be written");
    out << "function\t" << f.name << '\t' << f.file << '\t' << f.line;
    if (f.calls_unknown) out << "\tunknown-calls";
    out << '\n';
  }
  std::vector<std::tuple<std::string_view, std::string_view, CallKind>> calls;
  for (auto [e, end] = boost::edges(g); e != end; ++e)
    calls.emplace_back(g[boost::source(*e, g)].name, g[boost::target(*e, g)].name, g[*e].kind);
  std::sort(calls.begin(), calls.end());
  for (const auto& [caller, callee, kind] : calls)
    out << "call\t" << caller << '\t' << callee << '\t' << call_kind_name(kind) << '\n';
  file.commit();
}

CompactCallGraph parse_call_graph(std::string_view text, const std::string& where) {
  text = io::without_bom(text);
  CompactCallGraph graph;
  // Records are ~25-35 bytes: reserve for the functions and calls a file this size holds.
  NameTable index(text.size() / 64);
  std::vector<CallRecord> calls;
  calls.reserve(text.size() / 40);
  std::vector<PendingCall> unresolved;  // calls naming a function whose record comes later
  std::vector<std::string_view> files;  // into `text`
  bool header = false;
  std::size_t number = 0, pos = 0;
  while (pos < text.size()) {
    const char* nl = static_cast<const char*>(std::memchr(text.data() + pos, '\n', text.size() - pos));
    const std::size_t end = nl ? static_cast<std::size_t>(nl - text.data()) : text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const auto fields = split_tabs(line);
    if (!header) {
      if (fields.size() != 2 || fields[0] != kMagic)
        throw Error(where, number, "not a dlfl call graph (expected 'dlfl-call-graph<TAB>1')");
      if (fields[1] != "1") throw Error(where, number, "unsupported call graph version '" + std::string(fields[1]) + "'");
      header = true;
      continue;
    }
    if (fields[0] == "call") {
      if (fields.size() != 4) throw Error(where, number, "malformed call record (expected call<TAB>CALLER<TAB>CALLEE<TAB>KIND)");
      const auto kind = parse_call_kind(fields[3]);
      if (!kind) throw Error(where, number, "unknown call kind '" + std::string(fields[3]) + "' (direct, virtual, launch)");
      const auto caller = index.find(fields[1], graph.names), callee = index.find(fields[2], graph.names);
      if (!caller || !callee) unresolved.push_back({fields[1], fields[2], number, calls.size()});
      // An unresolved call keeps its place (a repeated pair keeps its first kind).
      calls.push_back({caller.value_or(0), callee.value_or(0), *kind});
    } else if (fields[0] == "function") {
      if (fields.size() != 4 && !(fields.size() == 5 && fields[4] == "unknown-calls"))
        throw Error(where, number, "malformed function record (expected function<TAB>NAME<TAB>FILE<TAB>LINE)");
      std::uint32_t at = 0;
      const auto [p, ec] = std::from_chars(fields[3].data(), fields[3].data() + fields[3].size(), at);
      if (!valid_name(fields[1])) throw Error(where, number, "function record without a name");
      if (ec != std::errc() || p != fields[3].data() + fields[3].size())
        throw Error(where, number, "function line '" + std::string(fields[3]) + "' is not a number");
      const auto [f, added] = index.insert(fields[1], graph.names);
      if (added) {
        files.push_back(fields[2]);
        graph.lines.push_back(at);
        graph.calls_unknown.push_back(0);
      } else if (!fields[2].empty() && files[f].empty()) {
        // A repeated record fills in a file and line that were unknown (CallGraph::add_function).
        files[f] = fields[2];
        graph.lines[f] = at;
      }
      if (fields.size() == 5) graph.calls_unknown[f] = 1;
    } else {
      throw Error(where, number, "unknown record '" + std::string(fields[0]) + "'");
    }
  }
  if (!header) throw Error(where, 0, "empty file: not a dlfl call graph");
  for (const PendingCall& call : unresolved) {
    const auto caller = index.find(call.caller, graph.names);
    if (!caller) throw Error(where, call.line, "call from unknown function '" + std::string(call.caller) + "' (no function record)");
    const auto callee = index.find(call.callee, graph.names);
    if (!callee) throw Error(where, call.line, "call to unknown function '" + std::string(call.callee) + "' (no function record)");
    calls[call.slot].caller = *caller;
    calls[call.slot].callee = *callee;
  }
  for (const std::string_view file : files) graph.files.push_back(file);
  assign_calls(graph, calls);
  return graph;
}

std::string read_call_graph_text(const std::filesystem::path& path) {
  return io::read_file_bytes(path, kMaxCallGraphBytes, "call graph", io::kMaxFieldBytes);
}

CallGraph read_call_graph(const std::filesystem::path& path) {
  return expand_call_graph(parse_call_graph(read_call_graph_text(path), path.string()));
}

}  // namespace dlfl::graph
