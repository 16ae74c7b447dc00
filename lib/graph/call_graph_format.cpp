// The call graph file: tab-separated function and call records (call_graph_format.h).
#include "dlfl/graph/call_graph_format.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <tuple>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dlfl/error.h"
#include "dlfl/io/atomic_file.h"

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
  CallKind kind;
  std::size_t line;
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

CallGraph read_call_graph(const std::filesystem::path& path) {
  const std::string where = path.string();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(where, 0, "cannot read the call graph file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);

  CallGraph graph;
  std::vector<PendingCall> calls;
  bool header = false;
  std::size_t number = 0, pos = 0;
  while (pos < text.size()) {
    auto end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
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
    if (fields[0] == "function") {
      if (fields.size() != 4 && !(fields.size() == 5 && fields[4] == "unknown-calls"))
        throw Error(where, number, "malformed function record (expected function<TAB>NAME<TAB>FILE<TAB>LINE)");
      std::uint32_t at = 0;
      const auto [p, ec] = std::from_chars(fields[3].data(), fields[3].data() + fields[3].size(), at);
      if (!valid_name(fields[1])) throw Error(where, number, "function record without a name");
      if (ec != std::errc() || p != fields[3].data() + fields[3].size())
        throw Error(where, number, "function line '" + std::string(fields[3]) + "' is not a number");
      const FunctionVertex v = graph.add_function(fields[1], fields[2], at);
      if (fields.size() == 5) graph.mark_calls_unknown(v);
    } else if (fields[0] == "call") {
      if (fields.size() != 4) throw Error(where, number, "malformed call record (expected call<TAB>CALLER<TAB>CALLEE<TAB>KIND)");
      const auto kind = parse_call_kind(fields[3]);
      if (!kind) throw Error(where, number, "unknown call kind '" + std::string(fields[3]) + "' (direct, virtual, launch)");
      calls.push_back({fields[1], fields[2], *kind, number});
    } else {
      throw Error(where, number, "unknown record '" + std::string(fields[0]) + "'");
    }
  }
  if (!header) throw Error(where, 0, "empty file: not a dlfl call graph");
  for (const PendingCall& call : calls) {
    const auto caller = graph.find(call.caller);
    if (!caller) throw Error(where, call.line, "call from unknown function '" + std::string(call.caller) + "' (no function record)");
    const auto callee = graph.find(call.callee);
    if (!callee) throw Error(where, call.line, "call to unknown function '" + std::string(call.callee) + "' (no function record)");
    graph.add_call(*caller, *callee, call.kind);
  }
  return graph;
}

}  // namespace dlfl::graph
